#include "protocol/player_name.h"

#include <cstdint>
#include <cstdio>

namespace arena::protocol {
namespace {

// "U+202E"
std::string code_point_name(std::uint32_t cp) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(cp));
  return buf;
}

bool is_control(std::uint32_t cp) { return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F); }

bool is_bidi_control(std::uint32_t cp) {
  return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

// Decodes one UTF-8 sequence at `i` (strictly: no overlong forms, no surrogates, nothing above
// U+10FFFF); advances `i`. nullopt if the bytes there are not valid UTF-8.
std::optional<std::uint32_t> next_code_point(std::string_view s, std::size_t& i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b0 = byte(i);
  int extra = 0;
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
  if (i + static_cast<std::size_t>(extra) >= s.size()) return std::nullopt;  // cut short
  for (int k = 1; k <= extra; ++k) {
    const unsigned char b = byte(i + static_cast<std::size_t>(k));
    if ((b & 0xC0) != 0x80) return std::nullopt;
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return std::nullopt;
  i += static_cast<std::size_t>(extra) + 1;
  return cp;
}

}  // namespace

std::optional<std::string> name_problem(std::string_view name) {
  if (name.empty()) return "is empty (a name has 1 to " + std::to_string(kMaxNameChars) +
                           " characters)";
  std::size_t chars = 0;
  for (std::size_t i = 0; i < name.size();) {
    const std::size_t at = i;
    const auto cp = next_code_point(name, i);
    ++chars;
    if (!cp) return "is not valid UTF-8 (byte " + std::to_string(at + 1) + ")";
    if (is_control(*cp))
      return "contains a control character (" + code_point_name(*cp) + ") at character " +
             std::to_string(chars);
    if (is_bidi_control(*cp))
      return "contains a bidirectional control character (" + code_point_name(*cp) +
             ") at character " + std::to_string(chars);
    if (chars > kMaxNameChars)
      return "is longer than " + std::to_string(kMaxNameChars) + " characters";
  }
  if (name.front() == ' ' || name.back() == ' ') return "begins or ends with a space";
  return std::nullopt;
}

std::optional<std::string> chosen_name_problem(std::string_view name) {
  if (auto problem = name_problem(name)) return problem;
  if (name.find('#') != std::string_view::npos)
    return "contains '#' (the server names guests NAME#NUMBER; choose a name without it)";
  return std::nullopt;
}

std::string name_key(std::string_view name) {
  std::string out(name);
  for (char& ch : out)
    if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
  return out;
}

}  // namespace arena::protocol
