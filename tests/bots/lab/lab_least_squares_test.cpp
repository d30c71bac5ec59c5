#include "bots/lab/least_squares.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "bots/search/search_rng.h"

namespace arena::lab {
namespace {

// Random features, targets made from known weights with no noise: the fit must give them
// back to rounding error and leave no residual.
TEST(LeastSquares, RecoversKnownWeightsFromExactData) {
  const std::vector<double> truth = {8, 4, 4, 3, 2};
  search::SearchRng rng(42);
  std::vector<std::vector<double>> rows;
  std::vector<double> y;
  for (int i = 0; i < 200; ++i) {
    std::vector<double> row;
    double value = 0;
    for (double w : truth) {
      const double f = static_cast<double>(rng.below(9)) - 4.0;
      row.push_back(f);
      value += w * f;
    }
    rows.push_back(row);
    y.push_back(value);
  }
  auto fit = least_squares(rows, y);
  ASSERT_TRUE(fit) << fit.error();
  for (std::size_t i = 0; i < truth.size(); ++i) EXPECT_NEAR(fit->weights[i], truth[i], 1e-9);
  EXPECT_NEAR(fit->residual_sum_squares, 0.0, 1e-12);
}

// With noise the answer is the one the normal equations give; for one feature through the
// origin that is sum(x y) / sum(x x).
TEST(LeastSquares, OneFeatureMatchesTheClosedForm) {
  const std::vector<std::vector<double>> rows = {{1}, {2}, {3}, {4}};
  const std::vector<double> y = {1.1, 1.9, 3.2, 3.9};
  double xy = 0, xx = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    xy += rows[i][0] * y[i];
    xx += rows[i][0] * rows[i][0];
  }
  auto fit = least_squares(rows, y);
  ASSERT_TRUE(fit);
  EXPECT_NEAR(fit->weights[0], xy / xx, 1e-12);
}

TEST(LeastSquares, DropsAColumnThatNeverVaries) {
  std::vector<std::vector<double>> rows = {{1, 0}, {2, 0}, {-1, 0}, {3, 0}};
  std::vector<double> y = {2, 4, -2, 6};
  auto fit = least_squares(rows, y);
  ASSERT_TRUE(fit);
  EXPECT_NEAR(fit->weights[0], 2.0, 1e-12);
  EXPECT_TRUE(fit->dropped[1]);
  EXPECT_FALSE(fit->dropped[0]);
  EXPECT_EQ(fit->weights[1], 0.0);
}

TEST(LeastSquares, RejectsBadShapesWithAMessage) {
  EXPECT_FALSE(least_squares({}, {}));
  auto short_y = least_squares({{1}, {2}}, {1});
  ASSERT_FALSE(short_y);
  EXPECT_NE(short_y.error().find("targets"), std::string::npos);
  auto ragged = least_squares({{1, 2}, {3}, {4, 5}}, {1, 2, 3});
  ASSERT_FALSE(ragged);
  EXPECT_NE(ragged.error().find("row 1"), std::string::npos);
  EXPECT_FALSE(least_squares({{1, 2}}, {1}));  // fewer observations than features
}

}  // namespace
}  // namespace arena::lab
