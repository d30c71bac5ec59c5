#pragma once
// What hostile clients must not do to everyone else: two well-behaved players (the
// bystanders) play chess with random legal moves and time each move's round trip, from the
// move sent to the state that acknowledges it (protocol version 3: the mover's state carries
// its client_id). A test runs them once quietly and once while a hostile client acts, and
// compares the 99th percentiles. Also bare loopback sockets for what WsClient cannot send
// (raw HTTP, raw frames, a peer that never answers).

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>

#include <gtest/gtest.h>

#include "tests/common/ws_client.h"

namespace arena::server::testing {

// A quiet p99 on this machine can be well under a millisecond; doubling that would fail on
// any scheduling hiccup of a 2-core machine shared with other builds (one preempted I/O
// thread costs a few ms), so the bound is 2 x max(quiet p99, kP99FloorMs).
inline constexpr double kP99FloorMs = 5.0;
inline constexpr int kBystanderMoves = 200;
// A pause between moves, so that the moves spread over the hostile client's work (about a
// second for 200) instead of racing through it in a tenth of one; it also keeps each bystander
// well under the rate limit.
inline constexpr std::chrono::milliseconds kBystanderPause{5};

inline double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(v.size())));
  return v[std::clamp<std::size_t>(rank, 1, v.size()) - 1];
}

class Bystanders {
 public:
  explicit Bystanders(unsigned short port, std::string game = "chess", std::uint64_t seed = 7)
      : game_(std::move(game)), rng_(seed) {
    for (int i = 0; i < 2; ++i) {
      seats_[i] = std::make_unique<WsClient>(port);
      EXPECT_TRUE(seats_[i]->open());
      seats_[i]->send(Json{{"type", "hello"},
                           {"version", 3},
                           {"name", i == 0 ? "bystander-a" : "bystander-b"}});
      Json w = seats_[i]->expect("welcome");
      EXPECT_EQ(w.value("protocol", 0), 3) << w.dump();
    }
  }

  // Plays `moves` moves (starting games as they end) and returns each one's round trip in ms.
  std::vector<double> play(int moves) {
    std::vector<double> rtt;
    rtt.reserve(static_cast<std::size_t>(moves));
    for (int i = 0; i < moves && !::testing::Test::HasFatalFailure(); ++i) {
      std::this_thread::sleep_for(kBystanderPause);
      if (state_.is_null() && !start_game()) break;
      const int side = state_.value("to_move", 0);
      const auto& legal = state_["legal_moves"];
      if (legal.empty()) {
        ADD_FAILURE() << "no legal moves in " << state_.dump();
        break;
      }
      const std::string move = legal[rng_() % legal.size()];
      const std::string id = "by" + std::to_string(++sent_);
      const auto t0 = std::chrono::steady_clock::now();
      seats_[side]->send(
          Json{{"type", "move"}, {"game_id", game_id_.load()}, {"move", move}, {"client_id", id}});
      Json mine = seats_[side]->wait_for(
          [&](const Json& j) {
            if (j.value("type", "") == "error") ADD_FAILURE() << "bystander got " << j.dump();
            return j.value("type", "") == "error" ||
                   (j.value("type", "") == "state" && j.contains("client_id") &&
                    j["client_id"].is_string() && j["client_id"] == id);
          },
          "the state acknowledging " + id);
      const auto t1 = std::chrono::steady_clock::now();
      if (mine.value("type", "") != "state") break;
      rtt.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
      const std::int64_t version = mine["version"];
      Json theirs = seats_[1 - side]->wait_for(
          [&](const Json& j) {
            return j.value("type", "") == "state" && j.value("game_id", std::int64_t{0}) == game_id_ &&
                   j.value("version", std::int64_t{-1}) >= version;
          },
          "the opponent's state");
      if (theirs.is_null()) break;
      state_ = std::move(mine);
      if (!state_["result"].is_null()) finish_game();
    }
    return rtt;
  }

  // Reads what is waiting (and so answers the server's pings) on both connections.
  void keep_alive() {
    for (auto& s : seats_) s->sync();
  }

  std::int64_t game_id() const { return game_id_; }
  // Every game they played, and how each finished one ended.
  std::vector<std::int64_t> games() const { return games_; }
  const std::vector<std::string>& end_reasons() const { return end_reasons_; }
  // The events (game_start, states, game_end) the server holds for their games so far.
  std::int64_t events() const { return events_ + state_.value("version", std::int64_t{0}) + 1; }

 private:
  bool start_game() {
    auto& a = *seats_[0];
    auto& b = *seats_[1];
    a.send(Json{{"type", "seek"}, {"game", game_}, {"options", ""}, {"time_control", "none"}});
    Json created = a.expect("seek_created");
    if (created.is_null()) return false;
    b.send(Json{{"type", "accept"}, {"seek_id", created["seek_id"]}});
    Json start = a.expect("game_start");
    if (b.expect("game_start").is_null() || start.is_null()) return false;
    game_id_ = start["game_id"].get<std::int64_t>();
    games_.push_back(game_id_);
    auto first = [&](WsClient& c) {
      return c.wait_for(
          [&](const Json& j) {
            return j.value("type", "") == "state" && j.value("game_id", std::int64_t{0}) == game_id_;
          },
          "the first state");
    };
    state_ = first(a);
    first(b);
    return !state_.is_null();
  }
  void finish_game() {
    for (auto& s : seats_) {
      Json end = s->wait_for(
          [&](const Json& j) {
            return j.value("type", "") == "game_end" && j.value("game_id", std::int64_t{0}) == game_id_;
          },
          "game_end");
      if (s == seats_[0]) end_reasons_.push_back(end.value("reason", ""));
      s->drain("state");
    }
    events_ += state_.value("version", std::int64_t{0}) + 2;
    state_ = Json{};
  }

  std::string game_;
  std::mt19937_64 rng_;
  std::unique_ptr<WsClient> seats_[2];
  std::atomic<std::int64_t> game_id_{0};
  std::vector<std::int64_t> games_;
  std::vector<std::string> end_reasons_;
  std::int64_t events_ = 0;
  Json state_;
  int sent_ = 0;
};

// The quiet reference: two runs, and the one with the lower p99. A stall of the shared machine
// can put a single run's p99 at 100 ms, and twice that would be no bound at all.
inline std::vector<double> quiet_run(Bystanders& by) {
  auto first = by.play(kBystanderMoves);
  auto second = by.play(kBystanderMoves);
  return percentile(first, 99) <= percentile(second, 99) ? first : second;
}

// The bystanders play kBystanderMoves while `hostile(done)` runs on another thread; `hostile`
// calls started() once it is under way (the moves wait for that, at most 30 s) and should
// stop soon after `done` is set. Returns the round trips.
class HostileRun {
 public:
  std::atomic<bool> done{false};
  void started() { started_ = true; }

  std::vector<double> run(Bystanders& by, const std::function<void(HostileRun&)>& hostile,
                          int moves = kBystanderMoves) {
    done = false;
    started_ = false;
    std::thread t([&] { hostile(*this); });
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!started_ && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    EXPECT_TRUE(started_.load()) << "the hostile client did not start";
    auto rtt = by.play(moves);
    done = true;
    t.join();
    return rtt;
  }

 private:
  std::atomic<bool> started_{false};
};

// A quiet run and a hostile one measured again, for expect_p99_within.
using Remeasure = std::function<std::pair<std::vector<double>, std::vector<double>>()>;
inline constexpr int kP99Attempts = 3;

// What a test whose hostile client repeats one kind of act can measure again: a quiet run, then
// `hostile` once more (its counters go on counting; the test has checked them already).
inline Remeasure measure_again(Bystanders& by, HostileRun& run,
                               std::function<void(HostileRun&)> hostile) {
  return [&by, &run, hostile = std::move(hostile)] {
    auto quiet = quiet_run(by);
    return std::pair{std::move(quiet), run.run(by, hostile)};
  };
}

// Prints both runs and checks the hostile p99 against twice the quiet one (or the floor). The
// p99 of 200 moves is their second-worst round trip, so two stalls of the shared machine in
// one hostile run miss the bound (16 ms against 10 once in CI, p50 1.95 ms). Given `again`, a
// missed bound is measured again, up to kP99Attempts runs in all, and the first run within the
// bound passes: a cost the hostile client puts on the server shows in every run, a stall of
// the machine does not.
inline void expect_p99_within(const std::string& what, std::vector<double> quiet,
                              std::vector<double> hostile, const Remeasure& again = {}) {
  for (int attempt = 1;; ++attempt) {
    const double q = percentile(quiet, 99), h = percentile(hostile, 99);
    const double bound = 2 * std::max(q, kP99FloorMs);
    const std::string which = again ? " (run " + std::to_string(attempt) + " of at most " +
                                          std::to_string(kP99Attempts) + ")"
                                    : "";
    std::printf(
        "[hostile] %s: bystanders' move round trip p99 quiet %.2f ms (%zu moves), "
        "hostile %.2f ms (%zu moves), p50 %.2f / %.2f ms; bound %.2f ms%s\n",
        what.c_str(), q, quiet.size(), h, hostile.size(), percentile(quiet, 50),
        percentile(hostile, 50), bound, which.c_str());
    std::fflush(stdout);
    EXPECT_EQ(quiet.size(), static_cast<std::size_t>(kBystanderMoves)) << what;
    EXPECT_EQ(hostile.size(), static_cast<std::size_t>(kBystanderMoves)) << what;
    if (h <= bound || !again || attempt == kP99Attempts) {
      EXPECT_LE(h, bound) << what << ": the bystanders' p99 went from " << q << " ms to " << h
                          << " ms" << (again ? " in every run" : "");
      return;
    }
    std::tie(quiet, hostile) = again();
  }
}

// Prints a run that is measured but not held to the bound (the caller says why).
inline void report_p99(const std::string& what, const std::vector<double>& quiet,
                       const std::vector<double>& hostile) {
  std::printf("[hostile] %s (reported, not asserted): bystanders' move round trip p99 quiet "
              "%.2f ms, hostile %.2f ms (%zu moves), p50 %.2f / %.2f ms\n",
              what.c_str(), percentile(quiet, 99), percentile(hostile, 99), hostile.size(),
              percentile(quiet, 50), percentile(hostile, 50));
  std::fflush(stdout);
}

// A bare TCP socket to 127.0.0.1:port (blocking writes, reads with a timeout).
class RawSocket {
 public:
  // `source`: the local address to connect from (any 127.x.y.z is loopback), else the kernel's.
  explicit RawSocket(unsigned short port, int receive_buffer = 0, const char* source = nullptr) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) return;
    if (receive_buffer > 0)
      ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
    int one = 1;
    ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (source) {
      sockaddr_in local{};
      local.sin_family = AF_INET;
      ::inet_pton(AF_INET, source, &local.sin_addr);
      if (::bind(fd_, reinterpret_cast<sockaddr*>(&local), sizeof local) != 0) {
        ::close(fd_);
        fd_ = -1;
        return;
      }
    }
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      ::close(fd_);
      fd_ = -1;
    }
  }
  ~RawSocket() { close(); }
  RawSocket(RawSocket&& o) noexcept : fd_(std::exchange(o.fd_, -1)), in_(std::move(o.in_)) {}
  RawSocket& operator=(RawSocket&& o) noexcept {
    close();
    fd_ = std::exchange(o.fd_, -1);
    in_ = std::move(o.in_);
    return *this;
  }
  bool ok() const { return fd_ >= 0; }
  int fd() const { return fd_; }
  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

  bool write(const std::string& bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
      const auto n = ::send(fd_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
      if (n <= 0) return false;
      done += static_cast<std::size_t>(n);
    }
    return true;
  }
  // Reads what arrives within `timeout` into the buffer; false at the end of the stream (or an
  // error), true on timeout or data.
  bool read_some(std::chrono::milliseconds timeout) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(timeout.count())) <= 0) return true;
    char buf[16384];
    const auto n = ::recv(fd_, buf, sizeof buf, 0);
    if (n <= 0) return false;
    in_.append(buf, static_cast<std::size_t>(n));
    return true;
  }
  // Reads until `needle` has arrived (true), the stream ends or `timeout` passes (false).
  bool read_until(const std::string& needle, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (in_.find(needle) == std::string::npos) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0 || !read_some(left)) return in_.find(needle) != std::string::npos;
    }
    return true;
  }
  // Reads until the peer ends the stream (true) or `timeout` passes (false).
  bool read_to_end(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return false;
      if (!read_some(left)) return true;
    }
  }
  std::string& received() { return in_; }

  // The complete server frames (unmasked) at the front of what was received, taken out of it:
  // {opcode, payload}. Call after the HTTP answer has been removed.
  struct Frame {
    int opcode = 0;
    std::string payload;
  };
  std::vector<Frame> take_frames() {
    std::vector<Frame> out;
    std::size_t pos = 0;
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(in_[i]); };
    for (;;) {
      const std::size_t left = in_.size() - pos;
      if (left < 2) break;
      std::uint64_t len = byte(pos + 1) & 0x7f;
      std::size_t head = 2;
      if (len == 126) {
        if (left < 4) break;
        len = (std::uint64_t{byte(pos + 2)} << 8) | byte(pos + 3);
        head = 4;
      } else if (len == 127) {
        if (left < 10) break;
        len = 0;
        for (int i = 0; i < 8; ++i) len = (len << 8) | byte(pos + 2 + static_cast<std::size_t>(i));
        head = 10;
      }
      if (left - head < len) break;
      out.push_back({byte(pos) & 0x0f, in_.substr(pos + head, static_cast<std::size_t>(len))});
      pos += head + static_cast<std::size_t>(len);
    }
    in_.erase(0, pos);
    return out;
  }

  // The opening request of a WebSocket on /ws, with `extra` header lines ("Name: value\r\n").
  static std::string upgrade_request(const std::string& extra = "") {
    return "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
           "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n" +
           extra + "\r\n";
  }
  // A client frame (masked, as RFC 6455 requires of clients) with `opcode` and FIN as given.
  static std::string frame(const std::string& payload, int opcode = 1, bool fin = true) {
    std::string f;
    f.push_back(static_cast<char>((fin ? 0x80 : 0) | opcode));
    const std::size_t n = payload.size();
    if (n < 126) {
      f.push_back(static_cast<char>(0x80 | n));
    } else if (n < 65536) {
      f.push_back(static_cast<char>(0x80 | 126));
      f.push_back(static_cast<char>(n >> 8));
      f.push_back(static_cast<char>(n & 0xff));
    } else {
      f.push_back(static_cast<char>(0x80 | 127));
      for (int shift = 56; shift >= 0; shift -= 8)
        f.push_back(static_cast<char>((n >> shift) & 0xff));
    }
    const unsigned char mask[4] = {0x12, 0x34, 0x56, 0x78};
    for (unsigned char m : mask) f.push_back(static_cast<char>(m));
    for (std::size_t i = 0; i < n; ++i)
      f.push_back(static_cast<char>(static_cast<unsigned char>(payload[i]) ^ mask[i % 4]));
    return f;
  }

 private:
  int fd_ = -1;
  std::string in_;
};

}  // namespace arena::server::testing
