// Legal move generation: check evasion masks and pin lines, so no move needs a legality test
// afterwards (except the rare en-passant capture, tested by occupancy).

#include "games/chess/attacks.h"
#include "games/chess/chess.h"

namespace arena::chess {

namespace {

// Adds the pawn moves to every square of `targets`, each coming from `to - delta`.
inline void add_pawn_moves(Chess::MoveList& list, Bitboard targets, int delta) {
  while (targets) {
    const Square to = pop_lsb(targets);
    list.push_back(Move(to - delta, to));
  }
}

// Adds every move from `from` to the squares of `targets`.
inline void add_moves(Chess::MoveList& list, Square from, Bitboard targets) {
  while (targets) list.push_back(Move(from, pop_lsb(targets)));
}

inline void add_promotions(Chess::MoveList& list, Square from, Square to) {
  list.push_back(Move(from, to, Move::Kind::kPromotion, PieceType::kQueen));
  list.push_back(Move(from, to, Move::Kind::kPromotion, PieceType::kRook));
  list.push_back(Move(from, to, Move::Kind::kPromotion, PieceType::kBishop));
  list.push_back(Move(from, to, Move::Kind::kPromotion, PieceType::kKnight));
}

inline void add_promotions(Chess::MoveList& list, Bitboard targets, int delta) {
  while (targets) {
    const Square to = pop_lsb(targets);
    add_promotions(list, to - delta, to);
  }
}

}  // namespace

Bitboard Chess::pinned(Square ksq) const {
  using enum PieceType;
  const Player them = opponent(side_);
  const Bitboard snipers =
      ((rook_attacks(ksq, 0) & (pieces(them, kRook) | pieces(them, kQueen))) |
       (bishop_attacks(ksq, 0) & (pieces(them, kBishop) | pieces(them, kQueen))));
  const Bitboard occ = occupied();
  Bitboard result = 0;
  Bitboard s = snipers;
  while (s) {
    const Square sniper = pop_lsb(s);
    const Bitboard blockers = between_bb(ksq, sniper) & occ & ~square_bb(sniper);
    if (blockers && !more_than_one(blockers)) result |= blockers & pieces(side_);
  }
  return result;
}

bool Chess::en_passant_legal(Square from, Square to) const {
  using enum PieceType;
  // Both pawns leave their rank at once, which can expose the king along it or a diagonal.
  const Player them = opponent(side_);
  const Square ksq = king_square(side_);
  const Bitboard occ = (occupied() ^ square_bb(from) ^ square_bb(to ^ 8)) | square_bb(to);
  return !(rook_attacks(ksq, occ) & (pieces(them, kRook) | pieces(them, kQueen))) &&
         !(bishop_attacks(ksq, occ) & (pieces(them, kBishop) | pieces(them, kQueen)));
}

void Chess::generate_moves(MoveList& list) const {
  generate<false>(list);
}

void Chess::generate_noisy_moves(MoveList& list) const {
  generate<true>(list);
}

template <bool kNoisyOnly>
void Chess::generate(MoveList& list) const {
  using enum PieceType;
  list.clear();
  const Player us = side_;
  const Player them = opponent(us);
  const Square ksq = king_square(us);
  const Bitboard occ = occupied();
  const Bitboard own = pieces(us);
  const Bitboard enemy = pieces(them);
  const Bitboard check = checkers();

  // King moves: the destination must not be attacked once the king has left its square.
  Bitboard king_targets = kKingAttacks[ksq] & ~own;
  if constexpr (kNoisyOnly) king_targets &= enemy;
  const Bitboard occ_no_king = occ ^ square_bb(ksq);
  while (king_targets) {
    const Square to = pop_lsb(king_targets);
    if (!(attackers_to(to, occ_no_king) & enemy)) list.push_back(Move(ksq, to));
  }
  if (more_than_one(check)) return;  // double check: only the king moves

  // Other pieces land on `target`: anywhere, or on the checker or between it and the king.
  Bitboard target = check ? between_bb(ksq, lsb(check)) : ~Bitboard{0};
  const Bitboard pins = pinned(ksq);
  Bitboard piece_target = target & ~own;
  if constexpr (kNoisyOnly) piece_target &= enemy;

  Bitboard knights = pieces(us, kKnight) & ~pins;  // a pinned knight never moves
  while (knights) {
    const Square from = pop_lsb(knights);
    add_moves(list, from, kKnightAttacks[from] & piece_target);
  }
  Bitboard diagonal = pieces(us, kBishop) | pieces(us, kQueen);
  while (diagonal) {
    const Square from = pop_lsb(diagonal);
    Bitboard t = bishop_attacks(from, occ) & piece_target;
    if (pins & square_bb(from)) t &= line_bb(ksq, from);
    add_moves(list, from, t);
  }
  Bitboard straight = pieces(us, kRook) | pieces(us, kQueen);
  while (straight) {
    const Square from = pop_lsb(straight);
    Bitboard t = rook_attacks(from, occ) & piece_target;
    if (pins & square_bb(from)) t &= line_bb(ksq, from);
    add_moves(list, from, t);
  }

  generate_pawn_moves<kNoisyOnly>(list, target, pins);

  if constexpr (!kNoisyOnly) {
    if (!check) generate_castling(list);
  }
}

// Castling: not in check (checked by the caller), the squares between king and rook empty,
// the squares the king crosses and lands on not attacked.
void Chess::generate_castling(MoveList& list) const {
  const Bitboard occ = occupied();
  const Bitboard enemy = pieces(opponent(side_));
  const bool white = side_ == Player::kFirst;
  const int rights = castling_ >> (white ? 0 : 2);
  const Square home = white ? 4 : 60;
  auto safe = [&](Square s) { return !(attackers_to(s, occ) & enemy); };
  if ((rights & 1) && !(occ & (square_bb(home + 1) | square_bb(home + 2))) && safe(home + 1) &&
      safe(home + 2)) {
    list.push_back(Move(home, home + 2, Move::Kind::kCastling));
  }
  if ((rights & 2) && !(occ & (square_bb(home - 1) | square_bb(home - 2) | square_bb(home - 3))) &&
      safe(home - 1) && safe(home - 2)) {
    list.push_back(Move(home, home - 2, Move::Kind::kCastling));
  }
}

bool Chess::en_passant_capturable(Square ep) const {
  Bitboard takers = kPawnAttacks[index(opponent(side_))][ep] & pieces(side_, PieceType::kPawn);
  if (!takers) return false;
  // In check, the capture must take the checking pawn or land between checker and king.
  if (const Bitboard check = checkers()) {
    if (more_than_one(check)) return false;
    if (!(check & square_bb(ep ^ 8)) &&
        !(between_bb(king_square(side_), lsb(check)) & square_bb(ep))) {
      return false;
    }
  }
  while (takers) {
    if (en_passant_legal(pop_lsb(takers), ep)) return true;
  }
  return false;
}

template <bool kNoisyOnly>
void Chess::generate_pawn_moves(MoveList& list, Bitboard target, Bitboard pins) const {
  using enum PieceType;
  const Player us = side_;
  const bool white = us == Player::kFirst;
  const int up = white ? 8 : -8;
  const Square ksq = king_square(us);
  const Bitboard last_rank = white ? kRank8 : kRank1;
  const Bitboard double_rank = white ? kRank3 : kRank6;
  const Bitboard empty = ~occupied();
  const Bitboard enemy = pieces(opponent(us));
  const Bitboard pawns = pieces(us, kPawn);
  auto forward = [white](Bitboard b) { return white ? shift_north(b) : shift_south(b); };

  // Unpinned pawns, set-wise: pushes, then captures towards each side.
  const Bitboard free = pawns & ~pins;
  const Bitboard single = forward(free) & empty;
  const Bitboard pushes = single & target;
  add_promotions(list, pushes & last_rank, up);
  if constexpr (!kNoisyOnly) {
    add_pawn_moves(list, pushes & ~last_rank, up);
    add_pawn_moves(list, forward(single & double_rank) & empty & target, 2 * up);
  }
  const Bitboard capturable = enemy & target;
  const Bitboard east = forward(shift_east(free)) & capturable;
  const Bitboard west = forward(shift_west(free)) & capturable;
  add_promotions(list, east & last_rank, up + 1);
  add_promotions(list, west & last_rank, up - 1);
  add_pawn_moves(list, east & ~last_rank, up + 1);
  add_pawn_moves(list, west & ~last_rank, up - 1);

  // Pinned pawns (rare): one at a time, kept on the line through the king.
  Bitboard pinned_pawns = pawns & pins;
  while (pinned_pawns) {
    const Square from = pop_lsb(pinned_pawns);
    const Bitboard allowed = target & line_bb(ksq, from);
    const Bitboard one = forward(square_bb(from)) & empty;
    Bitboard moves = kPawnAttacks[index(us)][from] & enemy & allowed;
    moves |= one & allowed & (kNoisyOnly ? last_rank : ~Bitboard{0});
    if constexpr (!kNoisyOnly) moves |= forward(one & double_rank) & empty & allowed;
    while (moves) {
      const Square to = pop_lsb(moves);
      if (square_bb(to) & last_rank) {
        add_promotions(list, from, to);
      } else {
        list.push_back(Move(from, to));
      }
    }
  }

  // En passant: ep_ is set only when some capture there is legal (en_passant_capturable),
  // which settles check evasion; each taker still needs the occupancy test for its own pin.
  if (ep_ != kNoSquare) {
    Bitboard takers = kPawnAttacks[index(opponent(us))][ep_] & pawns;
    while (takers) {
      const Square from = pop_lsb(takers);
      if (en_passant_legal(from, ep_)) list.push_back(Move(from, ep_, Move::Kind::kEnPassant));
    }
  }
}

template void Chess::generate<false>(MoveList&) const;
template void Chess::generate<true>(MoveList&) const;

}  // namespace arena::chess
