#pragma once
// Zobrist keys of English checkers: one per square for each of the four piece kinds, one for
// White to move. Computed at compile time.

#include <cstdint>

#include "games/core/zobrist.h"

namespace arena::checkers {

inline constexpr auto kPieceKeys = make_zobrist_keys<129>(0xC4EC4E85ULL);
inline constexpr std::uint64_t kSideKey = kPieceKeys[128];

// `player` is 0 (Black) or 1 (White); `sq` is 0..31.
constexpr std::uint64_t piece_key(int player, bool king, int sq) {
  return kPieceKeys[(player * 2 + (king ? 1 : 0)) * 32 + sq];
}

}  // namespace arena::checkers
