// Hostile clients (issue 25, item 4), at the transport: floods, readers that never read, silent
// peers, oversized frames and headers, bad UTF-8 and deep JSON, 10,000 idle connections (players,
// names and tokens: hostile_players_test.cpp). Each test lets one kind of hostile client loose on a
// server while two bystanders play chess, checks that the server answers the hostile client as
// the protocol promises, and that the bystanders' 99th percentile move round trip stays within
// twice that of a quiet run just before (bystander.h, with its floor; where the hostile act
// repeats, a missed bound is measured again, up to three runs). Loopback only; every loop is
// bounded in count and time.

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "server/net/websocket_session.h"
#include "tests/server/hostile_fixture.h"

namespace arena::server::testing {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// --- a flood from one connection ------------------------------------------------------------

// A client that sends far over the rate (200 messages/s, bursts of 400) and reads its answers:
// the excess is dropped with rate_limited, so no more is served than the bucket allows, and
// after kMaxDroppedMessages drops it is closed with 1008 (protocol/README.md, Limits).
TEST_F(HostileTest, AFloodIsRateLimitedThenClosedWithAPolicyReason) {
  const auto quiet = quiet_run(*by);
  RawSocket flooder(port());
  ASSERT_TRUE(open_raw_player(flooder, "flooder"));
  // The frames are made once: the flooder costs the test's CPU little, the server's a lot.
  constexpr int kBatch = 500;
  std::string batch;
  for (int i = 0; i < kBatch; ++i) batch += RawSocket::frame(R"({"type":"ping","id":"f"})");
  int sent = 0, pongs = 0, limited = 0, close_code = 0;
  std::string close_reason;
  bool ended = false;
  Clock::time_point t0;
  double elapsed = 0;  // from the first batch to the close
  HostileRun run;
  const auto hostile = run.run(*by, [&](HostileRun& r) {
    t0 = Clock::now();
    r.started();
    // Batches of 500 pings sent at once, then their answers read: many times the rate, until
    // the server closes the flooder (after kMaxDroppedMessages dropped) or 20 s pass.
    while (!ended && seconds_since(t0) < 20.0 && sent < 400'000) {
      if (!flooder.write(batch)) break;
      sent += kBatch;
      const auto deadline = Clock::now() + seconds(5);
      while (pongs + limited < sent && Clock::now() < deadline && !ended) {
        ended = !flooder.read_some(milliseconds(200));
        for (const auto& f : flooder.take_frames()) {
          if (f.opcode == 8) {
            ended = true;
            if (f.payload.size() >= 2) {
              close_code = (static_cast<unsigned char>(f.payload[0]) << 8) |
                           static_cast<unsigned char>(f.payload[1]);
              close_reason = f.payload.substr(2);
            }
          }
          if (f.payload.find(R"("type":"pong")") != std::string::npos) ++pongs;
          if (f.payload.find(R"("code":"rate_limited")") != std::string::npos) ++limited;
        }
      }
    }
    elapsed = seconds_since(t0);
  });
  std::printf("[hostile] flood: %d messages in %.2f s (%.0f/s): %d answered, %d rate_limited, "
              "closed %d (%s)\n",
              sent, elapsed, sent / elapsed, pongs, limited, close_code, close_reason.c_str());
  EXPECT_GT(sent / elapsed, 10.0 * protocol::kMaxMessagesPerSecond) << "not a flood";
  // Rate limited first: the bucket's burst answered, then every drop told, up to the limit...
  EXPECT_GE(pongs, protocol::kMaxMessageBurst);
  EXPECT_LE(pongs, protocol::kMaxMessageBurst + protocol::kMaxMessagesPerSecond * elapsed + 20);
  EXPECT_EQ(limited, protocol::kMaxDroppedMessages);
  // ...then closed with 1008 and a reason that says why.
  EXPECT_TRUE(ended) << "the flooder was not closed";
  EXPECT_EQ(close_code, 1008);
  EXPECT_NE(close_reason.find("flooding"), std::string::npos) << close_reason;
  expect_p99_within("flood (the flooder reads)", quiet, hostile);
}

// The same flood from a client that reads nothing: rate limited, then closed with 1008 once
// kMaxDroppedMessages were dropped (its answers wait in its outgoing queue meanwhile, below the
// queue's cap of 4096, which the spectator test below reaches).
TEST_F(HostileTest, AFloodThatDoesNotReadIsRateLimitedThenClosedWithAPolicyReason) {
  const auto quiet = quiet_run(*by);
  RawSocket flooder(port(), 4096);  // a small receive buffer: the server's queue fills soon
  ASSERT_TRUE(open_raw_player(flooder, "flooder"));
  const std::size_t with_it = connections();
  // Enough that its answers cannot all wait in the kernel's buffers (a 4 MiB send buffer holds
  // about 30,000 of them): once in six runs 80,000 all got through without the cap.
  constexpr int kSent = 200'000;
  std::string all;
  for (int i = 0; i < kSent; ++i) all += RawSocket::frame(R"({"type":"ping","id":"u"})");
  bool written = false;
  HostileRun run;
  const auto hostile = run.run(*by, [&](HostileRun& r) {
    r.started();
    written = flooder.write(all);  // fails once the server has closed the connection
  });
  // What reached the client before the close.
  int received = 0, limited = 0;
  const auto [code, reason] = read_until_close(flooder, seconds(30), [&](const RawSocket::Frame& f) {
    ++received;
    if (f.payload.find(R"("code":"rate_limited")") != std::string::npos) ++limited;
  });
  std::printf("[hostile] unread flood: %d sent (all written: %s), %d answers reached the client "
              "(%d rate_limited), close code %d\n",
              kSent, written ? "yes" : "no", received, limited, code);
  // The close frame waits behind what the client did not read; under load the server's close
  // handshake may time out first and reset the socket, which discards it (code 0, as in
  // BadInputTest.AClientThatDoesNotReadIsClosedWithAPolicyReason). No other code is sent.
  if (code != 0) {
    EXPECT_EQ(code, 1008);
    EXPECT_NE(reason.find("flooding"), std::string::npos) << reason;
  }
  // Bounded: most answers were never queued (the server dropped the client instead).
  EXPECT_LT(received, kSent / 2);
  if (received > protocol::kMaxMessageBurst + 100) {
    EXPECT_GE(limited, 1);
  }
  flooder.close();
  EXPECT_TRUE(wait_for_connections(with_it - 1, seconds(40))) << connections();
  expect_p99_within("flood (the flooder does not read)", quiet, hostile);
}

// --- a reader that never reads --------------------------------------------------------------

// A spectator that asks for little (a few watch messages a second, under the rate) but reads
// nothing while the server owes it a lot (each watch replays a game's history): its queue is
// capped at kMaxQueuedMessages and then it is closed with 1008; the players never wait for it.
TEST_F(HostileTest, AClientThatNeverReadsHasItsQueueBoundedThenIsClosed) {
  const auto quiet = quiet_run(*by);  // also the games whose history it asks for
  const auto games = by->games();
  const std::int64_t per_round = by->events();   // events of all those games so far
  ASSERT_GT(per_round, 100);
  WsClient c(port(), {}, 4096);
  c.hello("sleeper");
  const std::size_t with_it = connections();
  std::int64_t owed = 0;
  int watches = 0;
  HostileRun run;
  const auto hostile = run.run(*by, [&](HostileRun& r) {
    r.started();
    // Until the server owes it 3 queues' worth, at 100 watches a second (half the rate).
    while (owed < 3 * static_cast<std::int64_t>(kMaxQueuedMessages) && watches < 2000) {
      for (auto g : games) {
        c.send(Json{{"type", "watch"}, {"game_id", g}, {"since_version", -1}});
        ++watches;
        std::this_thread::sleep_for(milliseconds(10));
      }
      owed += per_round;
    }
  });
  // It still reads nothing: its close frame waits behind the answers it left unread, so the
  // server closes the socket kCloseGrace after starting the close, not at the idle timeout.
  const auto waiting_since = Clock::now();
  EXPECT_TRUE(wait_for_connections(with_it - 1, kCloseGrace + seconds(15))) << connections();
  const double dropped_after = seconds_since(waiting_since);
  int received = 0;
  while (c.recv(seconds(20))) ++received;
  std::printf(
      "[hostile] non-reader: %d watches, at least %lld messages owed, %d reached it, "
      "close code %d; dropped %.1f s after the watches ended\n",
      watches, static_cast<long long>(owed), received, c.close_code(), dropped_after);
  EXPECT_TRUE(c.closed());
  // The socket is closed with the close frame still queued, so none arrives (code 0); were it
  // read in time, it would say why.
  if (c.close_code() != 0) {
    EXPECT_EQ(c.close_code(), 1008);
    EXPECT_EQ(c.close_reason(), "the client does not read: 4096 messages are waiting");
  }
  EXPECT_LT(received, owed);  // the rest was never queued
  EXPECT_TRUE(wait_for_connections(with_it - 1, seconds(40))) << connections();
  expect_p99_within("a client that never reads", quiet, hostile);
}

// --- peers that stop answering --------------------------------------------------------------

// A server whose idle timeout (HubConfig::idle_timeout_ms, `arena serve --idle-timeout`) is
// 12 s instead of 60, so that waiting for it is short.
class SilentPeersTest : public HostileTest {
 protected:
  static constexpr double kIdleSeconds = 12;
  void SetUp() override {
    HubConfig hub = test_hub_config();
    hub.idle_timeout_ms = static_cast<std::int64_t>(kIdleSeconds * 1000);
    start_server(hub);
    by = std::make_unique<Bystanders>(port());
  }
};

// Two peers go silent after their welcome: one reads but never answers (no pong), one neither
// reads nor writes (as a half-open peer: from the server's side nothing comes back). The
// server pings after half the idle timeout without a frame and closes a connection that sent
// nothing for the idle timeout (Beast checks every half, so within 1.5 timeouts of the last
// frame).
TEST_F(SilentPeersTest, PeersThatStopAnsweringAreClosedInBoundedTime) {
  const auto quiet = quiet_run(*by);
  const std::size_t before = connections();
  RawSocket mute(port()), dead(port(), 4096);
  ASSERT_TRUE(open_raw_player(mute, "mute"));
  ASSERT_TRUE(open_raw_player(dead, "dead"));
  const auto silent_since = Clock::now();
  mute.take_frames();  // the welcome and what came with it
  bool pinged = false;
  ASSERT_EQ(connections(), before + 2);
  HostileRun run;
  const auto hostile = run.run(*by, [&](HostileRun& r) {
    r.started();
    while (!r.done) std::this_thread::sleep_for(milliseconds(5));
  });
  // Wait for the server to drop both, reading the mute peer's socket (never answering) and
  // keeping the bystanders answering their own pings.
  bool mute_ended = false;
  auto last_keep_alive = Clock::now();
  while (connections() > before && Clock::now() - silent_since < seconds(60)) {
    if (!mute_ended) {
      mute_ended = !mute.read_some(milliseconds(200));
      for (const auto& f : mute.take_frames()) pinged = pinged || f.opcode == 9;
    } else {
      std::this_thread::sleep_for(milliseconds(200));
    }
    if (Clock::now() - last_keep_alive > seconds(5)) {
      by->keep_alive();
      last_keep_alive = Clock::now();
    }
  }
  const double closed_after = seconds_since(silent_since);
  if (!mute_ended) mute_ended = mute.read_to_end(seconds(5));
  std::printf("[hostile] silent peers: both closed by the server %.1f s after their last frame\n",
              closed_after);
  EXPECT_EQ(connections(), before) << "the silent peers are still connected";
  EXPECT_LE(closed_after, 1.5 * kIdleSeconds + 5);
  EXPECT_GE(closed_after, kIdleSeconds / 2) << "closed before the idle timeout could have passed";
  EXPECT_TRUE(mute_ended) << "the mute peer's socket was not closed";
  for (const auto& f : mute.take_frames()) pinged = pinged || f.opcode == 9;
  EXPECT_TRUE(pinged) << "the server did not ping the mute peer before closing it";
  by->keep_alive();  // the bystanders were kept
  expect_p99_within("two silent peers", quiet, hostile);
}

// --- oversized frames and headers -----------------------------------------------------------

// Over and over while the bystanders play: a message over 64 KiB in one frame and in three
// fragments (closed with 1009 and its reason), and a request header over 8 KiB on a plain GET
// and on the WebSocket upgrade (431).
TEST_F(HostileTest, OversizedFramesAndHeadersAreRefused) {
  const auto quiet = quiet_run(*by);
  const std::string big_header = "X-Filler: " + std::string(9000, 'a') + "\r\n";
  int rounds = 0, one_frame = 0, fragments = 0, get_431 = 0, upgrade_431 = 0;
  HostileRun run;
  const auto oversized = [&](HostileRun& r) {
    r.started();
    do {
      ++rounds;
      {
        WsClient c(port());
        c.send_text(R"({"type":"ping","id":")" + std::string(protocol::kMaxMessageBytes, 'x') +
                    "\"}");
        while (c.recv(seconds(10))) {
        }
        if (c.closed() && c.close_code() == 1009 &&
            c.close_reason() == "message too big: the limit is 65536 bytes")
          ++one_frame;
      }
      {
        RawSocket s(port());
        s.write(RawSocket::upgrade_request());
        if (upgraded(s)) {
          const std::string part(40'000, 'y');
          s.write(RawSocket::frame(R"({"type":"ping","id":")" + part, 1, false) +
                  RawSocket::frame(part, 0, false) + RawSocket::frame("\"}", 0, true));
          if (read_until_close(s, seconds(10)) ==
              std::pair<int, std::string>{1009, "message too big: the limit is 65536 bytes"})
            ++fragments;
        }
      }
      {
        RawSocket s(port());
        s.write("GET /api/catalog HTTP/1.1\r\nHost: 127.0.0.1\r\n" + big_header + "\r\n");
        s.read_until("\r\n\r\n", seconds(10));
        if (http_status(s.received()) == 431) ++get_431;
      }
      {
        RawSocket s(port());
        s.write(RawSocket::upgrade_request(big_header));
        s.read_until("\r\n\r\n", seconds(10));
        if (http_status(s.received()) == 431) ++upgrade_431;
      }
      // The test's own client work (masking 150 KB) shares the 2 cores with the server: a
      // pause, so that what the bystanders measure is the server's cost, not this thread's.
      std::this_thread::sleep_for(milliseconds(20));
    } while (!r.done && rounds < 500);
  };
  const auto hostile = run.run(*by, oversized);
  std::printf("[hostile] oversized: %d rounds (each: a 64 KiB+ frame, 80 KB in fragments, two "
              "9 KB headers)\n",
              rounds);
  EXPECT_EQ(one_frame, rounds) << "a message over the limit in one frame is closed with 1009";
  EXPECT_EQ(fragments, rounds) << "a fragmented message over the limit is closed with 1009";
  EXPECT_EQ(get_431, rounds) << "a GET with a header over 8 KiB gets 431";
  EXPECT_EQ(upgrade_431, rounds) << "an upgrade with a header over 8 KiB gets 431";
  expect_p99_within("oversized frames and headers", quiet, hostile,
                    measure_again(*by, run, oversized));
}

// --- invalid UTF-8 and deep nesting ---------------------------------------------------------

// A text frame that is not UTF-8 closes that connection with 1007; JSON nested deeper than
// 32 levels (arrays or objects, up to 30,000 deep inside the size limit) gets too_deep, and a
// lone surrogate escape bad_json, on a connection that stays open.
TEST_F(HostileTest, InvalidUtf8AndDeeplyNestedJsonAreRefused) {
  const auto quiet = quiet_run(*by);
  auto deep = connect("nester");
  const std::string arrays =
      R"({"type":"ping","id":"a","x":)" + std::string(30'000, '[') + std::string(30'000, ']') + "}";
  std::string objects = R"({"type":"ping","id":"o","x":)";
  for (int i = 0; i < 5000; ++i) objects += R"({"a":)";
  objects += "1" + std::string(5000, '}') + "}";
  const std::string just_over =
      R"({"type":"ping","id":"j","x":)" + std::string(32, '[') + std::string(32, ']') + "}";
  int rounds = 0, utf8_1007 = 0, too_deep = 0, surrogate = 0, still_open = 0;
  HostileRun run;
  const auto bad_text = [&](HostileRun& r) {
    r.started();
    do {
      ++rounds;
      {
        WsClient c(port());
        c.hello("bytes");
        c.send_text("{\"type\":\"ping\",\"id\":\"\xff\xfe\xc3\x28\"}");
        while (c.recv(seconds(10))) {
        }
        if (c.closed() && c.close_code() == 1007) ++utf8_1007;
      }
      for (const std::string* text : std::initializer_list<const std::string*>{&arrays, &objects, &just_over}) {
        deep->send_text(*text);
        if (deep->expect("error").value("code", "") == "too_deep") ++too_deep;
      }
      deep->send_text(R"({"type":"hello","version":3,"name":"\ud800"})");
      if (deep->expect("error").value("code", "") == "bad_json") ++surrogate;
      deep->sync();
      if (!deep->closed()) ++still_open;
      std::this_thread::sleep_for(milliseconds(20));  // the nester stays under the rate
    } while (!r.done && rounds < 300);
  };
  const auto hostile = run.run(*by, bad_text);
  std::printf("[hostile] bad text: %d rounds (invalid UTF-8, 30,000-deep arrays, 5,000-deep "
              "objects, 33 levels, a lone surrogate)\n",
              rounds);
  EXPECT_EQ(utf8_1007, rounds) << "invalid UTF-8 in a text frame closes with 1007";
  EXPECT_EQ(too_deep, 3 * rounds);
  EXPECT_EQ(surrogate, rounds);
  EXPECT_EQ(still_open, rounds);
  expect_p99_within("invalid UTF-8 and deep nesting", quiet, hostile,
                    measure_again(*by, run, bad_text));
}

// --- 10,000 idle connections ----------------------------------------------------------------

// `arena serve` in its own process (so that its memory is its own, and each process needs only
// one end of each connection's descriptors), on a free port, its log in `log`.
class ServerProcess {
 public:
  bool start(const std::string& log) {
    int out[2];
    if (::pipe(out) != 0) return false;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(out[1], 1);
      const int err = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (err >= 0) ::dup2(err, 2);
      ::close(out[0]);
      // RSS should show live memory: no AddressSanitizer quarantine of freed blocks here.
      std::string asan = std::getenv("ASAN_OPTIONS") ? std::getenv("ASAN_OPTIONS") : "";
      ::setenv("ASAN_OPTIONS", (asan + (asan.empty() ? "" : ":") + "quarantine_size_mb=0").c_str(), 1);
      const std::string path = binary();
      // Idle connections are pinged at half the idle timeout: at 300 s, after the test.
      ::execl(path.c_str(), path.c_str(), "serve", "--port", "0", "--db", ":memory:", "--threads",
              "2", "--idle-timeout", "600", static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::close(out[1]);
    // "arena serve: listening on http://127.0.0.1:PORT/ ..."
    std::string text;
    char buf[512];
    const auto deadline = Clock::now() + seconds(60);
    while (text.find("/ (WebSocket") == std::string::npos && Clock::now() < deadline) {
      pollfd p{out[0], POLLIN, 0};
      if (::poll(&p, 1, 1000) <= 0) continue;
      const auto n = ::read(out[0], buf, sizeof buf);
      if (n <= 0) break;
      text.append(buf, static_cast<std::size_t>(n));
    }
    ::close(out[0]);
    std::smatch m;
    if (!std::regex_search(text, m, std::regex(R"(http://127\.0\.0\.1:(\d+)/)"))) return false;
    port_ = static_cast<unsigned short>(std::stoi(m[1]));
    return true;
  }
  // Resident memory in KiB (VmRSS).
  long rss_kib() const {
    std::ifstream status("/proc/" + std::to_string(pid_) + "/status");
    std::string line;
    while (std::getline(status, line))
      if (line.starts_with("VmRSS:")) return std::atol(line.c_str() + 6);
    return -1;
  }
  unsigned short port() const { return port_; }
  // ARENA_HOSTILE_SERVER: another build's arena (say a Release one, to measure its memory).
  static std::string binary() {
    const char* other = std::getenv("ARENA_HOSTILE_SERVER");
    return other && *other ? other : ARENA_BINARY;
  }
  // SIGTERM (a clean shutdown), SIGKILL after 30 s.
  void stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    const auto deadline = Clock::now() + seconds(30);
    int status = 0;
    while (::waitpid(pid_, &status, WNOHANG) == 0) {
      if (Clock::now() > deadline) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
        break;
      }
      std::this_thread::sleep_for(milliseconds(20));
    }
    pid_ = -1;
  }
  ~ServerProcess() { stop(); }

 private:
  pid_t pid_ = -1;
  unsigned short port_ = 0;
};

// The value of a metric in /metrics text ("arena_connections 12"), or -1.
long metric(const std::string& text, const std::string& name) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex("(^|\n)" + name + R"( (\d+))"))) return -1;
  return std::stol(m[2]);
}

// 10,000 clients connect, upgrade, say hello (guests, protocol 3), read their welcome and then
// stay silent. The server holds them all (arena_connections), its resident memory grows by
// what is printed per connection, and the bystanders' p99 holds while they are held. The server
// runs with a 600 s idle timeout, so that no keep-alive ping (at half of it) falls within the
// test however slowly the connections open (a ping wave is another load than holding). Their
// arrival (about 600 logins a second) is a connection storm, another hostile act than being idle:
// its p99 is printed, not held to the bound (on the 2-core machine it has been 10 to 20 times the
// quiet one: every login is a store write, a welcome and a lobby change). Both processes need
// 10,000 descriptors and a few more (the test raises its soft limit to the hard one; the server
// inherits it); with a lower hard limit it skips.
TEST(HostileIdle, TenThousandIdleConnectionsAreHeldCheaplyAndSlowNoOne) {
  constexpr int kIdle = 10'000;
  constexpr rlim_t kNeeded = kIdle + 200;
  rlimit limit{};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &limit), 0);
  if (limit.rlim_max < kNeeded)
    GTEST_SKIP() << "RLIMIT_NOFILE's hard limit is " << limit.rlim_max << ", below the " << kNeeded
                 << " descriptors 10,000 connections need (ulimit -Hn)";
  if (limit.rlim_cur < kNeeded) {
    limit.rlim_cur = limit.rlim_max;
    if (::setrlimit(RLIMIT_NOFILE, &limit) != 0)
      GTEST_SKIP() << "cannot raise RLIMIT_NOFILE to " << limit.rlim_max << ": "
                   << std::strerror(errno);
  }
  const std::string log = (std::filesystem::temp_directory_path() /
                           ("arena_hostile_idle_server_" + std::to_string(::getpid()) + ".log"))
                              .string();
  ServerProcess server;
  ASSERT_TRUE(server.start(log)) << "arena serve did not start; see " << log;
  Bystanders by(server.port());
  const auto quiet = quiet_run(by);
  std::this_thread::sleep_for(milliseconds(500));
  const long rss_before = server.rss_kib();

  std::vector<RawSocket> idle;
  idle.reserve(kIdle);
  int failed = 0;
  Clock::time_point t0;
  double ramp_seconds = 0;
  HostileRun arriving;
  const auto while_arriving = arriving.run(by, [&](HostileRun& r) {
    t0 = Clock::now();
    r.started();
    // In batches: every request of a batch is written before the answers are read.
    constexpr int kBatch = 250;
    const std::string hello = RawSocket::frame(R"({"type":"hello","version":3,"name":"idle"})");
    while (static_cast<int>(idle.size()) < kIdle && failed < 100) {
      const std::size_t first = idle.size();
      for (int i = 0; i < kBatch && static_cast<int>(idle.size()) < kIdle; ++i) {
        idle.emplace_back(server.port(), 4096);
        if (!idle.back().ok() || !idle.back().write(RawSocket::upgrade_request())) ++failed;
      }
      for (std::size_t i = first; i < idle.size(); ++i)
        if (!idle[i].read_until("\r\n\r\n", seconds(30)) || http_status(idle[i].received()) != 101 ||
            !idle[i].write(hello))
          ++failed;
      for (std::size_t i = first; i < idle.size(); ++i) {
        if (!idle[i].read_until("\"welcome\"", seconds(30))) ++failed;
        idle[i].received().clear();
        idle[i].received().shrink_to_fit();
      }
    }
    ramp_seconds = seconds_since(t0);
  });
  ASSERT_EQ(failed, 0) << "connections that did not get their welcome; see " << log;
  ASSERT_EQ(static_cast<int>(idle.size()), kIdle);
  std::this_thread::sleep_for(seconds(2));  // the lobby reaches everyone; nothing else happens
  const long rss_after = server.rss_kib();
  const auto metrics = http_get(server.port(), "/metrics");
  const long held = metric(metrics.body, "arena_connections");
  HostileRun holding;
  const auto hold = [](HostileRun& r) {
    r.started();
    while (!r.done) std::this_thread::sleep_for(milliseconds(5));
  };
  const auto while_held = holding.run(by, hold);
  const double per_connection = static_cast<double>(rss_after - rss_before) * 1024.0 / kIdle;
  std::printf("[hostile] %d idle connections opened in %.1f s; the server holds %ld; its RSS "
              "%ld -> %ld KiB: %.0f bytes (%.1f KiB) per connection (server: %s)\n",
              kIdle, ramp_seconds, held, rss_before, rss_after, per_connection,
              per_connection / 1024, ServerProcess::binary().c_str());
  EXPECT_EQ(held, kIdle + 2) << metrics.body;
  // The server pings a connection silent for 300 s (--idle-timeout 600): the held phase is
  // free of pings only if the first connection is younger than that (35-38 s seen in CI).
  EXPECT_LT(ramp_seconds, 240.0) << "the first connections were pinged while being held";
  // A generous bound that still catches a per-connection buffer of the message size (64 KiB).
  EXPECT_LT(per_connection, 64 * 1024.0);
  report_p99("10,000 connections arriving", quiet, while_arriving);
  // Measured again, only the held run: a quiet run now would be one beside 10,000 connections.
  expect_p99_within("10,000 idle connections held", quiet, while_held, [&] {
    return std::pair{quiet, holding.run(by, hold)};
  });
  idle.clear();
  server.stop();
  if (!HasFailure()) std::filesystem::remove(log);  // kept for a look when the test fails
}

}  // namespace
}  // namespace arena::server::testing
