#pragma once
// Breadth-first search of the whole 8-puzzle from the goal, through the Game interface: the
// independent derivation the 8-puzzle tests compare with tests/data/eight_puzzle.txt.

#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "games/puzzles/sliding_puzzle.h"

namespace arena::puzzles::test {

// Lehmer rank of the 9 cells: a perfect index into 9! = 362880 slots.
inline int rank9(const SlidingPuzzle& p) {
  int rank = 0;
  std::uint32_t used = 0;
  for (int c = 0; c < 9; ++c) {
    const int t = p.tile_at(c);
    const int smaller_unused = t - __builtin_popcount(used & ((1u << t) - 1));
    rank = rank * (9 - c) + smaller_unused;
    used |= 1u << t;
  }
  return rank;
}

struct EightPuzzleBfs {
  std::vector<std::int8_t> distance = std::vector<std::int8_t>(362880, -1);
  std::vector<int> histogram;         // states at each distance from the goal
  std::vector<std::string> farthest;  // serialized states at the maximum distance
  int reachable = 0;
};

inline EightPuzzleBfs eight_puzzle_bfs() {
  EightPuzzleBfs out;
  std::deque<SlidingPuzzle> queue{SlidingPuzzle::solved(3)};
  out.distance[rank9(queue.front())] = 0;
  std::vector<SlidingPuzzle> last_level;
  SlidingPuzzle::MoveList moves;
  while (!queue.empty()) {
    SlidingPuzzle p = queue.front();
    queue.pop_front();
    const int d = out.distance[rank9(p)];
    if (static_cast<int>(out.histogram.size()) <= d) {
      out.histogram.push_back(0);
      last_level.clear();
    }
    ++out.histogram[d];
    ++out.reachable;
    last_level.push_back(p);
    p.generate_moves(moves);
    for (auto m : moves) {
      p.make_move(m);
      auto& slot = out.distance[rank9(p)];
      if (slot < 0) {
        slot = static_cast<std::int8_t>(d + 1);
        queue.push_back(p);
      }
      p.unmake_move(m);
    }
  }
  for (const auto& p : last_level) out.farthest.push_back(p.serialize());
  return out;
}

}  // namespace arena::puzzles::test
