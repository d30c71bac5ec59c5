// Bradley-Terry maximum likelihood: hand-checkable cases and synthetic data of known strength.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>

#include "rating/bradley_terry.h"
#include "rating/elo.h"

namespace arena::rating {
namespace {

constexpr double kEloPerUnit = 173.71779276130072;  // 400 / ln 10

std::vector<PairResult> repeat(int a, int b, double score, int times) {
  return std::vector<PairResult>(static_cast<std::size_t>(times), PairResult{a, b, score});
}

// 3 wins and 1 loss: the MLE has P = 3/4, so the gap is 400 log10(3) = 190.848 Elo; the
// information of the gap (natural scale) is 4 * 3/4 * 1/4 = 3/4.
TEST(BradleyTerry, ThreeWinsOfFourGiveFourHundredLogThree) {
  auto games = repeat(0, 1, 1.0, 3);
  games.push_back({0, 1, 0.0});
  auto fit = fit_bradley_terry(2, games);
  ASSERT_TRUE(fit) << fit.error();
  EXPECT_NEAR(fit->ratings[0] - fit->ratings[1], 400 * std::log10(3.0), 1e-6);
  EXPECT_NEAR(fit->ratings[0] + fit->ratings[1], 3000, 1e-6);
  EXPECT_NEAR(difference_interval(*fit, 0, 1), 1.959964 * std::sqrt(4.0 / 3.0) * kEloPerUnit, 1e-3);
  EXPECT_NEAR(fit->half_widths[0], 1.959964 * std::sqrt(1.0 / 3.0) * kEloPerUnit, 1e-3);
}

TEST(BradleyTerry, DrawsCountAsHalfAWin) {
  std::vector<PairResult> games = {{0, 1, 1.0}, {0, 1, 0.0}, {0, 1, 0.5}, {1, 0, 0.5}};
  auto fit = fit_bradley_terry(2, games);
  ASSERT_TRUE(fit) << fit.error();
  EXPECT_NEAR(fit->ratings[0], 1500, 1e-9);
  EXPECT_NEAR(fit->ratings[1], 1500, 1e-9);
  // 1 win + 3 draws of 4 is a 5/8 score: gap 400 log10(5/3).
  games = {{0, 1, 1.0}, {0, 1, 0.5}, {1, 0, 0.5}, {0, 1, 0.5}};
  fit = fit_bradley_terry(2, games);
  ASSERT_TRUE(fit) << fit.error();
  EXPECT_NEAR(fit->ratings[0] - fit->ratings[1], 400 * std::log10(5.0 / 3.0), 1e-6);
}

TEST(BradleyTerry, PerfectScoreNeedsAPrior) {
  const auto games = repeat(0, 1, 1.0, 4);
  auto plain = fit_bradley_terry(2, games);
  ASSERT_FALSE(plain);
  EXPECT_NE(plain.error().find("player 0 has a perfect score"), std::string::npos);
  auto with_prior = fit_bradley_terry(2, games, {.prior_draws = 1.0});
  ASSERT_TRUE(with_prior) << with_prior.error();
  EXPECT_GT(with_prior->ratings[0], with_prior->ratings[1]);
  EXPECT_TRUE(std::isfinite(with_prior->ratings[0]));
}

TEST(BradleyTerry, GroupsThatNeverMetAreRejected) {
  std::vector<PairResult> games = {{0, 1, 1.0}, {0, 1, 0.0}, {2, 3, 1.0}, {2, 3, 0.0}};
  auto fit = fit_bradley_terry(4, games);
  ASSERT_FALSE(fit);
  EXPECT_NE(fit.error().find("never met"), std::string::npos);
}

TEST(BradleyTerry, BadInputIsNamed) {
  auto fit = fit_bradley_terry(2, {{0, 5, 1.0}});
  ASSERT_FALSE(fit);
  EXPECT_NE(fit.error().find("player 0 against 5"), std::string::npos);
  fit = fit_bradley_terry(2, {{0, 1, 1.5}});
  ASSERT_FALSE(fit);
  EXPECT_NE(fit.error().find("score 1.5"), std::string::npos);
}

// Six players of known strength, 400 games per pair drawn with a fixed seed: the fit recovers
// the order, and every rating lies within its 95% interval of the truth (centred like the fit).
TEST(BradleyTerry, RecoversKnownStrengthsFromSyntheticGames) {
  const std::vector<double> truth = {1200, 1350, 1450, 1550, 1650, 1800};
  std::mt19937_64 rng(20261121);
  auto uniform = [&] { return static_cast<double>(rng() >> 11) * 0x1.0p-53; };
  std::vector<PairResult> games;
  for (int i = 0; i < 6; ++i)
    for (int j = i + 1; j < 6; ++j)
      for (int k = 0; k < 400; ++k) {
        const double p =
            elo_expected(truth[static_cast<std::size_t>(i)], truth[static_cast<std::size_t>(j)]);
        const double u = uniform();
        // Draws for the synthetic data only: with probability d = min(p, 1 - p) / 2, and wins
        // with p - d/2, so the expected score stays p.
        const double d = std::min(p, 1 - p) / 2;
        const double score = u < d ? 0.5 : (u < d + p - d / 2 ? 1.0 : 0.0);
        games.push_back(k % 2 ? PairResult{i, j, score} : PairResult{j, i, 1.0 - score});
      }
  auto fit = fit_bradley_terry(6, games);
  ASSERT_TRUE(fit) << fit.error();
  const double mean = 1500;  // the truth's average, like the fit's anchor
  for (std::size_t i = 0; i < truth.size(); ++i) {
    EXPECT_NEAR(fit->ratings[i], truth[i] - 1500 + mean, fit->half_widths[i]) << "player " << i;
    EXPECT_GT(fit->half_widths[i], 5.0);
    EXPECT_LT(fit->half_widths[i], 40.0);
    if (i > 0) {
      EXPECT_GT(fit->ratings[i], fit->ratings[i - 1]);
    }
  }
}

TEST(LikelihoodOfSuperiority, FollowsTheNormalApproximation) {
  EXPECT_DOUBLE_EQ(likelihood_of_superiority(7, 7), 0.5);
  EXPECT_DOUBLE_EQ(likelihood_of_superiority(0, 0), 0.5);
  // Phi(sqrt(10)) = Phi(3.162): between the table's Phi(3.16) = 0.99921 and Phi(3.17) = 0.99924.
  const double los = likelihood_of_superiority(10, 0);
  EXPECT_GT(los, 0.99921);
  EXPECT_LT(los, 0.99924);
  // Wins 6, losses 2: (6-2)/sqrt(8) = 1.4142, and the table gives Phi(1.4142) = 0.9214.
  EXPECT_NEAR(likelihood_of_superiority(6, 2), 0.9214, 1e-4);
  EXPECT_NEAR(likelihood_of_superiority(2, 6), 1 - 0.9214, 1e-4);
}

}  // namespace
}  // namespace arena::rating
