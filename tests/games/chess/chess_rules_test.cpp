// FEN validation and the rules that end a game: mate, stalemate, fifty moves, threefold
// repetition, insufficient material.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "games/chess/chess.h"
#include "tests/games/chess/chess_load.h"

namespace arena::chess {
namespace {

using test::load;

void play(Chess& g, const std::string& move) {
  const auto m = g.parse_move(move);
  ASSERT_TRUE(m.has_value()) << "illegal " << move << " at " << g.serialize();
  g.make_move(*m);
}

void expect_fen_error(const std::string& fen, const std::string& words) {
  auto g = Chess::deserialize(fen);
  ASSERT_FALSE(g) << "accepted " << fen;
  EXPECT_NE(g.error().find(words), std::string::npos) << g.error();
}

TEST(ChessFen, RejectsAWrongFieldCount) {
  expect_fen_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", "has 5 fields");
}

TEST(ChessFen, RejectsABadPieceLetter) {
  expect_fen_error("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                   "bad piece letter 'x'");
}

TEST(ChessFen, RejectsARankNotSummingToEight) {
  expect_fen_error("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                   "rank 7 has 7 squares");
  expect_fen_error("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "'9'");
  expect_fen_error("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "7 ranks");
}

TEST(ChessFen, RejectsAMissingOrExtraKing) {
  expect_fen_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", "white has 0 kings");
  expect_fen_error("rnbqkbnr/pppppppp/8/8/8/3k4/PPPPPPPP/RNBQKBNR w KQ - 0 1", "black has 2 kings");
}

TEST(ChessFen, RejectsTheSideNotToMoveInCheck) {
  expect_fen_error("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", "side not to move (black) is in check");
}

TEST(ChessFen, RejectsBadCastlingFields) {
  expect_fen_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1",
                   "bad castling field 'KQkx'");
  expect_fen_error("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "castling right 'K'");
}

TEST(ChessFen, RejectsBadEnPassantFields) {
  expect_fen_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1",
                   "bad en passant field 'e4'");
  expect_fen_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
                   "does not follow a two-square pawn move");
}

TEST(ChessFen, RejectsPawnsOnTheBackRank) {
  expect_fen_error("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "first or last rank");
}

TEST(ChessFen, RejectsBadSideAndClocks) {
  expect_fen_error("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move");
  expect_fen_error("4k3/8/8/8/8/8/8/4K3 w - - -1 1", "halfmove clock '-1'");
  expect_fen_error("4k3/8/8/8/8/8/8/4K3 w - - 0 0", "fullmove number '0'");
}

TEST(ChessFen, PrintsTheFullmoveNumberCappedWhereTheReaderStopsSoEveryPositionReadsBack) {
  expect_fen_error("4k3/8/8/8/8/8/8/4K3 w - - 0 1000001", "fullmove number '1000001'");
  Chess g = load("4k3/8/8/8/8/8/8/4K3 b - - 0 1000000");
  play(g, "e8d8");
  EXPECT_EQ(g.fullmove_number(), 1'000'001);
  EXPECT_EQ(g.serialize(), "3k4/8/8/8/8/8/8/4K3 w - - 1 1000000");
  EXPECT_EQ(load(g.serialize()).serialize(), g.serialize());
  EXPECT_EQ(load(g.serialize()).hash(), g.hash());
}

TEST(ChessFen, ReadsFourFieldEpdWithDefaultClocks) {
  EXPECT_EQ(load("4k3/8/8/8/8/8/8/4K3 b - -").serialize(), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
}

TEST(ChessFen, KeepsTheEnPassantSquareOnlyWhenACaptureIsPossible) {
  Chess g = *Chess::create({});
  play(g, "e2e4");
  EXPECT_EQ(g.serialize(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  Chess h = load("rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 3");
  play(h, "e2e4");
  EXPECT_EQ(h.serialize(), "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3");
  EXPECT_EQ(h.hash(), load(h.serialize()).hash());
}

TEST(ChessFen, DropsTheEnPassantSquareWhenTheCaptureWouldExposeTheKing) {
  // bxc6 e.p. would empty the fifth rank between the rook on h5 and the king on a5.
  Chess g = load("8/2p5/8/KP5r/8/8/8/7k b - - 0 1");
  play(g, "c5");
  EXPECT_EQ(g.serialize(), "8/8/8/KPp4r/8/8/8/7k w - - 0 2");
  EXPECT_EQ(load("8/8/8/KPp4r/8/8/8/7k w - c6 0 2").serialize(), g.serialize());
  EXPECT_EQ(load("8/8/8/KPp4r/8/8/8/7k w - c6 0 2").hash(), g.hash());
  // Without the rook the capture is legal and the square stays.
  EXPECT_EQ(load("8/8/8/KPp5/8/8/8/7k w - c6 0 2").serialize(), "8/8/8/KPp5/8/8/8/7k w - c6 0 2");
}

TEST(ChessMoves, CaptureScoreOrdersByVictimThenCheapestAttacker) {
  // White: pawn d4 and queen h5 can both take the knight e5; the queen can take pawn h7.
  const Chess g = load("k7/7p/8/4n2Q/3P4/8/8/4K3 w - - 0 1");
  auto score = [&](const char* uci) {
    const auto m = g.parse_move(uci);
    return m ? g.capture_score(*m) : -1;
  };
  EXPECT_GT(score("d4e5"), score("h5e5"));  // same victim, cheaper attacker first
  EXPECT_GT(score("h5e5"), score("h5h7"));  // more valuable victim first
  EXPECT_GT(score("h5h7"), 0);
  EXPECT_EQ(score("h5g5"), 0);  // quiet
  const Chess promo = load("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
  const auto queen = promo.parse_move("a7a8q");
  const auto knight = promo.parse_move("a7a8n");
  ASSERT_TRUE(queen && knight);
  EXPECT_GT(promo.capture_score(*knight), 0);
  EXPECT_GT(promo.capture_score(*queen), promo.capture_score(*knight));
}

TEST(ChessRules, FoolsMateIsAWinForBlackByCheckmate) {
  Chess g = *Chess::create({});
  for (const char* m : {"f3", "e5", "g4", "Qh4"}) play(g, m);
  EXPECT_TRUE(g.in_check());
  EXPECT_EQ(g.outcome(), Outcome::win_for(Player::kSecond, EndReason::kCheckmate));
}

TEST(ChessRules, StalemateIsADraw) {
  Chess g = load("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
  EXPECT_FALSE(g.in_check());
  EXPECT_EQ(g.outcome(), Outcome::draw(EndReason::kStalemate));
}

TEST(ChessRules, FiftyMoveRuleEndsTheGameAtOneHundredHalfMoves) {
  Chess g = load("4k3/8/8/8/8/8/8/R3K3 w - - 98 80");
  play(g, "Ra2");
  EXPECT_EQ(g.outcome(), Outcome::ongoing());
  play(g, "Kd7");
  EXPECT_EQ(g.halfmove_clock(), 100);
  EXPECT_EQ(g.outcome(), Outcome::draw(EndReason::kFiftyMoveRule));
}

TEST(ChessRules, CheckmateOnTheHundredthHalfMoveStandsOverTheFiftyMoveRule) {
  Chess g = load("k7/8/1K6/8/8/8/8/7R w - - 99 80");
  play(g, "Rh8");
  EXPECT_EQ(g.outcome(), Outcome::win_for(Player::kFirst, EndReason::kCheckmate));
}

TEST(ChessRules, ACaptureOrPawnMoveResetsTheFiftyMoveCount) {
  Chess g = load("4k3/8/8/8/8/8/4P3/R3K3 w - - 99 80");
  play(g, "e4");
  EXPECT_EQ(g.halfmove_clock(), 0);
  EXPECT_EQ(g.outcome(), Outcome::ongoing());
}

TEST(ChessRules, ThreefoldRepetitionIsADraw) {
  Chess g = *Chess::create({});
  const char* shuffle[] = {"Nf3", "Nf6", "Ng1", "Ng8"};
  for (const char* m : shuffle) play(g, m);
  EXPECT_EQ(g.repetitions(), 1);
  EXPECT_EQ(g.outcome(), Outcome::ongoing());
  for (int i = 0; i < 3; ++i) play(g, shuffle[i]);
  EXPECT_EQ(g.outcome(), Outcome::ongoing());
  const auto last = g.parse_move(shuffle[3]);
  ASSERT_TRUE(last.has_value());
  g.make_move(*last);
  EXPECT_EQ(g.repetitions(), 2);
  EXPECT_EQ(g.outcome(), Outcome::draw(EndReason::kThreefoldRepetition));
  g.unmake_move(*last);  // taking the move back undoes the draw
  EXPECT_EQ(g.outcome(), Outcome::ongoing());
}

TEST(ChessRules, RepetitionHistoryIsNotInTheFen) {
  Chess g = *Chess::create({});
  for (const char* m : {"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"}) play(g, m);
  ASSERT_TRUE(g.outcome().is_terminal());
  EXPECT_EQ(load(g.serialize()).outcome(), Outcome::ongoing());
}

TEST(ChessRules, InsufficientMaterialIsADraw) {
  const Outcome draw = Outcome::draw(EndReason::kInsufficientMaterial);
  EXPECT_EQ(load("8/8/4k3/8/8/4K3/8/8 w - - 0 1").outcome(), draw);      // K v K
  EXPECT_EQ(load("8/8/4k3/8/8/4K3/8/6N1 w - - 0 1").outcome(), draw);    // K+N v K
  EXPECT_EQ(load("8/8/4k3/8/8/4K3/8/2b5 w - - 0 1").outcome(), draw);    // K v K+B
  EXPECT_EQ(load("5b2/8/4k3/8/8/4K3/8/2B5 w - - 0 1").outcome(), draw);  // same colours
}

TEST(ChessRules, MatingMaterialKeepsTheGameGoing) {
  EXPECT_EQ(load("2b5/8/4k3/8/8/4K3/8/2B5 w - - 0 1").outcome(), Outcome::ongoing());
  EXPECT_EQ(load("8/8/4k3/8/8/4K3/8/1N4N1 w - - 0 1").outcome(), Outcome::ongoing());
  EXPECT_EQ(load("8/8/4k3/8/8/4K3/4P3/8 w - - 0 1").outcome(), Outcome::ongoing());
  EXPECT_EQ(load("8/8/4k3/8/8/4K3/8/1N3b2 w - - 0 1").outcome(), Outcome::ongoing());
}

// drawn_by_rule() is outcome()'s draws by rule without its move generation: outcome() is
// terminal exactly when drawn_by_rule() is true or no move is legal.
bool terminal_by_parts(const Chess& g) {
  Chess::MoveList list;
  g.generate_moves(list);
  return g.drawn_by_rule() || list.empty();
}

TEST(ChessRules, DrawnByRuleIsTheOutcomeWithoutMateAndStalemate) {
  EXPECT_FALSE(load("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").drawn_by_rule());  // stalemate
  EXPECT_TRUE(load("8/8/4k3/8/8/4K3/8/6N1 w - - 0 1").drawn_by_rule());   // K+N v K
  EXPECT_TRUE(load("4k3/8/8/8/8/8/8/R3K3 b - - 100 80").drawn_by_rule());  // fifty moves
  Chess mate = load("k7/8/1K6/8/8/8/8/7R w - - 99 80");
  play(mate, "Rh8");  // mate on the hundredth half-move: not a draw
  EXPECT_FALSE(mate.drawn_by_rule());
  EXPECT_TRUE(mate.outcome().is_terminal());
  Chess check = load("k7/8/8/1K6/8/8/8/7R w - - 99 80");
  play(check, "Rh8");  // check on the hundredth half-move with a way out: the fifty-move draw
  EXPECT_TRUE(check.drawn_by_rule());
  Chess g = *Chess::create({});
  for (const char* m : {"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"}) play(g, m);
  EXPECT_FALSE(g.drawn_by_rule());
  play(g, "Ng8");  // threefold
  EXPECT_TRUE(g.drawn_by_rule());
  // Along random games (mates, stalemates and draws included) the two agree.
  std::uint64_t rng = 5;
  for (int game = 0; game < 200; ++game) {
    Chess r = game % 2 ? load("4k3/8/8/8/8/8/8/R3K3 w - - 90 80") : *Chess::create({});
    for (int ply = 0; ply < 300; ++ply) {
      ASSERT_EQ(terminal_by_parts(r), r.outcome().is_terminal()) << r.serialize();
      if (r.outcome().is_terminal()) break;
      Chess::MoveList list;
      r.generate_moves(list);
      rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
      r.make_move(list[(rng >> 33) % list.size()]);
    }
  }
}

TEST(ChessRules, CreateRejectsUnknownOptionsByName) {
  auto g = Chess::create({{"variant", "960"}});
  ASSERT_FALSE(g);
  EXPECT_NE(g.error().find("variant"), std::string::npos);
}

TEST(ChessNullMove, PassesAndUnmakeRestoresThePositionAndHash) {
  // An en-passant capture is legal in the second (exf6), so the pass also drops the e.p. square.
  for (const std::string& fen :
       {std::string(Chess::kStartFen),
        std::string("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"),
        std::string("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 7 12")}) {
    Chess g = load(fen);
    const std::uint64_t hash = g.hash();
    const std::string before = g.serialize();
    ASSERT_TRUE(g.null_move_allowed()) << fen;
    g.make_null_move();
    EXPECT_NE(g.side_to_move(), load(fen).side_to_move());
    EXPECT_EQ(g.en_passant_square(), kNoSquare);
    // The hash after the pass is the hash of the same placement with the other side to move.
    EXPECT_EQ(g.hash(), load(g.serialize()).hash()) << g.serialize();
    Chess::MoveList list;
    g.generate_moves(list);
    EXPECT_FALSE(list.empty());
    g.unmake_null_move();
    EXPECT_EQ(g.hash(), hash) << fen;
    EXPECT_EQ(g.serialize(), before);
  }
}

TEST(ChessNullMove, NotAllowedInCheckOrWithOnlyPawns) {
  EXPECT_FALSE(load("4k3/8/8/8/8/8/4r3/R3K3 w - - 0 1").null_move_allowed());       // in check
  EXPECT_FALSE(load("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1").null_move_allowed());  // pawns only
  EXPECT_TRUE(load("4k3/pppp4/8/8/8/8/PPPP4/4K1N1 w - - 0 1").null_move_allowed());
}

}  // namespace
}  // namespace arena::chess
