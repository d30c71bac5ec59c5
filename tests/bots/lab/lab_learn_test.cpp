#include "bots/lab/learn.h"

#include <gtest/gtest.h>

#include "bots/lab/feature_sets.h"
#include "games/chess/chess.h"
#include "tests/bots/search_toy_games.h"

namespace arena::lab {
namespace {

// Nim with one feature, +1 if the side to move wins in theory and -1 if it loses. A depth-1
// search backs up +w from a winning position and -w from a losing one, except that a position
// one move from the end backs up the win value W. So each fit is a weighted mean of w and W,
// and the only fixed point is w = W: the loop must converge there.
FeatureSet<test::Nim> nim_features() {
  FeatureSet<test::Nim> fs;
  fs.names = {"winning"};
  fs.compute = [](const test::Nim& g) {
    FeatureVector f;
    f.size = 1;
    f.v[0] = g.mover_loses_in_theory() ? -1.0 : 1.0;
    return f;
  };
  fs.initial = {1};
  fs.win_value = 10;
  return fs;
}

TEST(Learn, ConvergesOnNimToTheWinValue) {
  LearnOptions o;
  o.depth = 1;
  o.batch_plies = 200;
  o.move_cap = 100;
  o.opening_plies = 2;
  o.iterations = 1000;
  o.tolerance = 1e-5;
  auto r = learn(test::Nim(11, 6), nim_features(), o);
  ASSERT_TRUE(r) << r.error();
  EXPECT_TRUE(r->converged);
  EXPECT_LT(r->iterations.size(), 1000u);
  // The search sees round(kEvalScale * w) / kEvalScale, so the fixed point sits within
  // 0.5 / kEvalScale / p of W, p (the share of positions one move from the end) being
  // about a fifth here: 0.05 leaves room for that and the stopping tolerance.
  EXPECT_NEAR(r->weights[0], 10.0, 0.05);
  // The error shrinks as the weight approaches the fixed point.
  EXPECT_LT(r->iterations.back().rms_error, r->iterations.front().rms_error);
}

TEST(Learn, ChessFeaturesAreMaterialDifferences) {
  const FeatureSet<chess::Chess> fs = feature_set(std::type_identity<chess::Chess>{});
  auto start = chess::Chess::create({});
  ASSERT_TRUE(start);
  const FeatureVector f = fs.compute(*start);
  ASSERT_EQ(f.size, 5);
  for (int i = 0; i < f.size; ++i) EXPECT_EQ(f.v[static_cast<std::size_t>(i)], 0.0);
  // The win value is one more than one side's initial material under the starting weights.
  EXPECT_EQ(fs.win_value, 1 + fs.initial[0] + 2 * fs.initial[1] + 2 * fs.initial[2] +
                              2 * fs.initial[3] + 8 * fs.initial[4]);
}

TEST(Learn, OneChessIterationFitsFiniteWeights) {
  auto start = chess::Chess::create({});
  ASSERT_TRUE(start);
  LearnOptions o;
  o.depth = 1;
  o.quiescence = true;
  o.batch_plies = 120;
  o.move_cap = 40;
  o.iterations = 1;
  auto r = learn(*start, feature_set(std::type_identity<chess::Chess>{}), o);
  ASSERT_TRUE(r) << r.error();
  ASSERT_EQ(r->iterations.size(), 1u);
  EXPECT_EQ(r->iterations[0].positions, 120);
  for (double w : r->weights) EXPECT_TRUE(std::isfinite(w));
}

}  // namespace
}  // namespace arena::lab
