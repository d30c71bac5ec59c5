#pragma once
// What every search reports: enough to print a UCI-style "info" line and to compare runs.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace arena::search {

struct SearchInfo {
  int depth = 0;                // last completed nominal depth (plies); MCTS: deepest tree ply
  int seldepth = 0;             // deepest ply actually visited (quiescence, best-first lines)
  std::uint64_t nodes = 0;      // positions visited (make_move calls, plus the root)
  int score = 0;                // side to move's view, see score.h
  std::vector<std::string> pv;  // principal variation in the game's move notation
  double time_ms = 0;
};

// The chosen move and how it was found. `move` is empty only when the position has no
// legal move.
template <class Move>
struct SearchResult {
  std::optional<Move> move;
  SearchInfo info;
};

}  // namespace arena::search
