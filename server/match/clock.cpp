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

LagRule LagRule::for_control(const TimeControl& tc) {
  LagRule r;
  std::int64_t game_ms = 0;  // a game of 40 moves, as Lichess estimates it
  switch (tc.kind) {
    case ClockKind::kNone:
      return r;
    case ClockKind::kFischer:
      game_ms = tc.base_ms + 40 * tc.increment_ms;
      break;
    case ClockKind::kMoveTime:
      game_ms = 40 * tc.base_ms;
      break;
  }
  r.gain_ms = std::min<std::int64_t>(1000, 150 + game_ms / 250);
  r.initial_quota_ms = 3 * r.gain_ms;
  r.max_quota_ms = 7 * r.gain_ms;
  r.max_credit_ms = 2 * r.gain_ms;
  return r;
}

GameClock::GameClock(TimeControl tc, int seats)
    : tc_(tc),
      rule_(LagRule::for_control(tc)),
      left_(static_cast<std::size_t>(seats < 1 ? 1 : seats), tc.base_ms),
      running_(left_.size(), 0),
      quota_(left_.size(), rule_.initial_quota_ms),
      last_lag_(left_.size()) {}

std::int64_t GameClock::lag_credit(int seat, std::int64_t elapsed_ms,
                                   std::optional<std::int64_t> lag_ms) const {
  if (!enabled() || !lag_ms || *lag_ms <= 0 || seat < 0 || seat >= seats()) return 0;
  const std::int64_t credit = std::min({*lag_ms, rule_.max_credit_ms, lag_quota(seat), elapsed_ms});
  return credit < 0 ? 0 : credit;
}

std::int64_t GameClock::lag_quota(int seat) const {
  if (seat < 0 || seat >= seats()) return 0;
  return quota_[static_cast<std::size_t>(seat)];
}

std::int64_t GameClock::time_left(int seat, std::int64_t now_ms) const {
  std::int64_t left = left_[static_cast<std::size_t>(seat)];
  if (running(seat)) left -= now_ms - turn_start_;
  return left;
}

void GameClock::start_turn(const std::vector<int>& movers, std::int64_t now_ms) {
  turn_start_ = now_ms;
  for (int seat : movers) {
    if (seat < 0 || seat >= seats()) continue;
    const auto s = static_cast<std::size_t>(seat);
    running_[s] = 1;
    if (tc_.kind == ClockKind::kMoveTime) left_[s] = tc_.base_ms;
  }
}

bool GameClock::end_turn(int seat, std::int64_t now_ms, std::optional<std::int64_t> lag_ms) {
  if (seat < 0 || seat >= seats() || !running(seat) || !enabled()) return true;
  const auto s = static_cast<std::size_t>(seat);
  const std::int64_t elapsed = now_ms - turn_start_;
  const std::int64_t credit = lag_credit(seat, elapsed, lag_ms);
  running_[s] = 0;
  left_[s] -= elapsed - credit;
  if (lag_ms) last_lag_[s] = lag_ms;
  quota_[s] = std::min(rule_.max_quota_ms, quota_[s] - credit + rule_.gain_ms);
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
    if (out_of_time(seat, now_ms, last_lag_[static_cast<std::size_t>(seat)])) return seat;
  return std::nullopt;
}

bool GameClock::out_of_time(int seat, std::int64_t now_ms,
                            std::optional<std::int64_t> lag_ms) const {
  if (!enabled() || !running(seat)) return false;
  return time_left(seat, now_ms) + lag_credit(seat, now_ms - turn_start_, lag_ms) < 0;
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
      // The credit grows with the turn's time up to its bounds: the flag falls when the time
      // left reaches minus the credit at its bound (the turn's time is then past it).
      const auto s = static_cast<std::size_t>(seat);
      const std::int64_t grace = lag_credit(seat, INT64_MAX, last_lag_[s]);
      std::int64_t left = time_left(seat, now_ms) + grace;
      if (left < 0) left = 0;
      if (!soonest || left < *soonest) soonest = left;
    }
  return soonest;
}

void GameClock::set_remaining(int seat, std::int64_t ms) {
  if (seat >= 0 && seat < seats()) left_[static_cast<std::size_t>(seat)] = ms;
}

}  // namespace arena::server
