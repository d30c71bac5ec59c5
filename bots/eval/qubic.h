#pragma once
// Qubic (4x4x4 tic-tac-toe) evaluation: the six-feature linear evaluation.
//
// Features, from the side to move's point of view, counted over the 76 lines:
//   [0..2] lines holding exactly 1, 2, 3 marks of the side to move and none of the opponent's
//   [3..5] the same for the opponent
// linear = sum of weight_i * feature_i, times kQubicScale (100) and rounded for the int the
// searches use. A finished game scores -kScoreWin / 0 / +kScoreWin for the side to move.
// Weights: compiled-in defaults equal to bots/eval/weights/qubic_default.txt (format described
// there), a file given by the parameter weights=<file>, and any of own1 own2 own3 opp1 opp2 opp3
// as parameters (applied after the file). Unknown parameters are errors naming them.

#include <array>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "bots/eval/heuristic.h"
#include "games/tictactoe/qubic.h"

namespace arena::eval {

inline constexpr double kQubicScale = 100.0;
inline constexpr std::array<std::string_view, 6> kQubicFeatureNames = {"own1", "own2", "own3",
                                                                       "opp1", "opp2", "opp3"};

struct QubicWeights {
  std::array<double, 6> w = {1, 5, 100, -1, -5, -40};  // in kQubicFeatureNames order
};

// The feature vector (for learning weights by regression).
std::array<double, 6> qubic_features(const tictactoe::Qubic& g);
// sum w_i * f_i, unscaled.
double qubic_linear_value(const tictactoe::Qubic& g, const QubicWeights& weights);
int qubic_linear(const tictactoe::Qubic& g, const QubicWeights& weights);

// Reads "name value" lines over `base`; the error names the file, the line and the problem.
Expected<QubicWeights> load_qubic_weights(const std::string& path, QubicWeights base = {});

std::vector<HeuristicInfo> heuristics_for(std::type_identity<tictactoe::Qubic>);
Expected<Heuristic<tictactoe::Qubic>> make_heuristic(std::type_identity<tictactoe::Qubic>,
                                                     std::string_view name,
                                                     const GameOptions& params);

}  // namespace arena::eval
