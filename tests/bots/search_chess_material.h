#pragma once
// A test-only material count for chess (9/5/3/3/1, pawns = 100), so that the search tests do
// not depend on bots/eval/chess.h; and a one-ply capture-gain search heuristic d for
// best-first (what the side to move wins by its best capture if the victim is undefended,
// or victim minus attacker if defended).

#include <bit>

#include "games/chess/chess.h"

namespace arena::test {

inline constexpr int kPieceValue[6] = {100, 300, 300, 500, 900, 0};

struct ChessMaterial {
  int operator()(const chess::Chess& g) const {
    int score = 0;
    for (int t = 0; t < 6; ++t) {
      const auto type = static_cast<chess::PieceType>(t);
      score += kPieceValue[t] * (std::popcount(g.pieces(Player::kFirst, type)) -
                                 std::popcount(g.pieces(Player::kSecond, type)));
    }
    return g.side_to_move() == Player::kFirst ? score : -score;
  }
};

struct ChessCaptureGain {
  int operator()(const chess::Chess& g) const {
    chess::Chess::MoveList list;
    g.generate_noisy_moves(list);
    const Player them = opponent(g.side_to_move());
    int best = 0;
    for (const auto& m : list) {
      const auto victim = g.piece_on(m.to());
      if (victim == chess::kNoPiece) continue;
      const int gain = kPieceValue[chess::to_int(chess::type_of(victim))];
      const int risk = (g.attackers_to(m.to(), g.occupied()) & g.pieces(them)) != 0
                           ? kPieceValue[chess::to_int(chess::type_of(g.piece_on(m.from())))]
                           : 0;
      if (gain - risk > best) best = gain - risk;
    }
    return best;
  }
};

}  // namespace arena::test
