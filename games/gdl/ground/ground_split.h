#pragma once
// Stage: grounding. Projections and variable elimination for the compiled reasoner's grounding
// (ground_split.cpp).

#include <vector>

#include "games/gdl/ground/ground_join.h"

namespace arena::gdl::detail {

// Projects out the variables a rule's head does not need: the body literals linked by such
// variables become an auxiliary relation over the head variables they touch. The frame rule
//   next(cell ?x ?y ?p) <= does(?r, move(?x1 ?y1 ?x2 ?y2)), true(cell ?x ?y ?p),
//                          different(?x ?y ?x1 ?y1), different(?x ?y ?x2 ?y2)
// becomes next(cell ?x ?y ?p) <= true(cell ?x ?y ?p), aux(?x ?y) and
// aux(?x ?y) <= does(...), different(...), different(...): cells x moves ground instances
// instead of cells x pieces x moves. Components that would be unsafe alone stay in place.
//
// With `eliminate`, then variable elimination one variable at a time, on every rule and on the
// auxiliary rules it makes: the variable v outside the head whose literals G (those that
// contain it) have the fewest other variables; every variable outside the head that occurs
// only in G is projected out, aux(rest of vars(G)) <= G replacing G, when G is safe alone and
// the rest of the body binds variables outside vars(G) (which the rule would otherwise
// enumerate together with the projected ones). chess.kif's discovered checks
//   next(check ?p rook ?x ?y) <= does(?o, move(?piece ?u ?v ?x1 ?y1)), ..., true(cell ?x ?y ?r),
//                                true(cell ?kx ?ky ?k), rook_threatens(?o ?x ?y ?kx ?ky ?u ?v)
// ground over moves x rooks x kings; with does projected to aux(?o ?u ?v) over from-squares.
//
// add_demand's rules are split the same way; an auxiliary relation made from one is a demand
// relation too (a domain, never recorded). chess.kif's demand for its blocking moves,
//   demand(?x ?y ?tx ?ty ?kx ?ky) <= ..., legal2(?player, move(?piece ?u ?v ?x ?y)), ...,
// otherwise derives each atom once per piece and square that can move to (?x ?y): with the two
// blocking rules, about 110 million derivations, more than half of the grounding's time.
void split_rules(std::vector<ExpandedRule>& rules, bool eliminate);

}  // namespace arena::gdl::detail
