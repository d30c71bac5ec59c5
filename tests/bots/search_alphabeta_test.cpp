// Alpha-beta, iterative deepening, the transposition table and the limits, on the toy games
// of search_toy_games.h, checked against plain minimax and against Nim's known theory.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "bots/search/alphabeta.h"
#include "bots/search/minimax.h"
#include "games/core/move_list.h"
#include "tests/bots/search_toy_games.h"

namespace arena::search {
namespace {

using test::HashEval;
using test::Nim;
using test::RandomTree;

template <class G>
int minimax_value(const G& g, int depth) {
  Minimax<G, HashEval> mm(HashEval{});
  return mm.search(g, Limits::to_depth(depth)).info.score;
}

// Random lists of moves 0..n-1 with scores from `score_of` (many ties): taking them with
// `next` at i = 0, 1, ... must give sort_by_scores's order, equal scores keeping their order.
template <class List, class ScoreOf, class Next>
void expect_the_stable_sorts_order(int trials, int max_size, ScoreOf score_of, Next next) {
  std::uint64_t rng = 3;
  for (int trial = 0; trial < trials; ++trial) {
    List moves, sorted;
    int scores[64], sorted_scores[64];
    const int n = trial % max_size;
    for (int i = 0; i < n; ++i) {
      rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
      moves.push_back(i);
      scores[i] = score_of(rng);
      sorted_scores[i] = scores[i];
    }
    sorted = moves;
    sort_by_scores(sorted, sorted_scores);
    for (std::size_t i = 0; i < moves.size(); ++i) {
      next(moves, scores, i);
      EXPECT_EQ(moves[i], sorted[i]) << "trial " << trial << " position " << i;
      EXPECT_EQ(scores[i], sorted_scores[i]);
    }
  }
}

TEST(MoveOrdering, PickingTheNextMoveGivesTheStableSortsOrder) {
  // The search picks moves best-first as it goes (pick_next) instead of sorting them all.
  expect_the_stable_sorts_order<std::vector<int>>(
      200, 40, [](std::uint64_t r) { return static_cast<int>((r >> 40) % 7); },
      [](std::vector<int>& l, int* s, std::size_t i) { pick_next(l, s, i); });
}

TEST(MoveOrdering, PickingAFewThenSortingTheRestGivesTheStableSortsOrder) {
  // The search loops take next_in_order: a few picks, then the rest sorted at once; over the
  // whole range of ordering scores (hash move 2^30, captures pushed below zero by 2^25).
  expect_the_stable_sorts_order<MoveList<int, 64>>(
      300, 64,
      [](std::uint64_t r) {
        const int kinds[] = {0, 1, -1, 1 << 30, -(1 << 25), 1 << 24, 7, -7};
        return kinds[(r >> 40) % 8] + static_cast<int>((r >> 20) % 3);
      },
      [](MoveList<int, 64>& l, int* s, std::size_t i) { next_in_order(l, s, i); });
}

TEST(AlphaBeta, PlainEqualsMinimaxOnRandomTrees) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    RandomTree tree(seed);
    for (int depth : {1, 2, 3, 5, 9}) {
      AlphaBeta<RandomTree, HashEval> ab(HashEval{}, AlphaBetaOptions::plain());
      EXPECT_EQ(ab.search(tree, Limits::to_depth(depth)).info.score, minimax_value(tree, depth))
          << "seed " << seed << " depth " << depth;
    }
  }
}

TEST(AlphaBeta, FullWidthEngineEqualsMinimaxOnRandomTrees) {
  // No transpositions in a tree, so the table can only reorder, never change, the value; nor
  // can aspiration windows or PVS (the selective null move and LMR are left out).
  AlphaBeta<RandomTree, HashEval> ab(HashEval{}, AlphaBetaOptions::full_width());
  for (std::uint64_t seed = 100; seed <= 140; ++seed) {
    RandomTree tree(seed);
    for (int depth : {2, 4, 7}) {
      EXPECT_EQ(ab.search(tree, Limits::to_depth(depth)).info.score, minimax_value(tree, depth))
          << "seed " << seed << " depth " << depth;
    }
  }
}

TEST(AlphaBeta, CountermovesAndHistoryMalusOnlyReorder) {
  // Ordering parts change the node count, never the value of the full-width search.
  AlphaBetaOptions o = AlphaBetaOptions::full_width();
  o.countermoves = true;
  o.history_malus = true;
  AlphaBeta<RandomTree, HashEval> ab(HashEval{}, o);
  for (std::uint64_t seed = 100; seed <= 120; ++seed) {
    RandomTree tree(seed);
    for (int depth : {2, 4, 7}) {
      EXPECT_EQ(ab.search(tree, Limits::to_depth(depth)).info.score, minimax_value(tree, depth))
          << "seed " << seed << " depth " << depth;
    }
  }
}

TEST(AlphaBeta, PrunesAndStillCountsDeterministically) {
  RandomTree tree(7);
  Minimax<RandomTree, HashEval> mm(HashEval{});
  AlphaBeta<RandomTree, HashEval> ab1(HashEval{}, AlphaBetaOptions::plain());
  AlphaBeta<RandomTree, HashEval> ab2(HashEval{}, AlphaBetaOptions::plain());
  const auto r1 = ab1.search(tree, Limits::to_depth(9));
  EXPECT_LT(r1.info.nodes, mm.search(tree, Limits::to_depth(9)).info.nodes);
  EXPECT_EQ(r1.info.nodes, ab2.search(tree, Limits::to_depth(9)).info.nodes);
}

TEST(AlphaBeta, SolvesNimAsTheoryPredicts) {
  for (int a = 0; a <= 7; ++a) {
    for (int b = 0; b <= 7; ++b) {
      if (a + b == 0) continue;
      Nim nim(a, b);
      AlphaBetaOptions small_table;
      small_table.tt_log2_entries = 12;
      AlphaBeta<Nim, HashEval> ab(HashEval{}, small_table);
      const auto r = ab.search(nim, Limits::to_depth(a + b));
      ASSERT_TRUE(r.move.has_value());
      EXPECT_TRUE(is_win_score(r.info.score)) << nim.serialize();
      EXPECT_EQ(r.info.score < 0, nim.mover_loses_in_theory()) << nim.serialize();
    }
  }
}

TEST(AlphaBeta, TranspositionTableOnOrOffGivesTheSameValue) {
  // Searched to the end of the game, so values deeper than asked cannot differ.
  for (auto [a, b] : {std::pair{7, 5}, {6, 6}, {9, 4}, {5, 10}}) {
    Nim nim(a, b);
    AlphaBetaOptions off;
    off.transposition = false;
    AlphaBeta<Nim, HashEval> with_tt(HashEval{});
    AlphaBeta<Nim, HashEval> without_tt(HashEval{}, off);
    const auto on = with_tt.search(nim, Limits::to_depth(a + b));
    const auto no = without_tt.search(nim, Limits::to_depth(a + b));
    EXPECT_EQ(on.info.score, no.info.score) << nim.serialize();
    EXPECT_LT(on.info.nodes, no.info.nodes) << nim.serialize();
  }
}

TEST(AlphaBeta, WinScoreCountsPliesToTheEnd) {
  Nim nim(0, 3);  // take all three: a win in one ply
  AlphaBeta<Nim, HashEval> ab(HashEval{});
  const auto r = ab.search(nim, Limits::to_depth(4));
  EXPECT_EQ(r.info.score, win_in(1));
  ASSERT_TRUE(r.move.has_value());
  EXPECT_EQ(nim.move_to_string(*r.move), "b3");
  EXPECT_EQ(r.info.pv, std::vector<std::string>{"b3"});
}

TEST(AlphaBeta, StopFlagStopsTheSearchWithALegalMove) {
  Nim nim(60, 53);  // far too deep to finish without a table
  AlphaBetaOptions options;
  options.transposition = false;
  AlphaBeta<Nim, HashEval> ab(HashEval{}, options);
  std::atomic<bool> stop{false};
  Limits limits;
  limits.stop = &stop;
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    stop = true;
  });
  const auto start = std::chrono::steady_clock::now();
  const auto r = ab.search(nim, limits);
  const auto waited = std::chrono::steady_clock::now() - start;
  stopper.join();
  ASSERT_TRUE(r.move.has_value());
  EXPECT_TRUE(nim.parse_move(nim.move_to_string(*r.move)).has_value());
  EXPECT_GE(r.info.depth, 1);
  EXPECT_LT(waited, std::chrono::seconds(5));
}

TEST(AlphaBeta, StoppedBeforeStartingStillReturnsALegalMove) {
  Nim nim(10, 10);
  AlphaBeta<Nim, HashEval> ab(HashEval{});
  std::atomic<bool> stop{true};
  Limits limits;
  limits.stop = &stop;
  const auto r = ab.search(nim, limits);
  ASSERT_TRUE(r.move.has_value());
  EXPECT_TRUE(nim.parse_move(nim.move_to_string(*r.move)).has_value());
}

TEST(AlphaBeta, NodeLimitIsHonoured) {
  Nim nim(60, 53);
  AlphaBetaOptions options;
  options.transposition = false;
  AlphaBeta<Nim, HashEval> ab(HashEval{}, options);
  Limits limits;
  limits.nodes = 5000;
  const auto r = ab.search(nim, limits);
  ASSERT_TRUE(r.move.has_value());
  // The limit is checked before a node expands, so the leaves of that node may overshoot it.
  EXPECT_GE(r.info.nodes, 5000u);
  EXPECT_LE(r.info.nodes, 5000u + Nim::MoveList::kCapacity);
}

TEST(AlphaBeta, TimeLimitIsHonoured) {
  Nim nim(60, 53);
  AlphaBetaOptions options;
  options.transposition = false;
  AlphaBeta<Nim, HashEval> ab(HashEval{}, options);
  const auto r = ab.search(nim, Limits::for_time(50));
  ASSERT_TRUE(r.move.has_value());
  EXPECT_LT(r.info.time_ms, 2000.0);
}

TEST(AlphaBeta, TerminalRootHasNoMove) {
  Nim nim(0, 0);
  AlphaBeta<Nim, HashEval> ab(HashEval{});
  const auto r = ab.search(nim, Limits::to_depth(3));
  EXPECT_FALSE(r.move.has_value());
  EXPECT_EQ(r.info.score, loss_in(0));
}

}  // namespace
}  // namespace arena::search
