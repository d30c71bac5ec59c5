#pragma once
// Chess with bitboards: all the rules (castling, en passant, promotion, check, mate,
// stalemate, fifty-move rule, threefold repetition, insufficient material), FEN in and out,
// moves in UCI and SAN. Satisfies arena::Game (games/core/game.h).
//
// Conventions:
//   - White is Player::kFirst. Squares: a1 = 0 ... h8 = 63 (games/chess/bitboard.h).
//   - serialize() is FEN. The en-passant square is printed, hashed and stored only when an
//     en-passant capture is legal (as FIDE counts positions for repetition, and as Stockfish
//     prints FEN), so equal positions have equal FEN and hash.
//   - Draws by rule (fifty-move, threefold) are treated as claimed at once: outcome() reports
//     them as soon as they are claimable. Repetitions are counted over the moves made on this
//     object; a position read from FEN starts with no history.
//   - Checkmate takes precedence over the fifty-move rule.
//   - FEN's fullmove number is read up to kMaxFullmoveNumber and printed capped there, so
//     every position this class prints reads back (a game from move 1,000,000 counts on inside
//     fullmove_number(); no real game comes near: the fifty-move rule ends any within ~6,000).
// Not thread-safe; copyable (copies carry their undo history).

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "games/chess/bitboard.h"
#include "games/core/expected.h"
#include "games/core/move_list.h"
#include "games/core/types.h"

namespace arena::chess {

inline constexpr int kMaxFullmoveNumber = 1'000'000;

enum class PieceType : std::uint8_t { kPawn, kKnight, kBishop, kRook, kQueen, kKing };

constexpr int to_int(PieceType t) {
  return static_cast<int>(t);
}

// A piece code on the mailbox board: type + 6 * colour (white 0..5, black 6..11).
using PieceCode = std::uint8_t;
inline constexpr PieceCode kNoPiece = 12;
constexpr PieceCode make_piece(Player c, PieceType t) {
  return static_cast<PieceCode>(to_int(t) + 6 * index(c));
}
constexpr PieceType type_of(PieceCode p) {
  return static_cast<PieceType>(p % 6);
}
constexpr Player color_of(PieceCode p) {
  return p < 6 ? Player::kFirst : Player::kSecond;
}

// A move in 16 bits: from (6), to (6), promotion piece (2), kind (2). Castling is encoded as
// the king's move (e1g1).
class Move {
 public:
  enum class Kind : std::uint8_t { kNormal, kPromotion, kEnPassant, kCastling };

  constexpr Move() = default;
  constexpr Move(Square from, Square to, Kind kind = Kind::kNormal,
                 PieceType promotion = PieceType::kKnight)
      : data_(static_cast<std::uint16_t>(from | (to << 6) |
                                         ((to_int(promotion) - to_int(PieceType::kKnight)) << 12) |
                                         (static_cast<int>(kind) << 14))) {}

  constexpr Square from() const { return data_ & 63; }
  constexpr Square to() const { return (data_ >> 6) & 63; }
  constexpr Kind kind() const { return static_cast<Kind>(data_ >> 14); }
  constexpr PieceType promotion() const {
    return static_cast<PieceType>(((data_ >> 12) & 3) + to_int(PieceType::kKnight));
  }
  constexpr std::uint16_t raw() const { return data_; }
  constexpr bool operator==(const Move&) const = default;

 private:
  std::uint16_t data_ = 0;
};

class Chess {
 public:
  static constexpr std::string_view kName = "chess";
  static constexpr std::string_view kTitle = "Chess";
  static constexpr std::string_view kOptionsHelp =
      "no options; start from another position with a FEN (--position)";
  static constexpr int kNumPlayers = 2;
  static constexpr bool kTerminalIffNoMoves = false;  // draws by rule leave legal moves
  static constexpr std::string_view kStartFen =
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

  using Move = chess::Move;
  using MoveList = arena::MoveList<Move, 256>;

  static Expected<Chess> create(const GameOptions& options);
  // Reads a FEN (6 fields, or the first 4 of them as in EPD); the error names the problem.
  static Expected<Chess> deserialize(std::string_view fen);

  Player side_to_move() const { return side_; }
  void generate_moves(MoveList& list) const;
  // Captures (en passant included) and promotions, all four pieces: the moves quiescence
  // search looks at. In check, only the evasions among them (quiet evasions are left out).
  void generate_noisy_moves(MoveList& list) const;
  void make_move(Move m);
  void unmake_move(Move m);
  Outcome outcome() const;
  // The draws by rule (insufficient material, fifty-move rule, threefold repetition) without
  // the move generation that outcome() needs for mate and stalemate: a search that generates
  // the moves anyway finds those from its empty list. outcome() is terminal exactly when this
  // is true or there is no legal move. (The fifty-move rule generates the moves only in check,
  // where a mate takes precedence.)
  bool drawn_by_rule() const;
  std::uint64_t hash() const { return hash_; }
  std::string move_to_string(Move m) const;  // UCI: e2e4, e7e8q, e1g1
  // UCI or SAN (Nf3, exd5, O-O, e8=Q+, check marks optional) naming a legal move.
  std::optional<Move> parse_move(std::string_view text) const;
  std::string serialize() const;  // FEN
  std::string render() const;

  // SAN with + or # (the move must be legal here).
  std::string to_san(Move m) const;
  std::optional<Move> parse_san(std::string_view text) const;

  bool in_check() const { return checkers() != 0; }
  // Null move for the search's null-move pruning (bots/search/alphabeta.h): the side to move
  // passes. Not a chess move; never in a game. Allowed when not in check and the side to move
  // has a knight, bishop, rook or queen (zugzwang is then rare). The fifty-move counter
  // restarts so that repetitions are not counted across a pass; unmake restores everything.
  bool null_move_allowed() const;
  void make_null_move();
  void unmake_null_move();
  bool gives_check(Move m) const;
  // MVV-LVA ordering value: 0 for quiet moves, positive for captures and promotions, larger
  // for more valuable victims taken by cheaper attackers (queen promotions count as a queen).
  int capture_score(const Move& m) const;
  bool is_capture(Move m) const;

  // Piece and square queries.
  PieceCode piece_on(Square s) const { return board_[s]; }
  Bitboard pieces(Player c) const { return by_color_[index(c)]; }
  Bitboard pieces(PieceType t) const { return by_type_[to_int(t)]; }
  Bitboard pieces(Player c, PieceType t) const { return by_color_[index(c)] & by_type_[to_int(t)]; }
  Bitboard occupied() const { return by_color_[0] | by_color_[1]; }
  Square king_square(Player c) const { return lsb(pieces(c, PieceType::kKing)); }
  // Pieces of either colour attacking s, given the occupancy `occ`.
  Bitboard attackers_to(Square s, Bitboard occ) const;
  Bitboard checkers() const;
  Square en_passant_square() const { return ep_; }
  int castling_rights() const { return castling_; }  // bits: 1 K, 2 Q, 4 k, 8 q
  int halfmove_clock() const { return halfmove_; }
  int fullmove_number() const { return fullmove_; }
  // How many earlier positions on this object's history equal the current one.
  int repetitions() const;

 private:
  struct Undo {
    Move move;
    PieceCode captured;
    std::uint8_t castling;
    std::uint8_t ep;
    std::uint16_t halfmove;
    std::uint64_t hash;
  };

  Chess() = default;
  template <bool kNoisyOnly>
  void generate(MoveList& list) const;
  template <bool kNoisyOnly>
  void generate_pawn_moves(MoveList& list, Bitboard target, Bitboard pins) const;
  Bitboard pinned(Square ksq) const;
  void generate_castling(MoveList& list) const;
  bool en_passant_legal(Square from, Square to) const;
  bool en_passant_capturable(Square ep) const;
  bool insufficient_material() const;
  std::uint64_t compute_hash() const;
  void set_en_passant_if_capturable(Square ep);
  void put_piece(PieceCode p, Square s);
  void remove_piece(Square s);
  void move_piece(Square from, Square to);
  std::string san_without_check(Move m) const;
  Expected<void> validate() const;
  Expected<void> parse_fen_fields(const std::vector<std::string_view>& fields);
  Expected<void> parse_placement(std::string_view placement);

  std::array<Bitboard, 6> by_type_{};
  std::array<Bitboard, 2> by_color_{};
  std::array<PieceCode, 64> board_{};
  Player side_ = Player::kFirst;
  int castling_ = 0;
  Square ep_ = kNoSquare;
  int halfmove_ = 0;
  int fullmove_ = 1;
  std::uint64_t hash_ = 0;
  std::vector<Undo> history_;
};

}  // namespace arena::chess
