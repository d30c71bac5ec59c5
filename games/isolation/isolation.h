#pragma once
// Isolation with knight moves, as in the well-known AI course version.
//
// Rules: a size x size board (7 by default, option size=5..9), two pieces. Each player's first
// move places its piece on any empty square; after that the piece moves like a chess knight to
// a square that is neither blocked nor occupied. Every square a piece has stood on is blocked
// for the rest of the game. The player to move with no legal move loses:
// Outcome::win_for(opponent, EndReason::kNoMoves). Player::kFirst moves first.
//
// Squares: algebraic, file letter then rank number, a1 = bottom-left ("a1".."i9").
// Internally square = (rank - 1) * size + file, kept in a 128-bit mask so that one type serves
// every size (7x7 and 8x8 use only the low word; 9x9 needs 81 bits).
// Move text: the destination square, for a placement and a knight move alike ("d4"); the
// origin is implied because each player has one piece.
// Position text: the rows from the top rank down to rank 1 separated by '/', each cell '.'
// (empty), '#' (blocked: a piece stood there), 'x' (the first player's piece) or 'o' (the
// second's); then a space and the side to move, 'x' or 'o'. The number of rows is the size.
// The 7x7 start is "......./......./......./......./......./......./....... x".

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "games/core/expected.h"
#include "games/core/move_list.h"
#include "games/core/types.h"

namespace arena::isolation {

__extension__ typedef unsigned __int128 Mask;

class Isolation {
 public:
  static constexpr std::string_view kName = "isolation";
  static constexpr std::string_view kTitle = "Isolation (knight moves, visited squares blocked)";
  static constexpr std::string_view kOptionsHelp = "size=5..9 (default 7)";
  static constexpr int kNumPlayers = 2;
  static constexpr int kMinSize = 5;
  static constexpr int kMaxSize = 9;
  static constexpr int kDefaultSize = 7;
  static constexpr int kMaxSquares = kMaxSize * kMaxSize;
  static constexpr std::uint8_t kNoSquare = 0xFF;

  struct Move {
    std::uint8_t from = kNoSquare;  // kNoSquare for the placement of the piece
    std::uint8_t to = 0;
    constexpr bool operator==(const Move&) const = default;
  };
  using MoveList = arena::MoveList<Move, kMaxSquares>;

  static Expected<Isolation> create(const GameOptions& options);
  static Expected<Isolation> deserialize(std::string_view text);

  Player side_to_move() const { return side_; }
  void generate_moves(MoveList& list) const;
  void make_move(Move m);
  void unmake_move(Move m);
  Outcome outcome() const;
  std::uint64_t hash() const { return hash_; }
  std::string move_to_string(Move m) const;
  std::optional<Move> parse_move(std::string_view text) const;
  std::string serialize() const;
  std::string render() const;

  // Board width (= height).
  int size() const { return size_; }
  // The square p's piece stands on, or kNoSquare before its placement.
  int square_of(Player p) const { return pos_[index(p)]; }
  // The squares p could move to if it were p's turn: every empty square before its placement,
  // its unblocked knight targets after.
  Mask move_targets(Player p) const;
  // popcount(move_targets(p)): the legal-move count the heuristics use.
  int num_moves_for(Player p) const;
  // Every square a piece has stood on (the pieces' current squares included).
  Mask visited() const { return visited_; }
  static constexpr int file_of(int square, int size) { return square % size; }
  static constexpr int rank_of(int square, int size) { return square / size; }
  std::string square_name(int square) const;

 private:
  Mask board_mask() const;
  std::optional<int> parse_square(std::string_view text) const;

  Mask visited_ = 0;
  std::array<std::uint8_t, 2> pos_{kNoSquare, kNoSquare};
  std::uint8_t size_ = kDefaultSize;
  Player side_ = Player::kFirst;
  std::uint64_t hash_ = 0;
};

// Number of set bits of a 128-bit mask.
inline int popcount(Mask m) {
  return __builtin_popcountll(static_cast<std::uint64_t>(m)) +
         __builtin_popcountll(static_cast<std::uint64_t>(m >> 64));
}

// Index of the lowest set bit; m must not be zero.
inline int lowest_square(Mask m) {
  const auto low = static_cast<std::uint64_t>(m);
  return low ? __builtin_ctzll(low) : 64 + __builtin_ctzll(static_cast<std::uint64_t>(m >> 64));
}

}  // namespace arena::isolation
