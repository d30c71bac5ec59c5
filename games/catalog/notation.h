#pragma once
// The moves of a game as people read them. The protocol, the store and PGN keep each game's
// own move text (chess: UCI, "e2e4"); a page shows chess in SAN ("e4", "Nf3", "O-O", "e8=Q+"),
// which only the rules can write. The other games' move text is already what people read
// (checkers' PDN "11-15", "a1", a GDL term), so for them these return nothing.

#include <string>
#include <vector>

#include "games/core/any_game.h"

namespace arena {

// SAN of every move of `game`'s history, from the position it started at; empty when the
// game's own move text is what people read (every game but chess) or no move was played.
std::vector<std::string> display_history(const AnyGame& game);

// SAN of the last move of `game`'s history; empty as display_history.
std::string last_move_display(const AnyGame& game);

}  // namespace arena
