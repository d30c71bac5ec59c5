// Rubik's cube heuristics and search: 3-D Manhattan values, admissibility against true
// distances from iterative deepening, and a depth-limited corner pattern database.

#include "bots/eval/rubiks_cube.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "bots/search/astar.h"
#include "bots/search/idastar.h"

namespace arena::eval {
namespace {

using puzzles::RubiksCube;

RubiksCube after(const char* moves) {
  RubiksCube c;
  EXPECT_TRUE(c.apply_sequence(moves));
  return c;
}

TEST(RubikHeuristics, ManhattanOfOneTurnIsEightCubiesOneTurnEach) {
  EXPECT_EQ(manhattan_3d(RubiksCube()), 0);
  for (const char* m : {"U", "R'", "F2", "D", "L2", "B'"}) {
    EXPECT_EQ(manhattan_3d(after(m)), 8) << m;
    EXPECT_EQ(manhattan_3d_admissible(after(m)), 1) << m;
  }
}

TEST(RubikHeuristics, AdmissibleFormNeverExceedsTheTrueDistance) {
  const auto zero = [](const RubiksCube&) { return 0; };
  for (int seed = 0; seed < 8; ++seed) {
    const RubiksCube c = RubiksCube::scrambled(3, static_cast<std::uint64_t>(seed));
    // Uninformed IDA* (plain iterative deepening) gives the true distance.
    const auto exact = search::idastar(c, zero);
    ASSERT_TRUE(exact.solved);
    EXPECT_LE(manhattan_3d_admissible(c), exact.length) << c.serialize();
    const auto informed = search::idastar(c, manhattan_3d_admissible);
    ASSERT_TRUE(informed.solved);
    EXPECT_EQ(informed.length, exact.length);
    EXPECT_LE(informed.nodes, exact.nodes);
    RubiksCube replay = c;
    for (auto m : informed.moves) replay.make_move(m);
    EXPECT_TRUE(replay.is_solved());
    EXPECT_EQ(search::astar(c, manhattan_3d_admissible).length, exact.length);
  }
}

// The corners' distance by brute force over every sequence of up to 3 turns (4 = farther).
int brute_force_corner_distance(const RubiksCube& target) {
  const std::uint32_t goal = CornerPatternDatabase::index_of(target);
  RubiksCube::MoveList list;
  RubiksCube().generate_moves(list);
  std::vector<RubiksCube> level{RubiksCube()};
  for (int d = 0; d <= 3; ++d) {
    std::vector<RubiksCube> next;
    for (const auto& c : level) {
      if (CornerPatternDatabase::index_of(c) == goal) return d;
      for (auto m : list) {
        RubiksCube n = c;
        n.make_move(m);
        next.push_back(n);
      }
    }
    level = std::move(next);
  }
  return 4;
}

TEST(RubikHeuristics, CornerDatabaseMatchesBruteForceAtShallowDepths) {
  const auto db = CornerPatternDatabase::build(3);
  EXPECT_EQ(db.lookup(RubiksCube()), 0);
  for (const char* seq : {"R", "R2 U'", "U D'", "R U F", "F B' L2", "R U2 F' L", "R U R' U'",
                          "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2"}) {
    const RubiksCube c = after(seq);
    EXPECT_EQ(db.lookup(c), brute_force_corner_distance(c)) << seq;
  }
}

TEST(RubikHeuristics, CornerIndexIsABijectionOnScrambles) {
  std::vector<std::uint32_t> seen;
  for (int seed = 0; seed < 200; ++seed) {
    const RubiksCube c = RubiksCube::scrambled(20, static_cast<std::uint64_t>(seed));
    const std::uint32_t i = CornerPatternDatabase::index_of(c);
    EXPECT_LT(i, CornerPatternDatabase::kStates);
    seen.push_back(i);
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(std::unique(seen.begin(), seen.end()), seen.end());
  EXPECT_EQ(CornerPatternDatabase::index_of(RubiksCube()), 0u);
}

TEST(RubikHeuristics, UnknownNamesAreErrors) {
  auto h = make_rubik_cost_heuristic("euclid", "/nonexistent");
  ASSERT_FALSE(h);
  EXPECT_NE(h.error().find("euclid"), std::string::npos);
  auto e = make_heuristic(std::type_identity<RubiksCube>{}, "manhattan_3d", {});
  ASSERT_TRUE(e);
  EXPECT_EQ((*e)(after("U")), -8);
}

}  // namespace
}  // namespace arena::eval
