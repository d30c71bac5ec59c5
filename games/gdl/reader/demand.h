#pragma once
// Stage: the reader (KIF text to checked rules, with the rewritings).
// Unsafe rules bound by their callers' demand: the last of read_description's rewritings.
//
// Some sheets state a relation for "any" value, as a Prolog program would and as ggp-base's
// prover (top-down) reads it: (<= (sum ?x 0 ?x) (succ 0 1)) in colonelBlotto, (<= (min ?a ?a ?a)
// (succ 0 1)) in attritionWar, (<= (open ?i) (x ?x) (y ?y) (not (true (cell ?i ?x ?y snake))))
// in snakeParallel. GDL calls such a rule unsafe (?x occurs in no positive body literal), and a
// bottom-up reasoner cannot enumerate "any". But every place that reads the relation binds the
// argument: the rule's facts matter only at the values its readers ask for. So the rule gets
// one more literal, (REL_demand_LINE_N ?x ..), a new relation of those values, defined by one
// rule per reading place: at (sum ?x1 ?x2 ?s1) in (<= (legal white ..) (index ?x1) ..) it is
// (<= (sum_demand_333_1 ?x1) (index ?x1)). A reader whose own literals do not bind the value
// passes the question on to the readers of its head (a tuple of the values it needs), as
// sudoku's exactlyOne does for exactlyFirst. The values asked for are a superset of those a
// top-down prover would ask for (literals that bind them are kept, filters dropped), so the
// sheet means what it did; a literal that depends on the rewritten relation itself is never
// used to bind, so that the demand does not wait on the facts it enables.
//
// When some unsafe rule cannot be bound so (a keyword's head such as (next ..), a variable only
// under not and not in the head, a reader that binds the value nowhere, or more than
// kMaxDemandRules new rules), nothing is rewritten and the validator refuses the sheet by that
// rule, as before.

#include <optional>
#include <vector>

#include "games/gdl/reader/description.h"

namespace arena::gdl {

inline constexpr std::size_t kMaxDemandRules = 4096;

// Binds every unsafe rule of `d` by its readers' demand. Returns the rules as they were when it
// rewrote them (so that a refusal can name the sheet's own rule), nullopt when it did nothing.
std::optional<std::vector<Rule>> bind_unsafe_rules_by_demand(Description& d);

}  // namespace arena::gdl
