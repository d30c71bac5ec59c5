// random_opening (games/core/random_opening.h), the one opening leagues, matches and the lab
// play from: reproducible by seed, never ending the game, and the same through AnyGame.

#include "games/core/random_opening.h"

#include <set>

#include <gtest/gtest.h>

#include "games/catalog/catalog.h"
#include "games/chess/chess.h"
#include "games/tictactoe/tictactoe.h"

namespace arena {
namespace {

using tictactoe::TicTacToe;

TEST(RandomOpening, TheSameSeedGivesTheSameOpeningAndNoneEndsTheGame) {
  const TicTacToe start = *TicTacToe::create({});
  int short_ones = 0;
  for (std::uint64_t seed = 0; seed < 300; ++seed) {
    std::vector<std::string> moves;
    const TicTacToe g = random_opening(start, 8, seed, &moves);
    EXPECT_FALSE(g.outcome().is_terminal()) << "seed " << seed;
    EXPECT_EQ(g.serialize(), random_opening(start, 8, seed).serialize()) << "seed " << seed;
    // The moves it lists lead from the start to the opening.
    TicTacToe replay = start;
    for (const auto& m : moves) {
      auto parsed = replay.parse_move(m);
      ASSERT_TRUE(parsed) << m;
      replay.make_move(*parsed);
    }
    EXPECT_EQ(replay.serialize(), g.serialize()) << "seed " << seed;
    // Eight plies of tic-tac-toe often end the game: those openings stop at the move before.
    short_ones += moves.size() < 8;
  }
  EXPECT_GT(short_ones, 0);
}

TEST(RandomOpening, DifferentSeedsGiveDifferentOpenings) {
  const auto start = *chess::Chess::create({});
  std::set<std::string> seen;
  for (std::uint64_t seed = 0; seed < 20; ++seed)
    seen.insert(random_opening(start, 4, seed).serialize());
  EXPECT_GT(seen.size(), 15u);
}

TEST(RandomOpening, AnyGameGivesTheSameOpeningAsTheConcreteGame) {
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    auto any = make_game("chess");
    ASSERT_TRUE(any) << any.error();
    random_opening(**any, 6, seed);
    EXPECT_EQ((*any)->serialize(),
              random_opening(*chess::Chess::create({}), 6, seed).serialize())
        << "seed " << seed;
    auto ttt = make_game("tictactoe");
    ASSERT_TRUE(ttt);
    random_opening(**ttt, 8, seed);
    EXPECT_FALSE((*ttt)->outcome().is_terminal());
    EXPECT_EQ((*ttt)->serialize(), random_opening(*TicTacToe::create({}), 8, seed).serialize())
        << "seed " << seed;
  }
}

// A GDL sheet whose roles move at once: every turn of the opening plays a random move for each
// mover (a turn of two movers is one turn, not a move of the first alone).
TEST(RandomOpening, ASimultaneousTurnGetsAMoveFromEveryMover) {
  std::set<std::string> seen;
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    auto g = make_game("gdl:chickentictactoe");
    ASSERT_TRUE(g) << g.error();
    ASSERT_EQ((*g)->movers().size(), 2u) << "both roles mark at once";
    random_opening(**g, 2, seed);
    ASSERT_EQ((*g)->history().size(), 2u) << "seed " << seed;
    EXPECT_FALSE((*g)->outcome().is_terminal());
    auto again = make_game("gdl:chickentictactoe");
    ASSERT_TRUE(again);
    random_opening(**again, 2, seed);
    EXPECT_EQ((*again)->serialize(), (*g)->serialize()) << "seed " << seed;
    seen.insert((*g)->serialize());
  }
  EXPECT_GT(seen.size(), 5u);
}

TEST(RandomOpening, AFinishedStartIsLeftAsItIs) {
  // x has three in a row: the game is over before the opening.
  auto done = TicTacToe::deserialize("xxxoo....");
  ASSERT_TRUE(done) << done.error();
  ASSERT_TRUE(done->outcome().is_terminal());
  std::vector<std::string> moves;
  EXPECT_EQ(random_opening(*done, 4, 1, &moves).serialize(), done->serialize());
  EXPECT_TRUE(moves.empty());
}

}  // namespace
}  // namespace arena
