#pragma once
// Perft: the number of leaf nodes of the legal-move tree to a given depth. It doubles as the
// move generator's test against published figures.
//
// A game whose published perft counts a game-over before the last ply as one leaf (Othello)
// says so with `static constexpr bool kPerftCountsGameOverAsLeaf = true;`. Otherwise a node
// with no moves contributes nothing, as in chess perft.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "games/core/game.h"

namespace arena {

template <Game G>
constexpr bool perft_counts_game_over_as_leaf() {
  if constexpr (requires { G::kPerftCountsGameOverAsLeaf; }) {
    return G::kPerftCountsGameOverAsLeaf;
  } else {
    return false;
  }
}

template <Game G>
std::uint64_t perft(G& game, int depth) {
  if (depth <= 0) return 1;
  typename G::MoveList list;
  game.generate_moves(list);
  if (list.empty()) return perft_counts_game_over_as_leaf<G>() ? 1 : 0;
  if (depth == 1) return list.size();  // bulk-count the last ply
  std::uint64_t nodes = 0;
  for (const auto& m : list) {
    game.make_move(m);
    nodes += perft(game, depth - 1);
    game.unmake_move(m);
  }
  return nodes;
}

// Perft split by the first move: (move text, leaf count) in generation order.
template <Game G>
std::vector<std::pair<std::string, std::uint64_t>> perft_divide(G& game, int depth) {
  std::vector<std::pair<std::string, std::uint64_t>> out;
  typename G::MoveList list;
  game.generate_moves(list);
  for (const auto& m : list) {
    std::string text = game.move_to_string(m);
    game.make_move(m);
    out.emplace_back(std::move(text), perft(game, depth - 1));
    game.unmake_move(m);
  }
  return out;
}

}  // namespace arena
