#pragma once
// Attack sets. Knight, king and pawn tables are constexpr; slider attacks use magic
// bitboards whose tables are built once, on first use, inside a function-local static (no
// start-up order between translation units). Magic numbers are found by a seeded search, so
// every run builds the same tables.

#include <array>
#include <cstdint>
#include <vector>

#include "games/chess/bitboard.h"

namespace arena::chess {

namespace detail {

constexpr Bitboard leaper_attacks(Square s, const int (&deltas)[8][2]) {
  Bitboard b = 0;
  for (const auto& d : deltas) {
    const int f = file_of(s) + d[0];
    const int r = rank_of(s) + d[1];
    if (f >= 0 && f < 8 && r >= 0 && r < 8) b |= square_bb(make_square(f, r));
  }
  return b;
}

constexpr std::array<Bitboard, 64> make_leaper_table(const int (&deltas)[8][2]) {
  std::array<Bitboard, 64> t{};
  for (Square s = 0; s < 64; ++s) t[s] = leaper_attacks(s, deltas);
  return t;
}

inline constexpr int kKnightDeltas[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                            {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
inline constexpr int kKingDeltas[8][2] = {{1, 0},  {1, 1},   {0, 1},  {-1, 1},
                                          {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};

constexpr std::array<std::array<Bitboard, 64>, 2> make_pawn_table() {
  std::array<std::array<Bitboard, 64>, 2> t{};
  for (Square s = 0; s < 64; ++s) {
    const Bitboard b = square_bb(s);
    t[0][s] = shift_east(shift_north(b)) | shift_west(shift_north(b));
    t[1][s] = shift_east(shift_south(b)) | shift_west(shift_south(b));
  }
  return t;
}

}  // namespace detail

inline constexpr std::array<Bitboard, 64> kKnightAttacks =
    detail::make_leaper_table(detail::kKnightDeltas);
inline constexpr std::array<Bitboard, 64> kKingAttacks =
    detail::make_leaper_table(detail::kKingDeltas);
// kPawnAttacks[color][s]: squares a pawn of `color` (0 white, 1 black) on s attacks.
inline constexpr std::array<std::array<Bitboard, 64>, 2> kPawnAttacks = detail::make_pawn_table();

struct Magic {
  Bitboard mask = 0;
  Bitboard magic = 0;
  std::uint32_t offset = 0;
  unsigned shift = 0;
  std::uint32_t index(Bitboard occupied) const {
    return offset + static_cast<std::uint32_t>(((occupied & mask) * magic) >> shift);
  }
};

struct SliderTables {
  std::array<Magic, 64> rook{};
  std::array<Magic, 64> bishop{};
  std::vector<Bitboard> attacks;  // rook and bishop entries, addressed by Magic::index
  // between[a][b]: squares strictly between a and b on a shared line (else empty), plus b.
  std::array<std::array<Bitboard, 64>, 64> between{};
  // line[a][b]: the whole line through a and b (else empty).
  std::array<std::array<Bitboard, 64>, 64> line{};
};

SliderTables build_slider_tables();

inline const SliderTables& slider_tables() {
  static const SliderTables tables = build_slider_tables();
  return tables;
}

inline Bitboard rook_attacks(Square s, Bitboard occupied) {
  const SliderTables& t = slider_tables();
  return t.attacks[t.rook[s].index(occupied)];
}
inline Bitboard bishop_attacks(Square s, Bitboard occupied) {
  const SliderTables& t = slider_tables();
  return t.attacks[t.bishop[s].index(occupied)];
}
inline Bitboard queen_attacks(Square s, Bitboard occupied) {
  return rook_attacks(s, occupied) | bishop_attacks(s, occupied);
}
inline Bitboard between_bb(Square a, Square b) {
  return slider_tables().between[a][b];
}
inline Bitboard line_bb(Square a, Square b) {
  return slider_tables().line[a][b];
}

// Slow ray walk, used to build the tables and by tests as an independent reference.
Bitboard sliding_attacks_slow(bool rook, Square s, Bitboard occupied);

}  // namespace arena::chess
