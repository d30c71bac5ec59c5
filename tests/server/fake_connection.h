#pragma once
// FakeConnection: a hub Connection without a network that records what it is sent, for the
// hub tests (tests/server/hub_test.cpp, seats_test.cpp).

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "server/core/connection.h"

namespace arena::server::testing {

using protocol::Json;

// Keeps, per message type, how many came and the last few (a test of thousands of games must
// not copy every message it ever got).
class FakeConnection final : public Connection {
 public:
  void send(Text text) override {
    Json j = Json::parse(*text);
    if (j.value("type", "") == "state") states_after_probe += turn_probes > states_after_probe;
    if (on_send) on_send(j);
    std::lock_guard lock(mutex_);
    auto& kept = by_type_[j.value("type", "")];
    ++kept.first;
    kept.second.push_back(std::move(j));
    if (kept.second.size() > 4) kept.second.erase(kept.second.begin());
  }
  void probe_turn() override { ++turn_probes; }
  void close_going_away() override {}
  void close_for_policy(std::string reason) override {
    std::lock_guard lock(mutex_);
    policy_closes.push_back(std::move(reason));
  }
  void close_now() override {}
  // The tests call on_message from one thread, and the MemoryStore answers at once.
  void continue_reading(std::function<void()> step) override {
    reading_paused = false;
    step();
  }

  // Called with each message as it is sent, on the sender's thread, before it is recorded.
  std::function<void(const Json&)> on_send;
  // probe_turn calls, and the states sent after a probe not yet followed by a state.
  std::atomic<int> turn_probes{0}, states_after_probe{0};
  // The reasons of close_for_policy calls (under mutex_; read them when the hub is idle).
  std::vector<std::string> policy_closes;

  std::size_t count(const std::string& type) {
    std::lock_guard lock(mutex_);
    auto it = by_type_.find(type);
    return it == by_type_.end() ? 0 : it->second.first;
  }
  Json last(const std::string& type) {
    std::lock_guard lock(mutex_);
    auto it = by_type_.find(type);
    return it == by_type_.end() ? Json() : it->second.second.back();
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::pair<std::size_t, std::vector<Json>>> by_type_;
};

}  // namespace arena::server::testing
