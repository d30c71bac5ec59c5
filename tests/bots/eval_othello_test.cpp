#include "bots/eval/othello.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

namespace arena::eval {
namespace {

using othello::Othello;

// A position with Black on `black`, White on `white` (square names) and `side` to move.
Othello position(std::initializer_list<const char*> black, std::initializer_list<const char*> white,
                 char side) {
  std::string text(64, '-');
  auto put = [&](const char* sq, char c) { text[(sq[1] - '1') * 8 + (sq[0] - 'a')] = c; };
  for (const char* sq : black) put(sq, 'X');
  for (const char* sq : white) put(sq, 'O');
  auto game = Othello::deserialize(text + " " + side);
  EXPECT_TRUE(game) << game.error();
  return *game;
}

int run(std::string_view name, const Othello& game, const GameOptions& params = {}) {
  auto h = make_heuristic(std::type_identity<Othello>{}, name, params);
  EXPECT_TRUE(h) << h.error();
  return h ? (*h)(game) : 0;
}

TEST(OthelloEval, StartPositionIsBalancedForEveryHeuristic) {
  const Othello start = *Othello::create({});
  for (const auto& info : heuristics_for(std::type_identity<Othello>{})) {
    EXPECT_EQ(run(info.name, start), 0) << info.name;
  }
}

TEST(OthelloEval, AfterF5WhiteCountsFromItsOwnSide) {
  // Black d5 e4 e5 f5, White d4; each side has 3 moves (Black c3 d3 c4, White d6 f4 f6).
  const Othello g = position({"d5", "e4", "e5", "f5"}, {"d4"}, 'O');
  EXPECT_EQ(othello_material(g), 1 - 4);
  EXPECT_EQ(othello_mobility(g), 0);
  EXPECT_EQ(othello_corners(g), 0);
  EXPECT_EQ(othello_weighted_squares(g), 3 - 4 * 3);  // every one of them weighs 3
}

TEST(OthelloEval, PassPositionValues) {
  // Black's lone a2 (-20) against White a1 (120) and the centre (3 each): Black has no move,
  // White has one (a3).
  const Othello g = position({"a2"}, {"a1", "d4", "e4", "d5", "e5"}, 'X');
  EXPECT_EQ(othello_material(g), 1 - 5);
  EXPECT_EQ(othello_mobility(g), 0 - 1);
  EXPECT_EQ(othello_corners(g), 0 - 1);
  EXPECT_EQ(othello_weighted_squares(g), -20 - (120 + 4 * 3));
  EXPECT_EQ(run("combined", g), -4 * 1 + -1 * 10 + -1 * 100 + -152 * 1);
  EXPECT_EQ(
      run("combined", g,
          {{"material", "2"}, {"mobility", "0"}, {"corners", "0.5"}, {"weighted_squares", "0"}}),
      -8 - 1);
  const auto f = othello_features(g);
  EXPECT_EQ(f[0], -4);
  EXPECT_EQ(f[1], -1);
  EXPECT_EQ(f[2], -1);
}

TEST(OthelloEval, CornersCountForEachSide) {
  const Othello g = position({"a1", "h1", "d5", "e4"}, {"d4", "e5", "a8"}, 'X');
  EXPECT_EQ(othello_corners(g), 2 - 1);
  EXPECT_EQ(othello_weighted_squares(g), (120 + 120 + 3 + 3) - (3 + 3 + 120));
  EXPECT_EQ(othello_material(g), 1);
}

TEST(OthelloEval, BadNamesAndParametersAreNamed) {
  auto unknown = make_heuristic(std::type_identity<Othello>{}, "stability", {});
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().find("stability"), std::string::npos);
  auto bad_key = make_heuristic(std::type_identity<Othello>{}, "combined", {{"edges", "1"}});
  ASSERT_FALSE(bad_key);
  EXPECT_NE(bad_key.error().find("edges"), std::string::npos);
  auto bad_value = make_heuristic(std::type_identity<Othello>{}, "combined", {{"corners", "x"}});
  ASSERT_FALSE(bad_value);
  EXPECT_NE(bad_value.error().find("corners"), std::string::npos);
  auto extra = make_heuristic(std::type_identity<Othello>{}, "material", {{"corners", "1"}});
  ASSERT_FALSE(extra);
  EXPECT_NE(extra.error().find("corners"), std::string::npos);
}

}  // namespace
}  // namespace arena::eval
