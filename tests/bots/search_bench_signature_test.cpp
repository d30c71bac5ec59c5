// The bench signature: the total node count of fixed searches of fixed positions. Any change
// to the searches (ordering, pruning, table replacement, quiescence) changes it, so an
// accidental change shows up here. An intended change updates kSignature in the same commit,
// with the reason in the commit message. (The evaluations are test-local so that a change to
// a game's heuristics does not move the number; a change to a game's move generation order
// or Zobrist keys will.)

#include <gtest/gtest.h>

#include <cstdint>

#include "bots/search/alphabeta.h"
#include "games/chess/chess.h"
#include "games/isolation/isolation.h"
#include "games/othello/othello.h"
#include "games/tictactoe/tictactoe.h"
#include "tests/bots/search_chess_material.h"
#include "tests/bots/search_toy_games.h"

namespace arena::search {
namespace {

// Recorded from this test's own output when the search was last changed on purpose.
constexpr std::uint64_t kSignature = 127412;

template <class G, class Eval>
std::uint64_t nodes_of(const G& g, Eval eval, int depth, bool quiescence = false) {
  AlphaBetaOptions options;
  options.quiescence = quiescence;
  options.tt_log2_entries = 16;
  AlphaBeta<G, Eval> ab(eval, options);
  return ab.search(g, Limits::to_depth(depth)).info.nodes;
}

TEST(BenchSignature, NodeCountOfTheFixedSearchesIsUnchanged) {
  std::uint64_t total = 0;
  total += nodes_of(tictactoe::TicTacToe::create({}).value(), test::HashEval{}, 9);
  total += nodes_of(isolation::Isolation::create({{"size", "5"}}).value(), test::HashEval{}, 6);
  total += nodes_of(othello::Othello::create({}).value(), test::HashEval{}, 6);
  total += nodes_of(chess::Chess::create({}).value(), test::ChessMaterial{}, 4, true);
  total += nodes_of(
      chess::Chess::deserialize("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -")
          .value(),
      test::ChessMaterial{}, 4, true);
  std::printf("bench signature: %llu nodes\n", static_cast<unsigned long long>(total));
  EXPECT_EQ(total, kSignature);
}

}  // namespace
}  // namespace arena::search
