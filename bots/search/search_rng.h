#pragma once
// The seeded generator of the randomised searches (random mover, MCTS playouts).
// Deliberately not games/core/rng.h: that one uses unsigned __int128, which -Wpedantic
// rejects in every file that includes it; `%` bias is negligible for move-list sizes.

#include <cstdint>

#include "games/core/zobrist.h"

namespace arena::search {

class SearchRng {
 public:
  explicit constexpr SearchRng(std::uint64_t seed) : state_(seed) {}
  constexpr std::uint64_t next() { return splitmix64(state_); }
  // Uniform in [0, n) up to a bias below n / 2^64; n > 0.
  constexpr std::uint64_t below(std::uint64_t n) { return next() % n; }

 private:
  std::uint64_t state_;
};

}  // namespace arena::search
