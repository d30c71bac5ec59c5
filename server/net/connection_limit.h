#pragma once
// ConnectionLimit: how many connections each peer address holds at once, and a cap on it, as
// nginx's `limit_conn` keyed by `$binary_remote_addr`: every address counts, loopback
// included (the house bots and a local league come from 127.0.0.1 too, so the default cap is
// high: see kAutoConnectionsPerAddress), IPv6 by whole address. A connection over the cap is
// refused with 503 at once (the listener), as limit_conn answers; the others are untouched.
// One per listener; thread-safe. Memory: one entry per address that holds a connection now.

#include <sys/resource.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

namespace arena::server {

// HubConfig::max_connections_per_address's "auto": three quarters of the process's descriptor
// limit (RLIMIT_NOFILE, soft) when the listener opens, at least 64, so that one address can
// never take the last quarter of the descriptors (left for other addresses, the store and the
// web files), whatever `ulimit -n` the server was started with (1024: 768 per address).
inline constexpr int kAutoConnectionsPerAddress = -1;

inline int auto_connections_per_address() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 1 << 20;
  const auto quarter_left = limit.rlim_cur / 4 * 3;
  return static_cast<int>(std::clamp<rlim_t>(quarter_left, 64, 1 << 20));
}

class ConnectionLimit : public std::enable_shared_from_this<ConnectionLimit> {
 public:
  // `per_address` > 0: the cap; 0: no cap (connections are still counted).
  explicit ConnectionLimit(int per_address) : limit_(per_address) {}
  int limit() const { return limit_; }

  // A slot for a new connection from `address`, released when its last copy is destroyed (the
  // connection ended); null when the address already holds `limit()` connections.
  std::shared_ptr<void> take(const std::string& address) {
    {
      std::lock_guard lock(mutex_);
      int& held = held_[address];
      if (limit_ > 0 && held >= limit_) {
        if (held == 0) held_.erase(address);
        return nullptr;
      }
      ++held;
    }
    return std::make_shared<Slot>(shared_from_this(), address);
  }

  // How many connections `address` holds now.
  int held(const std::string& address) {
    std::lock_guard lock(mutex_);
    const auto it = held_.find(address);
    return it == held_.end() ? 0 : it->second;
  }

 private:
  struct Slot {
    Slot(std::shared_ptr<ConnectionLimit> o, std::string a)
        : owner(std::move(o)), address(std::move(a)) {}
    ~Slot() { owner->release(address); }
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;
    std::shared_ptr<ConnectionLimit> owner;
    std::string address;
  };

  void release(const std::string& address) {
    std::lock_guard lock(mutex_);
    const auto it = held_.find(address);
    if (it != held_.end() && --it->second <= 0) held_.erase(it);
  }

  const int limit_;
  std::mutex mutex_;
  std::unordered_map<std::string, int> held_;  // guarded by mutex_
};

}  // namespace arena::server
