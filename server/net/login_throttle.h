#pragma once
// LoginThrottle: failed bot-token logins per peer address, against token guessing. An address
// may fail kBurst times in a row, then once more every kRefillMs (a token bucket). While its
// bucket is empty every token login from that address (the WebSocket upgrade with a Bearer
// token, POST /api/tournaments) is refused with 429 before the token is looked up, right or
// wrong: guessing costs time, not store reads. A successful login takes nothing; a login
// without a token is no guess. One per server (the listener's), thread-safe.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>

namespace arena::server {

class LoginThrottle {
 public:
  static constexpr int kBurst = 10;
  static constexpr std::int64_t kRefillMs = 1000;
  // Addresses remembered at most: the oldest are forgotten first (memory stays bounded).
  static constexpr std::size_t kMaxTracked = 10000;

  static std::int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }

  // 0 when a token login from `address` may be tried now, else how many ms to wait.
  std::int64_t wait_ms(const std::string& address, std::int64_t now = now_ms()) {
    std::lock_guard lock(mutex_);
    auto it = due_.find(address);
    if (it == due_.end()) return 0;
    // `due` is when the bucket is full again; it may run kBurst - 1 refills ahead of now.
    return std::max<std::int64_t>(0, it->second - now - (kBurst - 1) * kRefillMs);
  }

  // Counts a failed token login from `address`.
  void failed(const std::string& address, std::int64_t now = now_ms()) {
    std::lock_guard lock(mutex_);
    if (due_.size() >= kMaxTracked && !due_.contains(address)) {
      std::erase_if(due_, [now](const auto& entry) { return entry.second <= now; });
      if (due_.size() >= kMaxTracked) {  // all of them still counting: forget the soonest full
        auto oldest = std::min_element(due_.begin(), due_.end(), [](const auto& a, const auto& b) {
          return a.second < b.second;
        });
        due_.erase(oldest);
      }
    }
    auto& due = due_[address];
    due = std::max(due, now) + kRefillMs;
  }

 private:
  std::mutex mutex_;
  std::unordered_map<std::string, std::int64_t> due_;  // address -> when its bucket is full
};

}  // namespace arena::server
