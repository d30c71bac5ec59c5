#pragma once
// A small seeded generator for reproducible scrambles, openings and playouts.

#include <cstdint>

#include "games/core/zobrist.h"

namespace arena {

class Rng {
 public:
  explicit constexpr Rng(std::uint64_t seed) : state_(seed) {}
  constexpr std::uint64_t next() { return splitmix64(state_); }
  // Uniform in [0, n); n > 0. Multiply-shift avoids the bias of `%` for small n.
  constexpr std::uint64_t below(std::uint64_t n) {
    __extension__ using Wide = unsigned __int128;  // GCC/Clang; __extension__ keeps -Wpedantic quiet
    return static_cast<std::uint64_t>((static_cast<Wide>(next()) * n) >> 64);
  }

 private:
  std::uint64_t state_;
};

}  // namespace arena
