#include "games/isolation/isolation.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "games/core/any_game.h"
#include "games/core/perft.h"
#include "games/core/rng.h"
#include "tests/games/conformance.h"

namespace arena::test {
INSTANTIATE_TYPED_TEST_SUITE_P(Isolation, Conformance, ::testing::Types<isolation::Isolation>);
}  // namespace arena::test

namespace arena::isolation {
namespace {

// An independent, deliberately plain re-implementation of the rules on a 2-D array, used
// only to derive perft counts (there is no published table for Isolation).
struct Naive {
  int n = 7;
  std::array<std::array<bool, 9>, 9> blocked{};  // [file][rank]
  std::array<int, 2> file{-1, -1}, rank{-1, -1};
  int side = 0;

  std::vector<std::array<int, 2>> moves() const {
    std::vector<std::array<int, 2>> out;
    if (file[side] < 0) {
      for (int f = 0; f < n; ++f)
        for (int r = 0; r < n; ++r)
          if (!blocked[f][r]) out.push_back({f, r});
      return out;
    }
    const int jumps[8][2] = {{1, 2},  {2, 1},  {-1, 2},  {-2, 1},
                             {1, -2}, {2, -1}, {-1, -2}, {-2, -1}};
    for (const auto& j : jumps) {
      const int f = file[side] + j[0];
      const int r = rank[side] + j[1];
      if (f >= 0 && f < n && r >= 0 && r < n && !blocked[f][r]) out.push_back({f, r});
    }
    return out;
  }

  std::uint64_t perft(int depth) {
    if (depth == 0) return 1;
    std::uint64_t total = 0;
    for (auto [f, r] : moves()) {
      Naive next = *this;
      next.blocked[f][r] = true;
      next.file[side] = f;
      next.rank[side] = r;
      next.side = 1 - side;
      total += next.perft(depth - 1);
    }
    return total;
  }
};

// The naive board for an Isolation position, read from its serialize() text.
Naive naive_of(const Isolation& g) {
  Naive nv;
  nv.n = g.size();
  const std::string text = g.serialize();
  for (int r = g.size() - 1, i = 0; r >= 0; --r, ++i) {
    for (int f = 0; f < g.size(); ++f) {
      const char c = text[std::size_t(i * (g.size() + 1) + f)];
      if (c == '.') continue;
      nv.blocked[f][r] = true;
      if (c == 'x' || c == 'o') {
        nv.file[c == 'x' ? 0 : 1] = f;
        nv.rank[c == 'x' ? 0 : 1] = r;
      }
    }
  }
  nv.side = g.side_to_move() == Player::kFirst ? 0 : 1;
  return nv;
}

Isolation make(int size) {
  auto g = Isolation::create({{"size", std::to_string(size)}});
  EXPECT_TRUE(g) << g.error();
  return *g;
}

TEST(Isolation, PerftFromTheStartAgreesWithANaiveImplementation) {
  for (int size = Isolation::kMinSize; size <= Isolation::kMaxSize; ++size) {
    Isolation g = make(size);
    const int depth = size <= 7 ? 4 : 3;
    Naive nv;
    nv.n = size;
    for (int d = 1; d <= depth; ++d)
      EXPECT_EQ(perft(g, d), nv.perft(d)) << "size " << size << " depth " << d;
    const auto squares = static_cast<std::uint64_t>(size * size);
    EXPECT_EQ(perft(g, 2), squares * (squares - 1)) << "two placements";
  }
}

TEST(Isolation, PerftFromRandomMidgamesAgreesWithANaiveImplementation) {
  Rng rng(7);
  for (int trial = 0; trial < 30; ++trial) {
    Isolation g = make(5 + static_cast<int>(trial % 5));
    const int plies = 2 + static_cast<int>(rng.below(12));
    for (int p = 0; p < plies; ++p) {
      Isolation::MoveList list;
      g.generate_moves(list);
      if (list.empty()) break;
      g.make_move(list[rng.below(list.size())]);
    }
    Naive nv = naive_of(g);
    for (int d = 1; d <= 5; ++d)
      EXPECT_EQ(perft(g, d), nv.perft(d)) << g.serialize() << " depth " << d;
  }
}

TEST(Isolation, FirstMovesPlaceAnywhereThenPiecesJumpLikeKnights) {
  Isolation g = make(7);
  EXPECT_EQ(g.num_moves_for(Player::kFirst), 49);
  g.make_move(*g.parse_move("d4"));
  EXPECT_EQ(g.num_moves_for(Player::kSecond), 48);
  EXPECT_FALSE(g.parse_move("d4").has_value()) << "occupied";
  g.make_move(*g.parse_move("a1"));
  // From d4 on 7x7 all eight knight targets are on the board; a1 is not one of them.
  EXPECT_EQ(g.num_moves_for(Player::kFirst), 8);
  EXPECT_EQ(g.num_moves_for(Player::kSecond), 2);  // b3 and c2
  EXPECT_FALSE(g.parse_move("d5").has_value()) << "not a knight move";
  ASSERT_TRUE(g.parse_move("e6").has_value());
  g.make_move(*g.parse_move("e6"));
  EXPECT_EQ(g.serialize(), "......./....x../......./...#.../......./......./o...... o");
}

TEST(Isolation, VisitedSquaresStayBlocked) {
  auto g = Isolation::deserialize("...../...../..#../...../x..#o x");
  ASSERT_TRUE(g) << g.error();
  EXPECT_EQ(g->num_moves_for(Player::kFirst), 2);  // b3, c2
  g->make_move(*g->parse_move("b3"));
  EXPECT_FALSE(g->parse_move("c3").has_value()) << "o on e1 reaches c2 and d3 only";
  g->make_move(*g->parse_move("d3"));
  // From b3: a1 (stood on before), c1, d2, d4, c5, a5.
  EXPECT_FALSE(g->parse_move("a1").has_value());
  EXPECT_EQ(g->num_moves_for(Player::kFirst), 5);
  EXPECT_EQ(g->serialize(), "...../...../.x#o./...../#..## x");
}

TEST(Isolation, SideWithNoMovesLoses) {
  // x on a1 with b3 and c2 blocked cannot move: o wins.
  auto g = Isolation::deserialize("...../...../.#.../..#../x...o x");
  ASSERT_TRUE(g) << g.error();
  EXPECT_EQ(g->outcome(), Outcome::win_for(Player::kSecond, EndReason::kNoMoves));
  Isolation::MoveList list;
  g->generate_moves(list);
  EXPECT_TRUE(list.empty());
}

TEST(Isolation, SizeOptionIsCheckedAndNamed) {
  for (const char* bad : {"4", "10", "seven", "7x"}) {
    auto g = Isolation::create({{"size", bad}});
    ASSERT_FALSE(g) << bad;
    EXPECT_NE(g.error().find("size"), std::string::npos) << g.error();
  }
  EXPECT_EQ(make(9).num_moves_for(Player::kFirst), 81);
}

TEST(Isolation, DeserializeRejectsImpossiblePositions) {
  const char* bad[] = {
      "...../...../...../...../..... o",  // o to move at ply 0
      "...../...../...../...../#.... o",  // a blocked square but no piece
      "...../...../...../...../x.x.. o",  // two x pieces
      "...../...../...../...../o.... o",  // o placed before x
      "...../...../...../..../..... x",   // short row
      "...../...../...../...../..?.. x",  // bad character
      "...../...../...../...../..... z",  // bad side
  };
  for (const char* text : bad) {
    auto g = Isolation::deserialize(text);
    EXPECT_FALSE(g) << text;
    if (!g) {
      EXPECT_FALSE(g.error().empty());
    }
  }
}

TEST(Isolation, NineByNineUsesTheHighWordOfTheMask) {
  Isolation g = make(9);
  g.make_move(*g.parse_move("i9"));  // square 80
  g.make_move(*g.parse_move("a1"));
  EXPECT_EQ(g.num_moves_for(Player::kFirst), 2);  // g8, h7
  auto text = g.serialize();
  auto back = Isolation::deserialize(text);
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back->hash(), g.hash());
  EXPECT_TRUE(g.parse_move("h7").has_value());
}

}  // namespace
}  // namespace arena::isolation
