// Move text: UCI and SAN in and out, disambiguation, check and mate marks, and a SAN round
// trip over every legal move of many random positions.

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "games/chess/chess.h"
#include "games/core/zobrist.h"
#include "tests/games/chess/chess_load.h"

namespace arena::chess {
namespace {

using test::load;

std::string uci_of_san(const std::string& fen, const std::string& san) {
  const Chess g = load(fen);
  const auto m = g.parse_move(san);
  return m ? g.move_to_string(*m) : "none";
}

std::string san_of_uci(const std::string& fen, const std::string& uci) {
  const Chess g = load(fen);
  const auto m = g.parse_move(uci);
  return m ? g.to_san(*m) : "none";
}

TEST(ChessSan, WritesPawnPieceAndCaptureMoves) {
  const std::string start(Chess::kStartFen);
  EXPECT_EQ(san_of_uci(start, "e2e4"), "e4");
  EXPECT_EQ(san_of_uci(start, "g1f3"), "Nf3");
  EXPECT_EQ(san_of_uci("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "e4d5"),
            "exd5");
}

TEST(ChessSan, DisambiguatesByFileThenRankThenBoth) {
  EXPECT_EQ(san_of_uci("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "b1d2"), "Nbd2");
  EXPECT_EQ(san_of_uci("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3"), "R1a3");
  EXPECT_EQ(san_of_uci("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "a1b2"), "Qa1b2");
}

TEST(ChessSan, MarksCheckAndMate) {
  EXPECT_EQ(san_of_uci("2k5/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q"), "e8=Q+");
  EXPECT_EQ(san_of_uci("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "d8h4"),
            "Qh4#");
}

TEST(ChessSan, WritesCastlingAndEnPassant) {
  EXPECT_EQ(san_of_uci("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1"), "O-O");
  EXPECT_EQ(san_of_uci("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1"), "O-O-O");
  EXPECT_EQ(san_of_uci("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), "exd6");
}

TEST(ChessSan, ReadsSanWithOrWithoutMarks) {
  const std::string promo = "2k5/4P3/8/8/8/8/8/4K3 w - - 0 1";
  for (const char* text : {"e8=Q+", "e8=Q", "e8Q", "e7e8q"}) {
    EXPECT_EQ(uci_of_san(promo, text), "e7e8q") << text;
  }
  EXPECT_EQ(uci_of_san(promo, "e8=N"), "e7e8n");
  EXPECT_EQ(uci_of_san("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0-0"), "e1c1");
  EXPECT_EQ(uci_of_san("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O+"), "e1g1");
  EXPECT_EQ(uci_of_san(std::string(Chess::kStartFen), "Ngf3"), "g1f3");  // extra detail is fine
}

TEST(ChessSan, RejectsAmbiguousIllegalAndMalformedText) {
  const std::string two_knights = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1";
  EXPECT_EQ(uci_of_san(two_knights, "Nd2"), "none");  // ambiguous
  EXPECT_EQ(uci_of_san(two_knights, "Nd4"), "none");  // illegal
  for (const char* bad : {"", "Z", "e9", "Nxx", "e8=K", "O-O-O-O", "i3"}) {
    EXPECT_EQ(uci_of_san(std::string(Chess::kStartFen), bad), "none") << bad;
  }
  EXPECT_EQ(uci_of_san("2k5/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8"), "none");  // promotion missing
}

// Every legal move of every position along random games: SAN parses back to the same move,
// is unique among the moves, and carries '+' exactly when the move checks ('#' when it mates).
TEST(ChessSan, RoundTripsEveryLegalMoveOfRandomPositions) {
  std::uint64_t rng = 42;
  int checked = 0;
  for (const char* fen : {Chess::kStartFen.data(),
                          "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                          "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
                          "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"}) {
    for (int game_no = 0; game_no < 8; ++game_no) {
      Chess g = load(fen);
      for (int ply = 0; ply < 120 && !g.outcome().is_terminal(); ++ply) {
        Chess::MoveList list;
        g.generate_moves(list);
        std::set<std::string> seen;
        for (const Move m : list) {
          const std::string san = g.to_san(m);
          const auto back = g.parse_san(san);
          ASSERT_TRUE(back.has_value()) << san << " at " << g.serialize();
          ASSERT_EQ(*back, m) << san << " at " << g.serialize();
          ASSERT_TRUE(seen.insert(san).second) << "duplicate " << san;
          const char last = san.back();
          ASSERT_EQ(last == '+' || last == '#', g.gives_check(m)) << san;
          ++checked;
        }
        g.make_move(list[splitmix64(rng) % list.size()]);
      }
    }
  }
  EXPECT_GT(checked, 10000);
}

// The best moves of the WAC and Bratko-Kopec suites are published SAN: each must name exactly
// one legal move of its position, and print back the same (check marks aside).
TEST(ChessSan, ReadsEveryBestMoveOfTheWacAndBratkoKopecSuites) {
  int moves = 0;
  for (const char* file : {"/wac.epd", "/bratko_kopec.epd"}) {
    std::ifstream in(std::string(ARENA_TEST_DATA_DIR) + file);
    ASSERT_TRUE(in) << file;
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      std::istringstream fields(line);
      std::string placement, side, castling, ep;
      fields >> placement >> side >> castling >> ep;
      const Chess g = load(placement + " " + side + " " + castling + " " + ep);
      const auto bm = line.find(" bm ");
      ASSERT_NE(bm, std::string::npos) << line;
      std::istringstream best(line.substr(bm + 4, line.find(';', bm) - bm - 4));
      std::string san;
      while (best >> san) {
        const auto m = g.parse_san(san);
        ASSERT_TRUE(m.has_value()) << san << " in " << line;
        std::string printed = g.to_san(*m);
        std::string given = san;
        for (std::string* s : {&printed, &given}) {
          while (!s->empty() && (s->back() == '+' || s->back() == '#')) s->pop_back();
        }
        EXPECT_EQ(printed, given) << line;
        ++moves;
      }
    }
  }
  EXPECT_EQ(moves, 351);  // 324 positions; some list two or three best moves
}

TEST(ChessUci, WritesAndReadsUci) {
  const Chess g = *Chess::create({});
  const auto m = g.parse_move("g1f3");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(g.move_to_string(*m), "g1f3");
  EXPECT_FALSE(g.parse_move("e2e5").has_value());
  EXPECT_FALSE(g.parse_move("e7e5").has_value());
}

}  // namespace
}  // namespace arena::chess
