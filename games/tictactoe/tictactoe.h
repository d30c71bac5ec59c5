#pragma once
// Tic-tac-toe on 3x3: X (Player::kFirst) moves first; the game ends at the first completed
// line (EndReason::kLine) or when the board is full (EndReason::kBoardFull).
//
// Cells: index 0..8 row by row from the top-left (0 = a3, 2 = c3, 6 = a1, 8 = c1).
// Move text: algebraic "a1".."c3" (file letter then rank digit, a1 = bottom-left) is what
// move_to_string prints; parse_move also accepts one digit 1..9 naming the cells row by row
// from the top-left (1 = a3, 5 = b2, 9 = c1), like a phone keypad.
// Position text: the 9 cells row by row from the top-left as 'x', 'o' or '.', e.g.
// "x......ox"; the side to move follows from the counts (X when they are equal).
// deserialize() rejects layouts that cannot arise in play: wrong counts, both sides with a
// line, or a move played after the game was already won.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "games/core/expected.h"
#include "games/core/move_list.h"
#include "games/core/types.h"

namespace arena::tictactoe {

class TicTacToe {
 public:
  static constexpr std::string_view kName = "tictactoe";
  static constexpr std::string_view kTitle = "Tic-tac-toe (3x3)";
  static constexpr std::string_view kOptionsHelp = "no options";
  static constexpr int kNumPlayers = 2;
  static constexpr int kCells = 9;

  struct Move {
    std::uint8_t cell = 0;  // 0..8, row by row from the top-left
    constexpr bool operator==(const Move&) const = default;
  };
  using MoveList = arena::MoveList<Move, kCells>;

  // The eight winning lines as bit masks over the cell indices.
  static constexpr std::array<std::uint16_t, 8> kLines = {
      0007, 0070, 0700,  // rows (top, middle, bottom)
      0111, 0222, 0444,  // columns (a, b, c)
      0421, 0124,        // diagonals (a3-c1, c3-a1)
  };

  static Expected<TicTacToe> create(const GameOptions& options);
  static Expected<TicTacToe> deserialize(std::string_view text);

  Player side_to_move() const;
  void generate_moves(MoveList& list) const;
  void make_move(Move m);
  void unmake_move(Move m);
  Outcome outcome() const;
  std::uint64_t hash() const { return hash_; }
  std::string move_to_string(Move m) const;
  std::optional<Move> parse_move(std::string_view text) const;
  std::string serialize() const;
  std::string render() const;

  // Bit i set when cell i holds that player's mark.
  std::uint16_t marks(Player p) const { return marks_[index(p)]; }
  // True when `p` has completed a line.
  bool has_line(Player p) const;

 private:
  std::array<std::uint16_t, 2> marks_{};
  std::uint64_t hash_ = 0;
};

}  // namespace arena::tictactoe
