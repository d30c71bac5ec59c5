#include "games/tictactoe/tictactoe.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "games/core/any_game.h"
#include "games/core/perft.h"
#include "tests/games/conformance.h"

namespace arena::test {
INSTANTIATE_TYPED_TEST_SUITE_P(TicTacToe, Conformance, ::testing::Types<tictactoe::TicTacToe>);
}  // namespace arena::test

namespace arena::tictactoe {

namespace {

// key -> rest of the line (comments after '#' removed), from tests/data/tictactoe_counts.txt.
std::map<std::string, std::string> load_counts() {
  std::ifstream in(std::string(ARENA_TEST_DATA_DIR) + "/tictactoe_counts.txt");
  std::map<std::string, std::string> out;
  std::string line;
  while (std::getline(in, line)) {
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::string key;
    if (!(words >> key)) continue;
    std::string rest;
    std::getline(words, rest);
    out[key] = rest;
  }
  return out;
}

std::uint64_t count_of(const std::map<std::string, std::string>& counts, const std::string& key) {
  auto it = counts.find(key);
  if (it == counts.end()) {
    ADD_FAILURE() << "missing key " << key;
    return 0;
  }
  return std::stoull(it->second);
}

// "5:1440 6:5328" -> {5: 1440, 6: 5328}
std::map<int, std::uint64_t> pairs_of(const std::string& text) {
  std::map<int, std::uint64_t> out;
  std::istringstream words(text);
  std::string word;
  while (words >> word) {
    auto colon = word.find(':');
    out[std::stoi(word.substr(0, colon))] = std::stoull(word.substr(colon + 1));
  }
  return out;
}

struct Tally {
  std::uint64_t games = 0, x_wins = 0, o_wins = 0, draws = 0;
  std::map<int, std::uint64_t> games_by_length;
  std::set<std::string> positions;
  std::map<int, std::set<std::string>> positions_by_ply;
  std::set<std::string> terminal;
};

void traverse(TicTacToe& g, int ply, Tally& t) {
  const std::string text = g.serialize();
  t.positions.insert(text);
  t.positions_by_ply[ply].insert(text);
  const Outcome o = g.outcome();
  if (o.is_terminal()) {
    t.terminal.insert(text);
    ++t.games;
    ++t.games_by_length[ply];
    if (o.result == Result::kFirstWins) ++t.x_wins;
    if (o.result == Result::kSecondWins) ++t.o_wins;
    if (o.result == Result::kDraw) ++t.draws;
    return;
  }
  TicTacToe::MoveList list;
  g.generate_moves(list);
  for (auto m : list) {
    g.make_move(m);
    traverse(g, ply + 1, t);
    g.unmake_move(m);
  }
}

const Tally& full_tally() {
  static const Tally tally = [] {
    Tally t;
    TicTacToe g = *TicTacToe::create({});
    traverse(g, 0, t);
    return t;
  }();
  return tally;
}

TEST(TicTacToe, CompleteGamesMatchPublishedCounts) {
  const auto counts = load_counts();
  const Tally& t = full_tally();
  EXPECT_EQ(t.games, count_of(counts, "games_total"));
  EXPECT_EQ(t.x_wins, count_of(counts, "games_x_wins"));
  EXPECT_EQ(t.o_wins, count_of(counts, "games_o_wins"));
  EXPECT_EQ(t.draws, count_of(counts, "games_draws"));
  EXPECT_EQ(t.games_by_length, pairs_of(counts.at("games_by_length")));
}

TEST(TicTacToe, ReachablePositionsMatchPublishedCounts) {
  const auto counts = load_counts();
  const Tally& t = full_tally();
  EXPECT_EQ(t.positions.size(), count_of(counts, "reachable_positions"));
  EXPECT_EQ(t.terminal.size(), count_of(counts, "terminal_positions"));
  std::map<int, std::uint64_t> by_ply;
  for (const auto& [ply, set] : t.positions_by_ply) by_ply[ply] = set.size();
  EXPECT_EQ(by_ply, pairs_of(counts.at("positions_by_ply")));
}

// The smallest of the 8 images of a layout under the square's rotations and reflections.
std::string canonical(const std::string& cells) {
  std::string best = cells;
  for (int t = 0; t < 8; ++t) {
    std::string image(9, '.');
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) {
        int rr = r, cc = c;
        if (t & 1) std::swap(rr, cc);  // transpose
        if (t & 2) rr = 2 - rr;        // flip vertically
        if (t & 4) cc = 2 - cc;        // flip horizontally
        image[std::size_t(rr * 3 + cc)] = cells[std::size_t(r * 3 + c)];
      }
    best = std::min(best, image);
  }
  return best;
}

TEST(TicTacToe, PositionsUpToSymmetryMatchPublishedCounts) {
  const auto counts = load_counts();
  const Tally& t = full_tally();
  std::set<std::string> classes, terminal_classes;
  for (const auto& p : t.positions) classes.insert(canonical(p));
  for (const auto& p : t.terminal) terminal_classes.insert(canonical(p));
  EXPECT_EQ(classes.size(), count_of(counts, "positions_up_to_symmetry"));
  EXPECT_EQ(terminal_classes.size(), count_of(counts, "terminal_positions_up_to_symmetry"));
  std::istringstream published(counts.at("positions_up_to_symmetry_by_ply"));
  for (const auto& [ply, set] : t.positions_by_ply) {
    std::set<std::string> by_ply;
    for (const auto& p : set) by_ply.insert(canonical(p));
    std::uint64_t expected = 0;
    ASSERT_TRUE(published >> expected) << "ply " << ply;
    EXPECT_EQ(by_ply.size(), expected) << "ply " << ply;
  }
}

TEST(TicTacToe, PerftAtDepthNineCountsTheFullLengthGames) {
  const auto counts = load_counts();
  TicTacToe g = *TicTacToe::create({});
  EXPECT_EQ(perft(g, 9), pairs_of(counts.at("games_by_length")).at(9));
  EXPECT_EQ(perft(g, 1), 9u);
  EXPECT_EQ(perft(g, 2), 72u);
}

// Of all 3^9 layouts, deserialize accepts exactly the positions reachable in play.
TEST(TicTacToe, DeserializeAcceptsExactlyTheReachableLayouts) {
  const Tally& t = full_tally();
  std::set<std::string> accepted;
  for (int code = 0; code < 19683; ++code) {
    std::string text(9, '.');
    for (int c = 0, k = code; c < 9; ++c, k /= 3) text[c] = ".xo"[k % 3];
    auto g = TicTacToe::deserialize(text);
    if (g) {
      accepted.insert(text);
    } else {
      EXPECT_FALSE(g.error().empty());
    }
  }
  EXPECT_EQ(accepted, t.positions);
}

TEST(TicTacToe, RejectsImpossiblePositionsNamingTheProblem) {
  auto counts = TicTacToe::deserialize("xx.......");
  ASSERT_FALSE(counts);
  EXPECT_NE(counts.error().find("counts"), std::string::npos) << counts.error();
  auto both = TicTacToe::deserialize("xxxooo...");
  ASSERT_FALSE(both);
  EXPECT_NE(both.error().find("both"), std::string::npos) << both.error();
  auto after_win = TicTacToe::deserialize("xxxoo.o..");  // o moved after x's line
  ASSERT_FALSE(after_win);
  EXPECT_NE(after_win.error().find("after x had won"), std::string::npos) << after_win.error();
  auto bad_char = TicTacToe::deserialize("x...q....");
  ASSERT_FALSE(bad_char);
  EXPECT_NE(bad_char.error().find('q'), std::string::npos) << bad_char.error();
}

TEST(TicTacToe, AlgebraicCellsStartBottomLeftAndDigitsTopLeft) {
  TicTacToe g = *TicTacToe::create({});
  auto a1 = g.parse_move("a1");
  auto seven = g.parse_move("7");
  ASSERT_TRUE(a1 && seven);
  EXPECT_EQ(*a1, *seven);
  EXPECT_EQ(g.parse_move("1"), g.parse_move("a3"));
  EXPECT_EQ(g.parse_move("9"), g.parse_move("c1"));
  EXPECT_EQ(g.parse_move("5"), g.parse_move("b2"));
  g.make_move(*a1);
  EXPECT_EQ(g.serialize(), "......x..");
  EXPECT_EQ(g.side_to_move(), Player::kSecond);
  EXPECT_FALSE(g.parse_move("a1").has_value()) << "occupied cell";
  EXPECT_FALSE(g.parse_move("0").has_value());
  EXPECT_FALSE(g.parse_move("d1").has_value());
}

TEST(TicTacToe, LineEndsTheGameAndFullBoardIsADraw) {
  auto won = TicTacToe::deserialize("xxxoo....");
  ASSERT_TRUE(won) << won.error();
  EXPECT_EQ(won->outcome(), Outcome::win_for(Player::kFirst, EndReason::kLine));
  TicTacToe::MoveList list;
  won->generate_moves(list);
  EXPECT_TRUE(list.empty());
  auto o_won = TicTacToe::deserialize("oooxx.x..");
  ASSERT_TRUE(o_won) << o_won.error();
  EXPECT_EQ(o_won->outcome(), Outcome::win_for(Player::kSecond, EndReason::kLine));
  auto full = TicTacToe::deserialize("xoxxoooxx");
  ASSERT_TRUE(full) << full.error();
  EXPECT_EQ(full->outcome(), Outcome::draw(EndReason::kBoardFull));
}

TEST(TicTacToe, AdapterPlaysByEitherNotation) {
  GameAdapter<TicTacToe> any(*TicTacToe::create({}));
  auto played = any.play("5");
  ASSERT_TRUE(played) << played.error();
  EXPECT_EQ(*played, "b2");
  EXPECT_FALSE(any.play("b2"));
  EXPECT_EQ(any.serialize(), "....x....");
}

}  // namespace
}  // namespace arena::tictactoe
