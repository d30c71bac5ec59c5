#include "bots/eval/qubic.h"

#include "bots/eval/weights_file.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <set>

namespace arena::eval {
namespace {

using tictactoe::Qubic;

int feature_index(std::string_view name) {
  for (std::size_t i = 0; i < kQubicFeatureNames.size(); ++i)
    if (kQubicFeatureNames[i] == name) return static_cast<int>(i);
  return -1;
}

}  // namespace

std::array<double, 6> qubic_features(const Qubic& g) {
  const Player me = g.side_to_move();
  const std::uint64_t mine = g.marks(me);
  const std::uint64_t theirs = g.marks(opponent(me));
  std::array<double, 6> f{};
  for (auto line : tictactoe::kQubicLines) {
    const int m = std::popcount(mine & line);
    const int t = std::popcount(theirs & line);
    if (t == 0 && m >= 1 && m <= 3) f[std::size_t(m - 1)] += 1;
    if (m == 0 && t >= 1 && t <= 3) f[std::size_t(3 + t - 1)] += 1;
  }
  return f;
}

double qubic_linear_value(const Qubic& g, const QubicWeights& weights) {
  const auto f = qubic_features(g);
  double sum = 0;
  for (std::size_t i = 0; i < f.size(); ++i) sum += weights.w[i] * f[i];
  return sum;
}

int qubic_linear(const Qubic& g, const QubicWeights& weights) {
  const Outcome o = g.outcome();
  if (o.is_terminal()) {
    if (o.result == Result::kDraw) return 0;
    const bool first_won = o.result == Result::kFirstWins;
    return first_won == (g.side_to_move() == Player::kFirst) ? kScoreWin : -kScoreWin;
  }
  return static_cast<int>(std::lround(qubic_linear_value(g, weights) * kQubicScale));
}

Expected<QubicWeights> load_qubic_weights(const std::string& path, QubicWeights base) {
  auto lines = read_weights_file(path);
  if (!lines) return make_error(lines.error());
  std::set<std::string> seen;
  for (const WeightLine& l : *lines) {
    const int i = feature_index(l.name);
    if (i < 0)
      return make_error(l.where + "unknown weight '" + l.name +
                        "' (known: own1 own2 own3 opp1 opp2 opp3)");
    if (!seen.insert(l.name).second) return make_error(l.where + "'" + l.name + "' given twice");
    base.w[std::size_t(i)] = l.value;
  }
  return base;
}

std::vector<HeuristicInfo> heuristics_for(std::type_identity<Qubic>) {
  return {{"linear", "six-feature linear evaluation: open lines with 1-3 own/opponent marks"}};
}

Expected<Heuristic<Qubic>> make_heuristic(std::type_identity<Qubic>, std::string_view name,
                                          const GameOptions& params) {
  if (name != "linear") return make_error("unknown qubic heuristic '" + std::string(name) + "'");
  QubicWeights weights;
  if (auto it = params.find("weights"); it != params.end()) {
    auto loaded = load_qubic_weights(it->second);
    if (!loaded) return make_error(loaded.error());
    weights = *loaded;
  }
  for (const auto& [key, text] : params) {
    if (key == "weights") continue;
    const int i = feature_index(key);
    if (i < 0)
      return make_error("unknown parameter '" + key +
                        "' (linear knows weights, own1 own2 own3 opp1 opp2 opp3)");
    auto v = parse_param_number(key, text);
    if (!v) return make_error(v.error());
    weights.w[std::size_t(i)] = *v;
  }
  return Heuristic<Qubic>([weights](const Qubic& g) { return qubic_linear(g, weights); });
}

}  // namespace arena::eval
