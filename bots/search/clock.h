#pragma once
// The deadline and stop-flag bookkeeping shared by the searches that honour Limits.

#include <atomic>
#include <chrono>
#include <cstdint>

#include "bots/search/limits.h"

namespace arena::search {

class SearchClock {
 public:
  explicit SearchClock(const Limits& limits)
      : limits_(limits), start_(std::chrono::steady_clock::now()) {}

  double elapsed_ms() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_)
        .count();
  }

  // True when the search must stop now. Cheap checks every call; the clock and the stop
  // flag only every kPollInterval nodes, so the node count stays deterministic.
  bool out_of_budget(std::uint64_t nodes) {
    if (stopped_) return true;
    if (limits_.nodes != 0 && nodes >= limits_.nodes) return stopped_ = true;
    if ((nodes & (kPollInterval - 1)) != 0) return false;
    return poll();
  }

  // Checks the clock and the flag regardless of the node count.
  bool poll() {
    if (stopped_) return true;
    if (limits_.stop != nullptr && limits_.stop->load(std::memory_order_relaxed))
      return stopped_ = true;
    if (limits_.movetime_ms > 0 && elapsed_ms() >= static_cast<double>(limits_.movetime_ms))
      return stopped_ = true;
    return false;
  }

  bool stopped() const { return stopped_; }

 private:
  static constexpr std::uint64_t kPollInterval = 1024;
  Limits limits_;
  std::chrono::steady_clock::time_point start_;
  bool stopped_ = false;
};

}  // namespace arena::search
