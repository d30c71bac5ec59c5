// Solving GDL sheets of one role (bots/gdl/puzzle_search.h): breadth-first search finds a
// shortest solution, best-first search on the fuzzy goal heuristic finds one reaching fewer
// states, and every solution replays on the catalog's game to goal 100. The bot's solver and the
// server's optimal length (bots/solver/puzzle_solver.h) use the same search.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "bots/client/search_player.h"
#include "bots/gdl/puzzle_search.h"
#include "bots/solver/puzzle_solver.h"
#include "games/catalog/catalog.h"
#include "tests/games/gdl/lights_sheet.h"

namespace arena::gdl {
namespace {

class GdlPuzzleSearchTest : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    path_ = std::filesystem::temp_directory_path() /
            ("arena_search_lights_" + std::to_string(::getpid()) + ".kif");
    std::ofstream(path_) << arena::gdl_test::kLightsSheet;
    auto added = arena::add_gdl_file(path_.string());  // "gdl:STEM"
    ASSERT_TRUE(added) << added.error();
    lights_ = *added;
  }
  static void TearDownTestSuite() { std::filesystem::remove(path_); }

  static SheetPuzzleSolution solve(const std::string& sheet, PuzzleAlgo algo,
                                   const std::string& position = "") {
    PuzzleSearchOptions options;
    options.algo = algo;
    auto s = solve_sheet_puzzle(sheet, position, options);
    EXPECT_TRUE(s) << sheet << ": " << s.error();
    return s ? *s : SheetPuzzleSolution{};
  }
  // The moves replay on the catalog's game (its own reasoner) to a terminal state of goal 100.
  static void expect_replays_to_the_goal(const std::string& sheet,
                                         const std::vector<std::string>& moves) {
    auto game = make_game(sheet, {});
    ASSERT_TRUE(game) << game.error();
    for (const auto& m : moves) {
      ASSERT_FALSE((*game)->outcome().is_terminal()) << "ended before " << m;
      auto played = (*game)->play(m);
      ASSERT_TRUE(played) << m << ": " << played.error();
    }
    ASSERT_TRUE((*game)->outcome().is_terminal());
    EXPECT_EQ((*game)->scores(), std::vector<int>{100});
  }
  // True when some sequence of at most `depth` moves from `game` reaches goal 100.
  static bool solvable_within(const AnyGame& game, int depth) {
    if (game.outcome().is_terminal()) return game.scores() == std::vector<int>{100};
    if (depth == 0) return false;
    for (const auto& m : game.legal_moves()) {
      auto next = game.clone();
      if (next->play(m) && solvable_within(*next, depth - 1)) return true;
    }
    return false;
  }

  static inline std::filesystem::path path_;
  static inline std::string lights_;
};

TEST_F(GdlPuzzleSearchTest, BreadthFirstFindsTheShortestSolution) {
  const auto s = solve(lights_, PuzzleAlgo::kBreadthFirst);
  ASSERT_TRUE(s.search.solved) << s.search.stopped;
  EXPECT_EQ(s.moves.size(), 4u);
  expect_replays_to_the_goal(lights_, s.moves);
  EXPECT_GT(s.search.states, 4u);
  EXPECT_EQ(s.reasoner, "compiled");
  // A sheet of the library: the solution is one, and nothing shorter solves it (an exhaustive
  // search over the catalog's game, independent of this one).
  const auto maze = solve("gdl:maze", PuzzleAlgo::kBreadthFirst);
  ASSERT_TRUE(maze.search.solved) << maze.search.stopped;
  ASSERT_FALSE(maze.moves.empty());
  expect_replays_to_the_goal("gdl:maze", maze.moves);
  auto start = make_game("gdl:maze", {});
  ASSERT_TRUE(start) << start.error();
  EXPECT_FALSE(solvable_within(**start, static_cast<int>(maze.moves.size()) - 1));
}

// The progress callback: with no interval it comes before every expansion, with counts that
// grow and, breadth first, a depth that never falls; with a long interval it never comes.
TEST_F(GdlPuzzleSearchTest, TheProgressIsReportedAsTheSearchGoes) {
  std::vector<PuzzleSearchProgress> seen;
  PuzzleSearchOptions options;
  options.progress = [&](const PuzzleSearchProgress& p) { seen.push_back(p); };
  options.progress_every = std::chrono::milliseconds(0);
  auto s = solve_sheet_puzzle(lights_, "", options);
  ASSERT_TRUE(s && s->search.solved);
  ASSERT_EQ(seen.size(), s->search.expanded);
  for (std::size_t i = 0; i < seen.size(); ++i) {
    EXPECT_EQ(seen[i].expanded, i);
    EXPECT_LE(seen[i].states, s->search.states);
    EXPECT_GE(seen[i].seconds, 0.0);
    if (i > 0) {
      EXPECT_GE(seen[i].states, seen[i - 1].states);
      EXPECT_GE(seen[i].depth, seen[i - 1].depth);
    }
  }
  EXPECT_EQ(seen.back().depth, static_cast<int>(s->moves.size()) - 1);
  seen.clear();
  options.progress_every = std::chrono::hours(1);
  ASSERT_TRUE(solve_sheet_puzzle(lights_, "", options));
  EXPECT_TRUE(seen.empty());
}

TEST_F(GdlPuzzleSearchTest, BestFirstOnTheFuzzyGoalReachesFewerStates) {
  const auto bfs = solve(lights_, PuzzleAlgo::kBreadthFirst);
  const auto best = solve(lights_, PuzzleAlgo::kBestFirst);
  ASSERT_TRUE(best.search.solved) << best.search.stopped;
  expect_replays_to_the_goal(lights_, best.moves);
  // Each light on raises the goal formula's degree (a conjunction of the four): the heuristic
  // leads straight to the goal, where breadth-first search tries every shorter sequence first.
  EXPECT_EQ(best.moves.size(), 4u);
  EXPECT_EQ(best.search.expanded, 4u);
  EXPECT_LT(best.search.states, bfs.search.states);
}

TEST_F(GdlPuzzleSearchTest, AnUnsolvedSearchSaysWhyAndTheBestGoalReached) {
  // Two presses left and three lights off: the goal is out of reach; the fifth press ends at 10.
  const auto s = solve(lights_, PuzzleAlgo::kBreadthFirst,
                       "(cell 1 1 off) (cell 1 2 off) (cell 2 1 off) (cell 2 2 on) (step 3)");
  EXPECT_FALSE(s.search.solved);
  EXPECT_EQ(s.search.best_goal, 10);
  EXPECT_NE(s.search.stopped.find("no state reachable"), std::string::npos) << s.search.stopped;
  EXPECT_NE(format_sheet_puzzle_solution(s, PuzzleAlgo::kBreadthFirst).find("best goal reached 10"),
            std::string::npos);
  PuzzleSearchOptions tight;
  tight.max_states = 3;
  auto limited = solve_sheet_puzzle(lights_, "", tight);
  ASSERT_TRUE(limited) << limited.error();
  EXPECT_FALSE(limited->search.solved);
  EXPECT_NE(limited->search.stopped.find("limit of 3 states"), std::string::npos);
  // Errors: a game of two roles, an unknown sheet, a position that is not the sheet's.
  auto two = solve_sheet_puzzle("gdl:tictactoe", "", {});
  ASSERT_FALSE(two);
  EXPECT_NE(two.error().find("one role"), std::string::npos) << two.error();
  EXPECT_FALSE(solve_sheet_puzzle("gdl:no_such_sheet", "", {}));
  auto bad = solve_sheet_puzzle(lights_, "(lamp 1 1 on)", {});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("lamp"), std::string::npos) << bad.error();
}

TEST_F(GdlPuzzleSearchTest, TheBotsSolverAndTheServersOptimalLength) {
  for (const char* spec : {"bfs", "breadth_first", "best_first"}) {
    SCOPED_TRACE(spec);
    EXPECT_TRUE(client::is_puzzle_spec(spec));
    auto solver = client::make_puzzle_solver(spec);
    ASSERT_TRUE(solver) << solver.error();
    auto moves = (*solver)(lights_, "");
    ASSERT_TRUE(moves) << moves.error();
    expect_replays_to_the_goal(lights_, *moves);
    auto tiles = (*solver)("sliding", "1 0 2 3 4 5 6 7 8");
    ASSERT_FALSE(tiles);
    EXPECT_NE(tiles.error().find("idastar"), std::string::npos) << tiles.error();
  }
  auto ida = client::make_puzzle_solver("idastar");
  ASSERT_TRUE(ida) << ida.error();
  auto refused = (*ida)(lights_, "");
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().find("best_first"), std::string::npos) << refused.error();
  EXPECT_EQ(arena::solver::optimal_puzzle_length(lights_, "", 1'000'000), 4);
  EXPECT_EQ(arena::solver::optimal_puzzle_length(
                lights_, "(cell 1 1 on) (cell 1 2 on) (cell 2 1 on) (cell 2 2 off) (step 3)", 100),
            1);
  EXPECT_EQ(arena::solver::optimal_puzzle_length(lights_, "", 3), std::nullopt) << "the state limit";
}

}  // namespace
}  // namespace arena::gdl
