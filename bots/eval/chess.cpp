#include "bots/eval/chess.h"

#include <algorithm>
#include <cmath>

#include "bots/eval/weights_file.h"
#include "games/chess/attacks.h"

namespace arena::eval {

namespace {

using chess::Bitboard;
using chess::Chess;
using chess::PieceType;
using chess::Square;

// Michniewski's Simplified Evaluation Function, rank 8 first, from White's side.
using Table = std::array<int, 64>;
constexpr Table kPawnTable = {0,  0,  0,  0,   0,   0,  0,  0,  50, 50, 50,  50, 50, 50,  50, 50,
                              10, 10, 20, 30,  30,  20, 10, 10, 5,  5,  10,  25, 25, 10,  5,  5,
                              0,  0,  0,  20,  20,  0,  0,  0,  5,  -5, -10, 0,  0,  -10, -5, 5,
                              5,  10, 10, -20, -20, 10, 10, 5,  0,  0,  0,   0,  0,  0,   0,  0};
constexpr Table kKnightTable = {-50, -40, -30, -30, -30, -30, -40, -50, -40, -20, 0,   0,   0,
                                0,   -20, -40, -30, 0,   10,  15,  15,  10,  0,   -30, -30, 5,
                                15,  20,  20,  15,  5,   -30, -30, 0,   15,  20,  20,  15,  0,
                                -30, -30, 5,   10,  15,  15,  10,  5,   -30, -40, -20, 0,   5,
                                5,   0,   -20, -40, -50, -40, -30, -30, -30, -30, -40, -50};
constexpr Table kBishopTable = {-20, -10, -10, -10, -10, -10, -10, -20, -10, 0,   0,   0,   0,
                                0,   0,   -10, -10, 0,   5,   10,  10,  5,   0,   -10, -10, 5,
                                5,   10,  10,  5,   5,   -10, -10, 0,   10,  10,  10,  10,  0,
                                -10, -10, 10,  10,  10,  10,  10,  10,  -10, -10, 5,   0,   0,
                                0,   0,   5,   -10, -20, -10, -10, -10, -10, -10, -10, -20};
constexpr Table kRookTable = {0,  0, 0, 0, 0, 0, 0, 0,  5,  10, 10, 10, 10, 10, 10, 5,
                              -5, 0, 0, 0, 0, 0, 0, -5, -5, 0,  0,  0,  0,  0,  0,  -5,
                              -5, 0, 0, 0, 0, 0, 0, -5, -5, 0,  0,  0,  0,  0,  0,  -5,
                              -5, 0, 0, 0, 0, 0, 0, -5, 0,  0,  0,  5,  5,  0,  0,  0};
constexpr Table kQueenTable = {-20, -10, -10, -5,  -5,  -10, -10, -20, -10, 0,   0,   0,  0,
                               0,   0,   -10, -10, 0,   5,   5,   5,   5,   0,   -10, -5, 0,
                               5,   5,   5,   5,   0,   -5,  0,   0,   5,   5,   5,   5,  0,
                               -5,  -10, 5,   5,   5,   5,   5,   0,   -10, -10, 0,   5,  0,
                               0,   0,   0,   -10, -20, -10, -10, -5,  -5,  -10, -10, -20};
constexpr Table kKingTable = {-30, -40, -40, -50, -50, -40, -40, -30, -30, -40, -40, -50, -50,
                              -40, -40, -30, -30, -40, -40, -50, -50, -40, -40, -30, -30, -40,
                              -40, -50, -50, -40, -40, -30, -20, -30, -30, -40, -40, -30, -30,
                              -20, -10, -20, -20, -20, -20, -20, -20, -10, 20,  20,  0,   0,
                              0,   0,   20,  20,  20,  30,  10,  0,   0,   10,  30,  20};
constexpr std::array<const Table*, 6> kTables = {&kPawnTable, &kKnightTable, &kBishopTable,
                                                 &kRookTable, &kQueenTable,  &kKingTable};

constexpr std::array<int, 6> kTacticalValue = {100, 300, 300, 500, 900, 0};
constexpr int kPromotionGain = 800;
constexpr int kCheckBonus = 25;

int piece_square_sum(const Chess& position, Player side) {
  int sum = 0;
  for (int t = 0; t < 6; ++t) {
    Bitboard b = position.pieces(side, static_cast<PieceType>(t));
    while (b) {
      const Square s = chess::pop_lsb(b);
      const int row = side == Player::kFirst ? 7 - chess::rank_of(s) : chess::rank_of(s);
      sum += (*kTables[t])[row * 8 + chess::file_of(s)];
    }
  }
  return sum;
}

// The squares a piece other than a pawn attacks from `s`.
Bitboard piece_attacks(PieceType t, Square s, Bitboard occ) {
  switch (t) {
    case PieceType::kKnight:
      return chess::kKnightAttacks[s];
    case PieceType::kBishop:
      return chess::bishop_attacks(s, occ);
    case PieceType::kRook:
      return chess::rook_attacks(s, occ);
    case PieceType::kQueen:
      return chess::queen_attacks(s, occ);
    default:
      return chess::kKingAttacks[s];
  }
}

int mobility_of(const Chess& position, Player side) {
  const Bitboard occ = position.occupied();
  const Bitboard own = position.pieces(side);
  int count = 0;
  for (int t = 1; t < 6; ++t) {
    Bitboard b = position.pieces(side, static_cast<PieceType>(t));
    while (b) {
      const Square s = chess::pop_lsb(b);
      const Bitboard a = piece_attacks(static_cast<PieceType>(t), s, occ);
      count += chess::popcount(a & ~own);
    }
  }
  const Bitboard pawns = position.pieces(side, PieceType::kPawn);
  const Bitboard pushes =
      (side == Player::kFirst ? chess::shift_north(pawns) : chess::shift_south(pawns)) & ~occ;
  count += chess::popcount(pushes);
  Bitboard p = pawns;
  while (p) {
    count += chess::popcount(chess::kPawnAttacks[index(side)][chess::pop_lsb(p)] &
                             position.pieces(opponent(side)));
  }
  return count;
}

// The largest gain `side` could make by one capture on the current board, by attack sets
// (so it also counts threats when `side` is not to move).
int best_capture_gain(const Chess& position, Player side) {
  const Bitboard occ = position.occupied();
  int best = 0;
  Bitboard targets = position.pieces(opponent(side)) & ~position.pieces(PieceType::kKing);
  while (targets) {
    const Square s = chess::pop_lsb(targets);
    const Bitboard attackers = position.attackers_to(s, occ) & position.pieces(side);
    if (!attackers) continue;
    const int victim = kTacticalValue[position.piece_on(s) % 6];
    int cheapest = 100000;
    Bitboard a = attackers;
    while (a) {
      const int t = position.piece_on(chess::pop_lsb(a)) % 6;
      cheapest = std::min(cheapest, t == 5 ? 100000 : kTacticalValue[t]);
    }
    const bool defended = (position.attackers_to(s, occ) & position.pieces(opponent(side))) != 0;
    if (!defended) {
      best = std::max(best, victim);
    } else if (cheapest < 100000) {
      best = std::max(best, victim - cheapest);
    }
  }
  return best;
}

Expected<void> set_weight(ChessMaterialWeights& w, std::string_view key, double value) {
  if (key == "q")
    w.queen = value;
  else if (key == "r")
    w.rook = value;
  else if (key == "b")
    w.bishop = value;
  else if (key == "n")
    w.knight = value;
  else if (key == "p")
    w.pawn = value;
  else
    return make_error("unknown weight '" + std::string(key) + "' (expected q r b n p)");
  return {};
}

struct Params {
  ChessMaterialWeights material;
  double mobility = 10;
};

Expected<Params> parse_params(const GameOptions& params, bool material, double mobility) {
  Params p;
  p.mobility = mobility;
  if (auto it = params.find("weights"); it != params.end() && material) {
    auto loaded = load_chess_weights(it->second);
    if (!loaded) return make_error(loaded.error());
    p.material = *loaded;
  }
  for (const auto& [key, value] : params) {
    if (key == "weights" && material) continue;
    const bool is_weight = material && key.size() == 1 &&
                           std::string_view("qrbnp").find(key[0]) != std::string_view::npos;
    if (!is_weight && key != "w") return make_error("unknown parameter '" + key + "'");
    auto number = parse_weight_parameter(key, value);
    if (!number) return make_error(number.error());
    if (key == "w") {
      p.mobility = *number;
    } else if (auto ok = set_weight(p.material, key, *number); !ok) {
      return make_error(ok.error());
    }
  }
  return p;
}

}  // namespace

Expected<ChessMaterialWeights> load_chess_weights(const std::string& path) {
  return load_weights_file<ChessMaterialWeights>(path, [](ChessMaterialWeights& w, const std::string& key, double value) {
    return set_weight(w, key, value);
  });
}

std::array<double, 5> chess_material_features(const Chess& position) {
  const Player us = position.side_to_move();
  const Player them = opponent(us);
  std::array<double, 5> f{};
  constexpr PieceType kOrder[5] = {PieceType::kQueen, PieceType::kRook, PieceType::kBishop,
                                   PieceType::kKnight, PieceType::kPawn};
  for (int i = 0; i < 5; ++i) {
    f[i] = chess::popcount(position.pieces(us, kOrder[i])) -
           chess::popcount(position.pieces(them, kOrder[i]));
  }
  return f;
}

int chess_material(const Chess& position, const ChessMaterialWeights& w) {
  const auto f = chess_material_features(position);
  const double cp =
      100 * (w.queen * f[0] + w.rook * f[1] + w.bishop * f[2] + w.knight * f[3] + w.pawn * f[4]);
  return static_cast<int>(std::lround(std::clamp(cp, -400000.0, 400000.0)));
}

int chess_piece_square(const Chess& position, const ChessMaterialWeights& w) {
  const Player us = position.side_to_move();
  return chess_material(position, w) + piece_square_sum(position, us) -
         piece_square_sum(position, opponent(us));
}

int chess_mobility_count(const Chess& position) {
  const Player us = position.side_to_move();
  return mobility_of(position, us) - mobility_of(position, opponent(us));
}

int tactical_estimate(const Chess& position) {
  const Player us = position.side_to_move();
  int gain = best_capture_gain(position, us);
  Chess::MoveList moves;
  position.generate_moves(moves);
  bool check = false;
  for (const auto m : moves) {
    if (m.kind() == chess::Move::Kind::kPromotion) gain = std::max(gain, kPromotionGain);
    check = check || position.gives_check(m);
  }
  return gain + best_capture_gain(position, opponent(us)) / 2 + (check ? kCheckBonus : 0);
}

int static_exchange(const Chess& position, const chess::Move& move) {
  using Kind = chess::Move::Kind;
  constexpr int kValue[6] = {100, 325, 325, 500, 975, 20000};
  const Square from = move.from();
  const Square to = move.to();
  if (move.kind() == Kind::kCastling) return 0;
  const bool en_passant = move.kind() == Kind::kEnPassant;
  const chess::PieceCode victim = position.piece_on(to);
  int gain[40];
  gain[0] = en_passant ? kValue[0] : victim == chess::kNoPiece ? 0 : kValue[victim % 6];
  // The value standing on `to` after each capture: the piece that made it.
  int on_square = kValue[position.piece_on(from) % 6];
  if (move.kind() == Kind::kPromotion) {
    gain[0] += kValue[chess::to_int(move.promotion())] - kValue[0];
    on_square = kValue[chess::to_int(move.promotion())];
  }
  Bitboard occ = position.occupied() ^ chess::square_bb(from);
  if (en_passant) occ ^= chess::square_bb(position.side_to_move() == Player::kFirst ? to - 8 : to + 8);
  Player side = opponent(position.side_to_move());
  int d = 0;
  for (;;) {
    const Bitboard attackers = position.attackers_to(to, occ) & occ;
    const Bitboard ours = attackers & position.pieces(side);
    if (!ours) break;
    int type = 0;
    Bitboard from_bb = 0;
    for (; type < 6; ++type) {
      from_bb = ours & position.pieces(static_cast<PieceType>(type));
      if (from_bb) break;
    }
    // A king may take only when the other side has nothing left to take back with.
    if (type == 5 && (attackers & position.pieces(opponent(side)))) break;
    ++d;
    gain[d] = on_square - gain[d - 1];
    if (std::max(-gain[d - 1], gain[d]) < 0 || d == 38) break;  // neither side wants more
    on_square = kValue[type];
    occ ^= from_bb & (~from_bb + 1);  // the least significant one
    side = opponent(side);
  }
  while (d > 0) {
    gain[d - 1] = -std::max(-gain[d - 1], gain[d]);
    --d;
  }
  return gain[0];
}

std::vector<HeuristicInfo> heuristics_for(std::type_identity<Chess>) {
  return {
      {"material", "piece values q r b n p (default 9 5 3 3 1 pawns), ours minus theirs"},
      {"piece_square", "material plus the Simplified Evaluation Function piece-square tables"},
      {"mobility", "w centipawns (default 10) per pseudo-legal piece move, ours minus theirs"},
      {"combined", "piece_square plus mobility (w default 5)"},
      {"tapered", "middlegame and endgame scores blended by phase: material, piece-square, "
                  "mobility, king safety, pawn structure, bishop pair, rooks on open files"},
  };
}

Expected<Heuristic<Chess>> make_heuristic(std::type_identity<Chess>, std::string_view name,
                                          const GameOptions& params) {
  if (name == "tapered") return make_chess_tapered_heuristic(params);
  const bool material = name != "mobility";
  const double mobility = name == "combined" ? 5 : 10;
  if (name != "material" && name != "piece_square" && name != "mobility" && name != "combined") {
    return make_error("chess has no heuristic '" + std::string(name) +
                      "' (material, piece_square, mobility, combined, tapered)");
  }
  if (name == "material" || name == "piece_square") {
    if (params.count("w")) return make_error("unknown parameter 'w' for " + std::string(name));
  }
  auto p = parse_params(params, material, mobility);
  if (!p) return make_error(p.error());
  const Params v = *p;
  if (name == "material")
    return Heuristic<Chess>([v](const Chess& c) { return chess_material(c, v.material); });
  if (name == "piece_square") {
    return Heuristic<Chess>([v](const Chess& c) { return chess_piece_square(c, v.material); });
  }
  if (name == "mobility") {
    return Heuristic<Chess>([v](const Chess& c) {
      return static_cast<int>(std::lround(v.mobility * chess_mobility_count(c)));
    });
  }
  return Heuristic<Chess>([v](const Chess& c) {
    return chess_piece_square(c, v.material) +
           static_cast<int>(std::lround(v.mobility * chess_mobility_count(c)));
  });
}

}  // namespace arena::eval