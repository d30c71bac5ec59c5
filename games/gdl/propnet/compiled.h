#pragma once
// Stage: the propositional network (the compiled reasoner).
// The compiled reasoner: the ground program (ground.h) turned into a propositional network
// evaluated with bit operations. Answers the StateMachine questions and, for playouts and
// search, a faster interface over bit states.

#include <memory>

#include "games/core/expected.h"
#include "games/gdl/ground/ground.h"
#include "games/gdl/prover/state_machine.h"

namespace arena::gdl {

// Grounds and compiles `description`; an error (too large, too slow) means: use the prover.
Expected<std::unique_ptr<StateMachine>> make_compiled(
    std::shared_ptr<const Description> description, std::shared_ptr<TermPool> pool = nullptr,
    const GroundLimits& limits = {});

}  // namespace arena::gdl
