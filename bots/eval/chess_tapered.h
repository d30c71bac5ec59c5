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
struct ChessTaperedWeights {
  std::array<double, 6> material_mg{85, 325, 335, 470, 980, 0};
  std::array<double, 6> material_eg{105, 305, 320, 525, 960, 0};
  std::array<double, 6> mobility_mg{0, 4, 5, 2, 1, 0};
  std::array<double, 6> mobility_eg{0, 4, 5, 4, 2, 0};
  double bishop_pair_mg = 30, bishop_pair_eg = 50;
  double doubled_mg = 10, doubled_eg = 20;
  double isolated_mg = 10, isolated_eg = 15;
  double passed_mg = 1, passed_eg = 1, passed_king = 5;
  double rook_open_mg = 25, rook_open_eg = 10, rook_semi_mg = 12, rook_semi_eg = 6;
  double king_attack = 1.0, shield = 12, king_open_file = 15;
  // Per knight, bishop, rook or queen of ours that an enemy pawn attacks.
  double pawn_threat_mg = 0, pawn_threat_eg = 0;
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
