#include "games/othello/othello.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <initializer_list>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "games/core/perft.h"
#include "tests/games/conformance.h"

namespace arena::othello {
namespace {

// A position text with Black on `black`, White on `white` (square names) and `side` to move.
std::string position(std::initializer_list<const char*> black,
                     std::initializer_list<const char*> white, char side) {
  std::string text(64, '-');
  auto put = [&](const char* sq, char c) { text[(sq[1] - '1') * 8 + (sq[0] - 'a')] = c; };
  for (const char* sq : black) put(sq, 'X');
  for (const char* sq : white) put(sq, 'O');
  return text + " " + side;
}

std::vector<std::string> legal_texts(const Othello& game) {
  Othello::MoveList list;
  game.generate_moves(list);
  std::vector<std::string> out;
  for (const auto& m : list) out.push_back(game.move_to_string(m));
  return out;
}

Othello load(const std::string& text) {
  auto game = Othello::deserialize(text);
  EXPECT_TRUE(game) << game.error();
  return *game;
}

// (depth, leaf count) rows of tests/data/othello_perft.txt, first two columns.
std::vector<std::pair<int, std::uint64_t>> published_perft() {
  std::ifstream in(std::string(ARENA_TEST_DATA_DIR) + "/othello_perft.txt");
  std::vector<std::pair<int, std::uint64_t>> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    int depth = 0;
    std::uint64_t leaves = 0;
    if (fields >> depth >> leaves) rows.emplace_back(depth, leaves);
  }
  return rows;
}

TEST(Othello, StartPositionHasTheFourClassicalOpeningMoves) {
  auto game = Othello::create({});
  ASSERT_TRUE(game) << game.error();
  EXPECT_EQ(game->serialize(), position({"d5", "e4"}, {"d4", "e5"}, 'X'));
  EXPECT_EQ(game->side_to_move(), Player::kFirst);
  EXPECT_EQ(legal_texts(*game), (std::vector<std::string>{"d3", "c4", "f5", "e6"}));
}

TEST(Othello, PlacingADiscFlipsTheFlankedLine) {
  Othello game = *Othello::create({});
  game.make_move(*game.parse_move("f5"));
  EXPECT_EQ(game.serialize(), position({"d5", "e4", "e5", "f5"}, {"d4"}, 'O'));
  EXPECT_EQ(game.disc_count(Player::kFirst), 4);
  EXPECT_EQ(game.disc_count(Player::kSecond), 1);
}

TEST(Othello, PerftMatchesPublishedFiguresCountingPassesAndEarlyGameOvers) {
  const auto rows = published_perft();
  ASSERT_GE(rows.size(), 9u) << "cannot read othello_perft.txt";
  for (const auto& [depth, leaves] : rows) {
    if (depth > 11) break;
    Othello game = *Othello::create({});
    EXPECT_EQ(perft(game, depth), leaves) << "depth " << depth;
    EXPECT_EQ(game.serialize(), Othello::create({})->serialize());
  }
}

TEST(Othello, FastPerftMatchesPublishedFigures) {
  const auto rows = published_perft();
  ASSERT_GE(rows.size(), 9u) << "cannot read othello_perft.txt";
  for (const auto& [depth, leaves] : rows) {
    if (depth > 11) break;
    EXPECT_EQ(fast_perft(*Othello::create({}), depth), leaves) << "depth " << depth;
  }
}

TEST(Othello, FastPerftMatchesTheGameInterfaceAlongRandomGames) {
  // Every position of random games to the end, so passes and early game overs are in.
  std::mt19937_64 rng(26);
  for (int g = 0; g < 30; ++g) {
    Othello game = *Othello::create({});
    Othello::MoveList list;
    for (game.generate_moves(list); !list.empty(); game.generate_moves(list)) {
      for (int depth = 0; depth <= 3; ++depth) {
        ASSERT_EQ(fast_perft(game, depth), perft(game, depth))
            << game.serialize() << " depth " << depth;
      }
      game.make_move(list[rng() % list.size()]);
    }
    EXPECT_EQ(fast_perft(game, 3), 1u) << game.serialize();
  }
}

// The flips of a disc on empty square `square`, walking each direction square by square.
Bitboard walked_flips(int square, Bitboard own, Bitboard opp) {
  Bitboard flips = 0;
  for (int df = -1; df <= 1; ++df) {
    for (int dr = -1; dr <= 1; ++dr) {
      if (df == 0 && dr == 0) continue;
      Bitboard run = 0;
      int f = square % 8 + df;
      int r = square / 8 + dr;
      for (; f >= 0 && f < 8 && r >= 0 && r < 8; f += df, r += dr) {
        const Bitboard bit = Bitboard{1} << (r * 8 + f);
        if (!(opp & bit)) {
          if (own & bit) flips |= run;
          break;
        }
        run |= bit;
      }
    }
  }
  return flips;
}

TEST(Othello, FlipsAndLegalMovesMatchASquareBySquareWalkOnRandomBoards) {
  std::mt19937_64 rng(2026);
  for (int i = 0; i < 3000; ++i) {
    // Denser and sparser boards by masking random words together.
    const Bitboard occupied = rng() | (i % 2 ? rng() : 0);
    const Bitboard own = occupied & rng();
    const Bitboard opp = occupied & ~own;
    Bitboard legal = 0;
    for (int sq = 0; sq < 64; ++sq) {
      if (occupied & (Bitboard{1} << sq)) continue;
      const Bitboard expected = walked_flips(sq, own, opp);
      ASSERT_EQ(flips_for(sq, own, opp), expected)
          << "square " << sq << " own " << own << " opp " << opp;
      if (expected) legal |= Bitboard{1} << sq;
    }
    ASSERT_EQ(legal_moves_mask(own, opp), legal) << "own " << own << " opp " << opp;
  }
}

TEST(Othello, SideWithoutAMoveMustPassWhenTheOpponentCanMove) {
  // Black's only disc a2 sits against White's a1: Black cannot flank anything, White can (a3).
  Othello game = load(position({"a2"}, {"a1", "d4", "e4", "d5", "e5"}, 'X'));
  EXPECT_EQ(legal_texts(game), (std::vector<std::string>{"pass"}));
  EXPECT_FALSE(game.outcome().is_terminal());
  const std::uint64_t before = game.hash();
  game.make_move(*game.parse_move("pass"));
  EXPECT_EQ(game.side_to_move(), Player::kSecond);
  EXPECT_EQ(legal_texts(game), (std::vector<std::string>{"a3"}));
  game.unmake_move(Move{});
  EXPECT_EQ(game.hash(), before);
  EXPECT_EQ(game.side_to_move(), Player::kFirst);
}

TEST(Othello, GameEndsWhenNeitherSideCanMoveAndMoreDiscsWin) {
  Othello game = load(position({"a2"}, {"a1", "d4", "e4", "d5", "e5"}, 'O'));
  game.make_move(*game.parse_move("a3"));  // flips a2: Black has no disc left
  EXPECT_TRUE(legal_texts(game).empty());
  EXPECT_EQ(game.outcome(), Outcome::win_for(Player::kSecond, EndReason::kDiscCount));
}

TEST(Othello, EqualDiscCountsAtTheEndDraw) {
  // Rows 1-4 Black, rows 5-8 White: every square is full.
  std::string text = std::string(32, 'X') + std::string(32, 'O') + " X";
  Othello game = load(text);
  EXPECT_TRUE(legal_texts(game).empty());
  EXPECT_EQ(game.outcome(), Outcome::draw(EndReason::kDiscCount));
}

TEST(Othello, HashDependsOnTheSideToMove) {
  const Othello black = load(position({"d5", "e4"}, {"d4", "e5"}, 'X'));
  const Othello white = load(position({"d5", "e4"}, {"d4", "e5"}, 'O'));
  EXPECT_NE(black.hash(), white.hash());
}

TEST(Othello, DeserializeNamesTheProblem) {
  auto bad_char = Othello::deserialize(std::string(63, '-') + "Z X");
  ASSERT_FALSE(bad_char);
  EXPECT_NE(bad_char.error().find("h8"), std::string::npos) << bad_char.error();
  auto empty_centre = Othello::deserialize(position({"d5"}, {"d4", "e5"}, 'X'));
  ASSERT_FALSE(empty_centre);
  EXPECT_NE(empty_centre.error().find("e4"), std::string::npos) << empty_centre.error();
  auto bad_side = Othello::deserialize(position({"d5", "e4"}, {"d4", "e5"}, 'W'));
  ASSERT_FALSE(bad_side);
  EXPECT_NE(bad_side.error().find("side to move"), std::string::npos) << bad_side.error();
}

TEST(Othello, ParseMoveRejectsIllegalSquaresAndPassWhenMovesExist) {
  const Othello game = *Othello::create({});
  EXPECT_FALSE(game.parse_move("a1"));
  EXPECT_FALSE(game.parse_move("pass"));
  EXPECT_FALSE(game.parse_move("i9"));
  EXPECT_TRUE(game.parse_move("F5"));
}

TEST(Othello, OpeningNamesTheFirstIllegalMove) {
  auto ok = Othello::from_opening("f5 d6 c3");
  ASSERT_TRUE(ok) << ok.error();
  EXPECT_EQ(ok->side_to_move(), Player::kSecond);
  auto bad = Othello::from_opening("f5f6a1");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("move 3 'a1'"), std::string::npos) << bad.error();
}

TEST(Othello, EveryXotOpeningIsLegal) {
  std::ifstream in(std::string(ARENA_TEST_DATA_DIR) + "/xot_small.txt");
  ASSERT_TRUE(in) << "cannot read xot_small.txt";
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    ++lines;
    ASSERT_EQ(line.size(), 16u) << line;
    auto game = Othello::from_opening(line);
    ASSERT_TRUE(game) << game.error();
    EXPECT_EQ(game->disc_count(Player::kFirst) + game->disc_count(Player::kSecond), 12) << line;
    EXPECT_EQ(game->side_to_move(), Player::kFirst) << line;
  }
  EXPECT_EQ(lines, 3623);  // the count the file's header gives
}

}  // namespace
}  // namespace arena::othello

namespace arena::test {
INSTANTIATE_TYPED_TEST_SUITE_P(Othello, Conformance, ::testing::Types<othello::Othello>);
}  // namespace arena::test
