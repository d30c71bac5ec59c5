// A GDL sheet's goal heuristics measured along self-play games (bots/lab/gdl_analysis.h): one
// trajectory per game and heuristic, aligned, with the true value read from the final goals;
// the goal rules' own reading is flat until the end; a symmetric start is even under the fuzzy
// goal; the same seed plays the same games; bad names and puzzles are refused.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "bots/lab/gdl_analysis.h"

namespace arena::lab {
namespace {

GdlAnalysisOptions random_games(int games, std::uint64_t seed) {
  GdlAnalysisOptions o;
  o.player = "random";
  o.games = games;
  o.opening_steps = 2;
  o.seed = seed;
  return o;
}

TEST(GdlAnalysis, EveryHeuristicHasAnAlignedTrajectoryPerGame) {
  auto measured = gdl_self_play_trajectories("gdl:tictactoe", {}, random_games(6, 1));
  ASSERT_TRUE(measured) << measured.error();
  ASSERT_EQ(measured->size(), gdl_heuristic_names().size());
  for (std::size_t k = 0; k < measured->size(); ++k) {
    const auto& m = (*measured)[k];
    EXPECT_EQ(m.name, gdl_heuristic_names()[k]);
    ASSERT_EQ(m.trajectories.size(), 6u) << m.name;
    for (const Trajectory& t : m.trajectories) {
      const std::size_t n = t.h.size();
      ASSERT_GE(n, 6u) << m.name;  // a game of tic-tac-toe has at least 5 marks
      ASSERT_EQ(t.v.size(), n);
      ASSERT_EQ(t.plies_left.size(), n);
      EXPECT_EQ(t.plies_left.front(), static_cast<int>(n) - 1);
      EXPECT_EQ(t.plies_left.back(), 0);
      for (double v : t.v) EXPECT_EQ(v, t.v.front());
      EXPECT_TRUE(t.v.front() == 1 || t.v.front() == 0 || t.v.front() == -1);
      for (double h : t.h) EXPECT_LE(std::abs(h), 100.0) << m.name;
    }
  }
}

// "goal": no role has a goal before the end of ggp-base's tic-tac-toe, so h is 0 until the
// final state, where it is the goals' difference and agrees in sign with the true value.
// "fuzzy_goal": the start is symmetric, so the first role's view of it is 0.
TEST(GdlAnalysis, TheGoalRulesAreFlatUntilTheEndAndTheFuzzyStartIsEven) {
  auto measured =
      gdl_self_play_trajectories("gdl:tictactoe", {"goal", "fuzzy_goal"}, random_games(8, 3));
  ASSERT_TRUE(measured) << measured.error();
  ASSERT_EQ(measured->size(), 2u);
  int decided = 0;
  for (const Trajectory& t : (*measured)[0].trajectories) {
    for (std::size_t i = 0; i + 1 < t.h.size(); ++i) EXPECT_EQ(t.h[i], 0.0) << i;
    const double last = t.h.back();
    EXPECT_TRUE(last == 100 || last == 0 || last == -100) << last;
    EXPECT_EQ(last > 0 ? 1 : last < 0 ? -1 : 0, t.v.front());
    decided += t.v.front() != 0;
  }
  EXPECT_GT(decided, 0);  // random players: some games are won
  const auto& fuzzy = (*measured)[1];
  EXPECT_EQ(fuzzy.name, "fuzzy_goal");
  // Every trajectory begins at the start, before the random opening.
  for (const Trajectory& t : fuzzy.trajectories) EXPECT_NEAR(t.h.front(), 0.0, 1e-9);
}

TEST(GdlAnalysis, TheSameSeedPlaysTheSameGames) {
  auto a = gdl_self_play_trajectories("gdl:tictactoe", {"fuzzy_goal"}, random_games(4, 5));
  auto b = gdl_self_play_trajectories("gdl:tictactoe", {"fuzzy_goal"}, random_games(4, 5));
  auto c = gdl_self_play_trajectories("gdl:tictactoe", {"fuzzy_goal"}, random_games(4, 6));
  ASSERT_TRUE(a && b && c);
  std::vector<double> ha, hb, hc;
  for (const auto& t : (*a)[0].trajectories) ha.insert(ha.end(), t.h.begin(), t.h.end());
  for (const auto& t : (*b)[0].trajectories) hb.insert(hb.end(), t.h.begin(), t.h.end());
  for (const auto& t : (*c)[0].trajectories) hc.insert(hc.end(), t.h.begin(), t.h.end());
  EXPECT_EQ(ha, hb);
  EXPECT_NE(ha, hc);
}

TEST(GdlAnalysis, BadNamesAndPuzzlesAreRefused) {
  auto unknown = gdl_self_play_trajectories("gdl:tictactoe", {"material"}, random_games(1, 1));
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().find("unknown GDL heuristic 'material' (known: fuzzy_goal, "
                                 "fuzzy_goal_written, goal)"),
            std::string::npos)
      << unknown.error();
  auto player = gdl_self_play_trajectories("gdl:tictactoe", {}, [] {
    auto o = random_games(1, 1);
    o.player = "alphabeta";
    return o;
  }());
  ASSERT_FALSE(player);
  EXPECT_NE(player.error().find("unknown GDL player 'alphabeta'"), std::string::npos);
  auto puzzle = gdl_self_play_trajectories("gdl:maze", {}, random_games(1, 1));
  ASSERT_FALSE(puzzle);
  EXPECT_NE(puzzle.error().find("has one role"), std::string::npos) << puzzle.error();
  auto missing = gdl_self_play_trajectories("gdl:noSuchSheet", {}, random_games(1, 1));
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().find("noSuchSheet"), std::string::npos) << missing.error();
}

}  // namespace
}  // namespace arena::lab
