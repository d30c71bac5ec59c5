#pragma once
// A strength ladder: one Arena bot against a list of opponents (UCI engines for chess, Arena
// presets or search specs for any two-player game), every opening played with both colours, at
// one time control, and the bot's Elo on the scale of the opponents whose Elo is known
// (tournament/statistics/ladder_elo.h). `arena ladder` prints it.
//
// The game is a catalog game of two players, or a GDL sheet of two roles (gdl:NAME; its seats
// are GDL players and its openings random turns: league/ladder_gdl.h).
//
// Seats (the player and each opponent):
//   PRESET                    a roster preset (`arena bot --list-presets`) of the ladder's game
//   SPEC                      a search spec, e.g. "id:eval=strong,qsearch" (bots/search/spec.h)
//   uci:PATH[?K=V&K=V...]     chess only: a UCI engine, each K=V sent as setoption. With
//                             UCI_LimitStrength=true and UCI_Elo=E the engine is an anchor of
//                             Elo E (Stockfish's calibrated levels); other engines are
//                             uncalibrated and get their Elo from the same games.
//   any seat may end in "@ELO": an anchor of that Elo (e.g. "AB_Improved@0").
// Without any anchor the opponent the player scored best against is the origin (Elo 0).
//
// The time control: movetime_ms per move, or (base_ms > 0) a Fischer clock base_ms +
// increment_ms per move for each side, a flag fall losing the game (Arena's bots think for
// client::move_budget_ms of their clock, UCI engines get wtime/btime/winc/binc). A spec's own
// movetime is replaced by the ladder's, its depth is kept. Openings: a book (one line of moves
// a line; Othello: XOT lines) line per pair, or opening_plies random plies; both games of a pair
// start from the same position. Games longer than max_plies are adjudicated draws. `jobs` games
// are played at a time (default 1), each by its own engine processes and agents; only one side
// of a game thinks at once, so with jobs no more than the cores every engine still has a core.
//
// A games file (`games_file`) pools bounded runs: each game is appended to it as one JSON line
// as soon as it ends ({"game", "options", "time_control", "first", "second", "score", "reason",
// "plies"}, the seats as given), and the lines already there whose game, options, time control
// and two seats are this ladder's join its table and its fit. Other lines are left out and
// counted; a line that is not such JSON is an error naming it.

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "games/core/expected.h"
#include "tournament/statistics/ladder_elo.h"

namespace arena::league {

struct LadderSeat {
  enum class Kind { kSearch, kUci, kGdl };
  Kind kind = Kind::kSearch;
  std::string text;    // as given
  std::string name;    // for the table: the preset, the spec, or "stockfish UCI_Elo=1600"
  std::string spec;    // kSearch: the search spec; kGdl: the GDL player spec
  std::string path;    // kUci: the engine
  std::vector<std::pair<std::string, std::string>> uci_options;
  std::optional<double> anchor;  // a known Elo
};

// Errors name the seat and the problem: an unknown preset that is no spec either, a preset of
// another game, a UCI engine outside chess, a missing engine, an option that is not K=V.
Expected<LadderSeat> parse_ladder_seat(const std::string& text, const std::string& game);

struct LadderConfig {
  std::string game;      // catalog name, or gdl:NAME
  std::string options;   // game options, key=value,...
  std::string player;    // seat text
  std::vector<std::string> opponents;
  bool all_pairs = false;  // every seat plays every other (a ladder of presets), not only the player
  int pairs = 2;           // colour-swapped pairs per pairing
  std::int64_t movetime_ms = 100;
  std::int64_t base_ms = 0, increment_ms = 0;  // base_ms > 0: a clock instead of movetime
  int max_plies = 400;
  int opening_plies = 0;
  std::string opening_book;
  double max_minutes = 0;  // > 0: no new pair starts after this long
  int prior_draws = 0;     // virtual draws per pairing in the fit (ladder_elo.h); presets
                           // that win every game would otherwise be only bounds
  std::uint64_t seed = 1;
  int jobs = 1;  // games played at a time
  std::string games_file;  // appended a line per game; its earlier games of these seats join in
};

struct LadderGame {
  int first = 0, second = 0;  // seat indices (0 = the player), first moves first
  int pair = 0;               // the pair (opening) it belongs to
  double first_score = 0.5;
  std::string reason;
  int plies = 0;
};

struct LadderResult {
  std::vector<LadderSeat> seats;  // [0] the player
  std::vector<LadderGame> games;    // this run's
  std::vector<LadderGame> earlier;  // from the games file: in the table and the fit
  int earlier_left_out = 0;         // lines of the games file of other seats or settings
  std::vector<tournament::EloEstimate> elo;  // by seat
  bool origin_chosen = false;    // no anchor was given: elo is relative to seats[origin]
  int origin = -1;
  bool stopped_early = false;    // max_minutes ran out before every pair was played
  double wall_s = 0;
};

// Called after each game with the games done and scheduled.
using LadderProgress = std::function<void(const LadderResult&, int done, int total)>;

// What the run's game and settings allow, checked before any game (the CLI's usage errors):
// a catalog game is known and takes the options; a GDL sheet is found and readable, has two
// roles, and is given no options and no opening book. run_ladder checks the same.
Expected<void> check_ladder_game(const LadderConfig& config);

// Checks every seat (starting each UCI engine once) before the first game. `stop`, when set,
// ends the run after the game in play.
Expected<LadderResult> run_ladder(const LadderConfig& config, const LadderProgress& progress = {},
                                  const std::atomic<bool>* stop = nullptr);

// The table: per opponent games, wins/losses/draws of the player against it, its score, its
// Elo (anchor, estimate with interval, or bound) and the player's Elo with its interval.
std::string format_ladder(const LadderConfig& config, const LadderResult& result);

}  // namespace arena::league
