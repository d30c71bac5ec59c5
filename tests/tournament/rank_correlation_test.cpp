// Spearman's rank correlation and its Fisher-z interval (tournament/statistics/rank_correlation.h).

#include "tournament/statistics/rank_correlation.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

namespace arena::tournament {
namespace {

TEST(RankCorrelation, TiesShareTheMeanOfTheirRanks) {
  EXPECT_EQ(average_ranks({10, 20, 20, 5}), (std::vector<double>{2, 3.5, 3.5, 1}));
  EXPECT_EQ(average_ranks({7, 7, 7}), (std::vector<double>{2, 2, 2}));
}

// The textbook example (IQ against hours of television, Wikipedia's "Spearman's rank
// correlation coefficient"): rho = -29/165. The interval: tanh(atanh(rho) -+ 1.96
// sqrt(1.06 / 7)), computed by hand (Python) as [-0.73537, 0.52637].
TEST(RankCorrelation, AKnownVectorGivesItsRhoAndFisherInterval) {
  const std::vector<double> iq{106, 86, 100, 101, 99, 103, 97, 113, 112, 110};
  const std::vector<double> tv{7, 0, 27, 50, 28, 29, 20, 12, 6, 17};
  const RankCorrelation r = spearman(iq, tv);
  EXPECT_EQ(r.n, 10);
  EXPECT_NEAR(r.rho, -29.0 / 165.0, 1e-12);
  EXPECT_NEAR(r.low, -0.735366, 1e-5);
  EXPECT_NEAR(r.high, 0.526369, 1e-5);
}

TEST(RankCorrelation, AMonotoneRelationIsOneWhateverItsShape) {
  const RankCorrelation up = spearman({1, 2, 3, 4, 5}, {1, 8, 27, 64, 125});
  EXPECT_NEAR(up.rho, 1.0, 1e-12);
  EXPECT_GT(up.low, 0.9);
  const RankCorrelation down = spearman({1, 2, 3, 4, 5}, {5, 4, 3, 2, 1});
  EXPECT_NEAR(down.rho, -1.0, 1e-12);
}

TEST(RankCorrelation, MissingValuesAreLeftOutAndSmallSamplesHaveNoInterval) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const RankCorrelation r = spearman({1, nan, 2, 3}, {3, 9, 2, 1});
  EXPECT_EQ(r.n, 3);
  EXPECT_NEAR(r.rho, -1.0, 1e-12);
  EXPECT_TRUE(std::isnan(r.low) && std::isnan(r.high));
  EXPECT_TRUE(std::isnan(spearman({1, 2, 3, 4}, {5, 5, 5, 5}).rho)) << "a constant sample";
  EXPECT_TRUE(std::isnan(spearman({1}, {2}).rho));
}

}  // namespace
}  // namespace arena::tournament
