#include "server/match/clock.h"

#include <charconv>

namespace arena::server {
namespace {

bool parse_ms(std::string_view s, std::int64_t& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc{} && p == s.data() + s.size() && out >= 0 && out <= 24LL * 3600 * 1000;
}

}  // namespace

std::string TimeControl::to_string() const {
  switch (kind) {
    case ClockKind::kNone:
      return "none";
    case ClockKind::kFischer:
      return "fischer:" + std::to_string(base_ms) + "+" + std::to_string(increment_ms);
    case ClockKind::kMoveTime:
      return "movetime:" + std::to_string(base_ms);
  }
  return "none";
}

Expected<TimeControl> parse_time_control(std::string_view text) {
  const auto bad = [&] {
    return make_error("time control '" + std::string(text) +
                      "' is not \"none\", \"fischer:BASE_MS+INC_MS\" or \"movetime:MS\"");
  };
  TimeControl tc;
  if (text.empty() || text == "none") return tc;
  if (text.starts_with("fischer:")) {
    auto rest = text.substr(8);
    auto plus = rest.find('+');
    if (plus == std::string_view::npos) return bad();
    if (!parse_ms(rest.substr(0, plus), tc.base_ms) ||
        !parse_ms(rest.substr(plus + 1), tc.increment_ms) || tc.base_ms == 0)
      return bad();
    tc.kind = ClockKind::kFischer;
    return tc;
  }
  if (text.starts_with("movetime:")) {
    if (!parse_ms(text.substr(9), tc.base_ms) || tc.base_ms == 0) return bad();
    tc.kind = ClockKind::kMoveTime;
    return tc;
  }
  return bad();
}

GameClock::GameClock(TimeControl tc) : tc_(tc) {
  left_[0] = left_[1] = tc.base_ms;
}

void GameClock::start_turn(int side, std::int64_t now_ms) {
  running_ = side;
  turn_start_ = now_ms;
  if (tc_.kind == ClockKind::kMoveTime) left_[side] = tc_.base_ms;
}

bool GameClock::end_turn(std::int64_t now_ms) {
  if (running_ < 0 || !enabled()) return true;
  const int side = running_;
  running_ = -1;
  left_[side] -= now_ms - turn_start_;
  if (left_[side] < 0) {
    left_[side] = 0;
    return false;
  }
  if (tc_.kind == ClockKind::kFischer) left_[side] += tc_.increment_ms;
  if (tc_.kind == ClockKind::kMoveTime) left_[side] = tc_.base_ms;
  return true;
}

std::int64_t GameClock::remaining(int side, std::int64_t now_ms) const {
  if (!enabled()) return 0;
  std::int64_t left = left_[side];
  if (side == running_) left -= now_ms - turn_start_;
  return left < 0 ? 0 : left;
}

bool GameClock::flagged(std::int64_t now_ms) const {
  return enabled() && running_ >= 0 && left_[running_] - (now_ms - turn_start_) < 0;
}

}  // namespace arena::server
