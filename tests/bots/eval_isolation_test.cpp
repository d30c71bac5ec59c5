#include "bots/eval/isolation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

namespace arena::eval {
namespace {

using isolation::Isolation;

Isolation load(const std::string& text) {
  auto g = Isolation::deserialize(text);
  EXPECT_TRUE(g) << g.error();
  return *g;
}

int square(const Isolation& g, std::string_view name) {
  auto m = Isolation::create({{"size", std::to_string(g.size())}})->parse_move(name);
  EXPECT_TRUE(m.has_value()) << name;
  return m ? m->to : 0;
}

// On 7x7 the centre weighs 1.0, the middle of an edge 0.5 and a corner 0.25.
TEST(IsolationEval, DirectionalWeightsOnSevenBySeven) {
  const Isolation g = *Isolation::create({});
  EXPECT_DOUBLE_EQ(directional_weight(square(g, "d4"), 7), 1.0);
  EXPECT_DOUBLE_EQ(directional_weight(square(g, "d1"), 7), 0.5);
  EXPECT_DOUBLE_EQ(directional_weight(square(g, "a4"), 7), 0.5);
  EXPECT_DOUBLE_EQ(directional_weight(square(g, "g4"), 7), 0.5);
  EXPECT_DOUBLE_EQ(directional_weight(square(g, "d7"), 7), 0.5);
  for (const char* corner : {"a1", "a7", "g1", "g7"})
    EXPECT_DOUBLE_EQ(directional_weight(square(g, corner), 7), 0.25) << corner;
  // One step in from the edge on both axes: (1 - 2/3 * 0.5)^2 = (2/3)^2.
  EXPECT_DOUBLE_EQ(directional_weight(square(g, "b2"), 7), 4.0 / 9.0);
}

TEST(IsolationEval, DirectionalWeightsHoldOnEveryBoardSize) {
  for (int size = 5; size <= 9; ++size) {
    EXPECT_DOUBLE_EQ(directional_weight(0, size), 0.25) << size;
    EXPECT_DOUBLE_EQ(directional_weight(size * size - 1, size), 0.25) << size;
  }
  EXPECT_DOUBLE_EQ(directional_weight(2 * 5 + 2, 5), 1.0);  // c3 on 5x5
  EXPECT_DOUBLE_EQ(directional_weight(4 * 9 + 4, 9), 1.0);  // e5 on 9x9
}

// x on d4 (centre), o on a1, x to move. x's 8 knight targets each weigh (5/6)(4/6) = 20/36;
// o's targets b3 and c2 weigh 20/36 too.
constexpr const char* kCentreVsCorner = "......./......./......./...x.../......./......./o...... x";

TEST(IsolationEval, MoveCountScoresForTheSideToMove) {
  const Isolation g = load(kCentreVsCorner);
  EXPECT_EQ(open_move_score(g), 8);
  EXPECT_EQ(improved_score(g), 8 - 2);
  EXPECT_DOUBLE_EQ(center_score_value(g), 0.0);
}

TEST(IsolationEval, CustomScoresUseTheDirectionalWeights) {
  const Isolation g = load(kCentreVsCorner);
  EXPECT_DOUBLE_EQ(custom_score_value(g), 8 * 1.0);
  EXPECT_DOUBLE_EQ(custom_score_2_value(g), 8 * 1.0 - 2 * 0.25);
  EXPECT_NEAR(custom_score_3_value(g), 8 * 20.0 / 36 - 2 * 20.0 / 36, 1e-12);
  EXPECT_EQ(custom_score(g), 8000);
  EXPECT_EQ(custom_score_2(g), 7500);
  EXPECT_EQ(custom_score_3(g), 3333);
}

TEST(IsolationEval, ScoresAreFromTheSideToMovesPointOfView) {
  // The same pieces with o to move (one more blocked square, far from both).
  const Isolation g = load("......#/......./......./...x.../......./......./o...... o");
  EXPECT_EQ(open_move_score(g), 2);
  EXPECT_EQ(improved_score(g), 2 - 8);
  EXPECT_DOUBLE_EQ(center_score_value(g), 9.0 + 9.0);
  EXPECT_DOUBLE_EQ(custom_score_2_value(g), 2 * 0.25 - 8 * 1.0);
  EXPECT_EQ(center_score(g), 18000);
}

TEST(IsolationEval, UnplacedPieceWeighsOneAndReachesEveryEmptySquare) {
  const Isolation start = *Isolation::create({{"size", "5"}});
  EXPECT_EQ(open_move_score(start), 25);
  EXPECT_EQ(improved_score(start), 0);
  EXPECT_DOUBLE_EQ(custom_score_value(start), 25.0);
  EXPECT_DOUBLE_EQ(custom_score_3_value(start), 0.0);
  // 5x5 weights per axis: 0.5 0.75 1 0.75 0.5, sum 3.5; the board sums to 3.5^2.
  Isolation g = start;
  g.make_move(*g.parse_move("c3"));
  EXPECT_DOUBLE_EQ(custom_score_3_value(g), 3.5 * 3.5 - 1.0 - 8 * 0.75 * 0.5);
}

TEST(IsolationEval, LossIsMinusInfinity) {
  const Isolation g = load("...../...../.#.../..#../x...o x");
  EXPECT_EQ(open_move_score(g), -kScoreWin);
  EXPECT_EQ(improved_score(g), -kScoreWin);
  EXPECT_EQ(custom_score_2(g), -kScoreWin);
  EXPECT_TRUE(std::isinf(custom_score_3_value(g)) && custom_score_3_value(g) < 0);
}

TEST(IsolationEval, RegistryMakesEveryListedHeuristicAndRejectsParams) {
  const Isolation g = load(kCentreVsCorner);
  const std::map<std::string, int> expected = {{"improved_score", 6},    {"open_move_score", 8},
                                               {"center_score", 0},      {"custom_score", 8000},
                                               {"custom_score_2", 7500}, {"custom_score_3", 3333}};
  const auto listed = heuristics_for(std::type_identity<Isolation>{});
  EXPECT_EQ(listed.size(), expected.size());
  for (const auto& info : listed) {
    auto h = make_heuristic(std::type_identity<Isolation>{}, info.name, {});
    ASSERT_TRUE(h) << info.name << ": " << h.error();
    EXPECT_EQ((*h)(g), expected.at(info.name)) << info.name;
  }
  auto bad = make_heuristic(std::type_identity<Isolation>{}, "custom_score", {{"tau", "1"}});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("tau"), std::string::npos);
}

}  // namespace
}  // namespace arena::eval
