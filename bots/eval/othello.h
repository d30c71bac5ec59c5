#pragma once
// Othello heuristics, each from the side to move's point of view (positive = good for it).
//
//   material          disc count: own discs minus the opponent's
//   mobility          own legal moves minus the opponent's (each counted as if to move;
//                     passes not counted)
//   corners           own corner discs minus the opponent's
//   weighted_squares  sum of the classic square weights (Norvig, "Paradigms of AI
//                     Programming", 1992, ch. 18: corners 120, X-squares -40 ...) over own
//                     discs minus the same over the opponent's
//   combined          material * m + mobility * mob + corners * c + weighted_squares * w with
//                     params material= (default 1), mobility= (10), corners= (100),
//                     weighted_squares= (1); the weighted sum is rounded to an int
// Only `combined` takes parameters; unknown keys are an error naming them.
// Values stay far inside kScoreHeuristicMax for any weights below 1000.

#include <array>
#include <string_view>
#include <type_traits>
#include <vector>

#include "bots/eval/heuristic.h"
#include "games/othello/othello.h"

namespace arena::eval {

// Norvig's table, indexed by square (a1 = 0 ... h8 = 63); it is symmetric.
inline constexpr std::array<int, 64> kOthelloSquareWeights = {
    120, -20, 20, 5,  5,  20, -20, 120,  //
    -20, -40, -5, -5, -5, -5, -40, -20,  //
    20,  -5,  15, 3,  3,  15, -5,  20,   //
    5,   -5,  3,  3,  3,  3,  -5,  5,    //
    5,   -5,  3,  3,  3,  3,  -5,  5,    //
    20,  -5,  15, 3,  3,  15, -5,  20,   //
    -20, -40, -5, -5, -5, -5, -40, -20,  //
    120, -20, 20, 5,  5,  20, -20, 120,  //
};

int othello_material(const othello::Othello& game);
int othello_mobility(const othello::Othello& game);
int othello_corners(const othello::Othello& game);
int othello_weighted_squares(const othello::Othello& game);

struct OthelloWeights {
  double material = 1, mobility = 10, corners = 100, weighted_squares = 1;
};
int othello_combined(const othello::Othello& game, const OthelloWeights& weights);

// {material, mobility, corners} as above, for learning weights by regression.
std::array<double, 3> othello_features(const othello::Othello& game);

std::vector<HeuristicInfo> heuristics_for(std::type_identity<othello::Othello>);
Expected<Heuristic<othello::Othello>> make_heuristic(std::type_identity<othello::Othello>,
                                                     std::string_view name,
                                                     const GameOptions& params);

}  // namespace arena::eval
