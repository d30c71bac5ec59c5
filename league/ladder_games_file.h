#pragma once
// Internal to league/: the games file of `arena ladder --games-file`, one JSON line a game.

#include <string>
#include <vector>

#include "games/core/expected.h"
#include "league/ladder.h"

namespace arena::league {

// One game as a line of the games file.
std::string game_line(const LadderConfig& c, const std::vector<LadderSeat>& seats,
                      const LadderGame& g);

// The games file's earlier games of this ladder's seats and settings into result.earlier.
Expected<void> read_games_file(const LadderConfig& c, LadderResult& result);

}  // namespace arena::league
