// Rubik's cube rules: conformance, group identities of the face turns, Reid's notation and
// state validation.

#include "games/puzzles/rubiks_cube.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/games/conformance.h"

namespace arena::test {
INSTANTIATE_TYPED_TEST_SUITE_P(Rubik, Conformance, ::testing::Types<puzzles::RubiksCube>);
}  // namespace arena::test

namespace arena::puzzles {
namespace {

constexpr const char* kSolved =
    "UF UR UB UL DF DR DB DL FR FL BR BL UFR URB UBL ULF DRF DFL DLB DBR";

RubiksCube after(const char* moves) {
  RubiksCube c = RubiksCube::solved();
  auto ok = c.apply_sequence(moves);
  EXPECT_TRUE(ok) << ok.error();
  return c;
}

TEST(RubiksCube, SolvedCubePrintsReidsIdentity) {
  EXPECT_EQ(RubiksCube::solved().serialize(), kSolved);
  EXPECT_TRUE(RubiksCube::solved().is_solved());
  EXPECT_EQ(RubiksCube::solved().outcome(), Outcome::win_for(Player::kFirst, EndReason::kSolved));
}

TEST(RubiksCube, EighteenMovesInSingmasterOrder) {
  RubiksCube::MoveList list;
  RubiksCube::solved().generate_moves(list);
  std::string names;
  for (auto m : list) names += RubiksCube::solved().move_to_string(m) + " ";
  EXPECT_EQ(names, "U U' U2 D D' D2 F F' F2 B B' B2 L L' L2 R R' R2 ");
}

TEST(RubiksCube, EachMoveAndItsInverseCancel) {
  const RubiksCube start = RubiksCube::scrambled(30, 7);
  RubiksCube::MoveList list;
  start.generate_moves(list);
  for (auto m : list) {
    RubiksCube c = start;
    c.make_move(m);
    EXPECT_FALSE(c == start);
    c.make_move(CubeMove{m.face, static_cast<std::uint8_t>(4 - m.turns)});
    EXPECT_TRUE(c == start) << start.move_to_string(m);
    EXPECT_EQ(c.hash(), start.hash());
  }
}

TEST(RubiksCube, EveryFaceTurnHasOrderFour) {
  for (const char* face : {"U", "D", "F", "B", "L", "R"}) {
    RubiksCube c = RubiksCube::solved();
    for (int k = 1; k <= 4; ++k) {
      ASSERT_TRUE(c.apply_sequence(face));
      EXPECT_EQ(c.is_solved(), k == 4) << face << " x" << k;
    }
  }
}

TEST(RubiksCube, SexyMoveHasOrderSix) {
  RubiksCube c = RubiksCube::solved();
  for (int k = 1; k <= 6; ++k) {
    ASSERT_TRUE(c.apply_sequence("R U R' U'"));
    EXPECT_EQ(c.is_solved(), k == 6) << "(R U R' U') x" << k;
  }
}

TEST(RubiksCube, FrontTurnMovesStickersAsReidNotationSays) {
  // F clockwise: the UFL corner comes to UFR with its U sticker on R, its L sticker on U;
  // the FL edge comes to UF with its L sticker on U.
  const std::string s = after("F").serialize();
  EXPECT_EQ(s.substr(0, 3), "LF ") << s;
  EXPECT_NE(s.find(" LFU "), std::string::npos) << s;
}

TEST(RubiksCube, SuperflipByReidsManeuverRoundTrips) {
  const RubiksCube c = after("U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2");
  const std::string superflip =
      "FU RU BU LU FD RD BD LD RF LF RB LB UFR URB UBL ULF DRF DFL DLB DBR";
  EXPECT_EQ(c.serialize(), superflip);
  auto back = RubiksCube::deserialize(superflip);
  ASSERT_TRUE(back) << back.error();
  EXPECT_TRUE(*back == c);
  EXPECT_EQ(back->hash(), c.hash());
}

TEST(RubiksCube, ScramblesRoundTripAndAreSeeded) {
  for (int seed = 0; seed < 100; ++seed) {
    const RubiksCube c = RubiksCube::scrambled(25, static_cast<std::uint64_t>(seed));
    auto back = RubiksCube::deserialize(c.serialize());
    ASSERT_TRUE(back) << back.error() << " for " << c.serialize();
    EXPECT_TRUE(*back == c);
    EXPECT_TRUE(RubiksCube::scrambled(25, static_cast<std::uint64_t>(seed)) == c);
  }
  auto zero = RubiksCube::create({{"scramble", "0"}});
  ASSERT_TRUE(zero);
  EXPECT_TRUE(zero->is_solved());
}

TEST(RubiksCube, RejectsImpossibleStatesNamingTheFault) {
  auto twisted = RubiksCube::deserialize(
      "UF UR UB UL DF DR DB DL FR FL BR BL FRU URB UBL ULF DRF DFL DLB DBR");
  ASSERT_FALSE(twisted);
  EXPECT_NE(twisted.error().find("twist"), std::string::npos) << twisted.error();
  auto flipped = RubiksCube::deserialize(
      "FU UR UB UL DF DR DB DL FR FL BR BL UFR URB UBL ULF DRF DFL DLB DBR");
  ASSERT_FALSE(flipped);
  EXPECT_NE(flipped.error().find("flipped edge"), std::string::npos) << flipped.error();
  auto swapped = RubiksCube::deserialize(
      "UR UF UB UL DF DR DB DL FR FL BR BL UFR URB UBL ULF DRF DFL DLB DBR");
  ASSERT_FALSE(swapped);
  EXPECT_NE(swapped.error().find("parity"), std::string::npos) << swapped.error();
  auto twice = RubiksCube::deserialize(
      "UF UF UB UL DF DR DB DL FR FL BR BL UFR URB UBL ULF DRF DFL DLB DBR");
  ASSERT_FALSE(twice);
  EXPECT_NE(twice.error().find("appears twice"), std::string::npos) << twice.error();
  auto mirror = RubiksCube::deserialize(
      "UF UR UB UL DF DR DB DL FR FL BR BL URF URB UBL ULF DRF DFL DLB DBR");
  ASSERT_FALSE(mirror);
  EXPECT_NE(mirror.error().find("mirror"), std::string::npos) << mirror.error();
}

// Found by fuzz/game.cpp (puzzles): a cubie named by repeated letters of a real one ("RRF" for
// URF, "UU" for UF) was taken for it, and a corner without a U or D sticker then read past its
// three stickers.
TEST(RubiksCube, RejectsCubiesWithRepeatedLetters) {
  auto corner = RubiksCube::deserialize(
      "UF UR UB UL DF DR DB DL FR FL BR BL RRF UBU UBL ULF DRF DFL DBL DBR");
  ASSERT_FALSE(corner);
  EXPECT_NE(corner.error().find("'RRF' is not a corner cubie"), std::string::npos)
      << corner.error();
  auto edge = RubiksCube::deserialize(
      "UU UR UB UL DF DR DB DL FR FL BR BL UFR URB UBL ULF DRF DFL DLB DBR");
  ASSERT_FALSE(edge);
  EXPECT_NE(edge.error().find("'UU' is not an edge cubie"), std::string::npos) << edge.error();
}

TEST(RubiksCube, RejectsBadMovesAndOptions) {
  RubiksCube c = RubiksCube::solved();
  EXPECT_FALSE(c.parse_move("R3").has_value());
  EXPECT_FALSE(c.parse_move("M").has_value());
  auto bad = c.apply_sequence("R Q");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("'Q'"), std::string::npos);
  auto opt = RubiksCube::create({{"scramble", "-1"}});
  ASSERT_FALSE(opt);
  EXPECT_NE(opt.error().find("scramble"), std::string::npos);
}

}  // namespace
}  // namespace arena::puzzles
