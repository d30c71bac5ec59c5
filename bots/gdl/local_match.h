#pragma once
// A GDL match played in this process between GdlPlayers (gdl_player.h), one per role: what
// `arena match --game gdl:NAME` plays, without the network or a GGP player process.
//
// Each step every role moves (GDL is simultaneous): a role with one legal move (a "noop" while
// another role moves) plays it without asking its player; the others ask their player, which
// may think until `movetime` from then. The match ends at a terminal state, or after
// `max_steps` steps (then the goals are those of the state reached, as a GGP manager's ABORT
// gives). The first `opening_steps` steps are random legal joint moves drawn from `seed`, so
// that a pair of matches can start from the same unusual position.
//
// All players and the referee share the one StateMachine (states and moves are its terms), one
// at a time on the caller's thread. A player that answers a move that is not legal, or a
// reasoner that cannot answer (StateMachine::failure), ends the match with an error naming it.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bots/gdl/gdl_player.h"
#include "games/core/expected.h"
#include "games/gdl/prover/state_machine.h"

namespace arena::gdl {

struct LocalMatchConfig {
  std::chrono::milliseconds movetime{1000};  // each player's time for each move it chooses
  int max_steps = 1000;                      // then the match stops where it is
  int opening_steps = 0;                     // random joint moves first (not past the end)
  std::uint64_t seed = 1;                    // of the random opening
  // Called with the initial state and with the state after each step, in order; may be empty.
  std::function<void(const State&)> on_state;
};

struct LocalMatchResult {
  std::vector<std::string> roles;               // in the rules' order
  std::vector<std::vector<std::string>> moves;  // per step, the joint move in role order
  int opening_steps = 0;                        // of `moves`, the random ones
  bool terminal = false;                        // false: stopped by max_steps
  std::vector<int> goals;  // per role: 0..100, or -1 where the rules give no single value
  std::string problem;     // "", or why the first role with -1 has none (a sheet's bug)
  double seconds = 0;
};

// `players[r]` plays role r; there must be one per role. Errors: a player count other than the
// role count, a player's illegal move, a reasoner failure, a state with no legal move for a
// role that is not terminal (a sheet's bug).
Expected<LocalMatchResult> play_local_match(StateMachine& machine,
                                            const std::vector<GdlPlayer*>& players,
                                            const LocalMatchConfig& config);

}  // namespace arena::gdl
