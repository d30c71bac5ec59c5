#pragma once
// Stage: the prover (the reasoners' contract and the reference reasoner).
// The reference reasoner: answers each question by evaluating the rules bottom-up over the
// state's `true` facts (and the joint move's `does` facts), stratum by stratum, without
// grounding the game first. Slow but general: it is the reference the compiled reasoner is
// tested against and the fallback where grounding is too large.

#include <cstdint>
#include <memory>

#include "games/gdl/prover/state_machine.h"

namespace arena::gdl {

// Bounds on the work of one question (the static relations count as one question), and the
// evaluation's strategies. A sheet whose rules build ever deeper terms (a recursion over (f ?x)
// making (f (f ?x))) or derive too much stops at these bounds instead of hanging.
struct ProverOptions {
  std::uint32_t max_term_depth = 256;     // nesting of a derived term; constants are 1
  std::uint64_t max_facts = 4'000'000;    // facts derived for one state (and joint move)
  std::uint64_t max_steps = 200'000'000;  // rows tried by the joins for one question
  // Strategies, on by default; off only to check that they change no answer. `demand`: a
  // relation that every literal calls with an argument bound is evaluated per call (as a
  // top-down prover would) rather than whole. `replan`: after a first evaluation of the initial
  // state, the joins are planned again with the sizes of the relations it met.
  bool demand = true;
  bool replan = true;
};

// A prover over `description`; `pool` is shared with other machines of the same game (a new
// pool when null).
//
// StateMachine has no error channel but goal(): when a rule cannot be evaluated (a construct
// the prover refuses) or a limit is hit while answering about a state, that state (and the
// state next_state derived from it) is reported terminal with no legal moves, and goal()
// returns the error, which names the sheet, the rule's line and the limit.
std::unique_ptr<StateMachine> make_prover(std::shared_ptr<const Description> description,
                                          std::shared_ptr<TermPool> pool = nullptr,
                                          const ProverOptions& options = {});

}  // namespace arena::gdl
