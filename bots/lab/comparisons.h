#pragma once
// The four comparisons of the theory (issue 10), as numbers:
//
//   15-puzzle, Manhattan distance   along optimal IDA* solutions of random-walk scrambles
//   Rubik's cube, 3-D Manhattan     along random scrambles played backwards to the solved cube
//                                   (face-turn metric; not necessarily optimal paths)
//   checkers, material              along self-play games (alpha-beta depth 2 on material,
//                                   men 1, kings 1.5), after a few random opening plies
//   Othello, discs                  along self-play games (the same search on disc count)
//
// For the puzzles h is the negated distance estimate and v the negated moves left, so higher
// is better as in the games. The theory predicts Manhattan is far more move-invariant than
// 3-D Manhattan (a move changes it by exactly 1; a twist moves 8 cubies), and checkers
// material more than Othello discs (one capture per move against up to 18 flips + 1).

#include <cstdint>
#include <string>
#include <vector>

#include "bots/lab/measures.h"

namespace arena::lab {

struct ComparisonOptions {
  int puzzle_paths = 12;
  int puzzle_walk = 40;  // random-walk length of the 15-puzzle scrambles
  int cube_paths = 30;
  int cube_scramble = 12;
  int games = 12;
  int depth = 2;
  std::uint64_t seed = 1;
};

struct Comparison {
  std::string name;       // "15-puzzle manhattan"
  std::string positions;  // where the positions came from
  std::vector<Trajectory> trajectories;
  InvarianceStats invariance;
  std::vector<OutcomeBucket> outcome;
};

Comparison fifteen_puzzle_manhattan(const ComparisonOptions& o);
Comparison rubik_manhattan_3d(const ComparisonOptions& o);
Comparison checkers_material_comparison(const ComparisonOptions& o);
Comparison othello_discs_comparison(const ComparisonOptions& o);

// All four, in the order above.
std::vector<Comparison> four_comparisons(const ComparisonOptions& o);

}  // namespace arena::lab
