// The board of a GDL state (server/match/board_layout.h): facts read from KIF text, the grid
// found from cell-like facts, and the grid of a game found by a few random turns.

#include "server/match/board_layout.h"

#include <gtest/gtest.h>

#include "tests/server/tally_game.h"

namespace arena::server {
namespace {

using V = std::vector<std::string>;

TEST(KifFacts, SplitsTopLevelTermsAndUnwrapsOneOuterList) {
  EXPECT_EQ(kif_facts("(cell 1 1 b)  (control\n xplayer) ; a comment\n step"),
            (V{"(cell 1 1 b)", "(control xplayer)", "step"}));
  EXPECT_EQ(kif_facts("((cell 1 1 b) (control o))"), (V{"(cell 1 1 b)", "(control o)"}));
  EXPECT_TRUE(kif_facts("(cell 1 1 b").empty()) << "unbalanced";
  EXPECT_TRUE(kif_facts(") (a)").empty());
  EXPECT_TRUE(kif_facts(std::string(100, '(') + std::string(100, ')')).empty()) << "too deep";
}

TEST(BoardLayout, FindsTheGridOfTicTacToeFacts) {
  V facts;
  for (int r = 1; r <= 3; ++r)
    for (int c = 1; c <= 3; ++c)
      facts.push_back("(cell " + std::to_string(r) + " " + std::to_string(c) + " b)");
  facts.push_back("(control xplayer)");
  auto layout = find_board_layout(facts);
  ASSERT_TRUE(layout);
  EXPECT_EQ(layout->relation, "cell");
  EXPECT_EQ(layout->rows, (V{"1", "2", "3"}));
  EXPECT_EQ(layout->cols, (V{"1", "2", "3"}));
}

TEST(BoardLayout, OrdersNumbersNumericallyFillsGapsAndKeepsLetters) {
  // Connect-four-like: only occupied cells are facts; 10 sorts after 9, the gap 4 is filled.
  V facts = {"(cell a 10 red)", "(cell b 9 red)",  "(cell c 3 black)", "(cell a 5 red)",
             "(cell b 6 black)", "(cell c 7 red)", "(cell a 8 red)",   "(cell b 10 red)",
             "(cell c 9 red)", "(cell a 3 red)", "(cell b 3 red)"};
  auto layout = find_board_layout(facts);
  ASSERT_TRUE(layout);
  EXPECT_EQ(layout->rows, (V{"a", "b", "c"}));
  EXPECT_EQ(layout->cols, (V{"3", "4", "5", "6", "7", "8", "9", "10"}));
}

TEST(BoardLayout, NoGridWithoutACellLikeRelation) {
  EXPECT_FALSE(find_board_layout({"(control x)", "(step 1)", "(score x 50)"}));
  // One row only, or a relation used with two arities, is no board.
  EXPECT_FALSE(find_board_layout({"(cell 1 1 x)", "(cell 1 2 x)", "(cell 1 3 o)"}));
  EXPECT_FALSE(find_board_layout({"(cell 1 1 x)", "(cell 2 2 x)", "(cell 1 2 o y)",
                                  "(cell 2 1 o)"}));
  // Too sparse: 3 cells of a 3 x 3 range... are a third: kept; of 6 x 6 they are not.
  EXPECT_FALSE(find_board_layout({"(at 1 1 k)", "(at 6 6 k)", "(at 3 4 k)"}));
  // Chess, FEN: not KIF facts.
  EXPECT_FALSE(find_board_layout(kif_facts("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w")));
}

TEST(BoardLayout, PicksTheRelationWithMostCells) {
  V facts = {"(mark 1 1 x)", "(mark 2 2 x)", "(mark 1 2 x)"};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      facts.push_back("(square " + std::to_string(r) + " " + std::to_string(c) + " empty)");
  auto layout = find_board_layout(facts);
  ASSERT_TRUE(layout);
  EXPECT_EQ(layout->relation, "square");
}

TEST(BoardLayout, DetectsAGamesGridByPlayingRandomTurns) {
  // Tally names no cell at the start; its cells (seat, turn, move) appear as turns are played.
  testing::Tally game(3);
  auto layout = detect_board_layout(game, 200);
  ASSERT_TRUE(layout);
  EXPECT_EQ(layout->relation, "cell");
  EXPECT_EQ(layout->rows, (V{"0", "1", "2"}));
  EXPECT_EQ(layout->cols, (V{"0", "1", "2", "3"}));
  EXPECT_EQ(detect_board_layout(game, 200)->cols, layout->cols) << "the same each time";
}

TEST(BoardLayout, TakesAStateThatNamesItsWholeGridWithoutRandomTurns) {
  // After two turns Tally's two seats name every cell of turns 0 and 1: the grid is taken as
  // it is (random turns would add the columns of turns 2 and 3), so a game whose reasoner is
  // slow to play a turn starts without waiting for one.
  testing::Tally game(2);
  ASSERT_TRUE(game.play_turn({"a", "b"}));
  ASSERT_TRUE(game.play_turn({"b"}));
  auto layout = detect_board_layout(game, 1000);
  ASSERT_TRUE(layout);
  EXPECT_EQ(layout->rows, (V{"0", "1"}));
  EXPECT_EQ(layout->cols, (V{"0", "1"}));
}

}  // namespace
}  // namespace arena::server
