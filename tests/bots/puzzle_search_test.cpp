// A* and IDA* on the sliding-tile puzzles: optimal lengths against the 8-puzzle BFS and
// Korf's published optima, and IDA* + Manhattan node counts equal to Korf's published ones.

#include <gtest/gtest.h>

#include <algorithm>

#include "bots/eval/sliding_puzzle.h"
#include "bots/search/astar.h"
#include "bots/search/idastar.h"
#include "bots/search/sliding_puzzle_ida.h"
#include "games/puzzles/io/korf100_file.h"
#include "tests/games/puzzles/eight_puzzle_bfs.h"

namespace arena::search {
namespace {

using puzzles::SlidingPuzzle;

// Plays `moves` from `start` through the rules and says whether they reach the goal.
template <class Moves>
bool reaches_goal(SlidingPuzzle p, const Moves& moves) {
  for (auto m : moves) {
    if (!p.can_move(m.dir)) return false;
    p.make_move(m);
  }
  return p.is_solved();
}

bool reaches_goal_dirs(SlidingPuzzle p, const std::vector<puzzles::Direction>& dirs) {
  std::vector<puzzles::SlidingMove> moves;
  for (auto d : dirs) moves.push_back({d});
  return reaches_goal(p, moves);
}

// The Korf instances with the fewest published nodes: they solve in about a second under
// ASan even through the Game interface.
std::vector<puzzles::KorfInstance> easiest_korf(std::size_t n) {
  auto all = puzzles::read_korf100(std::string(ARENA_TEST_DATA_DIR) + "/korf100.txt");
  EXPECT_EQ(all.size(), 100u);
  std::sort(all.begin(), all.end(),
            [](const auto& a, const auto& b) { return a.published_nodes < b.published_nodes; });
  all.resize(std::min(n, all.size()));
  return all;
}

TEST(PuzzleSearch, IdaStarSolvesThe31MoveEightPuzzlesOptimally) {
  const auto bfs = puzzles::test::eight_puzzle_bfs();
  ASSERT_EQ(bfs.farthest.size(), 2u);
  for (const auto& text : bfs.farthest) {
    const auto start = *SlidingPuzzle::deserialize(text);
    const auto r = idastar(start, eval::manhattan_distance);
    ASSERT_TRUE(r.solved) << text;
    EXPECT_EQ(r.length, 31) << text;
    EXPECT_TRUE(reaches_goal(start, r.moves)) << text;
    const auto lc = idastar(start, eval::linear_conflict);
    EXPECT_EQ(lc.length, 31) << text;
    EXPECT_LT(lc.nodes, r.nodes) << "linear conflict should prune more than Manhattan";
    const auto fast = search::solve_sliding_manhattan(start);
    EXPECT_EQ(fast.moves.size(), 31u);
    EXPECT_EQ(fast.nodes, r.nodes) << "the tight loop counts like the template";
  }
}

TEST(PuzzleSearch, AStarMatchesBfsDistancesOnRandom8Puzzles) {
  const auto bfs = puzzles::test::eight_puzzle_bfs();
  for (int seed = 0; seed < 15; ++seed) {
    const auto start = SlidingPuzzle::random(3, static_cast<std::uint64_t>(seed));
    const int d = bfs.distance[puzzles::test::rank9(start)];
    const auto a = astar(start, eval::manhattan_distance);
    ASSERT_TRUE(a.solved);
    EXPECT_EQ(a.length, d) << start.serialize();
    EXPECT_TRUE(reaches_goal(start, a.moves));
    EXPECT_EQ(idastar(start, eval::misplaced_tiles).length, d);
  }
}

TEST(PuzzleSearch, SolvedStartNeedsNoMove) {
  const auto r = idastar(SlidingPuzzle::solved(4), eval::manhattan_distance);
  EXPECT_TRUE(r.solved);
  EXPECT_EQ(r.length, 0);
  EXPECT_EQ(r.nodes, 1u);
  EXPECT_EQ(astar(SlidingPuzzle::solved(3), eval::manhattan_distance).length, 0);
}

TEST(PuzzleSearch, NodeLimitStopsWithoutASolution) {
  const auto start = *SlidingPuzzle::deserialize(easiest_korf(1)[0].tiles);
  const auto r = idastar(start, eval::manhattan_distance, PuzzleLimits{1000, 1000, {}});
  EXPECT_FALSE(r.solved);
  EXPECT_TRUE(r.moves.empty());
  EXPECT_FALSE(search::solve_sliding_manhattan(start, 1000).solved);
}

TEST(PuzzleSearch, IdaStarManhattanReproducesKorfsNodeCounts) {
  for (const auto& k : easiest_korf(3)) {
    const auto start = *SlidingPuzzle::deserialize(k.tiles);
    EXPECT_EQ(eval::manhattan_distance(start), k.manhattan) << "instance " << k.id;
    const auto r = idastar(start, eval::manhattan_distance);
    ASSERT_TRUE(r.solved) << "instance " << k.id;
    EXPECT_EQ(r.length, k.optimal_length) << "instance " << k.id;
    EXPECT_EQ(r.nodes, k.published_nodes) << "instance " << k.id;
    EXPECT_TRUE(reaches_goal(start, r.moves));
  }
}

TEST(PuzzleSearch, TightLoopReproducesKorfsNodeCounts) {
  for (const auto& k : easiest_korf(8)) {
    const auto start = *SlidingPuzzle::deserialize(k.tiles);
    const auto r = search::solve_sliding_manhattan(start);
    ASSERT_TRUE(r.solved) << "instance " << k.id;
    EXPECT_EQ(static_cast<int>(r.moves.size()), k.optimal_length) << "instance " << k.id;
    EXPECT_EQ(r.nodes, k.published_nodes) << "instance " << k.id;
    EXPECT_TRUE(reaches_goal_dirs(start, r.moves));
  }
}

// The progress of IDA*: one report per iteration as it begins, numbered from 1, the first bound
// h(start) and the bounds rising (by 2 on the sliding tiles: every move changes the Manhattan
// distance's parity), the nodes counted so far never falling; the tight loop reports exactly what
// the template reports, since both count alike.
TEST(PuzzleSearch, IdaStarReportsEachIterationAsItBegins) {
  const auto start = *SlidingPuzzle::deserialize(puzzles::test::eight_puzzle_bfs().farthest[0]);
  std::vector<search::IdaIteration> seen, tight;
  PuzzleLimits limits;
  limits.progress = [&seen](const search::IdaIteration& i) { seen.push_back(i); };
  const auto r = idastar(start, eval::manhattan_distance, limits);
  ASSERT_TRUE(r.solved);
  ASSERT_EQ(static_cast<int>(seen.size()), r.iterations);
  ASSERT_GE(seen.size(), 2u);
  EXPECT_EQ(seen.front().bound, eval::manhattan_distance(start));
  EXPECT_EQ(seen.front().nodes, 1u);
  EXPECT_EQ(seen.back().bound, 31);  // the last iteration finds the optimum
  for (std::size_t k = 0; k < seen.size(); ++k) {
    EXPECT_EQ(seen[k].iteration, static_cast<int>(k) + 1);
    if (k == 0) continue;
    EXPECT_EQ(seen[k].bound, seen[k - 1].bound + 2);
    EXPECT_GT(seen[k].nodes, seen[k - 1].nodes);
    EXPECT_GE(seen[k].seconds, seen[k - 1].seconds);
  }
  EXPECT_LT(seen.back().nodes, r.nodes);
  const auto fast = search::solve_sliding_manhattan(
      start, 0, [&tight](const search::IdaIteration& i) { tight.push_back(i); });
  ASSERT_EQ(tight.size(), seen.size());
  for (std::size_t k = 0; k < seen.size(); ++k) {
    EXPECT_EQ(tight[k].bound, seen[k].bound) << k;
    EXPECT_EQ(tight[k].nodes, seen[k].nodes) << k;
  }
  EXPECT_EQ(fast.iterations, r.iterations);
}

}  // namespace
}  // namespace arena::search
