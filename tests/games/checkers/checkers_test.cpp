#include "games/checkers/checkers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "games/core/perft.h"

#include "tests/games/conformance.h"

namespace arena::checkers {
namespace {

Checkers load(const std::string& text) {
  auto game = Checkers::deserialize(text);
  EXPECT_TRUE(game) << text << ": " << game.error();
  return game ? *game : *Checkers::create({});
}

std::vector<std::string> legal_texts(const Checkers& game) {
  Checkers::MoveList list;
  game.generate_moves(list);
  std::vector<std::string> out;
  for (const auto& m : list) out.push_back(game.move_to_string(m));
  std::sort(out.begin(), out.end());
  return out;
}

void play(Checkers& game, const std::string& text) {
  auto m = game.parse_move(text);
  ASSERT_TRUE(m) << "cannot play " << text << " at " << game.serialize();
  game.make_move(*m);
}

struct PerftRow {
  int depth = 0;
  std::uint64_t with_duplicates = 0;
  std::uint64_t deduplicated = 0;
};

// Rows of tests/data/checkers_perft.txt: depth, Bik's count, dctl's count ('-' = none).
std::vector<PerftRow> published_perft() {
  std::ifstream in(std::string(ARENA_TEST_DATA_DIR) + "/checkers_perft.txt");
  std::vector<PerftRow> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    PerftRow row;
    if (!(fields >> row.depth >> row.with_duplicates)) continue;
    if (!(fields >> row.deduplicated)) row.deduplicated = 0;
    rows.push_back(row);
  }
  return rows;
}

TEST(Checkers, StartPositionIsStandardWithSevenMoves) {
  auto game = Checkers::create({});
  ASSERT_TRUE(game) << game.error();
  EXPECT_EQ(game->serialize(),
            "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
  EXPECT_EQ(legal_texts(*game), (std::vector<std::string>{"10-14", "10-15", "11-15", "11-16",
                                                          "12-16", "9-13", "9-14"}));
}

TEST(Checkers, PerftMatchesPublishedFiguresToDepthEleven) {
  const auto rows = published_perft();
  ASSERT_GE(rows.size(), 11u) << "cannot read checkers_perft.txt";
  for (const auto& row : rows) {
    if (row.depth > 11) break;
    ASSERT_EQ(row.with_duplicates, row.deduplicated) << "sources agree to depth 11";
    Checkers game = *Checkers::create({});
    EXPECT_EQ(perft(game, row.depth), row.deduplicated) << "depth " << row.depth;
  }
}

TEST(Checkers, FastPerftMatchesPublishedFigures) {
  const auto rows = published_perft();
  ASSERT_GE(rows.size(), 11u) << "cannot read checkers_perft.txt";
  for (const auto& row : rows) {
    if (row.depth > 11) break;
    EXPECT_EQ(fast_perft(*Checkers::create({}), row.depth), row.deduplicated)
        << "depth " << row.depth;
  }
}

TEST(Checkers, FastPerftMatchesTheGameInterfaceAlongRandomGames) {
  // Random games run long enough to crown kings and reach king multi-captures.
  std::mt19937_64 rng(26);
  for (int g = 0; g < 30; ++g) {
    Checkers game = *Checkers::create({});
    Checkers::MoveList list;
    for (int ply = 0; ply < 200; ++ply) {
      for (int depth = 0; depth <= 3; ++depth) {
        ASSERT_EQ(fast_perft(game, depth), perft(game, depth))
            << game.serialize() << " depth " << depth;
      }
      game.generate_moves(list);
      if (list.empty()) break;
      game.make_move(list[rng() % list.size()]);
    }
  }
}

TEST(Checkers, FastPerftMatchesTheGameInterfaceOnKingCaptures) {
  for (const char* text :
       {"B:W14,15,22,23:BK10", "B:WK26,27,20:B22", "B:W14,22,23,30:B9,12",
        "W:WK14,K19,K27:B9,10,11,15,16,18,22,23,24", "B:W6,7,14,15,22,23:BK1,K3"}) {
    Checkers game = load(text);
    for (int depth = 0; depth <= 5; ++depth) {
      EXPECT_EQ(fast_perft(game, depth), perft(game, depth)) << text << " depth " << depth;
    }
  }
}

TEST(Checkers, CapturesAreMandatoryAndAMultiJumpIsOneMove) {
  // Black man 9 can jump 14 to 18, then 22 (to 25) or 23 (to 27); the step 12-16 is not allowed.
  Checkers game = load("B:W14,22,23,30:B9,12");
  EXPECT_EQ(legal_texts(game), (std::vector<std::string>{"9x18x25", "9x18x27"}));
  auto m = game.parse_move("9x18x27");
  ASSERT_TRUE(m);
  EXPECT_EQ(game.capture_score(*m), 2);
  game.make_move(*m);
  EXPECT_EQ(game.serialize(), "W:W22,30:B12,27");
}

TEST(Checkers, ShortCaptureTextIsAcceptedWhenUnambiguous) {
  const Checkers game = load("B:W14,22,23,30:B9,12");
  ASSERT_TRUE(game.parse_move("9x27"));
  EXPECT_EQ(game.move_to_string(*game.parse_move("9x27")), "9x18x27");
  EXPECT_FALSE(game.parse_move("9x18"));  // not a whole move: the jump must continue
  EXPECT_FALSE(game.parse_move("12-16"));
}

TEST(Checkers, ReachingTheLastRowCrownsAndEndsTheMove) {
  // 22x31 crowns; a king on 31 could jump 27 on to 24, but the move ends at once.
  Checkers game = load("B:W26,27,20:B22");
  EXPECT_EQ(legal_texts(game), (std::vector<std::string>{"22x31"}));
  play(game, "22x31");
  EXPECT_EQ(game.serialize(), "W:W20,27:BK31");
  EXPECT_EQ(game.kings(Player::kFirst), Bitboard{1} << 30);
}

TEST(Checkers, KingsMoveBothWays) {
  const Checkers game = load("B:W32:BK18");
  EXPECT_EQ(legal_texts(game), (std::vector<std::string>{"18-14", "18-15", "18-22", "18-23"}));
}

TEST(Checkers, MenMoveOnlyForward) {
  EXPECT_EQ(legal_texts(load("B:W32:B18")), (std::vector<std::string>{"18-22", "18-23"}));
  EXPECT_EQ(legal_texts(load("W:W18:B1")), (std::vector<std::string>{"18-14", "18-15"}));
}

TEST(Checkers, KingCaptureAlongTwoPathsIsOneMove) {
  // The king on 10 can circle 14, 15, 22, 23 either way round, back to 10.
  const Checkers game = load("B:W14,15,22,23:BK10");
  Checkers::MoveList list;
  game.generate_moves(list);
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(game.capture_score(list[0]), 4);
  EXPECT_EQ(list[0].from, list[0].to);
  const auto clockwise = game.parse_move("10x19x26x17x10");
  const auto anticlockwise = game.parse_move("10x17x26x19x10");
  ASSERT_TRUE(clockwise && anticlockwise);
  EXPECT_EQ(*clockwise, list[0]);
  EXPECT_EQ(*anticlockwise, list[0]);
}

TEST(Checkers, SideWithoutMovesLoses) {
  Checkers blocked = load("B:W9,14:B5");
  EXPECT_TRUE(legal_texts(blocked).empty());
  EXPECT_EQ(blocked.outcome(), Outcome::win_for(Player::kSecond, EndReason::kNoMoves));
  EXPECT_EQ(load("W:W:B1").outcome(), Outcome::win_for(Player::kFirst, EndReason::kNoMoves));
}

TEST(Checkers, EightyPliesWithoutCaptureOrManMoveDraw) {
  Checkers game = load("B:WK32:BK1:N79");
  EXPECT_FALSE(game.outcome().is_terminal());
  play(game, "1-5");
  EXPECT_EQ(game.no_progress_plies(), 80);
  EXPECT_EQ(game.outcome(), Outcome::draw(EndReason::kNoProgress));
  EXPECT_FALSE(legal_texts(game).empty());
  Checkers man = load("B:WK32:B1:N79");
  play(man, "1-5");
  EXPECT_EQ(man.no_progress_plies(), 0);
  EXPECT_FALSE(man.outcome().is_terminal());
}

TEST(Checkers, ThirdOccurrenceOfAPositionDraws) {
  Checkers game = load("B:WK32:BK1");
  for (const char* m : {"1-5", "32-28", "5-1", "28-32"}) play(game, m);
  EXPECT_FALSE(game.outcome().is_terminal());  // the start position, a second time
  for (const char* m : {"1-5", "32-28", "5-1"}) play(game, m);
  EXPECT_FALSE(game.outcome().is_terminal());
  play(game, "28-32");
  EXPECT_EQ(game.outcome(), Outcome::draw(EndReason::kThreefoldRepetition));
}

TEST(Checkers, UnmakeRestoresCrownAndCapturedKings) {
  Checkers game = load("B:WK26,27,20:B22");
  const std::string before = game.serialize();
  const std::uint64_t hash = game.hash();
  auto m = game.parse_move("22x31");
  ASSERT_TRUE(m);
  game.make_move(*m);
  game.unmake_move(*m);
  EXPECT_EQ(game.serialize(), before);
  EXPECT_EQ(game.hash(), hash);
}

TEST(Checkers, DeserializeNamesTheProblem) {
  auto expect_error = [](const char* text, const char* needle) {
    auto g = Checkers::deserialize(text);
    ASSERT_FALSE(g) << text;
    EXPECT_NE(g.error().find(needle), std::string::npos) << g.error();
  };
  expect_error("B:W21:B21", "21");
  expect_error("B:W33:B1", "33");
  expect_error("B:W1:B29", "crowning row");
  expect_error("X:W1:B2", "PDN FEN");
  expect_error("B:W1-13:B20", "more than 12");
  expect_error("B:W1", "PDN FEN");
  auto ranges = Checkers::deserialize("W:B1-3,K5:WK30,31.");
  ASSERT_TRUE(ranges) << ranges.error();
  EXPECT_EQ(ranges->serialize(), "W:WK30,31:B1,2,3,K5");
}

}  // namespace
}  // namespace arena::checkers

namespace arena::test {
INSTANTIATE_TYPED_TEST_SUITE_P(Checkers, Conformance, ::testing::Types<checkers::Checkers>);
}  // namespace arena::test
