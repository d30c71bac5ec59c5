#include "games/chess/attacks.h"

#include "games/core/zobrist.h"

namespace arena::chess {

namespace {

constexpr int kRookDirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int kBishopDirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

// Relevant occupancy: the rays without their last square (an edge blocker changes nothing).
Bitboard relevant_mask(bool rook, Square s) {
  const Bitboard edges = ((kRank1 | kRank8) & ~(kRank1 << (8 * rank_of(s)))) |
                         ((kFileA | kFileH) & ~(kFileA << file_of(s)));
  return sliding_attacks_slow(rook, s, 0) & ~edges;
}

// Finds a magic for square s and appends its attack table; Stockfish's sparse-random method.
void init_magic(bool rook, Square s, Magic& m, std::vector<Bitboard>& table, std::uint64_t& rng) {
  m.mask = relevant_mask(rook, s);
  const int bits = popcount(m.mask);
  m.shift = static_cast<unsigned>(64 - bits);
  m.offset = static_cast<std::uint32_t>(table.size());
  const std::size_t size = std::size_t{1} << bits;
  std::vector<Bitboard> occupancy(size);
  std::vector<Bitboard> reference(size);
  Bitboard sub = 0;
  for (std::size_t i = 0; i < size; ++i) {  // Carry-Rippler enumeration of subsets
    occupancy[i] = sub;
    reference[i] = sliding_attacks_slow(rook, s, sub);
    sub = (sub - m.mask) & m.mask;
  }
  table.resize(table.size() + size);
  std::vector<int> epoch(size, 0);
  for (int attempt = 1;; ++attempt) {
    do {
      m.magic = splitmix64(rng) & splitmix64(rng) & splitmix64(rng);
    } while (popcount((m.mask * m.magic) >> 56) < 6);
    bool ok = true;
    for (std::size_t i = 0; i < size && ok; ++i) {
      const std::uint32_t idx = m.index(occupancy[i]);
      const std::size_t local = idx - m.offset;
      if (epoch[local] < attempt) {
        epoch[local] = attempt;
        table[idx] = reference[i];
      } else if (table[idx] != reference[i]) {
        ok = false;
      }
    }
    if (ok) return;
  }
}

}  // namespace

Bitboard sliding_attacks_slow(bool rook, Square s, Bitboard occupied) {
  Bitboard result = 0;
  for (const auto& d : rook ? kRookDirs : kBishopDirs) {
    int f = file_of(s) + d[0];
    int r = rank_of(s) + d[1];
    while (f >= 0 && f < 8 && r >= 0 && r < 8) {
      const Bitboard b = square_bb(make_square(f, r));
      result |= b;
      if (occupied & b) break;
      f += d[0];
      r += d[1];
    }
  }
  return result;
}

SliderTables build_slider_tables() {
  SliderTables t;
  t.attacks.reserve(102400 + 5248);
  std::uint64_t rng = 0x5EEDC4E55ULL;
  for (Square s = 0; s < 64; ++s) init_magic(true, s, t.rook[s], t.attacks, rng);
  for (Square s = 0; s < 64; ++s) init_magic(false, s, t.bishop[s], t.attacks, rng);
  for (Square a = 0; a < 64; ++a) {
    for (Square b = 0; b < 64; ++b) {
      const Bitboard bb = square_bb(b);
      for (bool rook : {true, false}) {
        if (sliding_attacks_slow(rook, a, 0) & bb) {
          t.line[a][b] = (sliding_attacks_slow(rook, a, 0) & sliding_attacks_slow(rook, b, 0)) |
                         square_bb(a) | bb;
          t.between[a][b] =
              sliding_attacks_slow(rook, a, bb) & sliding_attacks_slow(rook, b, square_bb(a));
        }
      }
      t.between[a][b] |= bb;
    }
  }
  return t;
}

}  // namespace arena::chess
