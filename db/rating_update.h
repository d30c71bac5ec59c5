#pragma once
// The live rating update of a finished two-player game, run by finish_game inside its
// transaction on the writer connection: Elo (rating/elo.h) and Glicko-2 with Lichess's
// constants (rating/glicko2.h) for the game's kind, each game its own rating period.
// Both players are updated from their ratings before the game; one history row per player and
// method records the change.

#include <string>

#include "db/sqlite_db.h"
#include "db/store.h"
#include "games/core/expected.h"

namespace arena::db {

// `first_score`: 1, 0.5 or 0 for the first player.
Expected<void> apply_rating_updates(Connection& connection, GameId game, const std::string& kind,
                                    PlayerId first, PlayerId second, double first_score);

// The text stored in the ratings table for `method` ("elo", "glicko2").
const char* method_name(RatingMethod method);

}  // namespace arena::db
