#pragma once
// Players of any GDL game: they see only a StateMachine (games/gdl/prover/state_machine.h), so they
// play every sheet, simultaneous and N-player games included. Used by the WebSocket bot client,
// by `arena ggp-player` (the GGP HTTP protocol) and by local matches and leagues.
//
// One GdlPlayer plays one role of one match at a time, from one thread.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "games/core/expected.h"
#include "games/gdl/prover/state_machine.h"

namespace arena::gdl {

using Clock = std::chrono::steady_clock;

// A search's report on one move, as a league records it (db::MoveRecord, protocol SearchInfo).
struct GdlMoveInfo {
  std::uint64_t iterations = 0;  // Monte Carlo iterations (one playout or evaluation each)
  std::optional<int> value;      // the chosen move's mean reward for the player, 0..100
};

// start()'s deadline where there is no start clock (local matches, leagues, a server's bot):
// a heuristic built at the start is then built whatever it takes, once per machine.
inline constexpr Clock::time_point kNoStartClock = Clock::time_point::max();

class GdlPlayer {
 public:
  virtual ~GdlPlayer() = default;
  // A new match: `machine` reasons about the game (it outlives the match), `role` is the index
  // into machine.roles() this player plays. Returns by `deadline` (GGP's start clock): what it
  // cannot prepare by then (the fuzzy goal heuristic of a large sheet) it goes without, and
  // says so in fallback(). kNoStartClock: no start clock, preparing takes what it takes.
  virtual void start(StateMachine& machine, int role, Clock::time_point deadline) = 0;
  // This player's move in `state` (one of its legal moves), chosen before `deadline`.
  virtual Move choose(const State& state, Clock::time_point deadline) = 0;
  // "uct", "random", "fuzzy", "mcts-pb", ..., for logs.
  virtual std::string_view name() const = 0;
  // What the last choose() searched, for a move's record; zeros from a player that does not
  // search (random).
  virtual GdlMoveInfo last_info() const { return {}; }
  // Since the last start(): why this player plays otherwise than its name says, empty when it
  // plays as named. "fuzzy" on a sheet whose rules the fuzzy goal heuristic cannot ground (too
  // many ground rules) searches with random playouts as "uct" does, and says so here; the
  // programs that run players print it (arena match, bot, league, ladder, ggp-player).
  virtual std::string fallback() const { return {}; }
};

// Players by spec: "random", "uct" (Monte Carlo tree search with UCT; keys c=, iterations=),
// "fuzzy" (search guided by the fuzzy goal heuristic; keys tau=, theta=, q=, depth=),
// "mcts-pb" (UCT with the heuristic as progressive bias; bias=), "mcts-cutoff" (playouts cut
// off after depth= turns and scored by the heuristic), "fuzzy-ab" (alpha-beta with the
// heuristic at the leaves); gdl_player_specs() lists each with its keys and defaults.
// Errors name an unknown spec or key, and the keys the kind takes. `default_seed` seeds a player
// whose spec sets no seed=.
Expected<std::unique_ptr<GdlPlayer>> make_gdl_player(std::string_view spec,
                                                     std::uint64_t default_seed = 1);

// The goal heuristic (as bots/lab/gdl_analysis.h names them) whose values guide the search of
// the player `spec` makes: "fuzzy_goal" for fuzzy, mcts-pb, mcts-cutoff and fuzzy-ab; nullopt for
// "random" and "uct" (random playouts) and for a spec make_gdl_player refuses.
std::optional<std::string> gdl_player_heuristic(std::string_view spec);

// Prints `player.fallback()` to stderr after `who` ("arena match: A fuzzy"), once per process
// for each distinct line; nothing when the player plays as named. Thread-safe.
void report_fallback(const GdlPlayer& player, std::string_view who);

// The specs make_gdl_player knows, with a line each, for --help and --list-presets.
std::vector<std::pair<std::string, std::string>> gdl_player_specs();

}  // namespace arena::gdl
