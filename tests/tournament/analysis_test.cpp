// Analysis on a hand-made result set, and SPRT on synthetic data.
#include "tournament/statistics/analysis.h"

#include <cmath>
#include <sstream>

#include <gtest/gtest.h>

#include "tournament/report/report.h"
#include "tournament/statistics/sprt.h"

namespace arena::tournament {
namespace {

// A, B, C: A beats B twice (once with each colour), A-C a draw, C beats A, B beats C.
const std::vector<std::string> kNames{"A", "B", "C"};
const std::vector<GameOutcome> kGames{{0, 1, 1}, {1, 0, 0}, {0, 2, 0.5}, {2, 0, 1}, {1, 2, 1}};

TEST(Analysis, CrosstableAndStandingsOfAHandMadeResultSet) {
  const Analysis a = analyse(kNames, kGames, {});
  EXPECT_EQ(a.crosstable[0][1].wins, 2);
  EXPECT_EQ(a.crosstable[1][0].losses, 2);
  EXPECT_EQ(a.crosstable[0][2].draws, 1);
  EXPECT_EQ(a.crosstable[0][2].losses, 1);
  EXPECT_EQ(a.crosstable[2][1].losses, 1);
  ASSERT_EQ(a.standings.size(), 3u);
  // A: 2 wins, 1 draw, 1 loss = 2.5; C: 1 win, 1 draw, 1 loss = 1.5; B: 1 win, 2 losses = 1.
  EXPECT_EQ(a.standings[0].player, 0);
  EXPECT_DOUBLE_EQ(a.standings[0].points, 2.5);
  EXPECT_EQ(a.standings[0].games, 4);
  EXPECT_EQ(a.standings[1].player, 2);
  EXPECT_DOUBLE_EQ(a.standings[1].points, 1.5);
  EXPECT_EQ(a.standings[2].player, 1);
  EXPECT_DOUBLE_EQ(a.standings[2].points, 1.0);
}

TEST(Analysis, BradleyTerryRatingsFollowTheScoresAndAverageTheAnchor) {
  const Analysis a = analyse(kNames, kGames, {});
  ASSERT_EQ(a.ratings.size(), 3u) << a.rating_error;
  EXPECT_GT(a.ratings[0], a.ratings[2]);
  EXPECT_GT(a.ratings[2], a.ratings[1]);
  EXPECT_NEAR((a.ratings[0] + a.ratings[1] + a.ratings[2]) / 3, 1500, 1e-6);
  for (double w : a.half_widths) EXPECT_GT(w, 0);
}

TEST(Analysis, SearchStatisticsAndSprtComeThrough) {
  std::vector<MoveStats> stats{{10, 50, 1000, 20}, {0, 0, 0, 0}, {4, 8, 40, 4}};
  const Analysis a = analyse(kNames, kGames, stats, SprtRequest{0, 1, {0, 10, 0.05, 0.05}});
  ASSERT_TRUE(a.sprt);
  std::ostringstream out;
  print_report(out, a);
  EXPECT_NE(out.str().find("5.00"), std::string::npos) << out.str();  // A's average depth
  EXPECT_NE(out.str().find("SPRT"), std::string::npos);
  std::ostringstream table;
  print_gauntlet_table(table, a, {"A"}, {"B", "C"});
  // A against B: 2 won, 0 lost; against C: 0 won, 2 lost-or-drawn; win rate 2.5 / 4.
  EXPECT_NE(table.str().find("2 |   0"), std::string::npos) << table.str();
  EXPECT_NE(table.str().find("62.5%"), std::string::npos) << table.str();
}

double expected_score(double elo) {
  return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0));
}

// The log-likelihood of `losses`, `draws`, `wins` under the most likely distribution over
// {0, 1/2, 1} of mean s, found here by a ternary search over that one-parameter family (the
// win probability w; losses w - (2s - 1), draws the rest): a check of sprt()'s bisection that
// shares nothing with it.
double most_likely_log_likelihood(int losses, int draws, int wins, double s) {
  const auto log_likelihood = [&](double w) {
    const double p[3] = {w - (2 * s - 1), 1 - w - (w - (2 * s - 1)), w};
    const int n[3] = {losses, draws, wins};
    double sum = 0;
    for (int i = 0; i < 3; ++i) {
      if (n[i] == 0) continue;
      if (p[i] <= 0) return -1e300;
      sum += n[i] * std::log(p[i]);
    }
    return sum;
  };
  double lo = std::max(0.0, 2 * s - 1), hi = s;
  for (int i = 0; i < 300; ++i) {
    // The log-likelihood is concave in w: the maximum is not left of a if a scores below b.
    const double a = lo + (hi - lo) / 3, b = hi - (hi - lo) / 3;
    if (log_likelihood(a) < log_likelihood(b))
      lo = a;
    else
      hi = b;
  }
  return log_likelihood((lo + hi) / 2);
}

TEST(Sprt, BoundsAreWaldsAndWithoutDrawsTheLlrIsTheBinomialOne) {
  const SprtResult r = sprt({0, 10, 0.05, 0.05}, 6, 4, 0);
  EXPECT_NEAR(r.lower, std::log(0.05 / 0.95), 1e-12);
  EXPECT_NEAR(r.upper, std::log(0.95 / 0.05), 1e-12);
  // With wins and losses only, each hypothesis wins with probability s(elo).
  const double s0 = expected_score(0), s1 = expected_score(10);
  EXPECT_NEAR(r.llr, 6 * std::log(s1 / s0) + 4 * std::log((1 - s1) / (1 - s0)), 1e-6);
  EXPECT_EQ(r.verdict, SprtVerdict::kContinue);
}

TEST(Sprt, TheLlrComparesTheMostLikelyDistributionsOfEachHypothesis) {
  const struct {
    double elo0, elo1;
    int wins, losses, draws;
  } cases[] = {{0, 5, 3000, 2000, 5000}, {-3, 3, 120, 80, 0}, {0, 10, 40, 45, 115},
               {0, 5, 5, 0, 5},          {0, 5, 0, 4, 9},     {-5, 0, 2, 2, 2}};
  for (const auto& c : cases) {
    const double expected =
        most_likely_log_likelihood(c.losses, c.draws, c.wins, expected_score(c.elo1)) -
        most_likely_log_likelihood(c.losses, c.draws, c.wins, expected_score(c.elo0));
    // The pseudo-count of a result not seen moves the LLR by well under 1e-3.
    EXPECT_NEAR(sprt({c.elo0, c.elo1, 0.05, 0.05}, c.wins, c.losses, c.draws).llr, expected, 1e-3)
        << c.wins << "-" << c.losses << "-" << c.draws;
  }
}

// A handful of games that all went one way is weak evidence of a 5 Elo edge: the likelihoods
// differ by about n ln(s1 / s0). (A normal approximation with a variance floor accepted H1
// after one win.)
TEST(Sprt, AFewGamesThatAllWentOneWayDecideNothing) {
  const SprtConfig config{0, 5, 0.05, 0.05};
  const double per_win = std::log(expected_score(5) / expected_score(0));
  for (int n : {1, 3, 10}) {
    const SprtResult won = sprt(config, n, 0, 0);
    EXPECT_EQ(won.verdict, SprtVerdict::kContinue) << n;
    EXPECT_NEAR(won.llr, n * per_win, 1e-3 * n * per_win) << n;
    const SprtResult lost = sprt(config, 0, n, 0);
    EXPECT_EQ(lost.verdict, SprtVerdict::kContinue) << n;
    EXPECT_LT(lost.llr, 0) << n;
    EXPECT_EQ(sprt(config, 0, 0, n).verdict, SprtVerdict::kContinue) << n;
  }
  // Enough of them still decide: 700 straight wins against a 5 Elo hypothesis.
  EXPECT_EQ(sprt(config, 700, 0, 0).verdict, SprtVerdict::kAcceptH1);
}

TEST(Sprt, AcceptsAClearlyStrongerChallengerAndRejectsAWeakerOne) {
  EXPECT_EQ(sprt({0, 10, 0.05, 0.05}, 5500, 4500, 0).verdict, SprtVerdict::kAcceptH1);
  EXPECT_EQ(sprt({0, 10, 0.05, 0.05}, 4500, 5500, 0).verdict, SprtVerdict::kAcceptH0);
  EXPECT_EQ(sprt({0, 10, 0.05, 0.05}, 0, 0, 0).verdict, SprtVerdict::kContinue);
}

}  // namespace
}  // namespace arena::tournament
