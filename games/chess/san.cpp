// Move text: UCI out, UCI and SAN in, SAN out.

#include <string>

#include "games/chess/chess.h"

namespace arena::chess {

namespace {

constexpr std::string_view kSanLetters = "PNBRQK";

std::string square_name(Square s) {
  return {static_cast<char>('a' + file_of(s)), static_cast<char>('1' + rank_of(s))};
}

// SAN split into its parts; -1 / kNoSquare where a part is absent.
struct SanParts {
  PieceType piece = PieceType::kPawn;
  int from_file = -1;
  int from_rank = -1;
  Square to = kNoSquare;
  std::optional<PieceType> promotion;
  int castle = 0;  // 1 king side, 2 queen side
};

std::optional<PieceType> piece_from_letter(char ch) {
  const auto pos = kSanLetters.find(ch);
  if (pos == std::string_view::npos || pos == 0) return std::nullopt;
  return static_cast<PieceType>(pos);
}

std::optional<SanParts> split_san(std::string_view text) {
  while (!text.empty() && std::string_view("+#!?").find(text.back()) != std::string_view::npos) {
    text.remove_suffix(1);
  }
  SanParts p;
  if (text == "O-O" || text == "0-0") {
    p.castle = 1;
    return p;
  }
  if (text == "O-O-O" || text == "0-0-0") {
    p.castle = 2;
    return p;
  }
  if (text.empty()) return std::nullopt;
  if (const auto piece = piece_from_letter(text.front())) {
    p.piece = *piece;
    text.remove_prefix(1);
  }
  // Promotion suffix: "=Q" or a bare "Q" after the destination.
  if (text.size() >= 2 && piece_from_letter(text.back()) && p.piece == PieceType::kPawn) {
    p.promotion = piece_from_letter(text.back());
    text.remove_suffix(text[text.size() - 2] == '=' ? 2 : 1);
  }
  if (text.size() < 2) return std::nullopt;
  const char file = text[text.size() - 2];
  const char rank = text[text.size() - 1];
  if (file < 'a' || file > 'h' || rank < '1' || rank > '8') return std::nullopt;
  p.to = make_square(file - 'a', rank - '1');
  text.remove_suffix(2);
  if (!text.empty() && (text.back() == 'x' || text.back() == ':')) text.remove_suffix(1);
  for (const char ch : text) {  // what is left is disambiguation: a file, a rank, or both
    if (ch >= 'a' && ch <= 'h' && p.from_file < 0) {
      p.from_file = ch - 'a';
    } else if (ch >= '1' && ch <= '8' && p.from_rank < 0) {
      p.from_rank = ch - '1';
    } else {
      return std::nullopt;
    }
  }
  return p;
}

}  // namespace

std::string Chess::san_without_check(Move m) const {
  if (m.kind() == Move::Kind::kCastling) return m.to() > m.from() ? "O-O" : "O-O-O";
  const Square from = m.from();
  const Square to = m.to();
  const PieceType type = type_of(board_[from]);
  std::string san;
  if (type == PieceType::kPawn) {
    if (is_capture(m)) san = std::string{static_cast<char>('a' + file_of(from)), 'x'};
    san += square_name(to);
    if (m.kind() == Move::Kind::kPromotion) {
      san += '=';
      san += kSanLetters[to_int(m.promotion())];
    }
    return san;
  }
  san = kSanLetters[to_int(type)];
  // Disambiguate among other pieces of the same type that can reach `to`: file if it
  // suffices, else rank, else both.
  MoveList list;
  generate_moves(list);
  bool clash = false, same_file = false, same_rank = false;
  for (const Move other : list) {
    if (other.to() != to || other.from() == from || board_[other.from()] != board_[from]) continue;
    clash = true;
    same_file = same_file || file_of(other.from()) == file_of(from);
    same_rank = same_rank || rank_of(other.from()) == rank_of(from);
  }
  if (clash) {
    if (!same_file) {
      san += static_cast<char>('a' + file_of(from));
    } else if (!same_rank) {
      san += static_cast<char>('1' + rank_of(from));
    } else {
      san += square_name(from);
    }
  }
  if (is_capture(m)) san += 'x';
  return san + square_name(to);
}

std::string Chess::to_san(Move m) const {
  std::string san = san_without_check(m);
  if (!gives_check(m)) return san;
  Chess after = *this;
  after.history_.clear();  // not needed to decide mate; avoids copying a long history
  after.make_move(m);
  MoveList replies;
  after.generate_moves(replies);
  return san + (replies.empty() ? '#' : '+');
}

std::optional<Move> Chess::parse_san(std::string_view text) const {
  const auto parts = split_san(text);
  if (!parts) return std::nullopt;
  MoveList list;
  generate_moves(list);
  std::optional<Move> found;
  for (const Move m : list) {
    if (parts->castle) {
      if (m.kind() != Move::Kind::kCastling || (m.to() > m.from()) != (parts->castle == 1)) {
        continue;
      }
    } else {
      if (m.kind() == Move::Kind::kCastling || m.to() != parts->to ||
          type_of(board_[m.from()]) != parts->piece) {
        continue;
      }
      if (parts->from_file >= 0 && file_of(m.from()) != parts->from_file) continue;
      if (parts->from_rank >= 0 && rank_of(m.from()) != parts->from_rank) continue;
      const bool promotes = m.kind() == Move::Kind::kPromotion;
      if (promotes != parts->promotion.has_value()) continue;
      if (promotes && m.promotion() != *parts->promotion) continue;
    }
    if (found) return std::nullopt;  // ambiguous
    found = m;
  }
  return found;
}

std::optional<Move> Chess::parse_move(std::string_view text) const {
  if (text.size() == 4 || text.size() == 5) {
    MoveList list;
    generate_moves(list);
    for (const Move m : list) {
      if (move_to_string(m) == text) return m;
    }
  }
  return parse_san(text);
}

}  // namespace arena::chess
