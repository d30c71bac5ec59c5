#pragma once
// Runs a league to its end, in this process: the same search agents as `arena match` (for a
// GDL sheet, gdl:NAME, its GDL players: play_gdl_game.h), two
// games at once or as many as config.concurrency, every game and move recorded through the
// Store, and the tournament's state (tournament row, one pairing row per game, the pairing's
// game id set when it starts) kept in the store so that a run killed at any point continues
// where it stopped:
//   - a tournament with the config's name that is unfinished in the store is resumed, with the
//     same players as they were: one whose spec or weights file changed since its finished
//     games (another bot version) is refused by name, and nothing is played;
//   - a pairing whose game finished is never replayed; one whose game was cut off (no result)
//     has that game closed as aborted ("*", "interrupted") and is played again from the same
//     seed (the seed is stored with every game);
//   - Swiss rounds are paired from the stored results when the previous round is complete.
// Errors (crash, no move, illegal move, a move slower than forfeit_after_ms): ErrorPolicy kLose
// ends the game as a loss for the offender ("illegal move", "timeout", "no move"); kRandomMove
// plays a random legal move instead and records "substituted: <why>" as the move's pv. An agent
// runs in this process, so a real crash ends the run (resume it by running again).

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "db/store.h"
#include "games/core/expected.h"
#include "tournament/statistics/analysis.h"
#include "tournament/config/league_config.h"
#include "tournament/report/stored_analysis.h"
#include "db/tournament_reader.h"

namespace arena::league {

struct LeagueProgress {
  int done = 0;      // finished games, including those of an earlier run
  int running = 0;   // games in play now
  int total = 0;     // games scheduled so far (Swiss: grows by round)
  int done_now = 0;  // finished in this run (for the rate)
  double elapsed_s = 0;
};
using ProgressFn = std::function<void(const LeagueProgress&)>;

struct LeagueRun {
  std::int64_t tournament = 0;
  bool resumed = false;
  int games_played = 0;  // in this run
  double wall_s = 0;
};

// `db_path` is the file `store` was opened on (read back through db::TournamentReader). `stop`,
// when set, makes the run return after the games in play finish (the tournament stays
// unfinished, to be resumed).
Expected<LeagueRun> run_league(const tournament::LeagueConfig& config, db::Store& store,
                               const std::string& db_path, const ProgressFn& progress,
                               const std::atomic<bool>* stop = nullptr);

}  // namespace arena::league
