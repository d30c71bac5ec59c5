#pragma once
// Stage: the reader (KIF text to checked rules, with the rewritings).
// GDL's restrictions checked on a parsed description (the second half of read_description()):
// keyword arities and places, fixed arities of relations and functions, safety, stratified
// negation, the recursion restriction, keyword dependencies, at least one role. The first
// violation is returned as "SOURCE:LINE: rule RULE: what is wrong (restriction)".
// The recursion restriction looks at the cycles without the description's demand relations
// (Description::demand_relations, made by demand.h), which project facts and make no terms.

#include <unordered_set>
#include <vector>

#include "games/core/expected.h"
#include "games/gdl/reader/description.h"

namespace arena::gdl {

Expected<void> validate_description(const Description& description);

// The strongly connected components of a graph given as each node's successors (Tarjan's
// algorithm, without recursion: hostile sheets chain many relations). Each node's component;
// components are numbered in reverse topological order (a component's successors have smaller
// numbers), and `count` gets how many there are.
std::vector<int> strongly_connected_components(const std::vector<std::vector<int>>& edges,
                                               int& count);

// The variables of the rule that break safety: those in its head, under not or in distinct
// that some choice of its or disjuncts binds in no positive literal. In the order they occur.
std::vector<Symbol> unsafe_variables(const Rule& rule);

// The variables that every choice of the rule's or disjuncts binds in a positive literal.
std::unordered_set<Symbol> always_bound_variables(const Rule& rule);

}  // namespace arena::gdl
