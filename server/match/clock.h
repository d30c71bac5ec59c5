#pragma once
// Time for matches: an injectable time source (so clock tests never sleep), the time
// controls of the protocol, and the clocks of a match (one per seat). Not thread-safe: a match's strand
// owns its GameClock; a TimeSource may be shared (now_ms() is thread-safe).

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <optional>
#include <string_view>
#include <vector>

#include "games/core/expected.h"

namespace arena::server {

class TimeSource {
 public:
  virtual ~TimeSource() = default;
  // Milliseconds on a monotonic clock.
  virtual std::int64_t now_ms() const = 0;
  // True when time passes by itself, so the match arms real timers for flag falls; a manual
  // source's owner calls Match::check_time() after advancing it.
  virtual bool is_real() const = 0;
};

class SteadyTimeSource final : public TimeSource {
 public:
  std::int64_t now_ms() const override {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  bool is_real() const override { return true; }
};

class ManualTimeSource final : public TimeSource {
 public:
  std::int64_t now_ms() const override { return now_.load(); }
  bool is_real() const override { return false; }
  void advance(std::int64_t ms) { now_ += ms; }

 private:
  std::atomic<std::int64_t> now_{1'000'000};
};

enum class ClockKind { kNone, kFischer, kMoveTime };

// "none" (or empty), "fischer:BASE+INC" (milliseconds) or "movetime:MS".
struct TimeControl {
  ClockKind kind = ClockKind::kNone;
  std::int64_t base_ms = 0, increment_ms = 0;  // movetime: base_ms is the time per move
  std::string to_string() const;
};
Expected<TimeControl> parse_time_control(std::string_view text);

// Lag compensation (protocol/README.md, "Lag compensation"; Lichess's LagTracker). A turn's
// time includes the delivery of the state to the mover and of its move back, one round trip of
// its connection that the server measures (a client cannot claim lag). Each move is credited
//   credit = min(measured round trip, max_credit_ms, the seat's quota, the turn's time)
// and the quota then becomes min(quota - credit + gain_ms, max_quota_ms): a bounded part per
// move, and in total no more than the quota allows. No measurement, no credit.
struct LagRule {
  std::int64_t gain_ms = 0;         // quota earned by each move
  std::int64_t initial_quota_ms = 0;
  std::int64_t max_quota_ms = 0;
  std::int64_t max_credit_ms = 0;   // per move
  // The rule of a time control (none: no credit). From the estimated time of a game of 40
  // moves, T = base + 40 x increment (movetime: 40 x the time per move): gain =
  // min(1000, 150 + T / 250) ms (Lichess's 15 centiseconds + 2/5 of T in seconds), a quota of
  // 3 gains at the start and 7 at most, and at most 2 gains credited to one move.
  static LagRule for_control(const TimeControl& tc);
};

// One clock per seat. A turn starts when the position is announced and ends, for each of its
// movers, when that mover's move arrives; the time in between, less the lag credit (LagRule),
// is charged to the mover. In a simultaneous turn several clocks run at once.
class GameClock {
 public:
  explicit GameClock(TimeControl tc, int seats = 2);

  bool enabled() const { return tc_.kind != ClockKind::kNone; }
  int seats() const { return static_cast<int>(left_.size()); }
  // Starts the turn of `movers` (seats out of range are ignored).
  void start_turn(const std::vector<int>& movers, std::int64_t now_ms);
  void start_turn(int seat, std::int64_t now_ms) { start_turn(std::vector<int>{seat}, now_ms); }
  // Ends `seat`'s part of the running turn, crediting its measured round trip `lag_ms`
  // (nullopt: not measured) within the LagRule; false if it had run out even with the credit
  // (its clock is then 0). A move ends its seat's turn with its lag; a flag fall without.
  bool end_turn(int seat, std::int64_t now_ms, std::optional<std::int64_t> lag_ms = std::nullopt);
  // Ends the turn of every seat still running; false if one of them had run out.
  bool end_turn(std::int64_t now_ms);
  // Time left for `seat` at `now_ms`, counting the running turn.
  std::int64_t remaining(int seat, std::int64_t now_ms) const;
  std::vector<std::int64_t> remaining_all(std::int64_t now_ms) const;
  bool running(int seat) const;
  // The running seat that ran out of time (the lowest seat if several), or nullopt. A flag
  // falls only once a move with the lag of the seat's last move could not be in time.
  std::optional<int> flagged_seat(std::int64_t now_ms) const;
  bool flagged(std::int64_t now_ms) const { return flagged_seat(now_ms).has_value(); }
  // Whether `seat` is running and has run out, even with the credit a move arriving now with
  // `lag_ms` gets.
  bool out_of_time(int seat, std::int64_t now_ms, std::optional<std::int64_t> lag_ms) const;
  // The credit a move of `seat` ending a turn of `elapsed_ms` with `lag_ms` gets now.
  std::int64_t lag_credit(int seat, std::int64_t elapsed_ms,
                          std::optional<std::int64_t> lag_ms) const;
  // What `seat` may still be credited in total now (its quota), and the rule.
  std::int64_t lag_quota(int seat) const;
  const LagRule& lag_rule() const { return rule_; }
  // The first running seat, or -1.
  int running_side() const;
  // Milliseconds until the first running seat runs out, counting the credit its last lag
  // would get (nullopt: none runs, or no clock).
  std::optional<std::int64_t> next_flag_in(std::int64_t now_ms) const;
  // For restarts: set what a seat has left.
  void set_remaining(int seat, std::int64_t ms);

 private:
  TimeControl tc_;
  LagRule rule_;
  std::vector<std::int64_t> left_;
  std::vector<char> running_;
  std::int64_t turn_start_ = 0;
  std::vector<std::int64_t> quota_;                     // per seat
  std::vector<std::optional<std::int64_t>> last_lag_;   // per seat: its last move's
  std::int64_t time_left(int seat, std::int64_t now_ms) const;  // unclamped, may be < 0
};

}  // namespace arena::server
