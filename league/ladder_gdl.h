#pragma once
// Internal to league/: `arena ladder` on a GDL sheet (gdl:NAME of two roles), beside the
// catalog's games in ladder.cpp. The ladder's rules are the same (pairs of games from one
// opening with the roles swapped, the time control, max_plies, the games file, the Elo fit);
// what differs:
//   seats     a GDL preset of the roster (GDL_Random, GDL_UCT, GDL_Fuzzy) or a GDL player spec
//             (bots/gdl/gdl_player.h: "uct:c=1.4", "fuzzy:depth=2"), each may end in "@ELO";
//             UCI engines play chess only
//   openings  opening_plies random turns (random_opening through AnyGame: a move for every
//             mover of a turn); an opening book, which holds catalog moves, is refused, and so
//             are game options (a sheet takes none)
//   turns     every mover of a turn is asked (several in a simultaneous turn, each on its own
//             clock); max_plies counts turns; a move the sheet does not list loses the game
// Each worker compiles the sheet once (league/play_gdl_game.h's GdlReasonerPool) and plays its
// games on that reasoner.

#include <atomic>
#include <chrono>
#include <string>

#include "games/core/expected.h"
#include "league/ladder.h"

namespace arena::league {

// Fills `seat` (kind kGdl, its name and spec) from `body` (the seat's text without "@ELO");
// errors name the seat: a UCI engine, a preset of another game, a text that is neither a
// preset nor a GDL player spec.
Expected<void> parse_gdl_ladder_seat(LadderSeat& seat, const std::string& body,
                                     const std::string& game);

// The sheet of c.game (gdl:NAME) is found and readable, has two roles, and the run gives it
// no options and no opening book; errors say which.
Expected<void> check_gdl_ladder_game(const LadderConfig& c);

// Plays the run's games into `result` (its seats parsed): errors are the sheet's (unknown, not
// two roles), the settings' (options, an opening book), a seat's spec, or a turn the sheet
// refuses.
Expected<void> run_gdl_ladder_games(const LadderConfig& c, LadderResult& result,
                                    const LadderProgress& progress, const std::atomic<bool>* stop,
                                    std::chrono::steady_clock::time_point started);

}  // namespace arena::league
