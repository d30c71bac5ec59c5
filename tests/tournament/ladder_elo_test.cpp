// Anchored maximum-likelihood Elo on synthetic results whose answer is known in closed form.
#include "tournament/statistics/ladder_elo.h"

#include <cmath>
#include <random>

#include <gtest/gtest.h>

namespace arena::tournament {
namespace {

constexpr double kK = 2.302585092994046 / 400;  // ln 10 / 400

// `wins`, `losses`, `draws` of player a against player b, with alternating colours.
void add(std::vector<GameOutcome>& games, int a, int b, int wins, int losses, int draws) {
  int k = 0;
  auto push = [&](double score) {
    if (k++ % 2 == 0)
      games.push_back({a, b, score});
    else
      games.push_back({b, a, 1 - score});
  };
  for (int i = 0; i < wins; ++i) push(1);
  for (int i = 0; i < losses; ++i) push(0);
  for (int i = 0; i < draws; ++i) push(0.5);
}

// Half-width of the 95% interval of n games at expected score e against a fixed rating.
double wald(int n, double e) { return 1.959963984540054 / (kK * std::sqrt(n * e * (1 - e))); }

TEST(LadderElo, SeventyFivePercentAgainstOneAnchorIsPlus191) {
  std::vector<GameOutcome> games;
  add(games, 0, 1, 300, 100, 0);
  auto fit = fit_anchored_elo({std::nullopt, 1500.0}, games);
  ASSERT_TRUE(fit) << fit.error();
  EXPECT_NEAR((*fit)[0].elo, 1500 + 400 * std::log10(3.0), 1e-6);
  EXPECT_NEAR((*fit)[0].half_width, wald(400, 0.75), 1e-6);
  EXPECT_NEAR((*fit)[0].half_width, 39.3, 0.1);
  EXPECT_EQ((*fit)[0].bound, EloEstimate::Bound::kEstimate);
  EXPECT_TRUE((*fit)[1].anchor);
  EXPECT_EQ((*fit)[1].elo, 1500);
  EXPECT_EQ((*fit)[1].half_width, 0);
  EXPECT_EQ((*fit)[0].games, 400);
  EXPECT_DOUBLE_EQ((*fit)[0].points, 300);
}

TEST(LadderElo, DrawsCountAsHalfPoints) {
  std::vector<GameOutcome> games;
  add(games, 0, 1, 100, 0, 200);  // 200 of 300 = 2/3
  auto fit = fit_anchored_elo({std::nullopt, 0.0}, games);
  ASSERT_TRUE(fit) << fit.error();
  EXPECT_NEAR((*fit)[0].elo, 400 * std::log10(2.0), 1e-6);
}

TEST(LadderElo, HalfAgainstTwoAnchorsLiesBetweenThem) {
  std::vector<GameOutcome> games;
  add(games, 0, 1, 20, 20, 0);
  add(games, 0, 2, 10, 10, 20);
  auto fit = fit_anchored_elo({std::nullopt, 1000.0, 1200.0}, games);
  ASSERT_TRUE(fit) << fit.error();
  EXPECT_NEAR((*fit)[0].elo, 1100, 1e-6);
}

TEST(LadderElo, ManyAnchorsSolveTheScoreEquation) {
  // The maximum satisfies sum over games (s - E) = 0: check it on an uneven ladder.
  std::vector<GameOutcome> games;
  add(games, 0, 1, 18, 1, 1);
  add(games, 0, 2, 12, 6, 2);
  add(games, 0, 3, 5, 11, 4);
  add(games, 0, 4, 1, 17, 2);
  const std::vector<double> anchor = {1400, 1800, 2200, 2600};
  auto fit = fit_anchored_elo({std::nullopt, 1400.0, 1800.0, 2200.0, 2600.0}, games);
  ASSERT_TRUE(fit) << fit.error();
  const double r = (*fit)[0].elo;
  double residual = 0, information = 0;
  for (const auto& g : games) {
    const int other = g.first == 0 ? g.second : g.first;
    const double s = g.first == 0 ? g.first_score : 1 - g.first_score;
    const double e = elo_expected_score(r - anchor[static_cast<std::size_t>(other - 1)]);
    residual += s - e;
    information += kK * kK * e * (1 - e);
  }
  EXPECT_NEAR(residual, 0, 1e-9);
  EXPECT_GT(r, 1800);
  EXPECT_LT(r, 2200);
  EXPECT_NEAR((*fit)[0].half_width, 1.959963984540054 / std::sqrt(information), 1e-6);
}

TEST(LadderElo, AnUncalibratedEngineIsPlacedThroughArenasBotWithBothUncertainties) {
  // Player 0 (Arena) scores 50% against the anchor 1500; player 2 (say toga2) met only
  // player 0 and scored 75% against it: 1500 + 191, with the variance of both differences.
  std::vector<GameOutcome> games;
  add(games, 0, 1, 100, 100, 0);
  add(games, 2, 0, 150, 50, 0);
  auto fit = fit_anchored_elo({std::nullopt, 1500.0, std::nullopt}, games);
  ASSERT_TRUE(fit) << fit.error();
  EXPECT_NEAR((*fit)[0].elo, 1500, 1e-6);
  EXPECT_NEAR((*fit)[2].elo, 1500 + 400 * std::log10(3.0), 1e-6);
  EXPECT_NEAR((*fit)[0].half_width, wald(200, 0.5), 1e-6);
  EXPECT_NEAR((*fit)[2].half_width, std::hypot(wald(200, 0.5), wald(200, 0.75)), 1e-6);
}

TEST(LadderElo, WithoutExternalAnchorsTheScaleStartsAtTheNamedPlayer) {
  // Three presets in a chain, the weakest the origin: B = 0 + 191, C = B + 191.
  std::vector<GameOutcome> games;
  add(games, 1, 0, 150, 50, 0);
  add(games, 2, 1, 150, 50, 0);
  auto fit = fit_anchored_elo({0.0, std::nullopt, std::nullopt}, games);
  ASSERT_TRUE(fit) << fit.error();
  EXPECT_NEAR((*fit)[1].elo, 400 * std::log10(3.0), 1e-6);
  EXPECT_NEAR((*fit)[2].elo, 800 * std::log10(3.0), 1e-6);
}

TEST(LadderElo, TheIntervalCoversTheTruthAboutNineteenTimesInTwenty) {
  std::mt19937_64 rng(20261126);
  const std::vector<double> anchors = {1400, 1600, 1800, 2000, 2200, 2400};
  const double truth = 1900;
  int covered = 0;
  constexpr int kRuns = 400;
  for (int run = 0; run < kRuns; ++run) {
    std::vector<GameOutcome> games;
    for (std::size_t a = 0; a < anchors.size(); ++a) {
      std::bernoulli_distribution win(elo_expected_score(truth - anchors[a]));
      for (int g = 0; g < 20; ++g) games.push_back({0, static_cast<int>(a) + 1, win(rng) ? 1.0 : 0.0});
    }
    std::vector<std::optional<double>> given = {std::nullopt};
    for (double a : anchors) given.push_back(a);
    auto fit = fit_anchored_elo(given, games);
    ASSERT_TRUE(fit) << fit.error();
    covered += (*fit)[0].low() <= truth && truth <= (*fit)[0].high();
  }
  EXPECT_GE(covered, kRuns * 90 / 100);
  EXPECT_LE(covered, kRuns * 99 / 100);
}

TEST(LadderElo, APerfectScoreIsOnlyALowerBoundAndAZeroAnUpperOne) {
  std::vector<GameOutcome> games;
  add(games, 0, 1, 10, 0, 0);
  add(games, 0, 2, 10, 0, 0);
  add(games, 3, 1, 0, 10, 0);
  add(games, 4, 1, 5, 5, 0);
  auto fit = fit_anchored_elo({std::nullopt, 1400.0, 1600.0, std::nullopt, std::nullopt}, games);
  ASSERT_TRUE(fit) << fit.error();
  EXPECT_EQ((*fit)[0].bound, EloEstimate::Bound::kAtLeast);
  EXPECT_EQ((*fit)[0].elo, 1600);
  EXPECT_EQ((*fit)[3].bound, EloEstimate::Bound::kAtMost);
  EXPECT_EQ((*fit)[3].elo, 1400);
  EXPECT_EQ((*fit)[4].bound, EloEstimate::Bound::kEstimate);
  EXPECT_NEAR((*fit)[4].elo, 1400, 1e-6);
}

TEST(LadderElo, AGroupThatWinsEveryGameOutsideItIsBoundedToo) {
  // Players 0 and 1 draw each other and beat the anchor every time; player 2 scores half
  // against the anchor.
  std::vector<GameOutcome> games;
  add(games, 0, 1, 0, 0, 4);
  add(games, 0, 3, 4, 0, 0);
  add(games, 1, 3, 4, 0, 0);
  add(games, 2, 3, 2, 2, 0);
  auto fit = fit_anchored_elo({std::nullopt, std::nullopt, std::nullopt, 1000.0}, games);
  ASSERT_TRUE(fit) << fit.error();
  EXPECT_EQ((*fit)[0].bound, EloEstimate::Bound::kAtLeast);
  EXPECT_EQ((*fit)[1].bound, EloEstimate::Bound::kAtLeast);
  EXPECT_EQ((*fit)[0].elo, 1000);
  EXPECT_EQ((*fit)[2].bound, EloEstimate::Bound::kEstimate);
  EXPECT_NEAR((*fit)[2].elo, 1000, 1e-6);
}

TEST(LadderElo, AVirtualDrawPerPairingKeepsAPerfectScoreFinite) {
  std::vector<GameOutcome> games;
  add(games, 0, 1, 10, 0, 0);
  auto fit = fit_anchored_elo({std::nullopt, 1000.0}, games, 1);
  ASSERT_TRUE(fit) << fit.error();
  EXPECT_EQ((*fit)[0].bound, EloEstimate::Bound::kEstimate);
  EXPECT_NEAR((*fit)[0].elo, 1000 + 400 * std::log10(10.5 / 0.5), 1e-6);
  EXPECT_EQ((*fit)[0].games, 10);  // the virtual draw is not counted
  EXPECT_DOUBLE_EQ((*fit)[0].points, 10);
}

TEST(LadderElo, APlayerWithNoPathToAnAnchorIsUnknown) {
  std::vector<GameOutcome> games;
  add(games, 0, 1, 5, 5, 0);
  add(games, 2, 3, 5, 5, 0);
  auto fit = fit_anchored_elo({std::nullopt, 1500.0, std::nullopt, std::nullopt}, games);
  ASSERT_TRUE(fit) << fit.error();
  EXPECT_EQ((*fit)[0].bound, EloEstimate::Bound::kEstimate);
  EXPECT_EQ((*fit)[2].bound, EloEstimate::Bound::kUnknown);
  EXPECT_EQ((*fit)[3].bound, EloEstimate::Bound::kUnknown);
}

TEST(LadderElo, ErrorsNameTheProblem) {
  auto none = fit_anchored_elo({std::nullopt, std::nullopt}, {{0, 1, 1}});
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().find("no anchor"), std::string::npos);
  auto range = fit_anchored_elo({std::nullopt, 0.0}, {{0, 5, 1}});
  ASSERT_FALSE(range);
  EXPECT_NE(range.error().find("player 5"), std::string::npos);
}

TEST(LadderElo, ScoreAndDifferenceAreInverse) {
  for (double d : {-600.0, -191.0, 0.0, 35.0, 400.0})
    EXPECT_NEAR(elo_from_score(elo_expected_score(d)), d, 1e-9);
  EXPECT_EQ(elo_from_score(1.0), 1200);
  EXPECT_EQ(elo_from_score(0.0), -1200);
}

}  // namespace
}  // namespace arena::tournament
