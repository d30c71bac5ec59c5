// tournament/report/ratings_board.h: the Bradley-Terry leaderboard `arena ratings --method bt`
// prints, from a game kind's stored results.

#include <gtest/gtest.h>

#include <vector>

#include "tournament/report/ratings_board.h"

namespace arena::tournament {
namespace {

db::GameResultRow game(db::PlayerId a, db::PlayerId b, double score) {
  auto name = [](db::PlayerId id) { return "p" + std::to_string(id); };
  return {.game = 0, .first = a, .second = b, .first_name = name(a), .second_name = name(b),
          .first_score = score};
}

// Games and points are counted per player (a draw is half), and the rows go best first.
TEST(RatingsBoard, CountsEachPlayersGamesAndPointsBestFirst) {
  const std::vector<db::GameResultRow> results = {game(1, 2, 1), game(2, 1, 0.5), game(3, 1, 0),
                                                  game(2, 3, 1), game(3, 2, 0.5), game(1, 3, 0)};
  auto board = bradley_terry_board(results, "chess");
  ASSERT_TRUE(board) << board.error();
  EXPECT_EQ(board->games, 6u);
  EXPECT_FALSE(board->prior);
  ASSERT_EQ(board->rows.size(), 3u);
  EXPECT_EQ(board->rows[0].name, "p1");  // 2.5 of 4, p2 2 and p3 1.5
  EXPECT_EQ(board->rows[0].games, 4);
  EXPECT_DOUBLE_EQ(board->rows[0].points, 2.5);
  double total = 0, average = 0;
  for (std::size_t i = 0; i < board->rows.size(); ++i) {
    if (i > 0) {
      EXPECT_GE(board->rows[i - 1].rating, board->rows[i].rating);
    }
    EXPECT_GT(board->rows[i].half_width, 0);
    total += board->rows[i].points;
    average += board->rows[i].rating / 3;
  }
  EXPECT_DOUBLE_EQ(total, 6);
  EXPECT_NEAR(average, 1500, 1e-6);
}

// A perfect score has no finite maximum: the board says it used one virtual draw a player.
TEST(RatingsBoard, APerfectScoreTakesThePrior) {
  auto board = bradley_terry_board({game(1, 2, 1), game(2, 1, 0)}, "othello");
  ASSERT_TRUE(board) << board.error();
  EXPECT_TRUE(board->prior);
  EXPECT_EQ(board->rows[0].name, "p1");
  EXPECT_GT(board->rows[0].rating, board->rows[1].rating);
}

TEST(RatingsBoard, OnePlayerIsNotALeaderboard) {
  auto none = bradley_terry_board({}, "checkers");
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().find("at least two players of checkers"), std::string::npos)
      << none.error();
}

}  // namespace
}  // namespace arena::tournament
