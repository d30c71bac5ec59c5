#include "games/chess/chess.h"

#include <algorithm>
#include <charconv>

#include "games/chess/attacks.h"
#include "games/core/zobrist.h"

namespace arena::chess {

namespace {

// Keys: 12 pieces x 64 squares, 16 castling-rights sets, 8 en-passant files, side to move.
constexpr std::size_t kCastleKeys = 12 * 64;
constexpr std::size_t kEpKeys = kCastleKeys + 16;
constexpr std::size_t kSideKey = kEpKeys + 8;
constexpr auto kKeys = make_zobrist_keys<kSideKey + 1>(0xC4E55'2026'1121ULL);

constexpr std::uint64_t piece_key(PieceCode p, Square s) {
  return kKeys[static_cast<std::size_t>(p) * 64 + static_cast<std::size_t>(s)];
}

// Castling rights kept when a move touches a square (king or rook leaves or is captured).
constexpr std::array<std::uint8_t, 64> make_castle_masks() {
  std::array<std::uint8_t, 64> m{};
  m.fill(15);
  m[0] = 15 & ~2;
  m[7] = 15 & ~1;
  m[4] = 15 & ~3;
  m[56] = 15 & ~8;
  m[63] = 15 & ~4;
  m[60] = 15 & ~12;
  return m;
}
constexpr auto kCastleMask = make_castle_masks();

constexpr std::string_view kPieceLetters = "PNBRQKpnbrqk";

}  // namespace

Expected<Chess> Chess::create(const GameOptions& options) {
  if (!options.empty()) {
    std::string names;
    for (const auto& [key, value] : options) names += (names.empty() ? "" : ", ") + key;
    return make_error("chess takes no options; unknown option(s): " + names);
  }
  return deserialize(kStartFen);
}

void Chess::put_piece(PieceCode p, Square s) {
  board_[s] = p;
  by_type_[p % 6] |= square_bb(s);
  by_color_[p / 6] |= square_bb(s);
}

void Chess::remove_piece(Square s) {
  const PieceCode p = board_[s];
  board_[s] = kNoPiece;
  by_type_[p % 6] ^= square_bb(s);
  by_color_[p / 6] ^= square_bb(s);
}

void Chess::move_piece(Square from, Square to) {
  const PieceCode p = board_[from];
  const Bitboard fromto = square_bb(from) | square_bb(to);
  board_[from] = kNoPiece;
  board_[to] = p;
  by_type_[p % 6] ^= fromto;
  by_color_[p / 6] ^= fromto;
}

Bitboard Chess::attackers_to(Square s, Bitboard occ) const {
  using enum PieceType;
  return (kPawnAttacks[1][s] & pieces(Player::kFirst, kPawn)) |
         (kPawnAttacks[0][s] & pieces(Player::kSecond, kPawn)) |
         (kKnightAttacks[s] & pieces(kKnight)) | (kKingAttacks[s] & pieces(kKing)) |
         (rook_attacks(s, occ) & (pieces(kRook) | pieces(kQueen))) |
         (bishop_attacks(s, occ) & (pieces(kBishop) | pieces(kQueen)));
}

Bitboard Chess::checkers() const {
  return attackers_to(king_square(side_), occupied()) & pieces(opponent(side_));
}

void Chess::set_en_passant_if_capturable(Square ep) {
  // Called after the side has switched: side_ is the one that may capture.
  if (en_passant_capturable(ep)) {
    ep_ = ep;
    hash_ ^= kKeys[kEpKeys + static_cast<std::size_t>(file_of(ep))];
  }
}

void Chess::make_move(Move m) {
  const Square from = m.from();
  const Square to = m.to();
  const Player us = side_;
  history_.push_back({m, kNoPiece, static_cast<std::uint8_t>(castling_),
                      static_cast<std::uint8_t>(ep_), static_cast<std::uint16_t>(halfmove_),
                      hash_});
  std::uint64_t h = hash_ ^ kKeys[kSideKey];
  if (ep_ != kNoSquare) h ^= kKeys[kEpKeys + static_cast<std::size_t>(file_of(ep_))];
  ep_ = kNoSquare;
  ++halfmove_;
  const PieceCode piece = board_[from];
  if (m.kind() == Move::Kind::kCastling) {
    const bool king_side = to > from;
    const Square rook_from = king_side ? from + 3 : from - 4;
    const Square rook_to = king_side ? from + 1 : from - 1;
    const PieceCode rook = board_[rook_from];
    move_piece(from, to);
    move_piece(rook_from, rook_to);
    h ^= piece_key(piece, from) ^ piece_key(piece, to) ^ piece_key(rook, rook_from) ^
         piece_key(rook, rook_to);
  } else {
    Square cap_sq = to;
    if (m.kind() == Move::Kind::kEnPassant) cap_sq = to ^ 8;
    const PieceCode captured = board_[cap_sq];
    if (captured != kNoPiece) {
      remove_piece(cap_sq);
      h ^= piece_key(captured, cap_sq);
      history_.back().captured = captured;
      halfmove_ = 0;
    }
    move_piece(from, to);
    h ^= piece_key(piece, from) ^ piece_key(piece, to);
    if (type_of(piece) == PieceType::kPawn) {
      halfmove_ = 0;
      if (m.kind() == Move::Kind::kPromotion) {
        const PieceCode promoted = make_piece(us, m.promotion());
        remove_piece(to);
        put_piece(promoted, to);
        h ^= piece_key(piece, to) ^ piece_key(promoted, to);
      }
    }
  }
  const int new_castling = castling_ & kCastleMask[from] & kCastleMask[to];
  if (new_castling != castling_) {
    h ^= kKeys[kCastleKeys + static_cast<std::size_t>(castling_)] ^
         kKeys[kCastleKeys + static_cast<std::size_t>(new_castling)];
    castling_ = new_castling;
  }
  if (us == Player::kSecond) ++fullmove_;
  side_ = opponent(us);
  hash_ = h;
  if (type_of(piece) == PieceType::kPawn && (from ^ to) == 16) {
    set_en_passant_if_capturable((from + to) / 2);
  }
}

void Chess::unmake_move(Move m) {
  const Undo u = history_.back();
  history_.pop_back();
  side_ = opponent(side_);
  if (side_ == Player::kSecond) --fullmove_;
  const Square from = m.from();
  const Square to = m.to();
  if (m.kind() == Move::Kind::kCastling) {
    const bool king_side = to > from;
    move_piece(to, from);
    move_piece(king_side ? from + 1 : from - 1, king_side ? from + 3 : from - 4);
  } else {
    if (m.kind() == Move::Kind::kPromotion) {
      remove_piece(to);
      put_piece(make_piece(side_, PieceType::kPawn), to);
    }
    move_piece(to, from);
    if (u.captured != kNoPiece) {
      put_piece(u.captured, m.kind() == Move::Kind::kEnPassant ? to ^ 8 : to);
    }
  }
  castling_ = u.castling;
  ep_ = u.ep;
  halfmove_ = u.halfmove;
  hash_ = u.hash;
}

bool Chess::null_move_allowed() const {
  using enum PieceType;
  const Bitboard pieces_but_pawns =
      pieces(side_) & (pieces(kKnight) | pieces(kBishop) | pieces(kRook) | pieces(kQueen));
  return pieces_but_pawns != 0 && !in_check();
}

void Chess::make_null_move() {
  history_.push_back({Move{}, kNoPiece, static_cast<std::uint8_t>(castling_),
                      static_cast<std::uint8_t>(ep_), static_cast<std::uint16_t>(halfmove_),
                      hash_});
  hash_ ^= kKeys[kSideKey];
  if (ep_ != kNoSquare) hash_ ^= kKeys[kEpKeys + static_cast<std::size_t>(file_of(ep_))];
  ep_ = kNoSquare;
  halfmove_ = 0;
  if (side_ == Player::kSecond) ++fullmove_;
  side_ = opponent(side_);
}

void Chess::unmake_null_move() {
  const Undo u = history_.back();
  history_.pop_back();
  side_ = opponent(side_);
  if (side_ == Player::kSecond) --fullmove_;
  ep_ = u.ep;
  halfmove_ = u.halfmove;
  hash_ = u.hash;
}

std::uint64_t Chess::compute_hash() const {
  std::uint64_t h = 0;
  for (Square s = 0; s < 64; ++s) {
    if (board_[s] != kNoPiece) h ^= piece_key(board_[s], s);
  }
  h ^= kKeys[kCastleKeys + static_cast<std::size_t>(castling_)];
  if (ep_ != kNoSquare) h ^= kKeys[kEpKeys + static_cast<std::size_t>(file_of(ep_))];
  if (side_ == Player::kSecond) h ^= kKeys[kSideKey];
  return h;
}

int Chess::repetitions() const {
  int count = 0;
  const int n = static_cast<int>(history_.size());
  const int limit = std::min(halfmove_, n);
  for (int back = 4; back <= limit; back += 2) {
    if (history_[n - back].hash == hash_) ++count;
  }
  return count;
}

bool Chess::insufficient_material() const {
  using enum PieceType;
  if (pieces(kPawn) | pieces(kRook) | pieces(kQueen)) return false;
  const Bitboard minors = pieces(kKnight) | pieces(kBishop);
  if (popcount(minors) <= 1) return true;  // K v K, K+minor v K
  // Only bishops, all on squares of one colour: neither side can ever mate.
  if (pieces(kKnight)) return false;
  const Bitboard bishops = pieces(kBishop);
  return (bishops & kDarkSquares) == 0 || (bishops & ~kDarkSquares) == 0;
}

Outcome Chess::outcome() const {
  MoveList list;
  generate_moves(list);
  if (list.empty()) {
    return in_check() ? Outcome::win_for(opponent(side_), EndReason::kCheckmate)
                      : Outcome::draw(EndReason::kStalemate);
  }
  if (insufficient_material()) return Outcome::draw(EndReason::kInsufficientMaterial);
  if (halfmove_ >= 100) return Outcome::draw(EndReason::kFiftyMoveRule);
  if (repetitions() >= 2) return Outcome::draw(EndReason::kThreefoldRepetition);
  return Outcome::ongoing();
}

bool Chess::drawn_by_rule() const {
  if (insufficient_material()) return true;
  if (halfmove_ >= 100) {
    if (!in_check()) return true;
    MoveList list;
    generate_moves(list);
    return !list.empty();  // no move in check: checkmate, which takes precedence
  }
  return repetitions() >= 2;
}

bool Chess::is_capture(Move m) const {
  return m.kind() == Move::Kind::kEnPassant ||
         (m.kind() != Move::Kind::kCastling && board_[m.to()] != kNoPiece);
}

int Chess::capture_score(const Move& m) const {
  int score = 0;
  if (is_capture(m)) {
    const int victim = m.kind() == Move::Kind::kEnPassant ? 0 : board_[m.to()] % 6;
    const int attacker = board_[m.from()] % 6;
    score = 10 * (victim + 1) + (6 - attacker);  // 11 .. 56
  }
  if (m.kind() == Move::Kind::kPromotion) {
    score += m.promotion() == PieceType::kQueen ? 50 : 5;
  }
  return score;
}

bool Chess::gives_check(Move m) const {
  using enum PieceType;
  const Player us = side_;
  const Player them = opponent(us);
  const Square ksq = king_square(them);
  const Square from = m.from();
  const Square to = m.to();
  // Our pieces and the occupancy after the move; captured pieces are theirs and never check.
  std::array<Bitboard, 6> ours{};
  for (int t = 0; t < 6; ++t) ours[t] = by_type_[t] & pieces(us);
  Bitboard occ = occupied() ^ square_bb(from);
  const int moved = board_[from] % 6;
  ours[moved] ^= square_bb(from);
  if (m.kind() == Move::Kind::kCastling) {
    const bool king_side = to > from;
    const Square rook_from = king_side ? from + 3 : from - 4;
    const Square rook_to = king_side ? from + 1 : from - 1;
    occ ^= square_bb(rook_from) | square_bb(rook_to);
    ours[to_int(kRook)] ^= square_bb(rook_from) | square_bb(rook_to);
  } else if (m.kind() == Move::Kind::kEnPassant) {
    occ ^= square_bb(to ^ 8);
  }
  occ |= square_bb(to);
  ours[m.kind() == Move::Kind::kPromotion ? to_int(m.promotion()) : moved] |= square_bb(to);
  return ((kPawnAttacks[index(them)][ksq] & ours[to_int(kPawn)]) |
          (kKnightAttacks[ksq] & ours[to_int(kKnight)]) |
          (rook_attacks(ksq, occ) & (ours[to_int(kRook)] | ours[to_int(kQueen)])) |
          (bishop_attacks(ksq, occ) & (ours[to_int(kBishop)] | ours[to_int(kQueen)]))) != 0;
}

std::string Chess::move_to_string(Move m) const {
  std::string s{static_cast<char>('a' + file_of(m.from())),
                static_cast<char>('1' + rank_of(m.from())),
                static_cast<char>('a' + file_of(m.to())), static_cast<char>('1' + rank_of(m.to()))};
  if (m.kind() == Move::Kind::kPromotion) s += "pnbrqk"[to_int(m.promotion())];
  return s;
}

std::string Chess::serialize() const {
  std::string fen;
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      const PieceCode p = board_[make_square(file, rank)];
      if (p == kNoPiece) {
        ++empty;
        continue;
      }
      if (empty) fen += static_cast<char>('0' + empty);
      empty = 0;
      fen += kPieceLetters[p];
    }
    if (empty) fen += static_cast<char>('0' + empty);
    if (rank) fen += '/';
  }
  fen += side_ == Player::kFirst ? " w " : " b ";
  if (castling_ == 0) fen += '-';
  for (int bit = 0; bit < 4; ++bit) {
    if (castling_ & (1 << bit)) fen += "KQkq"[bit];
  }
  fen += ' ';
  if (ep_ == kNoSquare) {
    fen += '-';
  } else {
    fen += static_cast<char>('a' + file_of(ep_));
    fen += static_cast<char>('1' + rank_of(ep_));
  }
  fen += ' ' + std::to_string(halfmove_) + ' ' +
         std::to_string(std::min(fullmove_, kMaxFullmoveNumber));
  return fen;
}

std::string Chess::render() const {
  std::string out;
  for (int rank = 7; rank >= 0; --rank) {
    out += static_cast<char>('1' + rank);
    out += ' ';
    for (int file = 0; file < 8; ++file) {
      const PieceCode p = board_[make_square(file, rank)];
      out += p == kNoPiece ? '.' : kPieceLetters[p];
      out += file < 7 ? ' ' : '\n';
    }
  }
  out += "  a b c d e f g h\n";
  return out;
}

}  // namespace arena::chess
