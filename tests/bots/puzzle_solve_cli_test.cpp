// `arena solve` end to end: the real binary on Korf's easiest instance, a GDL sheet of one
// role, and their errors.

#include <gtest/gtest.h>

#include <string>

#include "tests/cli/run_command.h"

namespace arena {
namespace {

test::CommandResult solve(const std::string& flags) {
  return test::run_command(std::string(ARENA_BINARY) + " solve " + flags);
}

TEST(SolveCli, KorfInstanceWithManhattanPrintsPublishedFigures) {
  // Instance 79 (published: optimal 42, 540860 nodes with IDA* + Manhattan).
  const auto r = solve("--puzzle 15-puzzle --korf 79 --algo idastar --heuristic manhattan --data " +
                       std::string(ARENA_TEST_DATA_DIR));
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("length 42\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("nodes 540860\n"), std::string::npos) << r.output;
}

TEST(SolveCli, AStarOnAnEightPuzzle) {
  const auto r = solve(
      "--puzzle 8-puzzle --state \"1 2 0 3 4 5 6 7 8\" --algo astar "
      "--heuristic linear_conflict");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("solution L L\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("length 2\n"), std::string::npos) << r.output;
}

TEST(SolveCli, UserErrorsExitOneWithAMessage) {
  auto unsolvable = solve("--puzzle 8-puzzle --state \"0 2 1 3 4 5 6 7 8\"");
  EXPECT_EQ(unsolvable.status, 1);
  EXPECT_NE(unsolvable.output.find("unsolvable"), std::string::npos) << unsolvable.output;
  auto heuristic = solve("--puzzle 8-puzzle --state \"1 0 2 3 4 5 6 7 8\" --heuristic euclid");
  EXPECT_EQ(heuristic.status, 1);
  EXPECT_NE(heuristic.output.find("euclid"), std::string::npos) << heuristic.output;
  auto cube = solve("--puzzle rubik --state \"UF UR\"");
  EXPECT_EQ(cube.status, 1);
  EXPECT_NE(cube.output.find("expected 20 cubies"), std::string::npos) << cube.output;
  auto data = solve("--puzzle 15-puzzle --korf 5 --data /nonexistent-dir");
  EXPECT_EQ(data.status, 1);
  EXPECT_NE(data.output.find("/nonexistent-dir/korf100.txt"), std::string::npos) << data.output;
}

TEST(SolveCli, AGdlSheetOfOneRoleIsSolvedBreadthFirstOrBestFirst) {
  const auto bfs = solve("--puzzle gdl:maze");
  ASSERT_EQ(bfs.status, 0) << bfs.output;
  EXPECT_NE(bfs.output.find("algorithm breadth_first, reasoner compiled\n"), std::string::npos)
      << bfs.output;
  EXPECT_NE(bfs.output.find(" (the shortest)\n"), std::string::npos) << bfs.output;
  EXPECT_NE(bfs.output.find("\nsolution "), std::string::npos) << bfs.output;
  const auto best = solve("--puzzle gdl:maze --algo best_first --heuristic fuzzy_goal");
  ASSERT_EQ(best.status, 0) << best.output;
  EXPECT_NE(best.output.find("algorithm best_first"), std::string::npos) << best.output;
  // Unsolved within the limit: exit 1, saying why.
  const auto limited = solve("--puzzle gdl:maze --max-nodes 2");
  EXPECT_EQ(limited.status, 1) << limited.output;
  EXPECT_NE(limited.output.find("no solution: the limit of 2 states"), std::string::npos)
      << limited.output;
  // god's states are costly (about 100 a second): its best-first search runs into the deadline.
  const auto timed = solve("--puzzle gdl:god --algo best_first --seconds 0.5");
  EXPECT_EQ(timed.status, 1) << timed.output;
  EXPECT_NE(timed.output.find("no solution: the time limit"), std::string::npos) << timed.output;
  const auto two = solve("--puzzle gdl:tictactoe");
  EXPECT_EQ(two.status, 1);
  EXPECT_NE(two.output.find("one role"), std::string::npos) << two.output;
  const auto state = solve("--puzzle gdl:maze --state \"(nonsense 1)\"");
  EXPECT_EQ(state.status, 1);
  EXPECT_NE(state.output.find("nonsense"), std::string::npos) << state.output;
  const auto heuristic = solve("--puzzle gdl:maze --heuristic manhattan");
  EXPECT_EQ(heuristic.status, 1);
  EXPECT_NE(heuristic.output.find("fuzzy_goal"), std::string::npos) << heuristic.output;
}

TEST(SolveCli, BadFlagsExitTwo) {
  EXPECT_EQ(solve("--puzzle 8-puzzle --state \"1 0 2 3 4 5 6 7 8\" --algo bfs").status, 2);
  EXPECT_EQ(solve("--puzzle 15-puzzle --korf 101").status, 2);
  EXPECT_EQ(solve("--puzzle 16-puzzle --state 1").status, 2);
  EXPECT_EQ(solve("--puzzle gdl:maze --algo dfs").status, 2);
}

}  // namespace
}  // namespace arena
