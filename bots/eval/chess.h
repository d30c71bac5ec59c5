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
//                 it), bishop pair, rooks on open or half-open files, pieces attacked
//                 by enemy pawns (pawn_threat_mg/_eg), and, 0 unless set, knights on
//                 outposts (outpost_mg/_eg), attacked undefended pieces (hanging_mg/_eg),
//                 rooks and queens attacked by minor pieces (minor_threat_mg/_eg). Weights
//                 by name (bots/eval/weights/chess_tapered.txt has them all with their
//                 defaults) from weights=<file> or as parameters, e.g. passed_eg=1.2.
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

#include "bots/eval/chess_tapered.h"
#include "bots/eval/heuristic.h"
#include "games/chess/chess.h"

namespace arena::eval {

struct ChessMaterialWeights {
  double queen = 9, rook = 5, bishop = 3, knight = 3, pawn = 1;  // in pawns
};

// Reads "key value" lines (q r b n p; '#' comments); the error names the file and line.
Expected<ChessMaterialWeights> load_chess_weights(const std::string& path);

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
