#include "bots/eval/tictactoe.h"

#include <gtest/gtest.h>

#include <string>

namespace arena::eval {
namespace {

using tictactoe::TicTacToe;
constexpr auto kGame = std::type_identity<TicTacToe>{};

TicTacToe play(std::initializer_list<const char*> moves) {
  TicTacToe g = *TicTacToe::create({});
  for (const char* m : moves) {
    auto parsed = g.parse_move(m);
    EXPECT_TRUE(parsed.has_value()) << m;
    if (parsed) g.make_move(*parsed);
  }
  return g;
}

int run(std::string_view name, const TicTacToe& g, const GameOptions& params = {}) {
  auto h = make_heuristic(kGame, name, params);
  EXPECT_TRUE(h) << name << ": " << h.error();
  return h ? (*h)(g) : 0;
}

// The seed figures: "4 for X in the centre of the empty board".
TEST(TicTacToeEval, AvailableWinsIsFourForXInTheCentre) {
  const TicTacToe g = play({"b2"});
  EXPECT_EQ(available_wins(g, Player::kFirst), 4);
  // As a search heuristic O is to move and the mover's 4 is O's -4.
  EXPECT_EQ(run("available_wins", g), -4);
}

// "3 for X on the middle of the left column after X centre, O top-left": X b2, O a3, X a2
// leaves X the middle row, the middle column and the a1-c3 diagonal.
TEST(TicTacToeEval, AvailableWinsIsThreeForXOnTheLeftMiddleAfterXCentreOTopLeft) {
  const TicTacToe g = play({"b2", "a3", "a2"});
  EXPECT_EQ(g.serialize(), "o..xx....");
  EXPECT_EQ(available_wins(g, Player::kFirst), 3);
  EXPECT_EQ(available_wins(g, Player::kSecond), 1);  // only the top row
  EXPECT_EQ(run("available_wins", g), -3);
}

TEST(TicTacToeEval, BlockWinCountsTheOpponentsTwoMarkLinesWeHold) {
  const TicTacToe g = play({"b2", "a3", "a2", "c2"});  // O blocks row 2
  EXPECT_EQ(block_win(g, Player::kSecond), 1);
  EXPECT_EQ(block_win(g, Player::kFirst), 0);
  EXPECT_EQ(run("block_win", g), -1);  // X to move; the mover O blocked one line
  // combined = 1 * available_wins + 2 * block_win of the mover: O has a3-b3-c3 and c1-c2-c3.
  EXPECT_EQ(available_wins(g, Player::kSecond), 2);
  EXPECT_EQ(run("combined", g), -(2 + 2 * 1));
  EXPECT_EQ(run("combined", g, {{"w_available", "3"}, {"w_block", "0.5"}}), -(3 * 2 + 1));
}

// One-ply negamax over the search heuristic picks what the tutorial picks: the move with the
// most available wins for the mover, the centre on the empty board.
TEST(TicTacToeEval, OnePlyNegamaxWithAvailableWinsTakesTheCentre) {
  TicTacToe g = play({});
  auto h = make_heuristic(kGame, "available_wins", {});
  ASSERT_TRUE(h);
  TicTacToe::MoveList list;
  g.generate_moves(list);
  int best = -kScoreWin - 1;
  std::string best_move;
  for (auto m : list) {
    g.make_move(m);
    const int value = -(*h)(g);
    g.unmake_move(m);
    if (value > best) {
      best = value;
      best_move = g.move_to_string(m);
    }
  }
  EXPECT_EQ(best_move, "b2");
  EXPECT_EQ(best, 4);
}

TEST(TicTacToeEval, BadHeuristicIsAlwaysOne) {
  EXPECT_EQ(run("bad_heuristic", play({})), 1);
  EXPECT_EQ(run("bad_heuristic", play({"b2", "a3"})), 1);
  EXPECT_EQ(run("bad_heuristic", *TicTacToe::deserialize("xxxoo....")), 1);
}

TEST(TicTacToeEval, FinishedGamesScoreAsWinsAndLosses) {
  const TicTacToe won = *TicTacToe::deserialize("xxxoo....");  // O to move, X has won
  EXPECT_EQ(run("available_wins", won), -kScoreWin);
  EXPECT_EQ(run("fuzzy_goal", won), -kScoreWin);
  EXPECT_EQ(run("combined", *TicTacToe::deserialize("xoxxoooxx")), 0);
}

// The fuzzy goal figures for "x......ox", to 1e-6.
TEST(TicTacToeEval, FuzzyGoalReproducesThePublishedFigures) {
  const TicTacToe g = *TicTacToe::deserialize("x......ox");
  const FuzzyParams f;
  EXPECT_NEAR(fuzzy_line(g, Player::kFirst, f), 0.116296, 1e-6);
  EXPECT_NEAR(fuzzy_line(g, Player::kSecond, f), 0.023797, 1e-6);
  EXPECT_NEAR(fuzzy_goal_win(g, Player::kFirst, f), 0.113529, 1e-6);
  EXPECT_NEAR(fuzzy_goal_draw(g, Player::kFirst, f), 0.862674, 1e-6);
  EXPECT_NEAR(fuzzy_goal_value(g, Player::kFirst, f), 49.589684, 1e-6);
  // As a search heuristic: O to move, O's value minus X's, x1000.
  const double diff = fuzzy_goal_value(g, Player::kSecond, f) - 49.589684;
  EXPECT_NEAR(run("fuzzy_goal", g), diff * 1000, 1.0);
}

TEST(TicTacToeEval, YagerWithQOneIsLukasiewicz) {
  FuzzyParams f;
  f.q = 1;
  EXPECT_NEAR(fuzzy_and(0.9, 0.9, f), 0.8, 1e-12);
  EXPECT_NEAR(fuzzy_and(0.3, 0.4, f), 0.0, 1e-12);
  EXPECT_NEAR(fuzzy_or(0.3, 0.4, f), 0.7, 1e-12);
  EXPECT_NEAR(fuzzy_or(0.7, 0.6, f), 1.0, 1e-12);
}

TEST(TicTacToeEval, ThresholdKeepsTrueConjunctionsAboveTheta) {
  FuzzyParams f;
  f.tau = 0.8;
  EXPECT_NEAR(fuzzy_and(fuzzy_and(0.8, 0.8, f), 0.8, f), 0.512, 1e-12);
  f.theta = 0.6;
  EXPECT_NEAR(fuzzy_and(fuzzy_and(0.8, 0.8, f), 0.8, f), 0.6, 1e-12);
  EXPECT_NEAR(fuzzy_and(0.8, 0.2, f), 0.16, 1e-12) << "a false conjunct is not lifted";
}

TEST(TicTacToeEval, ParamsAreCheckedAndNamed) {
  auto unknown = make_heuristic(kGame, "fuzzy_goal", {{"tao", "0.9"}});
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().find("tao"), std::string::npos);
  auto range = make_heuristic(kGame, "fuzzy_goal", {{"tau", "0.3"}});
  ASSERT_FALSE(range);
  EXPECT_NE(range.error().find("tau"), std::string::npos);
  auto nan = make_heuristic(kGame, "combined", {{"w_block", "lots"}});
  ASSERT_FALSE(nan);
  EXPECT_NE(nan.error().find("lots"), std::string::npos);
  auto none = make_heuristic(kGame, "available_wins", {{"tau", "0.9"}});
  ASSERT_FALSE(none);
  // A different tau changes the value.
  const TicTacToe g = *TicTacToe::deserialize("x......ox");
  EXPECT_NE(run("fuzzy_goal", g, {{"tau", "0.7"}}), run("fuzzy_goal", g));
}

TEST(TicTacToeEval, EveryListedHeuristicCanBeMade) {
  for (const auto& info : heuristics_for(kGame)) {
    auto h = make_heuristic(kGame, info.name, {});
    EXPECT_TRUE(h) << info.name;
  }
}

}  // namespace
}  // namespace arena::eval
