// LearnRows::kTree: the played positions' children as rows, each valued by its own search.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "bots/lab/feature_sets.h"
#include "bots/lab/learn.h"
#include "bots/search/score.h"
#include "games/chess/chess.h"

namespace arena::lab {
namespace {

using chess::Chess;

FeatureSet<Chess> chess_features() {
  return feature_set(std::type_identity<Chess>{});
}

LearnOptions small_options(LearnRows rows) {
  LearnOptions o;
  o.depth = 2;
  o.quiescence = false;
  o.batch_plies = 8;
  o.move_cap = 8;
  o.opening_plies = 10;
  o.seed = 3;
  o.rows = rows;
  return o;
}

// The lab's evaluation of a position in weight units, as LinearEval rounds it.
double eval_units(const FeatureSet<Chess>& fs, const std::vector<double>& w, const Chess& g) {
  return std::round(kEvalScale * dot(fs.compute(g), w)) / kEvalScale;
}

// A finished game's value for its side to move: +/- the win value, 0 for a draw.
double terminal_units(const FeatureSet<Chess>& fs, const Chess& g) {
  const int s = search::terminal_score(g.outcome(), g.side_to_move(), 0);
  return s > 0 ? fs.win_value : s < 0 ? -fs.win_value : 0.0;
}

// A plain depth-1 negamax over the linear evaluation, written out here instead of calling
// the search: the best reply's value from g's side to move, wins as +/- the win value.
double depth_one_value(const FeatureSet<Chess>& fs, const std::vector<double>& w, Chess g) {
  if (g.outcome().is_terminal()) return terminal_units(fs, g);
  Chess::MoveList list;
  g.generate_moves(list);
  double best = -1e300;
  for (const auto& m : list) {
    g.make_move(m);
    const double v = g.outcome().is_terminal() ? terminal_units(fs, g) : eval_units(fs, w, g);
    best = std::max(best, -v);
    g.unmake_move(m);
  }
  return best;
}

TEST(LearnTree, EveryLegalMoveOfAPlayedPositionGivesARowValuedByItsOwnSubtree) {
  const FeatureSet<Chess> fs = chess_features();
  auto start = Chess::create({});
  ASSERT_TRUE(start);
  const LearnOptions o = small_options(LearnRows::kTree);
  const detail::Batch batch = detail::play_batch(*start, fs, fs.initial, o);
  // The first played position is the first game's opening; its children follow it in the
  // order of the generated moves.
  Chess g = random_opening<Chess, search::SearchRng>(*start, o.opening_plies, o.seed * 1'000'003ULL);
  Chess::MoveList list;
  g.generate_moves(list);
  ASSERT_GE(batch.rows.size(), 1 + list.size());
  EXPECT_EQ(batch.parent[0], -1);
  const FeatureVector root = fs.compute(g);
  EXPECT_EQ(batch.rows[0], std::vector<double>(root.v.begin(), root.v.begin() + root.size));
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::size_t row = 1 + i;
    Chess child = g;
    child.make_move(list[i]);
    const FeatureVector f = fs.compute(child);
    EXPECT_EQ(batch.parent[row], 0);
    EXPECT_EQ(batch.rows[row], std::vector<double>(f.v.begin(), f.v.begin() + f.size)) << i;
    EXPECT_NEAR(batch.values[row], depth_one_value(fs, fs.initial, child), 1e-9) << i;
  }
}

TEST(LearnTree, EachPlayedValueIsTheNegamaxOfItsChildrensValues) {
  const FeatureSet<Chess> fs = chess_features();
  auto start = Chess::create({});
  ASSERT_TRUE(start);
  LearnOptions o = small_options(LearnRows::kTree);
  o.quiescence = true;  // the children's searches extend their leaves as the played one does
  const detail::Batch batch = detail::play_batch(*start, fs, fs.initial, o);
  EXPECT_EQ(batch.played, o.batch_plies);
  EXPECT_GT(static_cast<int>(batch.rows.size()), 10 * batch.played);
  int played_rows = 0;
  for (std::size_t r = 0; r < batch.rows.size(); ++r) {
    if (batch.parent[r] != -1) continue;
    ++played_rows;
    double best = -1e300;
    int children = 0;
    for (std::size_t c = r + 1; c < batch.rows.size() && batch.parent[c] == static_cast<int>(r);
         ++c) {
      best = std::max(best, -batch.values[c]);
      ++children;
    }
    ASSERT_GT(children, 0) << r;
    EXPECT_NEAR(batch.values[r], best, 1e-9) << "played row " << r;
  }
  EXPECT_EQ(played_rows, o.batch_plies);
}

TEST(LearnTree, ThePlayedGamesAndTheirRowsAreThoseOfPlayedRows) {
  const FeatureSet<Chess> fs = chess_features();
  auto start = Chess::create({});
  ASSERT_TRUE(start);
  LearnOptions o = small_options(LearnRows::kTree);
  o.quiescence = true;
  o.batch_plies = 30;
  o.move_cap = 12;
  const detail::Batch tree = detail::play_batch(*start, fs, fs.initial, o);
  o.rows = LearnRows::kPlayed;
  const detail::Batch played = detail::play_batch(*start, fs, fs.initial, o);
  ASSERT_EQ(played.rows.size(), 30u);
  EXPECT_EQ(tree.games, played.games);
  std::vector<std::vector<double>> tree_played_rows;
  std::vector<double> tree_played_values;
  for (std::size_t r = 0; r < tree.rows.size(); ++r) {
    if (tree.parent[r] != -1) continue;
    tree_played_rows.push_back(tree.rows[r]);
    tree_played_values.push_back(tree.values[r]);
  }
  EXPECT_EQ(tree_played_rows, played.rows);
  EXPECT_EQ(tree_played_values, played.values);
}

TEST(LearnTree, ReportsRowsAndPlayedPositionsPerBatch) {
  auto start = Chess::create({});
  ASSERT_TRUE(start);
  LearnOptions o = small_options(LearnRows::kTree);
  o.iterations = 1;
  auto r = learn(*start, chess_features(), o);
  ASSERT_TRUE(r) << r.error();
  ASSERT_EQ(r->iterations.size(), 1u);
  EXPECT_EQ(r->iterations[0].batch_played, 8);
  EXPECT_GT(r->iterations[0].batch_rows, 8 * 10);
  EXPECT_EQ(r->iterations[0].positions, r->iterations[0].batch_rows);
}

TEST(LearnTree, NeedsADepthOfTwo) {
  auto start = Chess::create({});
  ASSERT_TRUE(start);
  LearnOptions o = small_options(LearnRows::kTree);
  o.depth = 1;
  auto r = learn(*start, chess_features(), o);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("depth 2"), std::string::npos) << r.error();
}

}  // namespace
}  // namespace arena::lab
