#pragma once
// Chess heuristics. Scores are centipawns from the side to move's point of view.
//
//   material      sum of piece values (default q=9 r=5 b=3 n=3 p=1 pawns), ours minus theirs
//   piece_square  material plus Michniewski's "Simplified Evaluation Function" tables
//   mobility      w centipawns (default 10) per pseudo-legal piece move, ours minus theirs
//   combined      piece_square plus mobility (default w=5)
//   tapered       the chess_strong preset's evaluation: a middlegame and an endgame score
//                 blended by the game phase (24 with all pieces on: knights and bishops 1,
//                 rooks 2, queens 4; 0 with pawns and kings only) of material, piece-square
//                 values, safe mobility (squares not attacked by enemy pawns), king safety
//                 (attack units of two or more pieces near the enemy king, pawn shield, open
//                 files by the king), pawn structure (doubled, isolated, passed pawns by rank,
//                 half as much in the endgame when the stop square is taken, king distance to
//                 it), bishop pair, rooks on open or half-open files, and pieces attacked
//                 by enemy pawns (pawn_threat_mg/_eg, 0 unless set). Weights by name
//                 (bots/eval/weights/chess_tapered.txt has them all with their defaults) from
//                 weights=<file> or as parameters, e.g. passed_eg=1.2.
// Parameters: q= r= b= n= p= (pawns), weights=<file> (lines "q 9", see
// bots/eval/weights/chess_classic.txt), w= (mobility); unknown keys are an error naming them.
//
// tactical_estimate is the separate "search heuristic" d of best-first search after Harris
// (1974): an estimate, in centipawns and never negative, of how much the evaluation may still
// swing because of pending tactics, for both sides:
//   d = best gain available to the side to move (a capture of an undefended piece gains its
//       value; of a defended one, victim minus attacker when positive; a promotion gains 800)
//     + half the largest such gain the opponent threatens against us
//     + 25 if the side to move has a checking move.
// It is 0 in quiet positions (no profitable capture, no promotion, no check) and grows with
// the stakes, so a best-first search expands tactical lines first and stops at quiet tips.

#include <array>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "bots/eval/heuristic.h"
#include "games/chess/chess.h"

namespace arena::eval {

struct ChessMaterialWeights {
  double queen = 9, rook = 5, bishop = 3, knight = 3, pawn = 1;  // in pawns
};

// Reads "key value" lines (q r b n p; '#' comments); the error names the file and line.
Expected<ChessMaterialWeights> load_chess_weights(const std::string& path);

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

// Queen, rook, bishop, knight and pawn count differences, side to move minus opponent.
std::array<double, 5> chess_material_features(const chess::Chess& position);

int chess_material(const chess::Chess& position, const ChessMaterialWeights& weights);
// Material plus piece-square tables.
int chess_piece_square(const chess::Chess& position, const ChessMaterialWeights& weights);
// Pseudo-legal piece move counts (knights, bishops, rooks, queens, king; pawn pushes and
// captures), side to move minus opponent.
int chess_mobility_count(const chess::Chess& position);
int tactical_estimate(const chess::Chess& position);
// Static exchange evaluation of a capture or promotion, in centipawns for the side making it
// (pawn 100, knight and bishop 325, rook 500, queen 975): the material it wins after the
// best sequence of recaptures on its square, cheapest attacker first, each side free to stop
// (x-rays through the pieces that have moved are seen; pins and checks are not). 0 for a
// quiet move. Alpha-beta's quiescence skips the captures below 0 (bots/search/alphabeta.h).
int static_exchange(const chess::Chess& position, const chess::Move& move);

std::vector<HeuristicInfo> heuristics_for(std::type_identity<chess::Chess>);
Expected<Heuristic<chess::Chess>> make_heuristic(std::type_identity<chess::Chess>,
                                                 std::string_view name, const GameOptions& params);

}  // namespace arena::eval
