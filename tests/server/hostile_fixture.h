#pragma once
// What the hostile-client tests share (hostile_test.cpp: transport attacks;
// hostile_players_test.cpp: players, names and tokens): raw HTTP and WebSocket helpers over
// RawSocket, and a server fixture with two bystanders playing chess (bystander.h).

#include <chrono>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <utility>

#include "tests/server/bystander.h"
#include "tests/server/server_fixture.h"

namespace arena::server::testing {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;
using std::chrono::seconds;

inline double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// The status code of the HTTP answer at the start of `text` (0 if there is none).
inline int http_status(const std::string& text) {
  if (!text.starts_with("HTTP/1.1 ") || text.size() < 12) return 0;
  return std::atoi(text.substr(9, 3).c_str());
}

// GET `target` with a fresh connection: {status, headers, body}.
struct HttpAnswer {
  int status = 0;
  std::string head, body;
};
inline HttpAnswer http_get(unsigned short port, const std::string& target) {
  RawSocket s(port);
  s.write("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
  s.read_to_end(seconds(20));
  const std::string& all = s.received();
  const auto split = all.find("\r\n\r\n");
  HttpAnswer a;
  a.status = http_status(all);
  if (split != std::string::npos) {
    a.head = all.substr(0, split);
    a.body = all.substr(split + 4);
  }
  return a;
}

// Reads the 101 answer to an upgrade on `s` and removes it: what follows are frames.
inline bool upgraded(RawSocket& s) {
  if (!s.read_until("\r\n\r\n", seconds(30)) || http_status(s.received()) != 101) return false;
  s.received().erase(0, s.received().find("\r\n\r\n") + 4);
  return true;
}

// A raw WebSocket that has been upgraded and said hello (protocol 3) and got its welcome.
inline bool open_raw_player(RawSocket& s, const std::string& name) {
  if (!s.ok() || !s.write(RawSocket::upgrade_request()) || !upgraded(s)) return false;
  return s.write(RawSocket::frame(Json{{"type", "hello"}, {"version", 3}, {"name", name}}.dump())) &&
         s.read_until("\"welcome\"", seconds(30));
}

// The code and reason of a close frame's payload.
inline std::pair<int, std::string> close_of(const std::string& payload) {
  if (payload.size() < 2) return {0, ""};
  return {static_cast<unsigned char>(payload[0]) * 256 + static_cast<unsigned char>(payload[1]),
          payload.substr(2)};
}

// Reads frames from `s` until a close frame, the end of the stream or `timeout`; `each` sees
// every other frame. Returns the close frame's code and reason ({0, ""} if none came).
inline std::pair<int, std::string> read_until_close(RawSocket& s, milliseconds timeout,
                                             const std::function<void(const RawSocket::Frame&)>& each = {}) {
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    for (const auto& f : s.take_frames()) {
      if (f.opcode == 8) return close_of(f.payload);
      if (each) each(f);
    }
    const auto left = std::chrono::duration_cast<milliseconds>(deadline - Clock::now());
    if (left.count() <= 0 || !s.read_some(std::min(left, milliseconds(1000)))) {
      if (left.count() <= 0) return {0, ""};
      // The end of the stream: whatever complete frames remain.
      for (const auto& f : s.take_frames()) {
        if (f.opcode == 8) return close_of(f.payload);
        if (each) each(f);
      }
      return {0, ""};
    }
  }
}

class HostileTest : public ServerTest {
 protected:
  void SetUp() override {
    ServerTest::SetUp();
    by = std::make_unique<Bystanders>(port());
  }
  std::size_t connections() { return server_->hub().metrics().connections; }
  // Waits (at most `limit`) until the server holds `n` connections; true if it does.
  bool wait_for_connections(std::size_t n, Clock::duration limit) {
    const auto deadline = Clock::now() + limit;
    while (connections() != n && Clock::now() < deadline)
      std::this_thread::sleep_for(milliseconds(10));
    return connections() == n;
  }
  std::unique_ptr<Bystanders> by;
};

}  // namespace arena::server::testing
