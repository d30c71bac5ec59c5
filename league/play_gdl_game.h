#pragma once
// One tournament game of a GDL sheet (gdl:NAME) played in process between two GDL players
// (bots/gdl/gdl_player.h: random, uct, fuzzy) and recorded through the Store as the server
// records one: the game's kind is "gdl:NAME", each turn is one move row per mover in the order
// of movers() (games/core/turn_rows.h; a waiting role's noop is not asked for and not written),
// each row with its seat's time and search figures, the end carries the roles' goal values as
// the seats' scores. Internal to the league runner.
//
// Each turn every mover's player is asked in turn, on this thread, with config.movetime_ms to
// think (1000 ms when the config sets none: a GDL player needs a deadline). Errors follow
// league_runner.h's policy: an illegal move or one slower than forfeit_after_ms loses the game
// for that seat, or is replaced by a random legal move ("substituted: <why>" as the pv). After
// config.max_plies turns the game is a draw, "adjudicated", as the server's leagues end one.

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "bots/gdl/gdl_player.h"
#include "db/store.h"
#include "games/core/expected.h"
#include "games/gdl/game/gdl_game.h"
#include "tournament/config/league_config.h"

namespace arena::league {

// One seat's move this turn, or why it has none. A seat with one legal move is not asked.
// Otherwise `player` thinks for `think`; a move it gives that is not in `legal` is an
// "illegal move", one slower than forfeit_after_ms (when > 0) a "timeout", with the move kept.
struct GdlSeatMove {
  std::string text;
  std::int64_t used_ms = 0;
  gdl::GdlMoveInfo info;
  std::string error;  // "illegal move", "timeout"
};
GdlSeatMove ask_gdl_seat(gdl::GdlGame& game, gdl::GdlPlayer& player,
                         const std::vector<std::string>& legal, std::chrono::milliseconds think,
                         std::int64_t forfeit_after_ms);

struct GdlGameSeats {
  db::GameId game = 0;
  std::string first_spec, second_spec;  // GDL player specs of roles 0 and 1
};

struct PlayedGdlGame {
  std::string result, reason;
  std::string final_position;
  std::vector<int> scores;  // per role, 0..100 (the goals; 100/0 after a forfeit)
  std::string note{};       // the game's end_note (a sheet's bug met at the end), or ""
};

// The reasoners of one sheet for the games in play, each kept for a later game once its game
// ends: a large sheet takes seconds and hundreds of megabytes to compile (gdl:chess: 3 s and
// 530 MB), so a league makes one per game played at once rather than one per game. A reasoner
// serves one game at a time. Thread-safe.
class GdlReasonerPool {
 public:
  explicit GdlReasonerPool(std::string sheet) : sheet_(std::move(sheet)) {}
  // An idle reasoner, or a new one when none is idle; errors are the sheet's.
  Expected<std::shared_ptr<gdl::GdlContext>> take();
  void put(std::shared_ptr<gdl::GdlContext> context);
  int made() const;

 private:
  std::string sheet_;  // without "gdl:"
  mutable std::mutex mutex_;
  std::vector<std::shared_ptr<gdl::GdlContext>> idle_;
  int made_ = 0;
};

// Checks what a GDL league needs before it starts: the sheet loads, has two roles, takes no
// options and no opening book, and every entrant's spec is a GDL player (a GGP player by URL,
// "ggp:URL", plays through a local server: server_league.h). Errors name the part.
// The sheet is loaded through `pool` (its reasoner kept for the first game).
Expected<void> check_gdl_league(const tournament::LeagueConfig& config, GdlReasonerPool& pool);

// Plays `game` (its start position already recorded for setup.game) to its end.
Expected<PlayedGdlGame> play_recorded_gdl_game(gdl::GdlGame& game, const GdlGameSeats& seats,
                                               const tournament::LeagueConfig& config,
                                               db::Store& store, std::uint64_t seed);

}  // namespace arena::league
