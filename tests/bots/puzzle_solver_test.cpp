// The one choice of a puzzle's solver (bots/solver/puzzle_solver.h): every search it picks for
// the sliding tiles finds the optimal length, "pdb" where no pattern database fits is an error
// or (a bot's spec) Manhattan distance, a search of the wrong kind is refused by name, and a
// node limit gives an unsolved result rather than an error.

#include <gtest/gtest.h>

#include <string>

#include "bots/solver/puzzle_solver.h"
#include "games/puzzles/sliding_puzzle.h"
#include "tests/games/puzzles/eight_puzzle_bfs.h"

namespace arena::solver {
namespace {

SolveRequest request(std::string puzzle, std::string position, std::string algo,
                     std::string heuristic) {
  SolveRequest r;
  r.puzzle = std::move(puzzle);
  r.position = std::move(position);
  r.algo = std::move(algo);
  r.heuristic = std::move(heuristic);
  return r;
}

TEST(SolvePuzzle, EverySlidingSearchFindsTheBreadthFirstDistance) {
  const auto bfs = puzzles::test::eight_puzzle_bfs();
  const std::string hard = bfs.farthest.front();  // 31 moves
  for (const char* algo : {"idastar", "astar"}) {
    for (const char* h : {"manhattan", "linear_conflict", "misplaced"}) {
      SCOPED_TRACE(std::string(algo) + " " + h);
      auto r = solve_puzzle(request("8-puzzle", hard, algo, h));
      ASSERT_TRUE(r) << r.error();
      EXPECT_TRUE(r->solved);
      EXPECT_EQ(r->length, 31);
      EXPECT_EQ(r->moves.size(), 31u);
      EXPECT_EQ(r->start, hard);
      auto p = puzzles::SlidingPuzzle::deserialize(hard);
      ASSERT_TRUE(p);
      for (const auto& m : r->moves) {
        auto move = p->parse_move(m);
        ASSERT_TRUE(move) << m;
        p->make_move(*move);
      }
      EXPECT_TRUE(p->is_solved());
    }
  }
}

TEST(SolvePuzzle, PdbWhereNoDatabaseFitsIsAnErrorOrManhattan) {
  auto strict = solve_puzzle(request("8-puzzle", "1 0 2 3 4 5 6 7 8", "idastar", "pdb"));
  ASSERT_FALSE(strict);
  EXPECT_NE(strict.error().find("15-puzzle only"), std::string::npos) << strict.error();
  auto bots = request("8-puzzle", "1 0 2 3 4 5 6 7 8", "idastar", "pdb");
  bots.pdb_or_manhattan = true;
  auto r = solve_puzzle(bots);
  ASSERT_TRUE(r) << r.error();
  EXPECT_TRUE(r->solved);
  EXPECT_EQ(r->length, 1);
}

TEST(SolvePuzzle, TheWrongKindOfSearchOrPuzzleIsRefusedByName) {
  struct Case {
    SolveRequest request;
    const char* named;
  };
  const Case cases[] = {
      {request("sliding", "1 0 2 3 4 5 6 7 8", "bfs", "manhattan"), "GDL sheets"},
      {request("chess", "", "idastar", "manhattan"), "no solver for 'chess'"},
      {request("sliding", "1 2 3", "idastar", "manhattan"), "bad state '1 2 3'"},
      {request("sliding", "1 0 2 3 4 5 6 7 8", "idastar", "nosuch"), "nosuch"},
  };
  for (const auto& c : cases) {
    auto r = solve_puzzle(c.request);
    ASSERT_FALSE(r) << c.named;
    EXPECT_NE(r.error().find(c.named), std::string::npos) << r.error();
  }
}

TEST(SolvePuzzle, ANodeLimitLeavesItUnsolved) {
  const auto bfs = puzzles::test::eight_puzzle_bfs();
  for (const char* h : {"manhattan", "misplaced"}) {
    auto r = request("8-puzzle", bfs.farthest.front(), "idastar", h);
    r.max_nodes = 1000;
    auto solved = solve_puzzle(r);
    ASSERT_TRUE(solved) << solved.error();
    EXPECT_FALSE(solved->solved) << h;
    EXPECT_TRUE(solved->moves.empty()) << h;
  }
}

}  // namespace
}  // namespace arena::solver
