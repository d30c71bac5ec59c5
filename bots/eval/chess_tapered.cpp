// The tapered evaluation of the chess_strong preset (bots/eval/chess_tapered.h): tables and
// weights in integer fixed point, one side's terms at a time, blended by the game phase.
#include "bots/eval/chess_tapered.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "bots/eval/weights_file.h"
#include "games/chess/attacks.h"

namespace arena::eval {

namespace {

using chess::Bitboard;
using chess::Chess;
using chess::PieceType;
using chess::Square;

struct Score {
  int mg = 0, eg = 0;
};

// Piece-square values from the owner's side (relative rank 0 = its back rank), built from a
// few rules rather than typed in: pawns gain as they advance and in the centre, minor pieces
// and the queen gain towards the centre (ring 0 = d4 e4 d5 e5 ... ring 3 = the rim), rooks on
// the seventh, the king hides on its back rank's wings in the middlegame and walks to the
// centre in the endgame.
using ScoreTable = std::array<Score, 64>;

int ring_of(int file, int rank) {
  return std::max(std::abs(2 * file - 7), std::abs(2 * rank - 7)) / 2;
}

std::array<ScoreTable, 6> make_tapered_tables() {
  std::array<ScoreTable, 6> t{};
  constexpr int kPawnMg[8] = {0, 0, 2, 6, 14, 28, 50, 0};
  constexpr int kPawnEg[8] = {0, 0, 5, 12, 25, 45, 75, 0};
  constexpr int kKingBackMg[8] = {20, 30, 10, 0, 0, 10, 30, 20};
  constexpr int kKingSecondMg[8] = {-5, -5, -15, -25, -25, -15, -5, -5};
  for (int rank = 0; rank < 8; ++rank) {
    for (int file = 0; file < 8; ++file) {
      const int sq = rank * 8 + file;
      const int ring = ring_of(file, rank);
      const bool centre_file = file == 3 || file == 4;
      Score pawn{kPawnMg[rank], kPawnEg[rank]};
      if (rank > 0 && rank < 7) {
        if (centre_file && (rank == 3 || rank == 4)) pawn.mg += 15;
        if (centre_file && rank == 2) pawn.mg += 5;
        if (centre_file && rank == 1) pawn.mg -= 10;
        if (file == 0 || file == 7) pawn.mg -= 5;
      } else {
        pawn = {};
      }
      t[0][static_cast<std::size_t>(sq)] = pawn;
      t[1][static_cast<std::size_t>(sq)] = {15 - 8 * ring - (ring == 3 ? 10 : 0) - (rank == 0 ? 10 : 0),
                                            10 - 8 * ring};
      t[2][static_cast<std::size_t>(sq)] = {8 - 5 * ring - (rank == 0 ? 10 : 0), 6 - 4 * ring};
      t[3][static_cast<std::size_t>(sq)] = {(rank == 6 ? 20 : 0) + (centre_file ? 5 : 0),
                                            rank == 6 ? 15 : 0};
      t[4][static_cast<std::size_t>(sq)] = {4 - 3 * ring, 8 - 6 * ring};
      const int king_mg = rank == 0 ? kKingBackMg[file]
                          : rank == 1 ? kKingSecondMg[file]
                                      : -40 - 15 * (rank - 2);
      t[5][static_cast<std::size_t>(sq)] = {king_mg, 20 - 12 * ring};
    }
  }
  return t;
}

const std::array<ScoreTable, 6>& tapered_tables() {
  static const std::array<ScoreTable, 6> tables = make_tapered_tables();
  return tables;
}

// Squares ahead of a pawn on its own and the adjacent files (a passed pawn has no enemy pawn
// there), by colour and square.
std::array<std::array<Bitboard, 64>, 2> make_passed_masks() {
  std::array<std::array<Bitboard, 64>, 2> m{};
  for (int s = 0; s < 64; ++s) {
    const int f = s % 8, r = s / 8;
    for (int rr = 0; rr < 8; ++rr)
      for (int ff = std::max(0, f - 1); ff <= std::min(7, f + 1); ++ff) {
        const Bitboard b = Bitboard{1} << (rr * 8 + ff);
        if (rr > r) m[0][static_cast<std::size_t>(s)] |= b;
        if (rr < r) m[1][static_cast<std::size_t>(s)] |= b;
      }
  }
  return m;
}

const std::array<std::array<Bitboard, 64>, 2>& passed_masks() {
  static const auto masks = make_passed_masks();
  return masks;
}

Bitboard file_mask(int f) { return chess::kFileA << f; }
Bitboard adjacent_files(int f) {
  return (f > 0 ? file_mask(f - 1) : 0) | (f < 7 ? file_mask(f + 1) : 0);
}

Bitboard pawn_attack_span(Bitboard pawns, Player side) {
  const Bitboard ahead = side == Player::kFirst ? chess::shift_north(pawns) : chess::shift_south(pawns);
  return chess::shift_east(ahead) | chess::shift_west(ahead);
}

int distance(Square a, Square b) {
  return std::max(std::abs(chess::file_of(a) - chess::file_of(b)),
                  std::abs(chess::rank_of(a) - chess::rank_of(b)));
}

// The weights in integer fixed point (1/kFix centipawn), with the material folded into the
// piece-square tables per colour and the rank tables multiplied out, so that the evaluation
// needs no floating point: each side's sum is rounded to centipawns at the end, as the
// weights' double sums were (the defaults give the same values exactly).
constexpr int kFix = 16;

int fix(double v) { return static_cast<int>(std::lround(v * kFix)); }

// x / kFix rounded half away from zero, like std::lround.
int unfix(int x) { return x >= 0 ? (x + kFix / 2) / kFix : -((-x + kFix / 2) / kFix); }

constexpr int kKingAttackUnits = 128;  // attack units beyond count as the last entry

struct TaperedParams {
  std::array<std::array<std::array<int, 64>, 6>, 2> pst_mg{}, pst_eg{};  // [colour][type][square]
  std::array<int, 6> mobility_mg{}, mobility_eg{};
  int bishop_pair_mg = 0, bishop_pair_eg = 0;
  int doubled_mg = 0, doubled_eg = 0, isolated_mg = 0, isolated_eg = 0;
  std::array<int, 8> passed_mg{}, passed_eg_free{}, passed_eg_blocked{};  // by relative rank
  int passed_king = 0;
  int rook_open_mg = 0, rook_open_eg = 0, rook_semi_mg = 0, rook_semi_eg = 0;
  std::array<int, kKingAttackUnits> king_attack{};  // by attack units: min(w u^2, 500)
  int shield = 0, shield_half = 0, king_open_file = 0;
  int pawn_threat_mg = 0, pawn_threat_eg = 0;
  int outpost_mg = 0, outpost_eg = 0;
  int hanging_mg = 0, hanging_eg = 0, minor_threat_mg = 0, minor_threat_eg = 0;
  bool threats = false;  // hanging or minor_threat set: the attack maps are needed
};

// The single-number weights, in the weights file's order: the name, the field, and the
// parameter it is copied to rounded (none where make_tapered_params scales it).
struct ScalarWeight {
  const char* name;
  double ChessTaperedWeights::*weight;
  int TaperedParams::*param;
};
constexpr ScalarWeight kScalarWeights[] = {
    {"bishop_pair_mg", &ChessTaperedWeights::bishop_pair_mg, &TaperedParams::bishop_pair_mg},
    {"bishop_pair_eg", &ChessTaperedWeights::bishop_pair_eg, &TaperedParams::bishop_pair_eg},
    {"doubled_mg", &ChessTaperedWeights::doubled_mg, &TaperedParams::doubled_mg},
    {"doubled_eg", &ChessTaperedWeights::doubled_eg, &TaperedParams::doubled_eg},
    {"isolated_mg", &ChessTaperedWeights::isolated_mg, &TaperedParams::isolated_mg},
    {"isolated_eg", &ChessTaperedWeights::isolated_eg, &TaperedParams::isolated_eg},
    {"passed_mg", &ChessTaperedWeights::passed_mg, nullptr},
    {"passed_eg", &ChessTaperedWeights::passed_eg, nullptr},
    {"passed_king", &ChessTaperedWeights::passed_king, &TaperedParams::passed_king},
    {"rook_open_mg", &ChessTaperedWeights::rook_open_mg, &TaperedParams::rook_open_mg},
    {"rook_open_eg", &ChessTaperedWeights::rook_open_eg, &TaperedParams::rook_open_eg},
    {"rook_semi_mg", &ChessTaperedWeights::rook_semi_mg, &TaperedParams::rook_semi_mg},
    {"rook_semi_eg", &ChessTaperedWeights::rook_semi_eg, &TaperedParams::rook_semi_eg},
    {"king_attack", &ChessTaperedWeights::king_attack, nullptr},
    {"shield", &ChessTaperedWeights::shield, &TaperedParams::shield},
    {"king_open_file", &ChessTaperedWeights::king_open_file, &TaperedParams::king_open_file},
    {"pawn_threat_mg", &ChessTaperedWeights::pawn_threat_mg, &TaperedParams::pawn_threat_mg},
    {"pawn_threat_eg", &ChessTaperedWeights::pawn_threat_eg, &TaperedParams::pawn_threat_eg},
    {"outpost_mg", &ChessTaperedWeights::outpost_mg, &TaperedParams::outpost_mg},
    {"outpost_eg", &ChessTaperedWeights::outpost_eg, &TaperedParams::outpost_eg},
    {"hanging_mg", &ChessTaperedWeights::hanging_mg, &TaperedParams::hanging_mg},
    {"hanging_eg", &ChessTaperedWeights::hanging_eg, &TaperedParams::hanging_eg},
    {"minor_threat_mg", &ChessTaperedWeights::minor_threat_mg, &TaperedParams::minor_threat_mg},
    {"minor_threat_eg", &ChessTaperedWeights::minor_threat_eg, &TaperedParams::minor_threat_eg},
};

TaperedParams make_tapered_params(const ChessTaperedWeights& w) {
  constexpr int kPassedMg[8] = {0, 5, 10, 15, 25, 45, 70, 0};
  constexpr int kPassedEg[8] = {0, 10, 15, 25, 45, 75, 120, 0};
  TaperedParams p;
  const auto& tables = tapered_tables();
  for (int t = 0; t < 6; ++t) {
    const auto ut = static_cast<std::size_t>(t);
    for (int s = 0; s < 64; ++s) {
      const auto us = static_cast<std::size_t>(s);
      const auto black = static_cast<std::size_t>((7 - s / 8) * 8 + s % 8);  // seen from Black
      p.pst_mg[0][ut][us] = fix(w.material_mg[ut] + tables[ut][us].mg);
      p.pst_eg[0][ut][us] = fix(w.material_eg[ut] + tables[ut][us].eg);
      p.pst_mg[1][ut][us] = fix(w.material_mg[ut] + tables[ut][black].mg);
      p.pst_eg[1][ut][us] = fix(w.material_eg[ut] + tables[ut][black].eg);
    }
    p.mobility_mg[ut] = fix(w.mobility_mg[ut]);
    p.mobility_eg[ut] = fix(w.mobility_eg[ut]);
  }
  for (std::size_t r = 0; r < 8; ++r) {
    p.passed_mg[r] = fix(w.passed_mg * kPassedMg[r]);
    p.passed_eg_free[r] = fix(w.passed_eg * kPassedEg[r]);
    p.passed_eg_blocked[r] = fix(w.passed_eg * kPassedEg[r] * 0.5);
  }
  for (int u = 0; u < kKingAttackUnits; ++u)
    p.king_attack[static_cast<std::size_t>(u)] = fix(std::min(w.king_attack * u * u, 500.0));
  p.shield_half = fix(w.shield / 2);
  for (const ScalarWeight& s : kScalarWeights)
    if (s.param) p.*s.param = fix(w.*s.weight);
  p.threats = p.hanging_mg || p.hanging_eg || p.minor_threat_mg || p.minor_threat_eg;
  return p;
}

// The squares one side attacks: all its pieces, and its knights and bishops alone.
struct SideAttacks {
  Bitboard all = 0, minors = 0;
};

// A middlegame and an endgame sum in fixed point.
struct FixedTerms {
  int mg = 0, eg = 0;
};

// One side's pieces (knights to queens): tables, safe mobility, knight outposts, rooks on open
// files, and the attack on the enemy king; their attacks into `attacks`.
template <Player side>
inline FixedTerms piece_terms(const Chess& position, const TaperedParams& w,
                              SideAttacks& attacks) {
  constexpr Player them = opponent(side);
  constexpr bool white = side == Player::kFirst;
  constexpr std::size_t colour = white ? 0 : 1;
  const Bitboard occ = position.occupied();
  const Bitboard own_pawns = position.pieces(side, PieceType::kPawn);
  const Bitboard their_pawns = position.pieces(them, PieceType::kPawn);
  const Bitboard safe = ~position.pieces(side) & ~pawn_attack_span(their_pawns, them);
  const Square their_king = position.king_square(them);
  Bitboard zone = chess::kKingAttacks[their_king] | chess::square_bb(their_king);
  zone |= white ? chess::shift_south(zone) : chess::shift_north(zone);  // towards us
  int mg = 0, eg = 0;
  int attack_units = 0, attackers = 0;
  constexpr int kMobilityCentre[6] = {0, 4, 7, 7, 14, 0};
  constexpr int kAttackWeight[6] = {0, 2, 2, 3, 5, 0};
  const auto& pst_mg = w.pst_mg[colour];
  const auto& pst_eg = w.pst_eg[colour];
  auto piece = [&](int t, Square s, Bitboard a) {
    const auto ut = static_cast<std::size_t>(t);
    mg += pst_mg[ut][static_cast<std::size_t>(s)];
    eg += pst_eg[ut][static_cast<std::size_t>(s)];
    const int moves = chess::popcount(a & safe) - kMobilityCentre[t];
    mg += moves * w.mobility_mg[ut];
    eg += moves * w.mobility_eg[ut];
    attacks.all |= a;
    if (t == 1 || t == 2) attacks.minors |= a;
    if (const Bitboard hits = a & zone) {
      attack_units += kAttackWeight[t] * std::min(chess::popcount(hits), 3);
      ++attackers;
    }
  };
  for (Bitboard b = position.pieces(side, PieceType::kKnight); b;) {
    const Square s = chess::pop_lsb(b);
    piece(1, s, chess::kKnightAttacks[s]);
    // An outpost: defended by our pawn, out of reach of their pawns.
    const int rank = white ? chess::rank_of(s) : 7 - chess::rank_of(s);
    if (rank >= 3 && rank <= 5 && (pawn_attack_span(own_pawns, side) & chess::square_bb(s)) &&
        !(passed_masks()[colour][static_cast<std::size_t>(s)] &
          adjacent_files(chess::file_of(s)) & their_pawns)) {
      mg += w.outpost_mg;
      eg += w.outpost_eg;
    }
  }
  for (Bitboard b = position.pieces(side, PieceType::kBishop); b;) {
    const Square s = chess::pop_lsb(b);
    piece(2, s, chess::bishop_attacks(s, occ));
  }
  for (Bitboard b = position.pieces(side, PieceType::kRook); b;) {
    const Square s = chess::pop_lsb(b);
    piece(3, s, chess::rook_attacks(s, occ));
    const Bitboard file = file_mask(chess::file_of(s));  // an open or half-open file
    if (!(file & own_pawns)) {
      const bool open = !(file & their_pawns);
      mg += open ? w.rook_open_mg : w.rook_semi_mg;
      eg += open ? w.rook_open_eg : w.rook_semi_eg;
    }
  }
  const Bitboard queens = position.pieces(side, PieceType::kQueen);
  for (Bitboard b = queens; b;) {
    const Square s = chess::pop_lsb(b);
    piece(4, s, chess::queen_attacks(s, occ));
  }
  // Attacks on the enemy king: a square law of the attack units, when at least two pieces
  // take part and we have a queen to lead them.
  if (attackers >= 2 && queens)
    mg += w.king_attack[static_cast<std::size_t>(std::min(attack_units, kKingAttackUnits - 1))];
  return {mg, eg};
}

// Our own king's pawn shield (middlegame only), while the king stays near its back rank.
template <Player side>
inline int king_shield(const Chess& position, const TaperedParams& w) {
  constexpr bool white = side == Player::kFirst;
  const Bitboard own_pawns = position.pieces(side, PieceType::kPawn);
  const Square my_king = position.king_square(side);
  const int king_rank = white ? chess::rank_of(my_king) : 7 - chess::rank_of(my_king);
  if (king_rank > 1) return 0;
  int mg = 0;
  const int kf = chess::file_of(my_king);
  for (int f = std::max(0, kf - 1); f <= std::min(7, kf + 1); ++f) {
    const Bitboard file_pawns = own_pawns & file_mask(f);
    if (!file_pawns) {
      mg -= w.king_open_file;
      continue;
    }
    const Square one = my_king + (white ? 8 : -8) + (f - kf);
    const Square two = one + (white ? 8 : -8);
    if (one >= 0 && one < 64 && (file_pawns & chess::square_bb(one)))
      mg += w.shield;
    else if (two >= 0 && two < 64 && (file_pawns & chess::square_bb(two)))
      mg += w.shield_half;
  }
  return mg;
}

// Pawn structure: doubled and isolated pawns by file, passed pawns.
template <Player side>
inline FixedTerms pawn_structure(const Chess& position, const TaperedParams& w) {
  constexpr Player them = opponent(side);
  constexpr bool white = side == Player::kFirst;
  const Bitboard occ = position.occupied();
  const Bitboard own_pawns = position.pieces(side, PieceType::kPawn);
  const Bitboard their_pawns = position.pieces(them, PieceType::kPawn);
  const Square their_king = position.king_square(them);
  const Square my_king = position.king_square(side);
  int mg = 0, eg = 0;
  for (int f = 0; f < 8; ++f) {
    const Bitboard on = own_pawns & file_mask(f);
    if (!on) continue;
    const int on_file = chess::popcount(on);
    if (on_file > 1) {
      mg -= (on_file - 1) * w.doubled_mg;
      eg -= (on_file - 1) * w.doubled_eg;
    }
    if (!(own_pawns & adjacent_files(f))) {
      mg -= on_file * w.isolated_mg;
      eg -= on_file * w.isolated_eg;
    }
  }
  const auto& passed = passed_masks()[white ? 0 : 1];
  for (Bitboard p = own_pawns; p;) {
    const Square s = chess::pop_lsb(p);
    if (passed[static_cast<std::size_t>(s)] & their_pawns) continue;
    const int rank = white ? chess::rank_of(s) : 7 - chess::rank_of(s);
    const auto ur = static_cast<std::size_t>(rank);
    const Square stop = s + (white ? 8 : -8);
    const bool free_path = !(occ & chess::square_bb(stop));
    mg += w.passed_mg[ur];
    eg += free_path ? w.passed_eg_free[ur] : w.passed_eg_blocked[ur];
    if (rank >= 3) eg += w.passed_king * (distance(their_king, stop) - distance(my_king, stop));
  }
  return {mg, eg};
}

// One side's terms (its own view), added up as a middlegame and an endgame score in fixed
// point; its attacks into `attacks` when the threat terms need them.
template <Player side>
Score tapered_side(const Chess& position, const TaperedParams& w, SideAttacks& attacks) {
  constexpr Player them = opponent(side);
  constexpr std::size_t colour = side == Player::kFirst ? 0 : 1;
  const Bitboard own_pawns = position.pieces(side, PieceType::kPawn);
  const Bitboard their_pawn_attacks =
      pawn_attack_span(position.pieces(them, PieceType::kPawn), them);
  const Square my_king = position.king_square(side);
  const auto& pst_mg = w.pst_mg[colour];
  const auto& pst_eg = w.pst_eg[colour];
  int mg = 0, eg = 0;
  // Pawns and the king: the tables alone.
  for (Bitboard b = own_pawns; b;) {
    const auto s = static_cast<std::size_t>(chess::pop_lsb(b));
    mg += pst_mg[0][s];
    eg += pst_eg[0][s];
  }
  mg += pst_mg[5][static_cast<std::size_t>(my_king)];
  eg += pst_eg[5][static_cast<std::size_t>(my_king)];
  const FixedTerms pieces = piece_terms<side>(position, w, attacks);
  const FixedTerms pawns = pawn_structure<side>(position, w);
  mg += pieces.mg + king_shield<side>(position, w) + pawns.mg;
  eg += pieces.eg + pawns.eg;
  if (chess::more_than_one(position.pieces(side, PieceType::kBishop))) {
    mg += w.bishop_pair_mg;
    eg += w.bishop_pair_eg;
  }
  // Our pieces attacked by enemy pawns.
  const int threatened = chess::popcount(position.pieces(side) & ~own_pawns &
                                         ~position.pieces(PieceType::kKing) & their_pawn_attacks);
  mg -= threatened * w.pawn_threat_mg;
  eg -= threatened * w.pawn_threat_eg;
  attacks.all |= pawn_attack_span(own_pawns, side) | chess::kKingAttacks[my_king];
  return {unfix(mg), unfix(eg)};
}
// 24 at the start (knights and bishops 1, rooks 2, queens 4), 0 with pawns and kings only.
int game_phase(const Chess& position) {
  const int phase = chess::popcount(position.pieces(PieceType::kKnight)) +
                    chess::popcount(position.pieces(PieceType::kBishop)) +
                    2 * chess::popcount(position.pieces(PieceType::kRook)) +
                    4 * chess::popcount(position.pieces(PieceType::kQueen));
  return std::min(phase, 24);
}

// The names of the tapered weights, for files and parameters.
std::vector<std::pair<std::string, double*>> tapered_fields(ChessTaperedWeights& w) {
  std::vector<std::pair<std::string, double*>> f;
  const char* pieces[5] = {"p", "n", "b", "r", "q"};
  for (int t = 0; t < 5; ++t) {
    f.emplace_back(std::string(pieces[t]) + "_mg", &w.material_mg[static_cast<std::size_t>(t)]);
    f.emplace_back(std::string(pieces[t]) + "_eg", &w.material_eg[static_cast<std::size_t>(t)]);
  }
  for (int t = 1; t < 5; ++t) {
    f.emplace_back(std::string("mobility_") + pieces[t] + "_mg",
                   &w.mobility_mg[static_cast<std::size_t>(t)]);
    f.emplace_back(std::string("mobility_") + pieces[t] + "_eg",
                   &w.mobility_eg[static_cast<std::size_t>(t)]);
  }
  for (const ScalarWeight& s : kScalarWeights) f.emplace_back(s.name, &(w.*s.weight));
  return f;
}

Expected<void> set_tapered(ChessTaperedWeights& w, const std::string& key, double value) {
  for (auto& [name, field] : tapered_fields(w))
    if (name == key) {
      *field = value;
      return {};
    }
  std::string known;
  for (auto& [name, field] : tapered_fields(w)) known += (known.empty() ? "" : " ") + name;
  return make_error("unknown weight '" + key + "' (known: " + known + ")");
}

}  // namespace

Expected<ChessTaperedWeights> load_chess_tapered_weights(const std::string& path) {
  return load_weights_file<ChessTaperedWeights>(path, [](ChessTaperedWeights& w, const std::string& key, double value) {
    return set_tapered(w, key, value);
  });
}

namespace {

// The threats against `side`'s pieces (negative), from both sides' attacks, in centipawns.
Score threats_against(const Chess& position, Player side, const SideAttacks& own,
                      const SideAttacks& theirs, const TaperedParams& w) {
  const Bitboard pieces = position.pieces(side) & ~position.pieces(PieceType::kPawn) &
                          ~position.pieces(PieceType::kKing);
  const int hanging = chess::popcount(pieces & theirs.all & ~own.all);
  const int majors = chess::popcount(
      (position.pieces(side, PieceType::kRook) | position.pieces(side, PieceType::kQueen)) &
      theirs.minors);
  return {unfix(-hanging * w.hanging_mg - majors * w.minor_threat_mg),
          unfix(-hanging * w.hanging_eg - majors * w.minor_threat_eg)};
}

ChessTaperedTerms tapered_terms(const Chess& position, const TaperedParams& p) {
  SideAttacks white_attacks, black_attacks;
  Score white = tapered_side<Player::kFirst>(position, p, white_attacks);
  Score black = tapered_side<Player::kSecond>(position, p, black_attacks);
  if (p.threats) {
    const Score w = threats_against(position, Player::kFirst, white_attacks, black_attacks, p);
    const Score b = threats_against(position, Player::kSecond, black_attacks, white_attacks, p);
    white = {white.mg + w.mg, white.eg + w.eg};
    black = {black.mg + b.mg, black.eg + b.eg};
  }
  const int sign = position.side_to_move() == Player::kFirst ? 1 : -1;
  return {sign * (white.mg - black.mg), sign * (white.eg - black.eg), game_phase(position)};
}

int tapered_blend(const ChessTaperedTerms& t) {
  return (t.mg * t.phase + t.eg * (24 - t.phase)) / 24;
}

}  // namespace

ChessTaperedTerms chess_tapered_terms(const Chess& position, const ChessTaperedWeights& w) {
  return tapered_terms(position, make_tapered_params(w));
}

int chess_tapered(const Chess& position, const ChessTaperedWeights& w) {
  return tapered_blend(chess_tapered_terms(position, w));
}

Expected<Heuristic<Chess>> make_chess_tapered_heuristic(const GameOptions& params) {
  ChessTaperedWeights w;
  if (auto it = params.find("weights"); it != params.end()) {
    auto loaded = load_chess_tapered_weights(it->second);
    if (!loaded) return make_error(loaded.error());
    w = *loaded;
  }
  for (const auto& [key, value] : params) {
    if (key == "weights") continue;
    auto number = parse_weight_parameter(key, value);
    if (!number) return make_error(number.error());
    if (auto ok = set_tapered(w, key, *number); !ok) return make_error(ok.error());
  }
  // The fixed-point tables once, shared by the copies of the heuristic.
  auto p = std::make_shared<const TaperedParams>(make_tapered_params(w));
  return Heuristic<Chess>([p](const Chess& c) { return tapered_blend(tapered_terms(c, *p)); });
}

}  // namespace arena::eval
