#include "bots/client/time_budget.h"

#include <algorithm>
#include <charconv>
#include <string>

namespace arena::client {
namespace {

std::optional<std::int64_t> parse_ms(std::string_view text) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || end != text.data() + text.size() || v < 0) return std::nullopt;
  return v;
}

// What one move costs besides thinking on loopback: JSON, a worker hand-off, the search
// noticing its deadline (it polls every few thousand nodes; slower under sanitizers).
constexpr std::int64_t kMinMarginMs = 25;

}  // namespace

std::optional<TimeControl> parse_time_control(std::string_view text) {
  TimeControl tc;
  if (text.empty() || text == "none") return tc;
  if (text.starts_with("movetime:")) {
    auto ms = parse_ms(text.substr(9));
    if (!ms || *ms == 0) return std::nullopt;
    tc.kind = TimeControl::Kind::kMoveTime;
    tc.base_ms = *ms;
    return tc;
  }
  if (text.starts_with("fischer:")) {
    const std::string_view rest = text.substr(8);
    const auto plus = rest.find('+');
    auto base = parse_ms(rest.substr(0, plus));
    auto inc = plus == std::string_view::npos ? std::optional<std::int64_t>(0)
                                              : parse_ms(rest.substr(plus + 1));
    if (!base || !inc || *base == 0) return std::nullopt;
    tc.kind = TimeControl::Kind::kFischer;
    tc.base_ms = *base;
    tc.increment_ms = *inc;
    return tc;
  }
  return std::nullopt;
}

std::int64_t move_budget_ms(const TimeControl& tc, std::optional<std::int64_t> left_ms) {
  switch (tc.kind) {
    case TimeControl::Kind::kNone:
      return 0;
    case TimeControl::Kind::kMoveTime: {
      // Keep a third (at least kMinMarginMs) for everything that is not search: on a loaded
      // machine a thread may wait tens of milliseconds before it runs again.
      const std::int64_t limit = left_ms.value_or(tc.base_ms);
      const std::int64_t margin = std::max(kMinMarginMs, limit / 3);
      return std::max<std::int64_t>(1, limit - margin);
    }
    case TimeControl::Kind::kFischer: {
      const std::int64_t left = left_ms.value_or(tc.base_ms);
      // A thirtieth of the clock plus most of the increment, never more than a third of what
      // is left, and always a margin short of flagging.
      std::int64_t budget = left / 30 + tc.increment_ms * 3 / 4;
      budget = std::min(budget, left / 3);
      budget = std::min(budget, left - std::max(kMinMarginMs, left / 10));
      return std::max<std::int64_t>(1, budget);
    }
  }
  return 0;
}

}  // namespace arena::client
