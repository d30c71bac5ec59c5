#pragma once
// A GGP game manager: plays one GDL match between GGP players given by URL, as GGP's game
// managers (ggp-base's GameServer, Dresden's) do:
//   - START goes to every player at once, each with its role, the rules and the clocks; a reply
//     other than "ready" within startclock (+ grace) is logged and the match goes on;
//   - each turn PLAY goes to every player at once (NIL first, then the previous joint move in
//     role order); a reply that is late (none within playclock + grace), not a move, or not a
//     legal move of that role is replaced by a random legal move, and the event is logged;
//   - at the end STOP with the last joint move (ABORT when the step limit cut the match short),
//     then the goals of the final state.
// The manager keeps its own reasoner (compiled, or the prover as fallback) and is the judge of
// legality; players never see each other's errors except through the moves.

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "bots/ggp/reply.h"
#include "games/core/expected.h"

namespace arena::ggp {

struct MatchConfig {
  std::string rules;                 // the KIF sentences of the game
  std::string source = "rules";      // names the rules in errors
  std::vector<std::string> players;  // URLs, one per role in the rules' order
  int startclock = 10;               // seconds
  int playclock = 5;                 // seconds
  // Allowance for the network and the reply beyond each clock.
  std::chrono::milliseconds grace{1000};
  int max_steps = 1000;              // then ABORT; the goals are those of the state reached
  std::uint64_t seed = 1;            // for the random replacement moves
  std::string match_id;              // "": made from the seed and the time
  LogFn log;                         // each event as it happens; may be empty
};

struct MatchResult {
  std::string match_id;
  std::string reasoner;  // the manager's: "compiled" or "prover"
  std::vector<std::string> roles;
  std::vector<std::vector<std::string>> moves;  // per step, the joint move in role order
  bool terminal = false;  // false: cut short by max_steps
  std::vector<int> goals;  // per role: 0..100, or -1 where the rules give no single value
  std::vector<int> substitutions;  // per role: moves replaced by random ones
  std::vector<std::string> events;  // replacements and players' errors, in order
  double wall_s = 0;
  // For a match record (ggp-base's match JSON, match_record.h): when the match started (ms
  // since the epoch), the state after each step with the initial state first (fluents' KIF)
  // and when it was reached, and per step and role the seconds the player took and its error
  // ("" when its move was its own).
  std::int64_t start_ms = 0;
  std::vector<std::string> states;
  std::vector<std::int64_t> state_ms;
  std::vector<std::vector<double>> seconds;
  std::vector<std::vector<std::string>> errors;
  int startclock = 0, playclock = 0;
};

// Errors: rules that do not read, a player count other than the role count, bad clocks.
// Players that fail do not make the match fail: their moves are replaced.
Expected<MatchResult> run_ggp_match(const MatchConfig& config);

}  // namespace arena::ggp
