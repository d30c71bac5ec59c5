#pragma once
// Zobrist keys computed at compile time (no start-up order, no global constructors).

#include <array>
#include <cstddef>
#include <cstdint>

namespace arena {

// SplitMix64: a fast, well-mixed 64-bit generator; the same sequence on every platform.
constexpr std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// N keys derived from `seed`; give every game (and every table inside a game) its own seed.
template <std::size_t N>
constexpr std::array<std::uint64_t, N> make_zobrist_keys(std::uint64_t seed) {
  std::array<std::uint64_t, N> keys{};
  std::uint64_t state = seed;
  for (auto& k : keys) k = splitmix64(state);
  return keys;
}

}  // namespace arena
