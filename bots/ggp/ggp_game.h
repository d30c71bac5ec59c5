#pragma once
// A GDL match as both sides of the GGP protocol see it: the rules read and given a reasoner,
// the current state, and moves translated between KIF text and the reasoner's TermIds.
//
// The reasoner is the compiled one (games/gdl/propnet/compiled.h) when the game grounds within the
// time given, otherwise the prover (games/gdl/prover/prover.h). Not thread-safe (one owner, as the
// StateMachine it holds).

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "bots/ggp/kif_message.h"
#include "games/core/expected.h"
#include "games/gdl/prover/state_machine.h"

namespace arena::ggp {

class GgpGame {
 public:
  // Reads `rules` (KIF sentences; `source` names them in errors) and builds a reasoner;
  // grounding is given at most `compile_budget` before the prover is used instead.
  static Expected<std::unique_ptr<GgpGame>> create(std::string_view rules, std::string source,
                                                   std::chrono::milliseconds compile_budget);

  gdl::StateMachine& machine() { return *machine_; }
  const gdl::State& state() const { return state_; }
  int steps() const { return steps_; }  // joint moves applied
  bool is_terminal() { return machine_->is_terminal(state_); }
  // Why the compiled reasoner was not used ("" when it is).
  const std::string& fallback_reason() const { return fallback_reason_; }

  // Role names in the sheet's order ("xplayer"), and the index of one (-1: none).
  std::vector<std::string> role_names() const;
  int role_index(std::string_view name) const;

  // A state written as its fluents' KIF ("(cell 1 1 b) (control xplayer)", the server's
  // position text), sorted as the reasoner's states are. Errors name a fluent the rules
  // cannot hold.
  Expected<gdl::State> parse_state(std::string_view text);

  // The move `e` names, checked to be a legal move of `role` in the current state.
  Expected<gdl::Move> legal_move(const SExpr& e, int role);
  std::string move_text(gdl::Move move) const;
  // The current state as its fluents' KIF, in the reasoner's order: "(cell 1 1 b) (control x)".
  std::string state_text() const;

  // Applies `moves` (one per role, in role order, each legal) and advances the state.
  Expected<void> play(const std::vector<SExpr>& moves);
  // Applies a joint move known to be legal.
  void play(const gdl::JointMove& moves);

 private:
  GgpGame() = default;
  Expected<gdl::TermId> to_term(const SExpr& e);

  std::unique_ptr<gdl::StateMachine> machine_;
  gdl::State state_;
  int steps_ = 0;
  std::string fallback_reason_;
};

}  // namespace arena::ggp
