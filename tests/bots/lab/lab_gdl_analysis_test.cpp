// A GDL sheet's goal heuristics measured along self-play games (bots/lab/gdl_analysis.h): one
// trajectory per game and heuristic, aligned, with the true value read from the final goals;
// the goal rules' own reading is flat until the end; a symmetric start is even under the fuzzy
// goal; the same seed plays the same games; bad names and puzzles are refused.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "bots/lab/gdl_analysis.h"
#include "games/gdl/library/library.h"

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

// Recorded games are replayed through the sheet: one trajectory per game read, a state per
// turn plus the start, the true value from the stored result (a forfeit's "0-1" counts though
// the goals of its last state say nothing; "0-100-50" is three seats' scores); a game whose
// turn the sheet does not take is counted and named, not measured.
TEST(GdlAnalysis, StoredGamesAreReplayedWithTheirStoredResult) {
  auto start = gdl::make_gdl_game("gdl:tictactoe");
  ASSERT_TRUE(start) << start.error();
  const std::string s0 = (*start)->serialize();
  const std::vector<std::string> x_wins = {"(play 1 1 x)", "(play 2 1 o)", "(play 1 2 x)",
                                           "(play 2 2 o)", "(play 1 3 x)"};
  const std::vector<StoredGdlGame> games = {
      {s0, x_wins, "1-0"},
      {s0, {"(play 1 1 x)", "(play 2 1 o)"}, "0-1"},
      {s0, {"(play 1 1 x)", "(play 9 9 o)"}, "1-0"},
  };
  auto read = gdl_stored_trajectories("gdl:tictactoe", {"goal", "fuzzy_goal"}, games);
  ASSERT_TRUE(read) << read.error();
  EXPECT_EQ(read->games, 2);
  EXPECT_EQ(read->unreadable, 1);
  EXPECT_NE(read->first_problem.find("stored game 3: move 2 does not replay"), std::string::npos)
      << read->first_problem;
  ASSERT_EQ(read->heuristics.size(), 2u);
  const auto& goal = read->heuristics[0].trajectories;
  ASSERT_EQ(goal.size(), 2u);
  ASSERT_EQ(goal[0].h.size(), 6u);
  EXPECT_EQ(goal[0].h.back(), 100.0);  // xplayer's line: goal 100 against 0
  EXPECT_EQ(goal[0].v, std::vector<double>(6, 1.0));
  ASSERT_EQ(goal[1].h.size(), 3u);
  EXPECT_EQ(goal[1].v, std::vector<double>(3, -1.0));
  EXPECT_EQ(read->heuristics[1].trajectories.size(), 2u);

  auto three = gdl::make_gdl_game("gdl:tictactoe_3player");
  ASSERT_TRUE(three) << three.error();
  auto seats = gdl_stored_trajectories("gdl:tictactoe_3player", {"goal"},
                                       {{(*three)->serialize(), {}, "0-100-50"}});
  ASSERT_TRUE(seats) << seats.error();
  ASSERT_EQ(seats->heuristics[0].trajectories.size(), 1u);
  EXPECT_EQ(seats->heuristics[0].trajectories[0].v, std::vector<double>{-1.0});
}

// A simultaneous turn is stored as one row per mover (games/core/turn_rows.h), as the server and
// in-process leagues record it: the rows are grouped into turns again, one state per turn.
TEST(GdlAnalysis, StoredSimultaneousTurnsAreReadAsOneRowPerMover) {
  auto game = gdl::make_gdl_game("gdl:chickentictactoe");
  ASSERT_TRUE(game) << game.error();
  const std::string start = (*game)->serialize();
  std::vector<std::string> rows;
  int turns = 0;
  std::size_t inside_a_turn = 0;  // rows up to the first mover's of the first simultaneous turn
  while (!(*game)->outcome().is_terminal()) {
    std::vector<std::string> turn;
    for (int seat : (*game)->movers()) turn.push_back((*game)->legal_moves_of(seat).back());
    if (turn.size() > 1 && inside_a_turn == 0) inside_a_turn = rows.size() + 1;
    rows.insert(rows.end(), turn.begin(), turn.end());
    ASSERT_TRUE((*game)->play_turn(turn));
    ++turns;
  }
  ASSERT_GT(inside_a_turn, 0u);
  ASSERT_GT(rows.size(), static_cast<std::size_t>(turns));
  auto read = gdl_stored_trajectories("gdl:chickentictactoe", {"goal"}, {{start, rows, "1-0"}});
  ASSERT_TRUE(read) << read.error();
  EXPECT_EQ(read->games, 1) << read->first_problem;
  ASSERT_EQ(read->heuristics[0].trajectories.size(), 1u);
  EXPECT_EQ(read->heuristics[0].trajectories[0].h.size(), static_cast<std::size_t>(turns) + 1);

  rows.resize(inside_a_turn);  // a turn that lacks a mover's row is not read
  auto cut = gdl_stored_trajectories("gdl:chickentictactoe", {"goal"}, {{start, rows, "1-0"}});
  ASSERT_TRUE(cut) << cut.error();
  EXPECT_EQ(cut->unreadable, 1);
  EXPECT_NE(cut->first_problem.find("incomplete"), std::string::npos) << cut->first_problem;
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
