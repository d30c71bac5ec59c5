// Sliding-tile puzzle rules: conformance, text, solvability, and the 8-puzzle's state space
// against tests/data/eight_puzzle.txt.

#include "games/puzzles/sliding_puzzle.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/games/conformance.h"
#include "tests/games/puzzles/eight_puzzle_bfs.h"

namespace arena::test {
INSTANTIATE_TYPED_TEST_SUITE_P(Sliding, Conformance, ::testing::Types<puzzles::SlidingPuzzle>);
}  // namespace arena::test

namespace arena::puzzles {
namespace {

// The value after `key` on its line in eight_puzzle.txt, up to a '#' comment.
std::string fact(const std::string& key) {
  std::ifstream in(std::string(ARENA_TEST_DATA_DIR) + "/eight_puzzle.txt");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key + " ", 0) != 0) continue;
    std::string value = line.substr(key.size() + 1);
    return value.substr(0, value.find('#'));
  }
  ADD_FAILURE() << "no '" << key << "' in eight_puzzle.txt";
  return "";
}

std::vector<int> numbers(const std::string& text) {
  std::istringstream in(text);
  std::vector<int> out;
  for (int v; in >> v;) out.push_back(v);
  return out;
}

const test::EightPuzzleBfs& bfs() {
  static const test::EightPuzzleBfs result = test::eight_puzzle_bfs();
  return result;
}

TEST(EightPuzzle, ReachableStatesMatchPublishedCount) {
  EXPECT_EQ(bfs().reachable, numbers(fact("reachable_states")).at(0));
}

TEST(EightPuzzle, MaximumOptimalLengthIs31WithTwoStates) {
  EXPECT_EQ(static_cast<int>(bfs().histogram.size()) - 1,
            numbers(fact("max_optimal_length")).at(0));
  EXPECT_EQ(static_cast<int>(bfs().farthest.size()), numbers(fact("states_at_31")).at(0));
}

TEST(EightPuzzle, DistanceHistogramMatchesPublished) {
  EXPECT_EQ(bfs().histogram, numbers(fact("distance_histogram_blank_corner_goal")));
}

TEST(EightPuzzle, HardestStatesAreThePublishedOnes) {
  // "8 _ 6 / 5 4 7 / 2 3 1   and   8 7 6 / _ 4 1 / 2 5 3" -> our serialization.
  std::string text = fact("hardest_for_goal_012345678");
  std::vector<std::string> expected;
  for (std::string part : {text.substr(0, text.find("and")), text.substr(text.find("and") + 3)}) {
    std::string cleaned;
    for (char c : part) cleaned += c == '_' ? '0' : c;
    auto p = SlidingPuzzle::deserialize(cleaned);
    ASSERT_TRUE(p) << p.error();
    expected.push_back(p->serialize());
  }
  std::vector<std::string> got = bfs().farthest;
  std::sort(got.begin(), got.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(got, expected);
}

TEST(SlidingPuzzle, GoalIsBlankFirstAndSolved) {
  auto p = SlidingPuzzle::deserialize("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15");
  ASSERT_TRUE(p) << p.error();
  EXPECT_TRUE(p->is_solved());
  EXPECT_EQ(p->outcome(), Outcome::win_for(Player::kFirst, EndReason::kSolved));
  SlidingPuzzle::MoveList list;
  p->generate_moves(list);
  EXPECT_EQ(list.size(), 2u);  // solved states still have moves
}

TEST(SlidingPuzzle, MovesNameTheBlankDirection) {
  auto p = SlidingPuzzle::deserialize("1 2 0 3 4 5 6 7 8");
  ASSERT_TRUE(p) << p.error();
  SlidingPuzzle::MoveList list;
  p->generate_moves(list);
  std::vector<std::string> names;
  for (auto m : list) names.push_back(p->move_to_string(m));
  EXPECT_EQ(names, (std::vector<std::string>{"L", "D"}));
  p->make_move(*p->parse_move("L"));
  EXPECT_EQ(p->serialize(), "1 0 2 3 4 5 6 7 8");
  EXPECT_FALSE(p->parse_move("U").has_value());
}

TEST(SlidingPuzzle, RejectsUnsolvableWithAMessage) {
  auto p = SlidingPuzzle::deserialize("0 2 1 3 4 5 6 7 8");
  ASSERT_FALSE(p);
  EXPECT_NE(p.error().find("unsolvable"), std::string::npos) << p.error();
  auto q = SlidingPuzzle::deserialize("0 1 2 3 4 5 6 7 8 9 10 11 12 13 15 14");
  ASSERT_FALSE(q);
  EXPECT_NE(q.error().find("unsolvable"), std::string::npos) << q.error();
}

TEST(SlidingPuzzle, RejectsBadTilesNamingThem) {
  auto dup = SlidingPuzzle::deserialize("0 1 1 3 4 5 6 7 8");
  ASSERT_FALSE(dup);
  EXPECT_NE(dup.error().find("tile 1 appears twice"), std::string::npos) << dup.error();
  auto range = SlidingPuzzle::deserialize("0 1 9 3 4 5 6 7 8");
  ASSERT_FALSE(range);
  EXPECT_NE(range.error().find("tile 9"), std::string::npos) << range.error();
}

TEST(SlidingPuzzle, SeededInstancesAreSolvableAndReproducible) {
  for (const char* size : {"3", "4", "5"}) {
    for (int seed = 0; seed < 50; ++seed) {
      auto a = SlidingPuzzle::create({{"size", size}, {"seed", std::to_string(seed)}});
      auto b = SlidingPuzzle::create({{"size", size}, {"seed", std::to_string(seed)}});
      ASSERT_TRUE(a && b);
      EXPECT_EQ(a->serialize(), b->serialize());
      EXPECT_TRUE(SlidingPuzzle::is_solvable(a->tiles(), a->size()));
      EXPECT_EQ(a->size(), size[0] - '0');
    }
  }
}

// scramble=N walks N moves from the goal: the optimal distance (from the breadth-first search)
// is at most N and has N's parity, and the walk is reproducible from its seed.
TEST(SlidingPuzzle, ScrambleWalksFromTheGoal) {
  std::set<std::string> seen;
  for (int n : {1, 2, 3, 7, 20}) {
    for (int seed = 0; seed < 20; ++seed) {
      const GameOptions o{
          {"size", "3"}, {"scramble", std::to_string(n)}, {"seed", std::to_string(seed)}};
      auto a = SlidingPuzzle::create(o);
      auto b = SlidingPuzzle::create(o);
      ASSERT_TRUE(a && b) << a.error();
      EXPECT_EQ(a->serialize(), b->serialize());
      const int d = bfs().distance[static_cast<std::size_t>(test::rank9(*a))];
      EXPECT_LE(d, n) << a->serialize();
      EXPECT_EQ(d % 2, n % 2) << a->serialize();
      if (n == 20) seen.insert(a->serialize());
    }
  }
  EXPECT_GT(seen.size(), 10u) << "different seeds give different walks";
  auto both = SlidingPuzzle::create({{"scramble", "3"}, {"tiles", "1,0,2,3,4,5,6,7,8"}});
  ASSERT_FALSE(both);
  EXPECT_NE(both.error().find("exclude"), std::string::npos);
}

TEST(SlidingPuzzle, OptionsTilesAndUnknownOption) {
  auto p = SlidingPuzzle::create({{"tiles", "1,0,2,3,4,5,6,7,8"}});
  ASSERT_TRUE(p) << p.error();
  EXPECT_EQ(p->serialize(), "1 0 2 3 4 5 6 7 8");
  auto bad = SlidingPuzzle::create({{"size", "6"}});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("size='6'"), std::string::npos);
}

}  // namespace
}  // namespace arena::puzzles
