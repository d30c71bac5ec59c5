#pragma once
// The triangular principal-variation table: row `ply` holds the best line found from that
// ply. Allocated once per searcher (kMaxPly^2 moves), never per node.

#include <string>
#include <vector>

#include "bots/search/score.h"

namespace arena::search {

template <class Move>
class PvTable {
 public:
  PvTable() : moves_(static_cast<std::size_t>(kMaxPly) * kMaxPly), length_(kMaxPly, 0) {}

  void clear_ply(int ply) { length_[ply] = 0; }

  // The line at `ply` becomes `m` followed by the line at ply + 1.
  void update(int ply, const Move& m) {
    Move* row = &moves_[static_cast<std::size_t>(ply) * kMaxPly];
    row[0] = m;
    int n = 0;
    if (ply + 1 < kMaxPly) {
      const Move* child = &moves_[static_cast<std::size_t>(ply + 1) * kMaxPly];
      n = length_[ply + 1];
      if (n > kMaxPly - 1) n = kMaxPly - 1;
      for (int i = 0; i < n; ++i) row[i + 1] = child[i];
    }
    length_[ply] = n + 1;
  }

  std::vector<Move> line(int ply = 0) const {
    const Move* row = &moves_[static_cast<std::size_t>(ply) * kMaxPly];
    return std::vector<Move>(row, row + length_[ply]);
  }

 private:
  std::vector<Move> moves_;
  std::vector<int> length_;
};

// The moves of `line` in the game's notation, played from `position` (a copy).
template <class G, class Move>
std::vector<std::string> pv_to_strings(G position, const std::vector<Move>& line) {
  std::vector<std::string> out;
  for (const Move& m : line) {
    out.push_back(position.move_to_string(m));
    position.make_move(m);
  }
  return out;
}

}  // namespace arena::search
