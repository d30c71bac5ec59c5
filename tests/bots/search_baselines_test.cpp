// Random, greedy, MCTS and best-first on the toy games and on tic-tac-toe.

#include <gtest/gtest.h>

#include "bots/search/best_first.h"
#include "bots/search/mcts.h"
#include "bots/search/minimax.h"
#include "bots/search/simple.h"
#include "games/tictactoe/tictactoe.h"
#include "tests/bots/search_toy_games.h"

namespace arena::search {
namespace {

using test::HashEval;
using test::Nim;
using tictactoe::TicTacToe;

TicTacToe start() {
  return TicTacToe::create({}).value();
}

TEST(RandomMover, ReturnsLegalMovesAndUsesThemAll) {
  RandomMover<TicTacToe> random(3);
  const TicTacToe board = start();
  std::array<int, 9> seen{};
  for (int i = 0; i < 200; ++i) {
    const auto r = random.search(board, {});
    ASSERT_TRUE(r.move.has_value());
    ++seen[r.move->cell];
  }
  for (int count : seen) EXPECT_GT(count, 0);
}

TEST(Greedy, TakesAnImmediateWin) {
  Nim nim(0, 2);  // b2 wins at once; every HashEval value is far below a win
  Greedy<Nim, HashEval> greedy(HashEval{});
  const auto r = greedy.search(nim, {});
  ASSERT_TRUE(r.move.has_value());
  EXPECT_EQ(nim.move_to_string(*r.move), "b2");
  EXPECT_EQ(r.info.score, win_in(1));
}

TEST(Greedy, PicksTheMoveWithTheBestChildValue) {
  Nim nim(5, 6);
  Greedy<Nim, HashEval> greedy(HashEval{});
  Minimax<Nim, HashEval> one_ply(HashEval{});
  const auto g = greedy.search(nim, {});
  const auto m = one_ply.search(nim, Limits::to_depth(1));
  EXPECT_EQ(g.info.score, m.info.score);
  EXPECT_TRUE(g.move == m.move);
}

// Plays one game; returns +1 if `a` (moving first when a_first) wins, -1 if it loses.
template <class A, class B>
int play(A& a, B& b, bool a_first) {
  TicTacToe game = start();
  while (!game.outcome().is_terminal()) {
    const bool a_to_move = (game.side_to_move() == Player::kFirst) == a_first;
    const auto move = a_to_move ? a.search(game, {}).move : b.search(game, {}).move;
    game.make_move(*move);
  }
  const Outcome o = game.outcome();
  if (o.result == Result::kDraw) return 0;
  return (o.result == Result::kFirstWins) == a_first ? 1 : -1;
}

TEST(Mcts, BeatsRandomAtTicTacToe) {
  // Fixed seeds, so the counts are reproducible; UCT with 2000 playouts a move should not
  // lose to random play and should win most games.
  MctsOptions options;
  options.playouts = 2000;
  options.seed = 11;
  Mcts<TicTacToe> mcts(options);
  RandomMover<TicTacToe> random(12);
  int wins = 0, losses = 0;
  for (int game = 0; game < 10; ++game) {
    const int r = play(mcts, random, game % 2 == 0);
    wins += r > 0;
    losses += r < 0;
  }
  EXPECT_EQ(losses, 0);
  EXPECT_GE(wins, 7);
}

TEST(Mcts, FindsTheWinningMoveInNim) {
  Nim nim(3, 0);  // a3 takes the last stones
  MctsOptions options;
  options.playouts = 500;
  Mcts<Nim> mcts(options);
  const auto r = mcts.search(nim, {});
  ASSERT_TRUE(r.move.has_value());
  EXPECT_EQ(nim.move_to_string(*r.move), "a3");
  EXPECT_GT(r.info.score, 900);
}

TEST(Mcts, SameSeedSameSearch) {
  MctsOptions options;
  options.playouts = 300;
  Mcts<TicTacToe> a(options), b(options);
  const auto ra = a.search(start(), {});
  const auto rb = b.search(start(), {});
  EXPECT_EQ(ra.info.nodes, rb.info.nodes);
  EXPECT_TRUE(ra.move == rb.move);
}

TEST(Mcts, ANodePoolTooSmallStillGivesALegalMove) {
  MctsOptions options;
  options.playouts = 200;
  options.pool_nodes = 12;  // the root and its nine children, no more
  Mcts<TicTacToe> mcts(options);
  const auto r = mcts.search(start(), {});
  ASSERT_TRUE(r.move.has_value());
  EXPECT_LT(r.move->cell, 9);
}

TEST(BestFirst, WithoutTacticsIsMinimaxToMinDepth) {
  // With d = 0 everywhere every tip is quiet, so the tree grows until the best line is
  // min_depth deep; at min_depth 1 that is the one-ply search.
  BestFirstOptions options;
  options.min_depth = 1;
  BestFirst<Nim, HashEval> bf(HashEval{}, {}, options);
  Minimax<Nim, HashEval> one_ply(HashEval{});
  Nim nim(5, 6);
  EXPECT_EQ(bf.search(nim, {}).info.score, one_ply.search(nim, Limits::to_depth(1)).info.score);
}

TEST(BestFirst, FindsAWinInNim) {
  BestFirst<Nim, HashEval> bf(HashEval{});
  Nim nim(2, 0);
  const auto r = bf.search(nim, {});
  ASSERT_TRUE(r.move.has_value());
  EXPECT_EQ(nim.move_to_string(*r.move), "a2");
  EXPECT_EQ(r.info.score, win_in(1));
}

}  // namespace
}  // namespace arena::search
