#pragma once
// A game's linear evaluation for the learning lab: named features, their classical starting
// weights, the value of a win in the same units, and the weights-file format.
//
//   value(position) = sum_i weight_i * feature_i(position), from the side to move's view.
//
// Searches take int evaluations, so the lab's linear evaluation is round(kEvalScale * value):
// the scale keeps two decimals of the (real-valued) weights.
//
// Games with a feature set (bots/lab/feature_sets.h): chess (q r b n p), checkers (man king),
// qubic (own1 own2 own3 opp1 opp2 opp3), isolation (the named scores), othello (material
// mobility corners). Tests may build their own FeatureSet for a toy game.

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "games/core/expected.h"

namespace arena::lab {

inline constexpr int kMaxFeatures = 8;
inline constexpr double kEvalScale = 100.0;

struct FeatureVector {
  std::array<double, kMaxFeatures> v{};
  int size = 0;
};

template <class G>
struct FeatureSet {
  std::vector<std::string> names;                  // weights-file keys, in feature order
  std::function<FeatureVector(const G&)> compute;  // side to move's view; finite values
  std::vector<double> initial;                     // classical weights (the starting point)
  double win_value = 1;  // a won position, in weight units (loss = -win_value, draw = 0)
  // One side's feature counts in the start position (chess 1 2 2 2 8), so that
  // initial_material(w) = start_counts . w; win_value is one more than that under `initial`.
  // Empty when the features are not piece counts (qubic, isolation, othello): such a set
  // has no material scale to keep fixed (LearnOptions::fixed_scale).
  std::vector<double> start_counts;
  std::string file_header;  // '#' lines written above the weights; says who reads the file
  // What `arena learn` uses when the command line does not say: the settings measured to
  // converge for this game (bots/lab/README.md).
  std::string default_search = "alphabeta:depth=2";
  int default_batch_plies = 1400;
  bool default_fixed_scale = false;
};

inline double dot(const FeatureVector& f, const std::vector<double>& w) {
  double s = 0;
  for (int i = 0; i < f.size; ++i)
    s += f.v[static_cast<std::size_t>(i)] * w[static_cast<std::size_t>(i)];
  return s;
}

// One side's material in the start position under weights w (0 without start_counts).
template <class G>
double initial_material(const FeatureSet<G>& fs, const std::vector<double>& w) {
  double s = 0;
  for (std::size_t i = 0; i < fs.start_counts.size() && i < w.size(); ++i)
    s += fs.start_counts[i] * w[i];
  return s;
}

// The int evaluation the searches use: round(kEvalScale * w . f), clamped far inside the
// heuristic range so a wild weight vector can never look like a win score.
template <class G>
struct LinearEval {
  const FeatureSet<G>* features = nullptr;
  std::vector<double> weights;
  int operator()(const G& g) const {
    const double v = std::round(kEvalScale * dot(features->compute(g), weights));
    return static_cast<int>(std::clamp(v, -400'000.0, 400'000.0));
  }
};

// The weights file: the header, then "name value" per line (the format of
// bots/eval/weights/*.txt).
std::string weights_file_text(const std::vector<std::string>& names,
                              const std::vector<double>& weights, const std::string& header);

// Reads weights in that format (bots/eval/weights_file.h), one for every name and nothing else,
// returned in `names` order. The error names the line, the unknown, repeated or missing name,
// or the value that is not a finite number.
Expected<std::vector<double>> parse_weights_text(const std::string& text,
                                                 const std::vector<std::string>& names);

}  // namespace arena::lab
