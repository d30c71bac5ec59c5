#pragma once
// The reference reasoner: answers each question by evaluating the rules bottom-up over the
// state's `true` facts (and the joint move's `does` facts), stratum by stratum, without
// grounding the game first. Slow but general: it is the reference the compiled reasoner is
// tested against and the fallback where grounding is too large.

#include <memory>

#include "games/gdl/state_machine.h"

namespace arena::gdl {

// A prover over `description`; `pool` is shared with other machines of the same game (a new
// pool when null).
std::unique_ptr<StateMachine> make_prover(std::shared_ptr<const Description> description,
                                          std::shared_ptr<TermPool> pool = nullptr);

}  // namespace arena::gdl
