#include "protocol/player_name.h"

#include <cstdint>
#include <cstdio>

#include "games/core/utf8.h"

namespace arena::protocol {
namespace {

// "U+202E"
std::string code_point_name(std::uint32_t cp) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(cp));
  return buf;
}

}  // namespace

std::optional<std::string> name_problem(std::string_view name) {
  if (name.empty()) return "is empty (a name has 1 to " + std::to_string(kMaxNameChars) +
                           " characters)";
  std::size_t chars = 0;
  for (std::size_t i = 0; i < name.size();) {
    const std::size_t at = i;
    const auto cp = utf8::next_code_point(name, i);
    ++chars;
    if (!cp) return "is not valid UTF-8 (byte " + std::to_string(at + 1) + ")";
    if (utf8::is_control(*cp))
      return "contains a control character (" + code_point_name(*cp) + ") at character " +
             std::to_string(chars);
    if (utf8::is_bidi_control(*cp))
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
