#include <gtest/gtest.h>

#include <cmath>

#include "bots/lab/comparisons.h"
#include "bots/lab/measures.h"

namespace arena::lab {
namespace {

// A heuristic equal to the final result predicts it perfectly at every distance from the end.
TEST(OutcomeDetermination, PerfectHeuristicScoresOne) {
  std::vector<Trajectory> ts;
  for (int g = 0; g < 6; ++g) {
    const double result = g % 3 == 0 ? 1.0 : g % 3 == 1 ? -1.0 : 0.0;
    Trajectory t;
    const int n = 45;
    for (int i = 0; i < n; ++i) {
      t.h.push_back(result);
      t.v.push_back(result);
      t.plies_left.push_back(n - i);
    }
    ts.push_back(t);
  }
  const auto buckets = outcome_determination(ts);
  ASSERT_EQ(buckets.size(), 6u);  // five ranges of plies left and "all"
  for (const OutcomeBucket& b : buckets) {
    EXPECT_DOUBLE_EQ(b.sign_agreement, 1.0) << b.label;
    EXPECT_NEAR(b.correlation, 1.0, 1e-12) << b.label;
  }
}

// Each bucket says its range of plies left in numbers as well as in its label (the store keeps
// the numbers): 1-4, 5-9, 10-19, 20-39, 40 and more, then all (from 1, no bound).
TEST(OutcomeDetermination, BucketsCarryTheirRangeOfPliesLeft) {
  Trajectory t;
  for (int i = 0; i < 45; ++i) {
    t.h.push_back(1);
    t.v.push_back(1);
    t.plies_left.push_back(45 - i);
  }
  const auto buckets = outcome_determination({t});
  ASSERT_EQ(buckets.size(), 6u);
  const int bounds[6][2] = {{1, 4}, {5, 9}, {10, 19}, {20, 39}, {40, -1}, {1, -1}};
  for (std::size_t i = 0; i < buckets.size(); ++i) {
    EXPECT_EQ(buckets[i].min_plies, bounds[i][0]) << buckets[i].label;
    EXPECT_EQ(buckets[i].max_plies, bounds[i][1]) << buckets[i].label;
  }
  EXPECT_EQ(buckets[0].positions, 4);
  EXPECT_EQ(buckets[4].positions, 6);
}

TEST(OutcomeDetermination, ReversedHeuristicScoresMinusOne) {
  Trajectory win{{-2, -1}, {1, 1}, {2, 1}};
  Trajectory loss{{3, 1}, {-1, -1}, {2, 1}};
  const auto buckets = outcome_determination({win, loss});
  EXPECT_DOUBLE_EQ(buckets.back().sign_agreement, 0.0);
  EXPECT_LT(buckets.back().correlation, 0.0);
}

TEST(MoveInvariance, ConstantHeuristicNeverChanges) {
  Trajectory t{{5, 5, 5, 5}, {1, 1, 1, 1}, {4, 3, 2, 1}};
  const InvarianceStats s = move_invariance({t});
  EXPECT_EQ(s.moves, 3);
  EXPECT_EQ(s.mean, 0.0);
  EXPECT_EQ(s.unchanged, 1.0);
}

// A move slides one tile one square, so Manhattan distance changes by exactly 1 per move
// (down along most of an optimal path, up where the path must detour around a conflict).
TEST(MoveInvariance, ManhattanChangesByExactlyOneAlongOptimalFifteenPuzzlePaths) {
  ComparisonOptions o;
  o.puzzle_paths = 4;
  o.puzzle_walk = 30;
  const Comparison c = fifteen_puzzle_manhattan(o);
  ASSERT_EQ(c.trajectories.size(), 4u);
  for (const Trajectory& t : c.trajectories)
    for (std::size_t i = 1; i < t.h.size(); ++i) EXPECT_EQ(std::abs(t.h[i] - t.h[i - 1]), 1.0);
  EXPECT_EQ(c.invariance.mean, 1.0);
  EXPECT_EQ(c.invariance.max, 1.0);
  EXPECT_EQ(c.invariance.unchanged, 0.0);
}

// The theory's predictions, computed rather than assumed: Manhattan is more move-invariant in
// the 15-puzzle than 3-D Manhattan in the cube, checkers material more than Othello discs,
// relative to each heuristic's own spread.
TEST(FourComparisons, OrderAsTheTheoryPredicts) {
  ComparisonOptions o;
  o.puzzle_paths = 4;
  o.puzzle_walk = 30;
  o.cube_paths = 10;
  o.cube_scramble = 10;
  o.games = 4;
  o.depth = 1;
  const std::vector<Comparison> cs = four_comparisons(o);
  ASSERT_EQ(cs.size(), 4u);
  for (const Comparison& c : cs) ASSERT_GT(c.invariance.moves, 0) << c.name;
  EXPECT_LT(cs[0].invariance.mean_norm, cs[1].invariance.mean_norm);
  EXPECT_LT(cs[0].invariance.max, cs[1].invariance.max);
  EXPECT_LT(cs[2].invariance.mean_norm, cs[3].invariance.mean_norm);
  EXPECT_LT(cs[2].invariance.median, cs[3].invariance.median);
  EXPECT_GT(cs[2].invariance.unchanged, cs[3].invariance.unchanged);
}

}  // namespace
}  // namespace arena::lab
