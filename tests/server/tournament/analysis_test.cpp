// Analysis on a hand-made result set, and SPRT on synthetic data.
#include "server/tournament/analysis.h"

#include <cmath>
#include <sstream>

#include <gtest/gtest.h>

#include "server/tournament/report.h"
#include "server/tournament/sprt.h"

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

TEST(Sprt, BoundsAreWaldsAndTheLlrMatchesTheNormalApproximation) {
  const SprtResult r = sprt({0, 10, 0.05, 0.05}, 6, 4, 0);
  EXPECT_NEAR(r.lower, std::log(0.05 / 0.95), 1e-12);
  EXPECT_NEAR(r.upper, std::log(0.95 / 0.05), 1e-12);
  // 10 (s1 - s0)(2 * 0.6 - s0 - s1) / (2 * 0.24), s(e) = 1 / (1 + 10^(-e/400)), by hand.
  EXPECT_NEAR(r.llr, 0.0556343, 1e-6);
  EXPECT_EQ(r.verdict, SprtVerdict::kContinue);
}

TEST(Sprt, AcceptsAClearlyStrongerChallengerAndRejectsAWeakerOne) {
  EXPECT_EQ(sprt({0, 10, 0.05, 0.05}, 5500, 4500, 0).verdict, SprtVerdict::kAcceptH1);
  EXPECT_EQ(sprt({0, 10, 0.05, 0.05}, 4500, 5500, 0).verdict, SprtVerdict::kAcceptH0);
  EXPECT_EQ(sprt({0, 10, 0.05, 0.05}, 0, 0, 0).verdict, SprtVerdict::kContinue);
}

}  // namespace
}  // namespace arena::tournament
