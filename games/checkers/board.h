#pragma once
// Board geometry of English checkers on 32-bit bitboards (bit i = PDN square i + 1).
//
// Row r (0 = Black's back row, squares 1-4) holds bits 4r..4r+3. On even rows the dark
// squares are in columns 1, 3, 5, 7, on odd rows in columns 0, 2, 4, 6, so a diagonal step
// changes the bit index by 3, 4 or 5 depending on the row's parity; a jump always changes it
// by 7 or 9.

#include <array>
#include <cstdint>

namespace arena::checkers::board {

using Bitboard = std::uint32_t;

inline constexpr Bitboard kAll = 0xFFFFFFFFu;
inline constexpr Bitboard kEvenRows = 0x0F0F0F0Fu;
inline constexpr Bitboard kOddRows = 0xF0F0F0F0u;
inline constexpr Bitboard kEvenNotRight = 0x07070707u;   // even rows without column 7
inline constexpr Bitboard kOddNotLeft = 0xE0E0E0E0u;     // odd rows without column 0
inline constexpr Bitboard kBlackCrownRow = 0xF0000000u;  // squares 29-32
inline constexpr Bitboard kWhiteCrownRow = 0x0000000Fu;  // squares 1-4

// Directions: towards higher squares (Black's forward) first, then towards lower ones.
enum Direction : int { kDownLeft = 0, kDownRight = 1, kUpLeft = 2, kUpRight = 3 };

constexpr Bitboard step(Bitboard b, int dir) {
  switch (dir) {
    case kDownLeft:
      return ((b & kEvenRows) << 4) | ((b & kOddNotLeft) << 3);
    case kDownRight:
      return ((b & kEvenNotRight) << 5) | ((b & kOddRows) << 4);
    case kUpLeft:
      return ((b & kEvenRows) >> 4) | ((b & kOddNotLeft) >> 5);
    default:
      return ((b & kEvenNotRight) >> 3) | ((b & kOddRows) >> 4);
  }
}

// neighbour[dir][sq] and jump[dir][sq]: the square one and two steps away, or -1.
struct Tables {
  std::array<std::array<std::int8_t, 32>, 4> neighbour{};
  std::array<std::array<std::int8_t, 32>, 4> jump{};
};

constexpr int square_of(Bitboard b) {
  for (int i = 0; i < 32; ++i) {
    if (b == (Bitboard{1} << i)) return i;
  }
  return -1;
}

constexpr Tables make_tables() {
  Tables t{};
  for (int dir = 0; dir < 4; ++dir) {
    for (int sq = 0; sq < 32; ++sq) {
      const Bitboard one = step(Bitboard{1} << sq, dir);
      const Bitboard two = step(one, dir);
      t.neighbour[dir][sq] = static_cast<std::int8_t>(square_of(one));
      t.jump[dir][sq] = static_cast<std::int8_t>(square_of(two));
    }
  }
  return t;
}

inline constexpr Tables kTables = make_tables();

// The row (0..7) of a square, counted from Black's back row.
constexpr int row_of(int sq) {
  return sq / 4;
}

}  // namespace arena::checkers::board
