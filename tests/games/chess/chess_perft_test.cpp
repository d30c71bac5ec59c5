// Perft against published figures (tests/data/chess_perft_cpw.txt, chess_perftsuite.epd),
// with a checked perft that verifies invariants at every node on the way.
//
// Depth per position is chosen by a node budget so the whole file runs in seconds under
// ASan: for each position, the largest listed depth whose published count is at most the
// budget (kCpwBudget for the six wiki positions, kSuiteBudget for the 126-position suite,
// kCheckedBudget for the slower checked perft). A position with no listed count under the
// budget is run at its smallest listed depth (the suite's last line: D5 only, 11M leaves).

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "games/chess/attacks.h"
#include "games/chess/chess.h"
#include "games/core/perft.h"
#include "games/core/zobrist.h"

namespace arena::chess {
namespace {

constexpr std::uint64_t kCpwBudget = 5'000'000;
constexpr std::uint64_t kSuiteBudget = 1'000'000;
constexpr std::uint64_t kCheckedBudget = 200'000;

struct PerftCase {
  std::string name;
  std::string fen;
  std::vector<std::pair<int, std::uint64_t>> counts;  // (depth, leaves)
};

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  const auto e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// "name | FEN | 1:20 2:400 ..."
std::vector<PerftCase> load_cpw() {
  std::ifstream in(std::string(ARENA_TEST_DATA_DIR) + "/chess_perft_cpw.txt");
  std::vector<PerftCase> cases;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto bar1 = line.find('|');
    const auto bar2 = line.find('|', bar1 + 1);
    PerftCase c{trim(line.substr(0, bar1)), trim(line.substr(bar1 + 1, bar2 - bar1 - 1)), {}};
    std::istringstream counts(line.substr(bar2 + 1));
    std::string item;
    while (counts >> item) {
      const auto colon = item.find(':');
      c.counts.emplace_back(std::stoi(item.substr(0, colon)), std::stoull(item.substr(colon + 1)));
    }
    cases.push_back(c);
  }
  return cases;
}

// "FEN ;D1 20 ;D2 400 ..."
std::vector<PerftCase> load_suite() {
  std::ifstream in(std::string(ARENA_TEST_DATA_DIR) + "/chess_perftsuite.epd");
  std::vector<PerftCase> cases;
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream parts(line);
    std::string field;
    std::getline(parts, field, ';');
    PerftCase c{"suite line " + std::to_string(++line_no), trim(field), {}};
    while (std::getline(parts, field, ';')) {
      std::istringstream d(field);
      std::string tag;
      std::uint64_t nodes = 0;
      d >> tag >> nodes;
      c.counts.emplace_back(std::stoi(tag.substr(1)), nodes);
    }
    cases.push_back(c);
  }
  return cases;
}

std::pair<int, std::uint64_t> pick_depth(const PerftCase& c, std::uint64_t budget) {
  std::pair<int, std::uint64_t> best{0, 1};
  for (const auto& dc : c.counts) {
    if (dc.second <= budget && dc.first > best.first) best = dc;
  }
  if (best.first == 0 && !c.counts.empty()) {
    best = c.counts.front();
    for (const auto& dc : c.counts) {
      if (dc.first < best.first) best = dc;
    }
  }
  return best;
}

// Perft without bulk counting that checks, for every move: gives_check agrees with in_check
// after the move, unmake restores the hash and the FEN, and the noisy moves are exactly the
// captures and promotions among the legal moves.
std::uint64_t checked_perft(Chess& game, int depth, int& failures) {
  if (depth == 0) return 1;
  Chess::MoveList list;
  game.generate_moves(list);
  Chess::MoveList noisy;
  game.generate_noisy_moves(noisy);
  std::size_t expected_noisy = 0;
  for (const Move m : list) {
    if (game.is_capture(m) || m.kind() == Move::Kind::kPromotion) ++expected_noisy;
  }
  if (noisy.size() != expected_noisy && failures++ < 5) {
    ADD_FAILURE() << "noisy moves " << noisy.size() << " != " << expected_noisy << " at "
                  << game.serialize();
  }
  std::uint64_t nodes = 0;
  for (const Move m : list) {
    const std::uint64_t hash = game.hash();
    const bool gives = game.gives_check(m);
    game.make_move(m);
    if (game.in_check() != gives && failures++ < 5) {
      ADD_FAILURE() << "gives_check(" << game.move_to_string(m) << ") = " << gives
                    << " but in_check() after it is " << game.in_check();
    }
    nodes += checked_perft(game, depth - 1, failures);
    game.unmake_move(m);
    if (game.hash() != hash && failures++ < 5) {
      ADD_FAILURE() << "hash not restored after " << game.move_to_string(m) << " at "
                    << game.serialize();
    }
  }
  return nodes;
}

TEST(ChessPerft, DataFilesParse) {
  EXPECT_EQ(load_cpw().size(), 7u);
  EXPECT_EQ(load_suite().size(), 128u);  // 126 classic lines + 2 Ethereal additions
}

TEST(ChessPerft, SixWikiPositionsMatchPublishedCounts) {
  for (const auto& c : load_cpw()) {
    auto game = Chess::deserialize(c.fen);
    ASSERT_TRUE(game) << game.error();
    const auto [depth, expected] = pick_depth(c, kCpwBudget);
    EXPECT_EQ(perft(*game, depth), expected) << c.name << " depth " << depth;
  }
}

TEST(ChessPerft, CheckedPerftKeepsInvariantsOnWikiPositions) {
  for (const auto& c : load_cpw()) {
    auto game = Chess::deserialize(c.fen);
    ASSERT_TRUE(game) << game.error();
    const auto [depth, expected] = pick_depth(c, kCheckedBudget);
    int failures = 0;
    EXPECT_EQ(checked_perft(*game, depth, failures), expected) << c.name << " depth " << depth;
    EXPECT_EQ(game->serialize(), Chess::deserialize(c.fen)->serialize());
  }
}

TEST(ChessPerft, SuiteMatchesPublishedCounts) {
  for (const auto& c : load_suite()) {
    auto game = Chess::deserialize(c.fen);
    ASSERT_TRUE(game) << c.name << ": " << game.error();
    const auto [depth, expected] = pick_depth(c, kSuiteBudget);
    ASSERT_GE(depth, 1) << c.name;
    EXPECT_EQ(perft(*game, depth), expected) << c.name << " " << c.fen << " depth " << depth;
  }
}

TEST(ChessAttacks, MagicLookupsAgreeWithRayWalks) {
  std::uint64_t rng = 7;
  for (int i = 0; i < 2000; ++i) {
    const Bitboard occ = splitmix64(rng) & splitmix64(rng);
    const Square s = static_cast<Square>(splitmix64(rng) % 64);
    ASSERT_EQ(rook_attacks(s, occ), sliding_attacks_slow(true, s, occ));
    ASSERT_EQ(bishop_attacks(s, occ), sliding_attacks_slow(false, s, occ));
  }
}

}  // namespace
}  // namespace arena::chess
