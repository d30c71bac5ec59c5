#pragma once
// Qubic: 4x4x4 tic-tac-toe. X (Player::kFirst) moves first; four in a row along any of the
// 76 lines of the cube (rows, columns, pillars, plane diagonals, space diagonals) wins
// (EndReason::kLine); a full cube without a line is a draw (EndReason::kBoardFull).
//
// Cells: level 1..4 (bottom to top), then a file a..d and a rank 1..4 within the level as on a
// chess board (a1 = bottom-left of the level's diagram). Index = (level-1)*16 + (rank-1)*4 +
// file. Move text: level digit, file letter, rank digit: "2b3" = level 2, file b, rank 3.
// Position text: the four levels, level 1 first, separated by '/'; each level is 16 cells
// 'x', 'o' or '.', rank 4 first (a4 b4 c4 d4 a3 ... d1), like a diagram read top-down. The
// side to move follows from the counts (X when they are equal). deserialize() rejects wrong
// counts, both sides with a line, and play continuing after a win.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "games/core/expected.h"
#include "games/core/move_list.h"
#include "games/core/types.h"

namespace arena::tictactoe {

inline constexpr int kQubicCells = 64;
inline constexpr int kQubicLineCount = 76;

// Every winning line as a 64-bit mask over the cell indices: for each of the 13 directions
// (dx, dy, dz) whose first non-zero component is positive, each start cell from which three
// more steps stay inside the cube.
constexpr std::array<std::uint64_t, kQubicLineCount> make_qubic_lines() {
  std::array<std::uint64_t, kQubicLineCount> out{};
  int n = 0;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int first = dz != 0 ? dz : (dy != 0 ? dy : dx);
        if (first <= 0) continue;  // skips (0,0,0) and each direction's opposite
        for (int z = 0; z < 4; ++z)
          for (int y = 0; y < 4; ++y)
            for (int x = 0; x < 4; ++x) {
              const int ex = x + 3 * dx, ey = y + 3 * dy, ez = z + 3 * dz;
              if (ex < 0 || ex > 3 || ey < 0 || ey > 3 || ez < 0 || ez > 3) continue;
              std::uint64_t mask = 0;
              for (int k = 0; k < 4; ++k)
                mask |= std::uint64_t{1} << ((z + k * dz) * 16 + (y + k * dy) * 4 + (x + k * dx));
              if (n < kQubicLineCount) out[n] = mask;
              ++n;
            }
      }
  return out;
}

inline constexpr std::array<std::uint64_t, kQubicLineCount> kQubicLines = make_qubic_lines();

class Qubic {
 public:
  static constexpr std::string_view kName = "qubic";
  static constexpr std::string_view kTitle = "Qubic (4x4x4 tic-tac-toe)";
  static constexpr std::string_view kOptionsHelp = "no options";
  static constexpr int kNumPlayers = 2;

  struct Move {
    std::uint8_t cell = 0;  // 0..63, see the header comment
    constexpr bool operator==(const Move&) const = default;
  };
  using MoveList = arena::MoveList<Move, kQubicCells>;

  static Expected<Qubic> create(const GameOptions& options);
  static Expected<Qubic> deserialize(std::string_view text);

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
  std::uint64_t marks(Player p) const { return marks_[index(p)]; }

 private:
  std::array<std::uint64_t, 2> marks_{};
  std::uint64_t hash_ = 0;
  bool won_ = false;  // the last mover completed a line
};

}  // namespace arena::tictactoe
