#pragma once
// How long a bot may think for one move, from the time control and its clock, with a safety
// margin for the network, the JSON and the search's polling interval, so a bot never loses on
// time because of its own overhead.

#include <cstdint>
#include <optional>
#include <string_view>

namespace arena::client {

struct TimeControl {
  enum class Kind { kNone, kFischer, kMoveTime };
  Kind kind = Kind::kNone;
  std::int64_t base_ms = 0;       // fischer: starting time; movetime: the per-move limit
  std::int64_t increment_ms = 0;  // fischer only
};

// "none", "fischer:BASE+INC" or "movetime:MS" (protocol/README.md); nullopt if malformed.
std::optional<TimeControl> parse_time_control(std::string_view text);

// Milliseconds to think, given my clock (`left_ms`, the state's clocks entry for my side;
// for movetime the server sends the per-move limit). 0 means no clock: search by the
// spec's own limits. Always at least 1 when there is a clock.
std::int64_t move_budget_ms(const TimeControl& tc, std::optional<std::int64_t> left_ms);

}  // namespace arena::client
