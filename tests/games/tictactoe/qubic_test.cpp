#include "games/tictactoe/qubic.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <set>
#include <string>

#include "games/core/perft.h"
#include "tests/games/conformance.h"
#include "tests/games/tictactoe/qubic_play.h"

namespace arena::test {
INSTANTIATE_TYPED_TEST_SUITE_P(Qubic, Conformance, ::testing::Types<tictactoe::Qubic>);
}  // namespace arena::test

namespace arena::tictactoe {
namespace {

using test::play;

// A line of the n^3 cube fixes, in each coordinate, a constant (n choices), the values 0..n-1
// increasing, or n-1..0 decreasing; not all constant; each line counted from both ends.
// Hence ((n+2)^3 - n^3) / 2 lines: Moser's count, 76 for n = 4.
TEST(Qubic, HasTheSeventySixLinesOfTheCube) {
  constexpr int n = 4;
  EXPECT_EQ(((n + 2) * (n + 2) * (n + 2) - n * n * n) / 2, kQubicLineCount);
  std::set<std::uint64_t> derived;
  for (int cx = 0; cx < n + 2; ++cx)
    for (int cy = 0; cy < n + 2; ++cy)
      for (int cz = 0; cz < n + 2; ++cz) {
        if (cx < n && cy < n && cz < n) continue;  // all constant: a point, not a line
        auto coord = [](int choice, int k) {
          return choice < n ? choice : (choice == n ? k : 3 - k);
        };
        std::uint64_t mask = 0;
        for (int k = 0; k < n; ++k)
          mask |= std::uint64_t{1} << (coord(cz, k) * 16 + coord(cy, k) * 4 + coord(cx, k));
        derived.insert(mask);
      }
  EXPECT_EQ(derived.size(), 76u);
  const std::set<std::uint64_t> ours(kQubicLines.begin(), kQubicLines.end());
  EXPECT_EQ(ours, derived);
  for (auto line : kQubicLines) EXPECT_EQ(std::popcount(line), 4);
}

TEST(Qubic, NoLineBeforeTheSeventhPly) {
  Qubic g = *Qubic::create({});
  EXPECT_EQ(perft(g, 1), 64u);
  EXPECT_EQ(perft(g, 2), 64u * 63);
  EXPECT_EQ(perft(g, 3), 64u * 63 * 62);
}

TEST(Qubic, MoveTextIsLevelFileRank) {
  Qubic g = *Qubic::create({});
  auto m = g.parse_move("2b3");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->cell, 16 + 2 * 4 + 1);
  EXPECT_EQ(g.move_to_string(*m), "2b3");
  EXPECT_FALSE(g.parse_move("5a1").has_value());
  EXPECT_FALSE(g.parse_move("1e1").has_value());
  EXPECT_FALSE(g.parse_move("1a5").has_value());
  g.make_move(*m);
  EXPECT_EQ(g.serialize(), "................/.....x........../................/................");
}

TEST(Qubic, RowPillarAndSpaceDiagonalWin) {
  Qubic row = play({"1a1", "2a1", "1b1", "2b1", "1c1", "2c1", "1d1"});
  EXPECT_EQ(row.outcome(), Outcome::win_for(Player::kFirst, EndReason::kLine));
  Qubic pillar = play({"1a1", "1b2", "1a2", "2b2", "1a3", "3b2", "4d4", "4b2"});
  EXPECT_EQ(pillar.outcome(), Outcome::win_for(Player::kSecond, EndReason::kLine));
  Qubic diagonal = play({"1a1", "1b1", "2b2", "1c1", "3c3", "1d2", "4d4"});
  EXPECT_EQ(diagonal.outcome(), Outcome::win_for(Player::kFirst, EndReason::kLine));
  Qubic::MoveList list;
  diagonal.generate_moves(list);
  EXPECT_TRUE(list.empty());
  auto reloaded = Qubic::deserialize(diagonal.serialize());
  ASSERT_TRUE(reloaded) << reloaded.error();
  EXPECT_EQ(reloaded->outcome(), diagonal.outcome());
}

TEST(Qubic, RejectsImpossiblePositionsNamingTheProblem) {
  const std::string empty_level = "................";
  auto counts = Qubic::deserialize("xx.............." + ("/" + empty_level) + "/" + empty_level +
                                   "/" + empty_level);
  ASSERT_FALSE(counts);
  EXPECT_NE(counts.error().find("counts"), std::string::npos) << counts.error();
  // x completed the bottom row of level 1 and o moved afterwards.
  auto after = Qubic::deserialize(empty_level.substr(0, 12) + "xxxx" + "/ooo............./" +
                                  "o.............../" + empty_level);
  ASSERT_FALSE(after);
  EXPECT_NE(after.error().find("after x had won"), std::string::npos) << after.error();
  auto bad = Qubic::deserialize(empty_level + "/" + empty_level + "/" + empty_level + "/" +
                                empty_level.substr(1) + "?");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find('?'), std::string::npos) << bad.error();
}

}  // namespace
}  // namespace arena::tictactoe
