#pragma once
// Time for matches: an injectable time source (so clock tests never sleep), the time
// controls of the protocol, and the two clocks of a match. Not thread-safe: a match's strand
// owns its GameClock; a TimeSource may be shared (now_ms() is thread-safe).

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

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

// The two clocks. A turn starts when the position is announced and ends when the move
// arrives; the time in between is charged to the side to move.
class GameClock {
 public:
  explicit GameClock(TimeControl tc);

  bool enabled() const { return tc_.kind != ClockKind::kNone; }
  void start_turn(int side, std::int64_t now_ms);
  // Ends the running turn; false if the side had run out of time (its clock is then 0).
  bool end_turn(std::int64_t now_ms);
  // Time left for `side` at `now_ms`, counting the running turn.
  std::int64_t remaining(int side, std::int64_t now_ms) const;
  bool flagged(std::int64_t now_ms) const;
  int running_side() const { return running_; }
  // For restarts: set what each side has left.
  void set_remaining(int side, std::int64_t ms) { left_[side] = ms; }

 private:
  TimeControl tc_;
  std::int64_t left_[2] = {0, 0};
  int running_ = -1;
  std::int64_t turn_start_ = 0;
};

}  // namespace arena::server
