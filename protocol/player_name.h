#pragma once
// The rules a player's name follows where it enters the server (hello.name, set_name): 1 to
// kMaxNameChars characters of valid UTF-8, none a control character (C0, DEL, C1) nor a
// bidirectional control (U+061C, U+200E/F, U+202A-202E, U+2066-2069: they reorder the text
// around them and make one name look like another), no space at either end. Names are also
// escaped where they leave (db/game_export: PGN/PDN tags; JSON and HTML by their writers), so
// that a name stored before these rules existed cannot forge a line either. Pure functions.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace arena::protocol {

inline constexpr std::size_t kMaxNameChars = 32;  // Unicode code points

// What is wrong with `name` as a player's name ("contains a control character (U+000A) at
// character 4"), or nullopt if it follows the rules.
std::optional<std::string> name_problem(std::string_view name);

// A name a guest chooses (set_name) follows the rules above and has no '#': the server names
// guests "NAME#ID", and a chosen name must not look like another guest's.
std::optional<std::string> chosen_name_problem(std::string_view name);

// `name` folded for uniqueness: ASCII letters lower-cased ("Alice" and "alice" are one name).
std::string name_key(std::string_view name);

}  // namespace arena::protocol
