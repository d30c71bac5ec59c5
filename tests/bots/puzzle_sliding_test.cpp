// Sliding-tile heuristics: values on hand-checked positions, admissibility against the
// 8-puzzle's exact distances, and the fuzzy goal count's published values.

#include "bots/eval/sliding_puzzle.h"

#include <gtest/gtest.h>

#include "tests/games/puzzles/eight_puzzle_bfs.h"

namespace arena::eval {
namespace {

using puzzles::SlidingPuzzle;

SlidingPuzzle parse(const char* text) {
  auto p = SlidingPuzzle::deserialize(text);
  EXPECT_TRUE(p) << p.error();
  return *p;
}

TEST(SlidingHeuristics, ZeroAtTheGoal) {
  for (int size : {3, 4, 5}) {
    const auto goal = SlidingPuzzle::solved(size);
    EXPECT_EQ(misplaced_tiles(goal), 0);
    EXPECT_EQ(manhattan_distance(goal), 0);
    EXPECT_EQ(linear_conflict(goal), 0);
  }
}

TEST(SlidingHeuristics, HandCheckedValues) {
  // 2 1 _ / 3 4 5 / 7 6 8: tile 2 two columns from home; 7 and 6 swapped in the bottom row
  // (a linear conflict), and so are 2 and 1 in the top row (1 is home, 2 must pass it).
  const auto p = parse("2 1 0 3 4 5 7 6 8");
  EXPECT_EQ(misplaced_tiles(p), 3);
  EXPECT_EQ(manhattan_distance(p), 2 + 1 + 1);
  EXPECT_EQ(linear_conflict(p), 4 + 2 * 2);
}

TEST(SlidingHeuristics, AdmissibleAndOrderedOnTheWhole8Puzzle) {
  // Every heuristic is at most the true distance; linear conflict >= Manhattan >= misplaced.
  const auto bfs = puzzles::test::eight_puzzle_bfs();
  int checked = 0;
  for (int seed = 0; seed < 3000; ++seed) {
    const auto p = SlidingPuzzle::random(3, static_cast<std::uint64_t>(seed));
    const int d = bfs.distance[puzzles::test::rank9(p)];
    ASSERT_GE(d, 0);
    EXPECT_LE(linear_conflict(p), d) << p.serialize();
    EXPECT_LE(manhattan_distance(p), linear_conflict(p));
    EXPECT_LE(misplaced_tiles(p), manhattan_distance(p));
    EXPECT_EQ(d % 2, manhattan_distance(p) % 2);  // every move changes Manhattan by one
    ++checked;
  }
  EXPECT_EQ(checked, 3000);
}

TEST(SlidingHeuristics, FuzzyGoalCountOfSolved15PuzzleIsTauTo15) {
  const auto goal = SlidingPuzzle::solved(4);
  EXPECT_NEAR(fuzzy_goal_count(goal, 0.9), 0.205891, 5e-7);
  EXPECT_NEAR(fuzzy_goal_count(goal, 0.9, 0.6), 0.6, 1e-12);
}

TEST(SlidingHeuristics, FuzzyGoalCountPrefersMoreTilesHome) {
  const auto goal = SlidingPuzzle::solved(4);
  auto one_off = goal;
  one_off.make_move(*one_off.parse_move("R"));  // tile 1 leaves its cell
  EXPECT_NEAR(fuzzy_goal_count(one_off, 0.9), 0.205891 / 0.9 * 0.1, 1e-7);
  EXPECT_LT(fuzzy_goal_count(one_off, 0.9, 0.6), fuzzy_goal_count(goal, 0.9, 0.6));
}

TEST(SlidingHeuristics, RegistryNamesAndParameters) {
  const std::type_identity<SlidingPuzzle> g;
  EXPECT_EQ(heuristics_for(g).size(), 4u);
  auto fuzzy = make_heuristic(g, "fuzzy_goal_count", {{"theta", "0.6"}});
  ASSERT_TRUE(fuzzy) << fuzzy.error();
  EXPECT_EQ((*fuzzy)(SlidingPuzzle::solved(4)), 60000);
  auto md = make_heuristic(g, "manhattan_distance", {});
  ASSERT_TRUE(md);
  EXPECT_EQ((*md)(parse("1 0 2 3 4 5 6 7 8")), -1);
  auto bad = make_heuristic(g, "fuzzy_goal_count", {{"sigma", "1"}});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("sigma"), std::string::npos);
  auto unknown = make_sliding_cost_heuristic("euclid");
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().find("euclid"), std::string::npos);
}

}  // namespace
}  // namespace arena::eval
