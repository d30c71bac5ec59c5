#pragma once
// The two properties of an ideal evaluation function, measured along games and paths.
//
// A Trajectory is one game (or one puzzle solution path) seen through one heuristic: the
// value h at each position, all from one fixed point of view (the first player's, or for a
// puzzle the negated cost to go, so higher is always better), and the true value v there
// (a game's final result +1 / 0 / -1 from the first player's view; for a puzzle minus the
// number of moves left on the optimal path). plies_left counts the moves still played.
//
// outcome_determination: positions grouped by plies left; per group the share of positions
//   where sign(h) = sign(v) (counted over v != 0 and h != 0) and the Pearson correlation of
//   h with v (NaN when either is constant in the group); plus the same over all positions.
//   A perfect heuristic scores 1.0 in both.
// move_invariance: |h(after) - h(before)| over every move of every trajectory; its mean,
//   median, 90th percentile and maximum, raw and divided by h's spread (the standard
//   deviation of h over all positions), and the share of moves that leave h unchanged.
//   A heuristic that never changes along good play scores 0.

#include <string>
#include <vector>

namespace arena::lab {

struct Trajectory {
  std::vector<double> h;        // one per position, start to end
  std::vector<double> v;        // the true value, same length
  std::vector<int> plies_left;  // same length
};

struct OutcomeBucket {
  std::string label;  // "1-4", "5-9", ..., "all"
  int min_plies = 1;   // plies left, from
  int max_plies = -1;  // to, inclusive; -1: no bound ("40+", "all")
  int positions = 0;
  double sign_agreement = 0;  // NaN when no position had v != 0 and h != 0
  double correlation = 0;     // NaN when h or v is constant
};

struct InvarianceStats {
  int moves = 0;
  double spread = 0;                              // standard deviation of h over all positions
  double mean = 0, median = 0, p90 = 0, max = 0;  // of |delta h|, raw
  double mean_norm = 0, median_norm = 0, p90_norm = 0, max_norm = 0;  // divided by spread
  double unchanged = 0;  // share of moves with delta h = 0
};

// Bucket bounds of plies left: [1,4] [5,9] [10,19] [20,39] [40,inf).
std::vector<OutcomeBucket> outcome_determination(const std::vector<Trajectory>& trajectories);
InvarianceStats move_invariance(const std::vector<Trajectory>& trajectories);

}  // namespace arena::lab
