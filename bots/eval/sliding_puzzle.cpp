#include "bots/eval/sliding_puzzle.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

namespace arena::eval {
namespace {

using puzzles::SlidingPuzzle;

// Tiles in one line that belong to it, in order; returns how many must leave the line
// (the line's length minus its longest increasing subsequence of goal positions).
int conflicts_in_line(const int* goal_positions, int count) {
  int best[SlidingPuzzle::kMaxSize] = {};
  int longest = 0;
  for (int i = 0; i < count; ++i) {
    best[i] = 1;
    for (int j = 0; j < i; ++j)
      if (goal_positions[j] < goal_positions[i]) best[i] = std::max(best[i], best[j] + 1);
    longest = std::max(longest, best[i]);
  }
  return count - longest;
}


}  // namespace

int misplaced_tiles(const SlidingPuzzle& p) {
  int n = 0;
  for (int c = 0; c < p.cells(); ++c)
    if (p.tile_at(c) != 0 && p.tile_at(c) != c) ++n;
  return n;
}

int manhattan_distance(const SlidingPuzzle& p) {
  const int s = p.size();
  int sum = 0;
  for (int c = 0; c < p.cells(); ++c) {
    const int t = p.tile_at(c);
    if (t == 0) continue;
    sum += std::abs(c / s - t / s) + std::abs(c % s - t % s);
  }
  return sum;
}

int linear_conflict(const SlidingPuzzle& p) {
  const int s = p.size();
  int extra = 0;
  int line[SlidingPuzzle::kMaxSize];
  for (int r = 0; r < s; ++r) {  // rows: tiles whose goal row is r, by goal column
    int n = 0;
    for (int c = 0; c < s; ++c) {
      const int t = p.tile_at(r * s + c);
      if (t != 0 && t / s == r) line[n++] = t % s;
    }
    extra += conflicts_in_line(line, n);
  }
  for (int c = 0; c < s; ++c) {  // columns: tiles whose goal column is c, by goal row
    int n = 0;
    for (int r = 0; r < s; ++r) {
      const int t = p.tile_at(r * s + c);
      if (t != 0 && t % s == c) line[n++] = t / s;
    }
    extra += conflicts_in_line(line, n);
  }
  return manhattan_distance(p) + 2 * extra;
}

double fuzzy_goal_count(const SlidingPuzzle& p, double tau, std::optional<double> theta) {
  double value = 1.0;
  bool first = true;
  for (int c = 0; c < p.cells(); ++c) {
    const int t = p.tile_at(c);
    if (t == 0) continue;
    const double atom = t == c ? tau : 1.0 - tau;
    if (first) {
      value = atom;
      first = false;
      continue;
    }
    const double product = value * atom;
    value = theta && std::min(value, atom) > 0.5 ? std::max(product, *theta) : product;
  }
  return value;
}

Expected<SlidingCostHeuristic> make_sliding_cost_heuristic(std::string_view name) {
  if (name == "misplaced" || name == "misplaced_tiles")
    return SlidingCostHeuristic(misplaced_tiles);
  if (name == "manhattan" || name == "manhattan_distance")
    return SlidingCostHeuristic(manhattan_distance);
  if (name == "linear_conflict") return SlidingCostHeuristic(linear_conflict);
  return make_error("unknown sliding-puzzle heuristic '" + std::string(name) +
                    "' (known: misplaced, manhattan, linear_conflict, pdb)");
}

std::vector<HeuristicInfo> heuristics_for(std::type_identity<SlidingPuzzle>) {
  return {{"misplaced_tiles", "minus the tiles off their goal cell"},
          {"manhattan_distance", "minus the sum of the tiles' Manhattan distances"},
          {"linear_conflict", "minus Manhattan + 2 per linear conflict"},
          {"fuzzy_goal_count", "fuzzy truth of the goal formula x 1e5 (tau, theta)"}};
}

Expected<Heuristic<SlidingPuzzle>> make_heuristic(std::type_identity<SlidingPuzzle>,
                                                  std::string_view name,
                                                  const GameOptions& params) {
  if (name == "fuzzy_goal_count") {
    double tau = 0.9;
    std::optional<double> theta;
    for (const auto& [k, v] : params) {
      auto x = parse_param_number(k, v);
      if (!x) return make_error(x.error());
      if (k == "tau") {
        tau = *x;
      } else if (k == "theta") {
        theta = *x;
      } else {
        return make_error("unknown parameter '" + k + "' for fuzzy_goal_count (known: tau, theta)");
      }
    }
    return Heuristic<SlidingPuzzle>([tau, theta](const SlidingPuzzle& p) {
      return static_cast<int>(std::lround(1e5 * fuzzy_goal_count(p, tau, theta)));
    });
  }
  if (auto none = expect_no_params(name, params); !none) return make_error(none.error());
  auto cost = make_sliding_cost_heuristic(name);
  if (!cost) return make_error(cost.error());
  return Heuristic<SlidingPuzzle>([f = *cost](const SlidingPuzzle& p) { return -f(p); });
}

}  // namespace arena::eval
