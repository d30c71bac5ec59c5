#include "bots/lab/feature_sets.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "bots/eval/checkers.h"
#include "bots/eval/chess.h"
#include "bots/eval/isolation.h"
#include "bots/eval/othello.h"
#include "bots/eval/qubic.h"
#include "bots/eval/weights_file.h"

namespace arena::lab {
namespace {

template <std::size_t N>
FeatureVector to_vector(const std::array<double, N>& a) {
  static_assert(N <= kMaxFeatures);
  FeatureVector f;
  f.size = static_cast<int>(N);
  for (std::size_t i = 0; i < N; ++i) f.v[i] = std::isfinite(a[i]) ? a[i] : 0.0;
  return f;
}

}  // namespace

std::string weights_file_text(const std::vector<std::string>& names,
                              const std::vector<double>& weights, const std::string& header) {
  std::string out = header;
  for (std::size_t i = 0; i < names.size() && i < weights.size(); ++i) {
    char line[96];
    std::snprintf(line, sizeof line, "%s %.6g\n", names[i].c_str(), weights[i]);
    out += line;
  }
  return out;
}

Expected<std::vector<double>> parse_weights_text(const std::string& text,
                                                 const std::vector<std::string>& names) {
  auto lines = eval::read_weight_lines(text);
  if (!lines) return Error{lines.error()};
  std::vector<double> weights(names.size(), 0.0);
  std::vector<bool> seen(names.size(), false);
  for (const eval::WeightLine& l : *lines) {
    const auto it = std::find(names.begin(), names.end(), l.name);
    if (it == names.end()) {
      std::string known;
      for (const auto& n : names) known += (known.empty() ? "" : " ") + n;
      return make_error(l.where + "unknown weight '" + l.name + "' (known: " + known + ")");
    }
    const auto i = static_cast<std::size_t>(it - names.begin());
    if (seen[i]) return make_error(l.where + "weight '" + l.name + "' given twice");
    weights[i] = l.value;
    seen[i] = true;
  }
  for (std::size_t i = 0; i < names.size(); ++i)
    if (!seen[i]) return make_error("weight '" + names[i] + "' is missing");
  return weights;
}

FeatureSet<chess::Chess> feature_set(std::type_identity<chess::Chess>) {
  FeatureSet<chess::Chess> fs;
  fs.names = {"q", "r", "b", "n", "p"};
  fs.compute = [](const chess::Chess& g) { return to_vector(eval::chess_material_features(g)); };
  fs.initial = {9, 5, 3, 3, 1};
  fs.win_value = 40;  // 1 + 9 + 2*5 + 2*3 + 2*3 + 8*1
  fs.start_counts = {1, 2, 2, 2, 8};
  // With 1400 positions a fit sees a queen trade in a few dozen rows and the weights random-walk;
  // 5600 with the scale held converged in 10 of 10 runs (seeds 1-5, classical or all-ones start).
  fs.default_search = "alphabeta:depth=2,qsearch";  // the procedure
  fs.default_batch_plies = 5600;
  fs.default_fixed_scale = true;
  fs.file_header =
      "# Chess material weights in pawns learned by `arena learn` (bots/lab/README.md).\n"
      "# Read by the chess material heuristic: eval=material,weights=<this file>.\n";
  return fs;
}

FeatureSet<checkers::Checkers> feature_set(std::type_identity<checkers::Checkers>) {
  FeatureSet<checkers::Checkers> fs;
  fs.names = {"man", "king"};
  fs.compute = [](const checkers::Checkers& g) { return to_vector(eval::checkers_features(g)); };
  fs.initial = {1, 1.5};
  fs.win_value = 13;  // 1 + 12 men
  fs.start_counts = {12, 0};
  fs.file_header =
      "# Checkers material weights in men learned by `arena learn` (bots/lab/README.md).\n"
      "# Use as eval=material,man=<100*man>,king=<100*king>.\n";
  return fs;
}

FeatureSet<tictactoe::Qubic> feature_set(std::type_identity<tictactoe::Qubic>) {
  FeatureSet<tictactoe::Qubic> fs;
  for (std::string_view n : eval::kQubicFeatureNames) fs.names.emplace_back(n);
  fs.compute = [](const tictactoe::Qubic& g) { return to_vector(eval::qubic_features(g)); };
  fs.initial = {1, 1, 1, 1, 1, 1};
  fs.win_value = 77;  // 1 + 76 lines
  fs.file_header =
      "# Qubic six-feature weights learned by `arena learn` (bots/lab/README.md).\n"
      "# Read by eval=linear,weights=<this file>.\n";
  return fs;
}

FeatureSet<isolation::Isolation> feature_set(std::type_identity<isolation::Isolation>) {
  FeatureSet<isolation::Isolation> fs;
  fs.names = {"open_move", "improved", "center", "custom", "custom_2", "custom_3"};
  fs.compute = [](const isolation::Isolation& g) {
    return to_vector(std::array<double, 6>{
        static_cast<double>(eval::open_move_score(g)), static_cast<double>(eval::improved_score(g)),
        eval::center_score_value(g), eval::custom_score_value(g), eval::custom_score_2_value(g),
        eval::custom_score_3_value(g)});
  };
  fs.initial = {0, 1, 0, 0, 0, 0};
  fs.win_value = 17;  // 1 + 8 + 8, see feature_sets.h
  fs.file_header =
      "# Isolation weights of the named scores learned by `arena learn` (bots/lab/README.md).\n";
  return fs;
}

FeatureSet<othello::Othello> feature_set(std::type_identity<othello::Othello>) {
  FeatureSet<othello::Othello> fs;
  fs.names = {"material", "mobility", "corners"};
  fs.compute = [](const othello::Othello& g) { return to_vector(eval::othello_features(g)); };
  fs.initial = {1, 10, 100};
  fs.win_value = 65;  // 1 + 64 discs
  fs.file_header =
      "# Othello weights learned by `arena learn` (bots/lab/README.md).\n"
      "# Use as eval=combined,material=..,mobility=..,corners=..,weighted_squares=0.\n";
  return fs;
}

}  // namespace arena::lab
