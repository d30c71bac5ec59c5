#include "bots/eval/isolation.h"

#include <array>
#include <cmath>
#include <limits>
#include <string>

namespace arena::eval {
namespace {

using isolation::Isolation;

constexpr double abs_of(double v) {
  return v < 0 ? -v : v;
}

// weight(x, y) = wx * wy, wx = 1 - |x - cx| / ((w-1)/2) * 0.5, for every size and square.
constexpr int kSizes = Isolation::kMaxSize - Isolation::kMinSize + 1;
constexpr auto kWeights = [] {
  std::array<std::array<double, Isolation::kMaxSquares>, kSizes> table{};
  for (int size = Isolation::kMinSize; size <= Isolation::kMaxSize; ++size) {
    const double half = (size - 1) / 2.0;
    for (int sq = 0; sq < size * size; ++sq) {
      const double wx = 1.0 - abs_of(Isolation::file_of(sq, size) - half) / half * 0.5;
      const double wy = 1.0 - abs_of(Isolation::rank_of(sq, size) - half) / half * 0.5;
      table[size - Isolation::kMinSize][sq] = wx * wy;
    }
  }
  return table;
}();

bool lost(const Isolation& g) {
  return g.num_moves_for(g.side_to_move()) == 0;
}

// weight of p's square; 1.0 before its placement.
double own_weight(const Isolation& g, Player p) {
  const int sq = g.square_of(p);
  return sq == Isolation::kNoSquare ? 1.0 : directional_weight(sq, g.size());
}

double target_weights(const Isolation& g, Player p) {
  double sum = 0;
  for (isolation::Mask m = g.move_targets(p); m; m &= m - 1)
    sum += directional_weight(isolation::lowest_square(m), g.size());
  return sum;
}

int scaled(double value) {
  if (std::isinf(value)) return value > 0 ? kScoreWin : -kScoreWin;
  return static_cast<int>(std::lround(value * kIsolationScale));
}

constexpr double kLoss = -std::numeric_limits<double>::infinity();

}  // namespace

double directional_weight(int square, int size) {
  return kWeights[size - Isolation::kMinSize][square];
}

int open_move_score(const Isolation& g) {
  if (lost(g)) return -kScoreWin;
  return g.num_moves_for(g.side_to_move());
}

double center_score_value(const Isolation& g) {
  if (lost(g)) return kLoss;
  const int sq = g.square_of(g.side_to_move());
  if (sq == Isolation::kNoSquare) return 0.0;
  const double half = (g.size() - 1) / 2.0;
  const double dx = Isolation::file_of(sq, g.size()) - half;
  const double dy = Isolation::rank_of(sq, g.size()) - half;
  return dx * dx + dy * dy;
}

int center_score(const Isolation& g) {
  return scaled(center_score_value(g));
}

int improved_score(const Isolation& g) {
  if (lost(g)) return -kScoreWin;
  const Player me = g.side_to_move();
  return g.num_moves_for(me) - g.num_moves_for(opponent(me));
}

double custom_score_value(const Isolation& g) {
  if (lost(g)) return kLoss;
  const Player me = g.side_to_move();
  return g.num_moves_for(me) * own_weight(g, me);
}

double custom_score_2_value(const Isolation& g) {
  if (lost(g)) return kLoss;
  const Player me = g.side_to_move();
  const Player them = opponent(me);
  return g.num_moves_for(me) * own_weight(g, me) - g.num_moves_for(them) * own_weight(g, them);
}

double custom_score_3_value(const Isolation& g) {
  if (lost(g)) return kLoss;
  const Player me = g.side_to_move();
  return target_weights(g, me) - target_weights(g, opponent(me));
}

int custom_score(const Isolation& g) {
  return scaled(custom_score_value(g));
}
int custom_score_2(const Isolation& g) {
  return scaled(custom_score_2_value(g));
}
int custom_score_3(const Isolation& g) {
  return scaled(custom_score_3_value(g));
}

std::vector<HeuristicInfo> heuristics_for(std::type_identity<Isolation>) {
  return {
      {"improved_score", "own legal moves minus the opponent's"},
      {"open_move_score", "own legal moves"},
      {"center_score", "squared distance of own piece from the centre (x1000)"},
      {"custom_score", "own moves times the directional weight of own square (x1000)"},
      {"custom_score_2", "own moves * weight(own) - opponent moves * weight(opponent) (x1000)"},
      {"custom_score_3", "weights of own move targets minus the opponent's (x1000)"},
  };
}

Expected<Heuristic<Isolation>> make_heuristic(std::type_identity<Isolation>, std::string_view name,
                                              const GameOptions& params) {
  if (auto none = expect_no_params(name, params); !none) return make_error(none.error());
  if (name == "open_move_score")
    return Heuristic<Isolation>([](const Isolation& g) { return open_move_score(g); });
  if (name == "center_score")
    return Heuristic<Isolation>([](const Isolation& g) { return center_score(g); });
  if (name == "improved_score")
    return Heuristic<Isolation>([](const Isolation& g) { return improved_score(g); });
  if (name == "custom_score")
    return Heuristic<Isolation>([](const Isolation& g) { return custom_score(g); });
  if (name == "custom_score_2")
    return Heuristic<Isolation>([](const Isolation& g) { return custom_score_2(g); });
  if (name == "custom_score_3")
    return Heuristic<Isolation>([](const Isolation& g) { return custom_score_3(g); });
  return make_error("unknown isolation heuristic '" + std::string(name) + "'");
}

}  // namespace arena::eval
