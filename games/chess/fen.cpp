// FEN reading with validation: every rejection names the field or the rule it breaks.

#include <charconv>
#include <string>

#include "games/chess/attacks.h"
#include "games/chess/chess.h"

namespace arena::chess {

namespace {

std::vector<std::string_view> split_fields(std::string_view text) {
  std::vector<std::string_view> fields;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
    if (i > start) fields.push_back(text.substr(start, i - start));
  }
  return fields;
}

std::optional<int> parse_number(std::string_view s) {
  int value = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || ptr != s.data() + s.size() || value < 0) return std::nullopt;
  return value;
}

std::string quoted(std::string_view s) {
  return "'" + std::string(s) + "'";
}

}  // namespace

Expected<Chess> Chess::deserialize(std::string_view fen) {
  const auto fields = split_fields(fen);
  if (fields.size() != 6 && fields.size() != 4) {
    return make_error("FEN " + quoted(fen) + " has " + std::to_string(fields.size()) +
                      " fields; expected 6 (placement, side, castling, en passant, halfmove "
                      "clock, fullmove number) or the first 4");
  }
  Chess c;
  c.board_.fill(kNoPiece);
  if (auto ok = c.parse_fen_fields(fields); !ok) return make_error("FEN: " + ok.error());
  if (auto ok = c.validate(); !ok) return make_error("FEN " + quoted(fen) + ": " + ok.error());
  // Keep the en-passant square only when a capture there is legal (see chess.h).
  if (c.ep_ != kNoSquare && !c.en_passant_capturable(c.ep_)) {
    c.ep_ = kNoSquare;
  }
  c.hash_ = c.compute_hash();
  c.history_.reserve(256);
  return c;
}

Expected<void> Chess::parse_placement(std::string_view placement) {
  constexpr std::string_view kLetters = "PNBRQKpnbrqk";
  // Ranks 8 down to 1, separated by '/'; digits count empty squares.
  int rank = 7;
  int file = 0;
  for (const char ch : placement) {
    if (ch == '/') {
      if (file != 8) {
        return make_error("rank " + std::to_string(rank + 1) + " has " + std::to_string(file) +
                          " squares, not 8");
      }
      if (--rank < 0) return make_error("piece placement has more than 8 ranks");
      file = 0;
    } else if (ch >= '1' && ch <= '8') {
      file += ch - '0';
    } else if (const auto pos = kLetters.find(ch); pos != std::string_view::npos) {
      if (file < 8) put_piece(static_cast<PieceCode>(pos), make_square(file, rank));
      ++file;
    } else if (ch >= '0' && ch <= '9') {
      return make_error(std::string("bad empty-square count '") + ch + "' in piece placement");
    } else {
      return make_error(std::string("bad piece letter '") + ch + "' in piece placement");
    }
    if (file > 8) {
      return make_error("rank " + std::to_string(rank + 1) + " has more than 8 squares");
    }
  }
  if (file != 8) {
    return make_error("rank " + std::to_string(rank + 1) + " has " + std::to_string(file) +
                      " squares, not 8");
  }
  if (rank != 0)
    return make_error("piece placement has " + std::to_string(8 - rank) + " ranks, not 8");
  return {};
}

Expected<void> Chess::parse_fen_fields(const std::vector<std::string_view>& fields) {
  if (auto ok = parse_placement(fields[0]); !ok) return ok;
  // Side to move.
  if (fields[1] != "w" && fields[1] != "b") {
    return make_error("side to move must be 'w' or 'b', not " + quoted(fields[1]));
  }
  side_ = fields[1] == "w" ? Player::kFirst : Player::kSecond;
  // Castling rights.
  if (fields[2] != "-") {
    for (const char ch : fields[2]) {
      const auto bit = std::string_view("KQkq").find(ch);
      if (bit == std::string_view::npos || (castling_ & (1 << bit))) {
        return make_error("bad castling field " + quoted(fields[2]));
      }
      castling_ |= 1 << bit;
    }
  }
  // En passant target.
  if (fields[3] != "-") {
    const auto f = fields[3];
    const int want_rank = side_ == Player::kFirst ? 5 : 2;
    if (f.size() != 2 || f[0] < 'a' || f[0] > 'h' || f[1] - '1' != want_rank) {
      return make_error("bad en passant field " + quoted(f) + " (must be '-' or a square on rank " +
                        std::to_string(want_rank + 1) + ")");
    }
    ep_ = make_square(f[0] - 'a', want_rank);
  }
  if (fields.size() == 6) {
    const auto half = parse_number(fields[4]);
    const auto full = parse_number(fields[5]);
    // Bounds keep the clocks inside the undo record and far from overflow.
    if (!half || *half > 65535) return make_error("bad halfmove clock " + quoted(fields[4]));
    if (!full || *full < 1 || *full > kMaxFullmoveNumber) {
      return make_error("bad fullmove number " + quoted(fields[5]));
    }
    halfmove_ = *half;
    fullmove_ = *full;
  }
  return {};
}

Expected<void> Chess::validate() const {
  using enum PieceType;
  for (const Player c : {Player::kFirst, Player::kSecond}) {
    const int kings = popcount(pieces(c, kKing));
    if (kings != 1) {
      return make_error(std::string(c == Player::kFirst ? "white" : "black") + " has " +
                        std::to_string(kings) + " kings; exactly one is required");
    }
  }
  if (pieces(kPawn) & (kRank1 | kRank8))
    return make_error("a pawn stands on the first or last rank");
  const Player them = opponent(side_);
  if (attackers_to(king_square(them), occupied()) & pieces(side_)) {
    return make_error(std::string("the side not to move (") +
                      (them == Player::kFirst ? "white" : "black") + ") is in check");
  }
  // Each castling right needs the king and that rook on their original squares.
  constexpr Square kRookSquare[4] = {7, 0, 63, 56};
  for (int bit = 0; bit < 4; ++bit) {
    if (!(castling_ & (1 << bit))) continue;
    const Player c = bit < 2 ? Player::kFirst : Player::kSecond;
    const Square king_home = c == Player::kFirst ? 4 : 60;
    if (board_[king_home] != make_piece(c, kKing) ||
        board_[kRookSquare[bit]] != make_piece(c, kRook)) {
      return make_error(std::string("castling right '") + "KQkq"[bit] +
                        "' needs the king and rook on their original squares");
    }
  }
  if (ep_ != kNoSquare) {
    // The pawn that just moved two squares stands in front of ep_, with ep_ and the square
    // it came from empty.
    const int dir = side_ == Player::kFirst ? -8 : 8;
    if (board_[ep_ + dir] != make_piece(them, kPawn) || board_[ep_] != kNoPiece ||
        board_[ep_ - dir] != kNoPiece) {
      return make_error("en passant square " + std::string{char('a' + file_of(ep_))} +
                        char('1' + rank_of(ep_)) + " does not follow a two-square pawn move");
    }
  }
  return {};
}

}  // namespace arena::chess
