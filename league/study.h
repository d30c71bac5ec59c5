#pragma once
// `arena study`: the GDL players over a folder of sheets. Per sheet a round robin of the
// players (each pair plays games_per_pair games in each role order) at one movetime, run as an
// in-process league (league_runner.h), so every game, move, tournament and pairing is in the
// SQLite store: `arena tournament` and the page's Tournaments view read a study's tournaments
// like any other, one per sheet, named
//   "study gdl:NAME movetime=MS turns=T players=A,B,C games=N seed=S".
// Running the same study again continues it: a sheet whose tournament is finished is read, not
// played; an unfinished one resumes (finished games are never replayed, a game cut off by a
// kill is played again from its seed); so a kill -9 loses at most the games in flight. `stop`
// (a signal, or the deadline of --minutes) ends the run after the games in play; the sheets
// not reached are listed as pending.
//
// What it reports, per sheet (from the stored games of its tournament, finished ones only):
//   players    Bradley-Terry Elo with its 95% interval (tournament/statistics/analysis.h, as
//              `arena tournament` and the league reports print it), score and games
//   metrics    first-role win rate, draw rate, mean length in turns, mean branching factor
//              (the joint moves of a state: the product over roles of their legal moves,
//              averaged over every state where a turn was played)
//   heuristic  the fuzzy goal heuristic (bots/lab/gdl_analysis.h's fuzzy_goal) along the same
//              games: outcome determination by plies to the end, and move invariance
//              (bots/lab/measures.h), as `arena analyze --db` measures stored games
// Across sheets: for each player, the sheets where its Elo is the highest ("best"; a sheet
// where two share the highest has none) and those where its interval also lies above the
// runner-up's ("separated"); and Spearman's rank
// correlation (tournament/statistics/rank_correlation.h: 95% interval by Fisher's z) between
// the heuristic's outcome determination (the Pearson correlation of h with the outcome over
// every position: the "all" bucket) and the score of the heuristic's player against the
// baseline, over the sheets that have both.
// A sheet the study cannot play is listed with its reason, never skipped: unreadable, not two
// roles, a reasoner that refuses it, or a game the sheet's rules break off.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bots/lab/measures.h"
#include "db/store.h"
#include "games/core/expected.h"
#include "tournament/statistics/rank_correlation.h"

namespace arena::league {

struct StudyConfig {
  std::vector<std::string> sheets;   // names (no "gdl:"); empty: every sheet gdl_sheets() lists
  std::vector<std::string> players;  // GDL player specs ("uct:c=1.4") or GDL presets (GDL_UCT)
  std::int64_t movetime_ms = 100;
  int games_per_pair = 1;  // per role order: a pair plays 2 * games_per_pair games
  int max_turns = 200;     // a game still going after this many turns is a draw, "adjudicated"
  int jobs = 1;            // games of one sheet played at once
  std::uint64_t seed = 1;
  // The correlation's two players: the one guided by the heuristic (default: the first player
  // whose search the fuzzy goal heuristic guides) and its baseline (default: "uct" or the first
  // player whose spec starts "uct").
  std::string heuristic_player, baseline;
};

// The problem with the config, before anything runs: fewer than two players, a name twice, a
// player that is neither a GDL preset nor a GDL player spec, counts out of range, a heuristic
// player or baseline that is not among the players.
Expected<void> check_study(const StudyConfig& config);

// The heuristic player and baseline the correlation uses (config's, or the defaults); empty
// when the players have none.
std::pair<std::string, std::string> study_versus(const StudyConfig& config);

struct StudyPlayer {
  std::string player;
  double elo = 0, half_width = 0;  // Bradley-Terry, 95%: elo +/- half_width
  int games = 0;
  double score = 0;  // points / games
};

struct SheetMetrics {
  int games = 0;                     // finished games read
  double first_win_rate = 0, draw_rate = 0;
  double mean_turns = 0, mean_branching = 0;
};

struct SheetHeuristic {
  std::string error;  // why there is no measure (the heuristic cannot be built), or ""
  int games = 0;      // games measured
  std::vector<lab::OutcomeBucket> outcome;  // by plies to the end, then "all"
  lab::InvarianceStats invariance;
};

struct SheetReport {
  std::string sheet;
  std::int64_t tournament = 0;
  int scheduled = 0, finished = 0;
  std::vector<StudyPlayer> players;  // in the config's order; empty Elo when rating_error
  std::string rating_error;
  SheetMetrics metrics;
  SheetHeuristic heuristic;
  int best = -1;           // index of the highest Elo, -1 when none (no games, or a tie)
  bool tied = false;       // two or more players share the highest Elo: no best
  bool separated = false;  // best's interval lies above the runner-up's
  double versus_score = 0;  // the heuristic player's score against the baseline
  int versus_games = 0;
};

struct UnplayableSheet {
  std::string sheet, reason;
};

struct StudyReport {
  std::vector<std::string> players;
  std::string heuristic_player, baseline;
  std::vector<SheetReport> sheets;          // played (complete or not)
  std::vector<UnplayableSheet> unplayable;  // with the reason
  std::vector<std::string> pending;         // not reached before the stop
  std::vector<int> best, separated;         // per player: sheets where it is best, separated
  tournament::RankCorrelation correlation;  // outcome determination against versus_score
  bool stopped = false;
  int games_played = 0;  // in this run
  double wall_s = 0;
};

// One line per event for a progress display: a sheet started, a game finished.
using StudyProgress = std::function<void(const std::string& line)>;

// Runs (or continues) the study in `store` (opened on `db_path`) and reports it. `deadline`,
// when set, is a stop: no game starts after it. Errors: the config's (check_study) and the
// store's; a sheet's own problems go to unplayable.
Expected<StudyReport> run_study(const StudyConfig& config, db::Store& store,
                                const std::string& db_path, const StudyProgress& progress,
                                const std::atomic<bool>* stop,
                                std::optional<std::chrono::steady_clock::time_point> deadline);

// The tournament name a sheet's part of the study is stored under.
std::string study_tournament_name(const StudyConfig& config, const std::string& sheet);

// One sheet's report from its stored tournament (study_report.cpp).
Expected<SheetReport> report_sheet(const StudyConfig& config, db::Store& store,
                                   const std::string& db_path, const std::string& sheet,
                                   std::int64_t tournament);

// The heuristic's outcome determination the correlation uses: the Pearson correlation of h with
// the outcome over every position (the "all" bucket); NaN when there is none.
double study_outcome_determination(const SheetHeuristic& heuristic);

// Sets r.best, r.tied and r.separated from r.players' Elo (nothing when r.finished is 0).
void find_best(SheetReport& r);

// The across-sheet figures (best, separated, the correlation) from report.sheets.
void summarise_study(StudyReport& report);

// The report as text: a table per sheet and the summary; as CSV (one row per sheet and player,
// the sheet's figures repeated; unplayable sheets with their reason); as JSON.
std::string format_study_table(const StudyReport& report);
std::string format_study_csv(const StudyReport& report);
std::string format_study_json(const StudyReport& report);

}  // namespace arena::league
