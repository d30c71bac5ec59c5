#pragma once
// How a game's turns are stored, and replayed from the store. A turn has one or more movers
// (AnyGame::movers()); the store keeps one move row per mover, in the order of movers(), all
// written when the turn is complete (so each row keeps its seat's own time, clock and search
// info) and stores its seat (db::MoveRecord::seat; not on rows stored before schema 4). A
// turn-taking game thus has one row per turn; the rows of a turn (and the seat of an old row)
// follow from replaying the rows on the game, which is what replay_rows does for the server's
// restarts, its REST API, the league reports' search statistics and the lab's stored games.
// Whoever records a game (the server's Match, an in-process league) writes rows so.
//
// Thread-safe: pure functions over the game they are given.

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "games/core/any_game.h"

namespace arena {

struct ReplayedRow {
  int seat = 0;  // who played the row's move
  int turn = 0;  // 0-based turn number
};

struct RowReplay {
  std::vector<ReplayedRow> rows;       // one per row replayed (complete turns only)
  std::vector<std::string> positions;  // the position after each turn (when asked for)
  std::string error;                   // why the replay stopped early; empty if it did not
};

// Plays `rows` on `game` a turn at a time (play_turn with the turn's rows). Stops at a row
// that does not replay, at a game that is over, or at a last turn with fewer rows than movers
// (error says which). With `positions`, serialize() after every turn; `after_turn`, when
// given, is called after every turn played (the game then stands after it).
RowReplay replay_rows(AnyGame& game, const std::vector<std::string>& rows, bool positions = false,
                      const std::function<void()>& after_turn = {});

}  // namespace arena
