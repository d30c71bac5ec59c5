#pragma once
// Stage: grounding. Demand relations for the compiled reasoner's grounding (ground_demand.cpp).

#include <vector>

#include "games/gdl/ground/ground_join.h"

namespace arena::gdl::detail {

// Demand-driven restriction (the magic sets of deductive databases, for domains only). A
// dynamic, non-recursive relation R other than GDL's own whose every use in a rule body has
// its variables bound by that body's other positive literals (those not depending on R) is
// only needed at the arguments those literals can bind: demand_R(args) <= those literals, one
// rule per use, and each rule of R gets demand_R(head args) in its body. demand_R is a domain:
// it restricts which atoms of R are ground but is never a literal of a recorded rule (every
// atom of R a recorded rule mentions is in it, since its domain over-approximates every
// state's). chess.kif's threatened_with_capture(?owner ?cx ?cy ?x ?y ?ignorex ?ignorey) is
// only used as (not (threatened_with_capture ?player ?x ?y ?kx ?ky ?u ?v)) after a legal2
// move and a king's square, and ranges over `coordinate` (a..h and 1..8) in each of its six
// coordinates otherwise.
void add_demand(std::vector<ExpandedRule>& rules);

}  // namespace arena::gdl::detail
