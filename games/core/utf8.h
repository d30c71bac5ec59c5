#pragma once
// UTF-8 read strictly, and the code points that must not reach a line of text others read:
// shared by the name rules where a name enters (protocol/player_name.h) and the exports'
// tag writer where it leaves (db/game_export.h). Header only; pure functions.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace arena::utf8 {

// Decodes the UTF-8 sequence at s[i] (strictly: no overlong forms, no surrogates, nothing
// above U+10FFFF, not cut short) and advances `i` past it; nullopt, with `i` unchanged, if the
// bytes there are not valid UTF-8.
inline std::optional<std::uint32_t> next_code_point(std::string_view s, std::size_t& i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  std::size_t extra = 0;
  std::uint32_t cp = 0, min = 0;
  if (b0 < 0x80) {
    ++i;
    return b0;
  } else if ((b0 & 0xE0) == 0xC0) {
    extra = 1, cp = b0 & 0x1F, min = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    extra = 2, cp = b0 & 0x0F, min = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    extra = 3, cp = b0 & 0x07, min = 0x10000;
  } else {
    return std::nullopt;
  }
  if (i + extra >= s.size()) return std::nullopt;  // cut short
  for (std::size_t k = 1; k <= extra; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) return std::nullopt;
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return std::nullopt;
  i += extra + 1;
  return cp;
}

// C0, DEL and C1 controls.
inline bool is_control(std::uint32_t cp) { return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F); }

// The bidirectional controls that reorder the text around them (and make one name look like
// another): U+061C, U+200E/F, U+202A-202E, U+2066-2069.
inline bool is_bidi_control(std::uint32_t cp) {
  return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

}  // namespace arena::utf8
