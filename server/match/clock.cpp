#include "server/match/clock.h"

#include <algorithm>
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

GameClock::GameClock(TimeControl tc, int seats)
    : tc_(tc),
      left_(static_cast<std::size_t>(seats < 1 ? 1 : seats), tc.base_ms),
      running_(left_.size(), 0) {}

void GameClock::start_turn(const std::vector<int>& movers, std::int64_t now_ms) {
  turn_start_ = now_ms;
  for (int seat : movers) {
    if (seat < 0 || seat >= seats()) continue;
    const auto s = static_cast<std::size_t>(seat);
    running_[s] = 1;
    if (tc_.kind == ClockKind::kMoveTime) left_[s] = tc_.base_ms;
  }
}

bool GameClock::end_turn(int seat, std::int64_t now_ms) {
  if (seat < 0 || seat >= seats() || !running(seat) || !enabled()) return true;
  const auto s = static_cast<std::size_t>(seat);
  running_[s] = 0;
  left_[s] -= now_ms - turn_start_;
  if (left_[s] < 0) {
    left_[s] = 0;
    return false;
  }
  if (tc_.kind == ClockKind::kFischer) left_[s] += tc_.increment_ms;
  if (tc_.kind == ClockKind::kMoveTime) left_[s] = tc_.base_ms;
  return true;
}

bool GameClock::end_turn(std::int64_t now_ms) {
  bool ok = true;
  for (int seat = 0; seat < seats(); ++seat)
    if (running(seat)) ok = end_turn(seat, now_ms) && ok;
  std::fill(running_.begin(), running_.end(), 0);
  return ok;
}

bool GameClock::running(int seat) const {
  return seat >= 0 && seat < seats() && running_[static_cast<std::size_t>(seat)] != 0;
}

std::int64_t GameClock::remaining(int seat, std::int64_t now_ms) const {
  if (!enabled() || seat < 0 || seat >= seats()) return 0;
  std::int64_t left = left_[static_cast<std::size_t>(seat)];
  if (running(seat)) left -= now_ms - turn_start_;
  return left < 0 ? 0 : left;
}

std::vector<std::int64_t> GameClock::remaining_all(std::int64_t now_ms) const {
  std::vector<std::int64_t> out;
  for (int seat = 0; seat < seats(); ++seat) out.push_back(remaining(seat, now_ms));
  return out;
}

std::optional<int> GameClock::flagged_seat(std::int64_t now_ms) const {
  if (!enabled()) return std::nullopt;
  for (int seat = 0; seat < seats(); ++seat)
    if (out_of_time(seat, now_ms)) return seat;
  return std::nullopt;
}

bool GameClock::out_of_time(int seat, std::int64_t now_ms) const {
  return enabled() && running(seat) &&
         left_[static_cast<std::size_t>(seat)] - (now_ms - turn_start_) < 0;
}

int GameClock::running_side() const {
  for (int seat = 0; seat < seats(); ++seat)
    if (running(seat)) return seat;
  return -1;
}

std::optional<std::int64_t> GameClock::next_flag_in(std::int64_t now_ms) const {
  if (!enabled()) return std::nullopt;
  std::optional<std::int64_t> soonest;
  for (int seat = 0; seat < seats(); ++seat)
    if (running(seat)) {
      const std::int64_t left = remaining(seat, now_ms);
      if (!soonest || left < *soonest) soonest = left;
    }
  return soonest;
}

void GameClock::set_remaining(int seat, std::int64_t ms) {
  if (seat >= 0 && seat < seats()) left_[static_cast<std::size_t>(seat)] = ms;
}

}  // namespace arena::server
