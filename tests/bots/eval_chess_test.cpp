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

TEST(ChessHeuristics, ListsTheFiveHeuristics) {
  const auto infos = heuristics_for(std::type_identity<Chess>{});
  ASSERT_EQ(infos.size(), 5u);
  EXPECT_EQ(infos[0].name, "material");
  EXPECT_EQ(infos[3].name, "combined");
  EXPECT_EQ(infos[4].name, "tapered");
}

TEST(ChessHeuristics, TheStartPositionIsLevel) {
  const Chess start = *Chess::create({});
  for (const char* name : {"material", "piece_square", "mobility", "combined", "tapered"}) {
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
    for (const char* name : {"material", "piece_square", "mobility", "combined", "tapered"}) {
      EXPECT_EQ(heuristic(name)(g), heuristic(name)(twin)) << name << " at " << g.serialize();
    }
    EXPECT_EQ(tactical_estimate(g), tactical_estimate(twin)) << g.serialize();
    Chess::MoveList list;
    g.generate_moves(list);
    g.make_move(list[splitmix64(rng) % list.size()]);
  }
}

// ---- tapered (the chess_strong preset's evaluation) ---------------------------------------

// The tapered eval with some weights changed.
int tapered(const std::string& fen, const GameOptions& params = {}) {
  return heuristic("tapered", params)(load(fen));
}

TEST(ChessTapered, IsColourSymmetricAlongRandomGames) {
  // A position and its colour-flipped mirror score the same for the side to move, so from
  // White's side one is minus the other.
  for (const char* fen : {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                          "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
                          "8/5pk1/6p1/3P4/1p6/5KP1/8/8 w - - 0 40"}) {
    std::uint64_t rng = 11;
    Chess g = load(fen);
    for (int ply = 0; ply < 40 && !g.outcome().is_terminal(); ++ply) {
      const Chess twin = load(mirror(g.serialize()));
      const auto h = heuristic("tapered");
      EXPECT_EQ(h(g), h(twin)) << g.serialize();
      const int white_view = g.side_to_move() == Player::kFirst ? h(g) : -h(g);
      const int twin_white_view = twin.side_to_move() == Player::kFirst ? h(twin) : -h(twin);
      EXPECT_EQ(white_view, -twin_white_view) << g.serialize();
      Chess::MoveList list;
      g.generate_moves(list);
      g.make_move(list[splitmix64(rng) % list.size()]);
    }
  }
}

TEST(ChessTapered, NoTempo_TheSameBoardWithTheOtherSideToMoveIsTheNegative) {
  const std::string board = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R";
  EXPECT_EQ(tapered(board + " w KQ - 0 8"), -tapered(board + " b KQ - 0 8"));
}

TEST(ChessTapered, APassedPawnScoresAboveABlockedOne) {
  // White e5 passed (Black's pawn on a7) against e5 blocked by a pawn on e6: same material.
  // At the hand-set passed weights (the fitted passed_king 18.5 makes the kings' distances,
  // White's e1 far from e6, outweigh the pawn here).
  const GameOptions hand = {{"passed_eg", "1"}, {"passed_king", "5"}};
  const int passed = tapered("4k3/p7/8/4P3/8/8/8/4K3 w - - 0 1", hand);
  const int blocked = tapered("4k3/8/4p3/4P3/8/8/8/4K3 w - - 0 1", hand);
  EXPECT_GT(passed, blocked + 20);
  // The passed terms alone (phase 0, the endgame score), at passed_eg 1 and passed_king 5:
  // e5 on rank 5 is worth 45, Black's a7 10, and the kings are 2 (e8) and 5 (e1) squares from
  // the stop square e6: 5 x (2 - 5).
  EXPECT_EQ(passed - tapered("4k3/p7/8/4P3/8/8/8/4K3 w - - 0 1",
                             {{"passed_eg", "0"}, {"passed_king", "0"}}),
            45 - 10 - 15);
  // Further advanced is worth more; a piece on the stop square halves the endgame bonus.
  EXPECT_GT(tapered("4k3/p3P3/8/8/8/8/8/4K3 b - - 0 1"), -100000);
  EXPECT_GT(tapered("4k3/p7/4P3/8/8/8/8/4K3 w - - 0 1", hand), passed);
  EXPECT_GT(tapered("7k/p7/8/4P3/8/8/8/4K3 w - - 0 1"),
            tapered("7k/p7/4n3/4P3/8/8/8/4K3 w - - 0 1") - 330);
}

TEST(ChessTapered, DoubledAndIsolatedPawnsCostTheirEndgameWeights) {
  // Pawns and kings only: phase 0, the endgame score alone. Two pawns on the a-file: one
  // doubled pawn, two isolated pawns.
  const std::string fen = "4k3/8/8/8/8/P7/P7/4K3 w - - 0 1";
  EXPECT_EQ(tapered(fen, {{"doubled_eg", "20"}}) - tapered(fen, {{"doubled_eg", "0"}}), -20);
  EXPECT_EQ(tapered(fen, {{"isolated_eg", "15"}}) - tapered(fen, {{"isolated_eg", "0"}}), -2 * 15);
}

TEST(ChessTapered, TheBishopPairIsWorthItsBlendedWeight) {
  // Two bishops: phase 2, so (2 x 30 + 22 x 50) / 24 = 48.
  const std::string fen = "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1";
  EXPECT_NEAR(tapered(fen, {{"bishop_pair_mg", "30"}, {"bishop_pair_eg", "50"}}) -
                  tapered(fen, {{"bishop_pair_mg", "0"}, {"bishop_pair_eg", "0"}}),
              48, 1);
}

TEST(ChessTapered, AShieldedKingScoresAboveAnExposedOne) {
  // White's king behind f2 g2 h2, Black's with its pawns on the queen's side: switching the
  // shield terms off changes nothing where both kings are alike, and costs White where only
  // White's king is shielded.
  const std::string fen = "r2q1rk1/pp3ppp/8/8/8/8/PP3PPP/R2Q1RK1 w - - 0 1";
  const GameOptions no_shield = {{"shield", "0"}, {"king_open_file", "0"}};
  EXPECT_EQ(tapered(fen) - tapered(fen, no_shield), 0);  // both shielded alike
  EXPECT_GT(tapered("r2q1rk1/ppp5/8/8/8/8/PP3PPP/R2Q1RK1 w - - 0 1") -
                tapered("r2q1rk1/ppp5/8/8/8/8/PP3PPP/R2Q1RK1 w - - 0 1", no_shield),
            20);
}

TEST(ChessTapered, PiecesAttackingTheKingScore) {
  // White's queen and rook bear on Black's king; with king_attack=0 that is worth less.
  const std::string fen = "6k1/4Rppp/8/6Q1/8/8/5PPP/6K1 w - - 0 1";
  EXPECT_EQ(tapered("4k3/8/8/8/8/8/8/4K3 w - - 0 1", {{"king_attack", "0"}}), 0);
  EXPECT_GT(tapered(fen), tapered(fen, {{"king_attack", "0"}}));
}

TEST(ChessTapered, APieceAttackedByAPawnCostsThePawnThreatWeights) {
  // White's knight on d4 attacked by Black's pawn on e5 (phase 1: (1 x 50 + 23 x 35) / 24
  // = 35.6); nothing attacks Black's pawn, and kings are never counted.
  const std::string fen = "4k3/8/8/4p3/3N4/8/8/4K3 w - - 0 1";
  const GameOptions threat = {{"pawn_threat_mg", "50"}, {"pawn_threat_eg", "35"}};
  const GameOptions none = {{"pawn_threat_mg", "0"}, {"pawn_threat_eg", "0"}};
  EXPECT_NEAR(tapered(fen, none) - tapered(fen, threat), 35.6, 1);
  const std::string king = "4k3/8/8/8/3p4/4K3/8/8 w - - 0 1";  // the king on e3, attacked
  EXPECT_EQ(tapered(king, none), tapered(king, threat));
}

TEST(ChessTapered, AKnightOnAnOutpostEarnsTheOutpostWeights) {
  // d5, defended by the pawn on e4, no black pawn on the c or e file ahead: an outpost; with a
  // black pawn on c7 that can chase it, none.
  const GameOptions outpost = {{"outpost_mg", "30"}, {"outpost_eg", "30"}};
  const std::string fen = "4k3/8/8/3N4/4P3/8/8/4K3 w - - 0 1";
  EXPECT_EQ(tapered(fen, outpost) - tapered(fen), 30);
  const std::string chased = "4k3/2p5/8/3N4/4P3/8/8/4K3 w - - 0 1";
  EXPECT_EQ(tapered(chased, outpost), tapered(chased));
  const std::string undefended = "4k3/8/8/3N4/8/8/8/4K3 w - - 0 1";
  EXPECT_EQ(tapered(undefended, outpost), tapered(undefended));
}

TEST(ChessTapered, AnAttackedUndefendedPieceCostsTheHangingWeights) {
  // The knight on d4 is attacked by the rook on d8; defended by the pawn on e3 it is not
  // hanging.
  const GameOptions hanging = {{"hanging_mg", "40"}, {"hanging_eg", "40"}};
  const std::string fen = "3rk3/8/8/8/3N4/8/8/4K3 w - - 0 1";
  EXPECT_EQ(tapered(fen) - tapered(fen, hanging), 40);
  const std::string defended = "3rk3/8/8/8/3N4/4P3/8/4K3 w - - 0 1";
  EXPECT_EQ(tapered(defended, hanging), tapered(defended));
}

TEST(ChessTapered, ARookAttackedByAMinorPieceCostsTheMinorThreatWeights) {
  // The knight on b7 attacks the rook on a5; nothing of White's attacks a black piece.
  const GameOptions threat = {{"minor_threat_mg", "40"}, {"minor_threat_eg", "40"}};
  const std::string fen = "4k3/1n6/8/R7/8/8/8/4K3 w - - 0 1";
  EXPECT_EQ(tapered(fen) - tapered(fen, threat), 40);
  const std::string away = "4k3/1n6/8/8/R7/8/8/4K3 w - - 0 1";
  EXPECT_EQ(tapered(away, threat), tapered(away));
}

TEST(ChessTapered, TheWeightsFileHoldsTheDefaults) {
  const std::string file = std::string(ARENA_SOURCE_DIR) + "/bots/eval/weights/chess_tapered.txt";
  for (const char* fen : {"r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
                          "8/5pk1/6p1/3P4/1p6/5KP1/8/8 w - - 0 40"})
    EXPECT_EQ(tapered(fen, {{"weights", file}}), tapered(fen)) << fen;
  auto bad = make_heuristic(std::type_identity<Chess>{}, "tapered", {{"pased_eg", "1"}});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("pased_eg"), std::string::npos) << bad.error();
  auto nan = make_heuristic(std::type_identity<Chess>{}, "tapered", {{"passed_eg", "x"}});
  ASSERT_FALSE(nan);
  EXPECT_NE(nan.error().find("passed_eg"), std::string::npos) << nan.error();
}

TEST(ChessTapered, MaterialDominatesAndPhaseBlends) {
  // A knight up is about a knight; a queen's worth of pieces moves the phase.
  EXPECT_NEAR(tapered("4k3/8/8/8/3N4/8/8/4K3 w - - 0 1"), 310, 60);
  const auto terms = chess_tapered_terms(*Chess::create({}), {});
  EXPECT_EQ(terms.phase, 24);
  EXPECT_EQ(chess_tapered_terms(load("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), {}).phase, 0);
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
