// The search templates on the real games: alpha-beta agrees with plain minimax on random
// positions of every two-player game, tic-tac-toe is a draw with perfect play, iterative
// deepening finds mates in two, best-first finds the winning capture.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bots/search/alphabeta.h"
#include "bots/search/best_first.h"
#include "bots/search/minimax.h"
#include "bots/search/search_rng.h"
#include "games/checkers/checkers.h"
#include "games/chess/chess.h"
#include "games/isolation/isolation.h"
#include "games/othello/othello.h"
#include "games/tictactoe/qubic.h"
#include "games/tictactoe/tictactoe.h"
#include "tests/bots/search_chess_material.h"
#include "tests/bots/search_toy_games.h"

namespace arena::search {
namespace {

using chess::Chess;
using test::HashEval;

using test::random_positions;

// Plain alpha-beta, and the full-width engine (ordering, aspiration, PVS; no null move or
// LMR) without a table (a table may return values searched deeper than asked through
// transpositions), must equal minimax exactly.
template <class G, class Eval>
void expect_alphabeta_equals_minimax(const G& start, Eval eval, int depth, int count) {
  AlphaBetaOptions ordered = AlphaBetaOptions::full_width();
  ordered.transposition = false;
  for (const G& g : random_positions(start, count, 30, 77)) {
    Minimax<G, Eval> mm(eval);
    AlphaBeta<G, Eval> plain(eval, AlphaBetaOptions::plain());
    AlphaBeta<G, Eval> engine(eval, ordered);
    const int expected = mm.search(g, Limits::to_depth(depth)).info.score;
    EXPECT_EQ(plain.search(g, Limits::to_depth(depth)).info.score, expected) << g.serialize();
    EXPECT_EQ(engine.search(g, Limits::to_depth(depth)).info.score, expected) << g.serialize();
  }
}

TEST(SearchOnGames, AlphaBetaEqualsMinimaxInTicTacToe) {
  expect_alphabeta_equals_minimax(tictactoe::TicTacToe::create({}).value(), HashEval{}, 4, 20);
}

TEST(SearchOnGames, AlphaBetaEqualsMinimaxInIsolation5x5) {
  const auto start = isolation::Isolation::create({{"size", "5"}}).value();
  expect_alphabeta_equals_minimax(start, HashEval{}, 3, 10);
}

TEST(SearchOnGames, AlphaBetaEqualsMinimaxInOthello) {
  expect_alphabeta_equals_minimax(othello::Othello::create({}).value(), HashEval{}, 3, 8);
}

TEST(SearchOnGames, AlphaBetaEqualsMinimaxInQubic) {
  expect_alphabeta_equals_minimax(tictactoe::Qubic::create({}).value(), HashEval{}, 3, 4);
}

TEST(SearchOnGames, AlphaBetaEqualsMinimaxInCheckers) {
  expect_alphabeta_equals_minimax(checkers::Checkers::create({}).value(), HashEval{}, 4, 8);
}

TEST(SearchOnGames, AlphaBetaEqualsMinimaxInChess) {
  expect_alphabeta_equals_minimax(Chess::create({}).value(), test::ChessMaterial{}, 2, 6);
}

TEST(SearchOnGames, PerfectTicTacToeIsADraw) {
  using tictactoe::TicTacToe;
  TicTacToe game = TicTacToe::create({}).value();
  AlphaBeta<TicTacToe, HashEval> x(HashEval{}), o(HashEval{});
  EXPECT_EQ(x.search(game, Limits::to_depth(9)).info.score, 0);
  while (!game.outcome().is_terminal()) {
    auto& side = game.side_to_move() == Player::kFirst ? x : o;
    const auto r = side.search(game, Limits::to_depth(9));
    ASSERT_TRUE(r.move.has_value());
    game.make_move(*r.move);
  }
  EXPECT_EQ(game.outcome().result, Result::kDraw);
}

TEST(SearchOnGames, TranspositionTableOnOrOffSameValueInSolvedTicTacToe) {
  using tictactoe::TicTacToe;
  // Full width: late move reductions could leave a line short of the end.
  AlphaBetaOptions off = AlphaBetaOptions::full_width();
  off.transposition = false;
  for (const auto& g : random_positions(TicTacToe::create({}).value(), 15, 5, 5)) {
    AlphaBeta<TicTacToe, HashEval> on_tt(HashEval{}, AlphaBetaOptions::full_width()),
        off_tt(HashEval{}, off);
    EXPECT_EQ(on_tt.search(g, Limits::to_depth(9)).info.score,
              off_tt.search(g, Limits::to_depth(9)).info.score)
        << g.serialize();
  }
}

// True when every reply to the move already played leaves a mate in one.
bool every_defence_allows_mate(Chess& g) {
  Chess::MoveList defences, attacks;
  g.generate_moves(defences);
  if (defences.empty()) return g.outcome().reason == EndReason::kCheckmate;
  for (const auto& d : defences) {
    g.make_move(d);
    g.generate_moves(attacks);
    bool mates = false;
    for (const auto& a : attacks) {
      g.make_move(a);
      mates = mates || g.outcome().reason == EndReason::kCheckmate;
      g.unmake_move(a);
    }
    g.unmake_move(d);
    if (!mates) return false;
  }
  return true;
}

TEST(SearchOnGames, IterativeDeepeningFindsMateInTwo) {
  // Mates in two from Win At Chess (tests/data/wac.epd): WAC.001, 004, 027, 054.
  for (const char* fen : {"2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
                          "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
                          "7k/pp4np/2p3p1/3pN1q1/3P4/Q7/1r3rPP/2R2RK1 w - - 0 1",
                          "r3kr2/1pp4p/1p1p4/7q/4P1n1/2PP2Q1/PP4P1/R1BB2K1 b q - 0 1"}) {
    Chess g = Chess::deserialize(fen).value();
    AlphaBetaOptions options;
    options.quiescence = true;
    AlphaBeta<Chess, test::ChessMaterial> id(test::ChessMaterial{}, options);
    const auto r = id.search(g, Limits::to_depth(5));
    ASSERT_TRUE(r.move.has_value()) << fen;
    EXPECT_EQ(r.info.score, win_in(3)) << fen;
    EXPECT_EQ(r.info.depth, 3) << "a proven mate ends the deepening: " << fen;
    g.make_move(*r.move);
    EXPECT_TRUE(every_defence_allows_mate(g)) << fen << " " << r.info.pv.front();
  }
}

TEST(SearchOnGames, QuiescenceSeesTheRecapture) {
  // Qxd5 wins a knight at depth 1 but loses the queen to Rxd5; exd5 wins it for free.
  Chess g = Chess::deserialize("3r2k1/5ppp/8/3n4/4P3/8/5PPP/3Q2K1 w - - 0 1").value();
  AlphaBetaOptions options;
  options.quiescence = true;
  AlphaBeta<Chess, test::ChessMaterial> ab(test::ChessMaterial{}, options);
  const auto r = ab.search(g, Limits::to_depth(1));
  ASSERT_TRUE(r.move.has_value());
  EXPECT_EQ(g.move_to_string(*r.move), "e4d5");
  EXPECT_EQ(r.info.score, 500);  // white was 200 up (queen and pawn against rook and knight)
  EXPECT_GT(r.info.seldepth, 1);
}

TEST(SearchOnGames, BestFirstPicksTheWinningCapture) {
  struct Case {
    const char* fen;
    const char* best;
  };
  for (const Case& c : {Case{"3r2k1/5ppp/8/3n4/4P3/8/5PPP/3Q2K1 w - - 0 1", "e4d5"},
                        Case{"4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", "d2d5"},
                        Case{"6k1/5ppp/8/1q6/8/8/1R3PPP/1R4K1 w - - 0 1", "b2b5"}}) {
    const Chess g = Chess::deserialize(c.fen).value();
    BestFirst<Chess, test::ChessMaterial, test::ChessCaptureGain> bf(test::ChessMaterial{});
    const auto r = bf.search(g, Limits::for_time(5000));
    ASSERT_TRUE(r.move.has_value()) << c.fen;
    EXPECT_EQ(g.move_to_string(*r.move), c.best) << c.fen;
    EXPECT_GE(r.info.depth, 2) << c.fen;
  }
}

}  // namespace
}  // namespace arena::search
