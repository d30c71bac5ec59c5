// Chess heuristics: values on positions worked out by hand, colour symmetry (a position and
// its colour-mirrored twin score the same for the side to move), parameters and weights files.

#include <gtest/gtest.h>

#include <cctype>
#include <string>

#include "bots/eval/chess.h"
#include "games/core/zobrist.h"

namespace arena::eval {
namespace {

using chess::Chess;

Chess load(const std::string& fen) {
  auto g = Chess::deserialize(fen);
  EXPECT_TRUE(g) << fen << ": " << g.error();
  return g ? *g : *Chess::create({});
}

Heuristic<Chess> heuristic(std::string_view name, const GameOptions& params = {}) {
  auto h = make_heuristic(std::type_identity<Chess>{}, name, params);
  EXPECT_TRUE(h) << h.error();
  return h ? *h : Heuristic<Chess>([](const Chess&) { return 0; });
}

// The same position with colours swapped and the board flipped top to bottom.
std::string mirror(const std::string& fen) {
  std::string placement = fen.substr(0, fen.find(' '));
  std::string rest = fen.substr(fen.find(' ') + 1);
  std::vector<std::string> ranks;
  for (std::size_t start = 0;;) {
    const auto slash = placement.find('/', start);
    ranks.push_back(placement.substr(start, slash - start));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  std::string out;
  for (auto it = ranks.rbegin(); it != ranks.rend(); ++it) {
    for (char ch : *it) {
      out += std::isupper(static_cast<unsigned char>(ch)) ? static_cast<char>(std::tolower(ch))
                                                          : static_cast<char>(std::toupper(ch));
    }
    if (it + 1 != ranks.rend()) out += '/';
  }
  const char side = rest[0] == 'w' ? 'b' : 'w';
  std::string castling = rest.substr(2, rest.find(' ', 2) - 2);
  std::string swapped;
  for (const char ch : std::string("KQkq")) {
    const char want = std::isupper(static_cast<unsigned char>(ch))
                          ? static_cast<char>(std::tolower(ch))
                          : static_cast<char>(std::toupper(ch));
    if (castling.find(want) != std::string::npos) swapped += ch;
  }
  if (swapped.empty()) swapped = "-";
  std::string after = rest.substr(rest.find(' ', 2) + 1);
  if (after[0] != '-') after[1] = after[1] == '3' ? '6' : '3';
  return out + ' ' + side + ' ' + swapped + ' ' + after;
}

TEST(ChessHeuristics, ListsTheFourHeuristics) {
  const auto infos = heuristics_for(std::type_identity<Chess>{});
  ASSERT_EQ(infos.size(), 4u);
  EXPECT_EQ(infos[0].name, "material");
  EXPECT_EQ(infos[3].name, "combined");
}

TEST(ChessHeuristics, TheStartPositionIsLevel) {
  const Chess start = *Chess::create({});
  for (const char* name : {"material", "piece_square", "mobility", "combined"}) {
    EXPECT_EQ(heuristic(name)(start), 0) << name;
  }
  EXPECT_EQ(tactical_estimate(start), 0);
}

TEST(ChessHeuristics, MaterialCountsClassicValuesFromTheSideToMove) {
  // White lacks the queen: -900 for White to move, +900 for Black to move.
  EXPECT_EQ(heuristic("material")(load("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w - - 0 1")),
            -900);
  EXPECT_EQ(heuristic("material")(load("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b - - 0 1")),
            900);
  // Rook and pawn against two knights: 5 + 1 - 6 = 0.
  EXPECT_EQ(heuristic("material")(load("1n2k1n1/8/8/8/8/8/P7/R3K3 w - - 0 1")), 0);
}

TEST(ChessHeuristics, MaterialFeaturesAreCountDifferences) {
  const auto f = chess_material_features(load("1n2k1n1/8/8/8/8/8/P7/R3K3 b - - 0 1"));
  EXPECT_EQ(f, (std::array<double, 5>{0, -1, 0, 2, -1}));
}

TEST(ChessHeuristics, WeightsComeFromParamsOrAFile) {
  const Chess pos = load("1n2k1n1/8/8/8/8/8/P7/R3K3 w - - 0 1");
  EXPECT_EQ(heuristic("material", {{"r", "6"}})(pos), 100);
  EXPECT_EQ(heuristic("material", {{"n", "2.5"}, {"p", "0"}})(pos), 0);
  const std::string file = std::string(ARENA_SOURCE_DIR) + "/bots/eval/weights/chess_classic.txt";
  auto w = load_chess_weights(file);
  ASSERT_TRUE(w) << w.error();
  EXPECT_EQ(w->queen, 9);
  EXPECT_EQ(w->pawn, 1);
  const Chess minus_queen = load("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w - - 0 1");
  EXPECT_EQ(heuristic("material", {{"weights", file}})(minus_queen), -900);
}

TEST(ChessHeuristics, BadParametersAreErrorsThatNameThem) {
  auto unknown = make_heuristic(std::type_identity<Chess>{}, "material", {{"k", "1"}});
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().find("'k'"), std::string::npos) << unknown.error();
  auto not_number = make_heuristic(std::type_identity<Chess>{}, "combined", {{"q", "nine"}});
  ASSERT_FALSE(not_number);
  EXPECT_NE(not_number.error().find("nine"), std::string::npos) << not_number.error();
  auto no_file = make_heuristic(std::type_identity<Chess>{}, "material", {{"weights", "/nope"}});
  ASSERT_FALSE(no_file);
  EXPECT_NE(no_file.error().find("/nope"), std::string::npos) << no_file.error();
  EXPECT_FALSE(make_heuristic(std::type_identity<Chess>{}, "nonesuch", {}));
}

TEST(ChessHeuristics, PieceSquareTablesPreferCentralKnights) {
  // Knight e4 (+20) against knight a8 (-50) on the table; equal material.
  EXPECT_EQ(heuristic("piece_square")(load("n3k3/8/8/8/4N3/8/8/4K3 w - - 0 1")),
            20 - (-50) + 0 /* kings e1 and e8 mirror each other */);
}

TEST(ChessHeuristics, MobilityFavoursTheSideWithOpenLines) {
  // After 1.e4, White's bishop and queen gain moves: Black to move scores below zero.
  const Chess after_e4 = load("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  EXPECT_LT(heuristic("mobility")(after_e4), 0);
  // Knights, pawns and kings only: both sides have 20 moves at the start; here White's
  // knight on d4 has 8 and Black's on a8 has 2.
  EXPECT_EQ(chess_mobility_count(load("n3k3/8/8/8/3N4/8/8/4K3 w - - 0 1")), (8 + 5) - (2 + 5));
}

TEST(ChessHeuristics, EveryHeuristicIsColourSymmetric) {
  std::uint64_t rng = 3;
  Chess g = load("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  for (int ply = 0; ply < 60 && !g.outcome().is_terminal(); ++ply) {
    const Chess twin = load(mirror(g.serialize()));
    for (const char* name : {"material", "piece_square", "mobility", "combined"}) {
      EXPECT_EQ(heuristic(name)(g), heuristic(name)(twin)) << name << " at " << g.serialize();
    }
    EXPECT_EQ(tactical_estimate(g), tactical_estimate(twin)) << g.serialize();
    Chess::MoveList list;
    g.generate_moves(list);
    g.make_move(list[splitmix64(rng) % list.size()]);
  }
}

TEST(ChessTactics, QuietPositionsScoreZero) {
  EXPECT_EQ(tactical_estimate(load("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1")), 0);
}

TEST(ChessTactics, HangingPiecesPromotionsAndChecksRaiseTheEstimate) {
  // White to move: exd5 takes an undefended queen (900); Black threatens Qxe4, an
  // undefended pawn (100, counted half); White has no checking move.
  EXPECT_EQ(tactical_estimate(load("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1")), 900 + 50);
  // Black to move: Qxe4 gains 100; White threatens the queen (900, counted half); Qd1+ checks.
  EXPECT_EQ(tactical_estimate(load("4k3/8/8/3q4/4P3/8/8/4K3 b - - 0 1")), 100 + 450 + 25);
  // A promotion gains 800 (none of the promotions checks the king on a6).
  EXPECT_EQ(tactical_estimate(load("8/3P4/k7/8/8/8/8/4K3 w - - 0 1")), 800);
  // A pawn defended by a pawn, attacked by a queen: no gain for the queen.
  EXPECT_EQ(tactical_estimate(load("k7/pp6/2p5/3p4/8/8/8/3QK3 w - - 0 1")), 0);
}

}  // namespace
}  // namespace arena::eval
