#pragma once
// The tapered evaluation of the chess_strong preset ("tapered" in bots/eval/chess.h): a
// middlegame and an endgame score blended by the game phase, computed in integer fixed point
// from weights in centipawns. Scores are centipawns from the side to move's point of view.

#include <array>
#include <string>

#include "bots/eval/heuristic.h"
#include "games/chess/chess.h"

namespace arena::eval {

// The tapered evaluation's weights, centipawns (the passed_* are multipliers of a rank table,
// king_attack of the square of the attack units). Indexed pawn, knight, bishop, rook, queen.
// The defaults are fitted (`arena tune`, bots/lab/texel.h) to 178,079 positions of
// Stockfish's self-play scored by Stockfish at depth 8, from the hand-set weights in
// bots/eval/weights/chess_tapered_hand.txt; bots/eval/weights/chess_tapered.txt lists them.
struct ChessTaperedWeights {
  std::array<double, 6> material_mg{79.16, 432.7, 477.4, 522.9, 1219, 0};
  std::array<double, 6> material_eg{91.88, 322.2, 330, 577.5, 1038, 0};
  std::array<double, 6> mobility_mg{0, 7.75, 7.938, 2.781, 3, 0};
  std::array<double, 6> mobility_eg{0, 0.5625, -1, 2.875, 1, 0};
  double bishop_pair_mg = 16.5, bishop_pair_eg = 57.19;
  double doubled_mg = 11.44, doubled_eg = 21;
  double isolated_mg = 23.19, isolated_eg = 9.094;
  double passed_mg = 1.25, passed_eg = 1.516, passed_king = 18.5;
  double rook_open_mg = 42.66, rook_open_eg = -3, rook_semi_mg = 20.47, rook_semi_eg = 18.9;
  double king_attack = 0.2031, shield = 27.75, king_open_file = 18.38;
  // Per knight, bishop, rook or queen of ours that an enemy pawn attacks.
  double pawn_threat_mg = 37.5, pawn_threat_eg = 1.75;
  // Per knight of ours on an outpost: ranks 4-6 from our side, defended by a pawn of ours, no
  // enemy pawn on the adjacent files ahead that could chase it away.
  double outpost_mg = 0, outpost_eg = 0;
  // Per knight, bishop, rook or queen of ours that the enemy attacks and we do not defend.
  double hanging_mg = 0, hanging_eg = 0;
  // Per rook or queen of ours that an enemy knight or bishop attacks.
  double minor_threat_mg = 0, minor_threat_eg = 0;
};

// "name value" lines as in bots/eval/weights/chess_tapered.txt; errors name the file, line
// and an unknown name.
Expected<ChessTaperedWeights> load_chess_tapered_weights(const std::string& path);

struct ChessTaperedTerms {
  int mg = 0, eg = 0;  // side to move minus opponent
  int phase = 0;       // 0..24
};
ChessTaperedTerms chess_tapered_terms(const chess::Chess& position, const ChessTaperedWeights& w);
int chess_tapered(const chess::Chess& position, const ChessTaperedWeights& weights = {});

// The "tapered" heuristic from its parameters: weights=<file> first, then weights by name
// (e.g. passed_eg=1.2); an unknown name or a value that is not a number is an error naming it.
Expected<Heuristic<chess::Chess>> make_chess_tapered_heuristic(const GameOptions& params);

}  // namespace arena::eval
