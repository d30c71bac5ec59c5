#pragma once
// Bitboards: one bit per square, a1 = bit 0, h1 = bit 7, a8 = bit 56, h8 = bit 63.

#include <bit>
#include <cstdint>

namespace arena::chess {

using Bitboard = std::uint64_t;
using Square = int;  // 0..63 as above; kNoSquare when absent

inline constexpr Square kNoSquare = 64;

inline constexpr Bitboard kFileA = 0x0101010101010101ULL;
inline constexpr Bitboard kFileH = kFileA << 7;
inline constexpr Bitboard kRank1 = 0xFFULL;
inline constexpr Bitboard kRank2 = kRank1 << 8;
inline constexpr Bitboard kRank3 = kRank1 << 16;
inline constexpr Bitboard kRank6 = kRank1 << 40;
inline constexpr Bitboard kRank7 = kRank1 << 48;
inline constexpr Bitboard kRank8 = kRank1 << 56;
inline constexpr Bitboard kDarkSquares = 0xAA55AA55AA55AA55ULL;

constexpr Bitboard square_bb(Square s) {
  return Bitboard{1} << s;
}
constexpr int file_of(Square s) {
  return s & 7;
}
constexpr int rank_of(Square s) {
  return s >> 3;
}
constexpr Square make_square(int file, int rank) {
  return rank * 8 + file;
}
constexpr int popcount(Bitboard b) {
  return std::popcount(b);
}
constexpr Square lsb(Bitboard b) {
  return std::countr_zero(b);
}
constexpr Square pop_lsb(Bitboard& b) {
  const Square s = lsb(b);
  b &= b - 1;
  return s;
}
constexpr bool more_than_one(Bitboard b) {
  return (b & (b - 1)) != 0;
}

// Shifts that drop bits falling off the a- or h-file.
constexpr Bitboard shift_north(Bitboard b) {
  return b << 8;
}
constexpr Bitboard shift_south(Bitboard b) {
  return b >> 8;
}
constexpr Bitboard shift_east(Bitboard b) {
  return (b & ~kFileH) << 1;
}
constexpr Bitboard shift_west(Bitboard b) {
  return (b & ~kFileA) >> 1;
}

}  // namespace arena::chess
