#pragma once
// FNV-1a, 64 bits: the checksum of the pattern databases' files and the history slot of a move's
// bytes in move ordering. Not for anything an adversary chooses (it is not collision-resistant).

#include <cstdint>
#include <span>

namespace arena {

constexpr std::uint64_t fnv1a(std::span<const std::uint8_t> bytes) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (std::uint8_t b : bytes) h = (h ^ b) * 0x100000001b3ULL;
  return h;
}

}  // namespace arena
