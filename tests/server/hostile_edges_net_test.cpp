// Hostile edges of the transport (issue 53, items 1, 4, 5, 6, 7; issue 52, item 6): what an
// outside tester broke, each tried as a class, not only as the input that broke it.
//
// 1. The descriptor limit: `arena serve` in a process of its own with RLIMIT_NOFILE lowered
//    (loopback clients from 127.0.0.1 and .2): at the limit a new client is refused with 503 at
//    once, the server's CPU (from /proc) stays low, and it accepts again when descriptors are
//    free; the per-address cap (on by default: three quarters of the limit) refuses one address
//    while another still connects.
// 4. HTTP: HEAD has no body, a directory is redirected, every REST path segment and query
//    parameter is percent-decoded once and strictly.
// 5. The upgrade's Origin check, and a browser's session in its cookie alone.
// 6. A malformed session cookie is replaced, never fatal.
// 7. The bearer scheme in any case.
// Every loop is bounded in count and time.

#include <fcntl.h>
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

#include "server/api/bearer.h"
#include "server/net/http_request.h"
#include "server/net/origin.h"
#include "server/api/url.h"
#include "tests/server/hostile_fixture.h"

namespace arena::server::testing {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// The whole answer to `request` on a fresh connection (until the server closes it).
std::string round_trip(unsigned short port, const std::string& request) {
  RawSocket s(port);
  if (!s.ok() || !s.write(request)) return {};
  s.read_to_end(seconds(20));
  return s.received();
}

std::string get(unsigned short port, const std::string& target, const std::string& extra = "") {
  return round_trip(port, "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
                            "\r\n" + extra + "Connection: close\r\n\r\n");
}

// The value of header `name` in the head of an answer ("" if absent).
std::string header(const std::string& answer, const std::string& name) {
  std::smatch m;
  const std::string head = answer.substr(0, answer.find("\r\n\r\n"));
  if (!std::regex_search(head, m, std::regex("\r\n" + name + ": ([^\r]*)", std::regex::icase)))
    return {};
  return m[1];
}

std::string body_of(const std::string& answer) {
  const auto split = answer.find("\r\n\r\n");
  return split == std::string::npos ? std::string{} : answer.substr(split + 4);
}

// An upgrade request as a browser sends it: Host with the port, and `extra` header lines.
std::string upgrade(unsigned short port, const std::string& extra = "") {
  return "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
         "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
         "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n" +
         extra + "\r\n";
}

// Upgrades `s` with `extra` headers and says hello (protocol 3); the welcome, or null (the
// answer's status in `status`).
Json upgrade_and_hello(RawSocket& s, unsigned short port, const std::string& extra,
                       int* status = nullptr, std::string* head = nullptr) {
  if (!s.ok() || !s.write(upgrade(port, extra))) return Json{};
  if (!s.read_until("\r\n\r\n", seconds(10))) return Json{};
  const auto end = s.received().find("\r\n\r\n") + 4;
  if (head) *head = s.received().substr(0, end);
  const int code = http_status(s.received());
  if (status) *status = code;
  if (code != 101) return Json{};
  s.received().erase(0, end);
  if (!s.write(RawSocket::frame(R"({"type":"hello","version":3,"name":"edge"})"))) return Json{};
  const auto deadline = Clock::now() + seconds(10);
  while (Clock::now() < deadline) {
    for (const auto& f : s.take_frames()) {
      if (f.opcode != 1) continue;
      const Json j = Json::parse(f.payload, nullptr, false);
      if (j.value("type", "") == "welcome" || j.value("type", "") == "error") return j;
    }
    if (!s.read_some(milliseconds(200))) break;
  }
  return Json{};
}

// --- 1. the descriptor limit and the per-address cap ------------------------------------------

// `arena serve` in a child process whose descriptor limit (soft and hard) is `nofile`.
class LimitedServer {
 public:
  bool start(const std::string& log, rlim_t nofile, std::vector<std::string> flags) {
    log_ = log;
    int out[2];
    if (::pipe(out) != 0) return false;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(out[1], 1);
      const int err = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (err >= 0) ::dup2(err, 2);
      ::close(out[0]);
      const rlimit limit{nofile, nofile};
      if (::setrlimit(RLIMIT_NOFILE, &limit) != 0) ::_exit(126);
      const std::string path = binary();
      std::vector<std::string> args{path,       "serve",     "--port", "0",  "--db", ":memory:",
                                    "--threads", "2",        "--idle-timeout", "600"};
      args.insert(args.end(), flags.begin(), flags.end());
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(path.c_str(), argv.data());
      ::_exit(127);
    }
    ::close(out[1]);
    const auto deadline = Clock::now() + seconds(60);
    char buf[512];
    while (out_.find("/ (WebSocket") == std::string::npos && Clock::now() < deadline) {
      pollfd p{out[0], POLLIN, 0};
      if (::poll(&p, 1, 1000) <= 0) continue;
      const auto n = ::read(out[0], buf, sizeof buf);
      if (n <= 0) break;
      out_.append(buf, static_cast<std::size_t>(n));
    }
    ::close(out[0]);
    std::smatch m;
    if (!std::regex_search(out_, m, std::regex(R"(http://127\.0\.0\.1:(\d+)/)"))) return false;
    port_ = static_cast<unsigned short>(std::stoi(m[1]));
    return true;
  }
  ~LimitedServer() { stop(); }
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
  unsigned short port() const { return port_; }
  const std::string& stdout_text() const { return out_; }
  std::string log_text() const {
    std::ifstream in(log_);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  // The server's CPU time so far, user and system, in seconds (/proc/PID/stat).
  double cpu_seconds() const {
    std::ifstream in("/proc/" + std::to_string(pid_) + "/stat");
    std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::istringstream rest(all.substr(all.rfind(')') + 2));
    std::string field;
    long utime = 0, stime = 0;
    for (int i = 3; i <= 15 && rest >> field; ++i) {  // fields 14 and 15: utime, stime
      if (i == 14) utime = std::stol(field);
      if (i == 15) stime = std::stol(field);
    }
    return static_cast<double>(utime + stime) / static_cast<double>(::sysconf(_SC_CLK_TCK));
  }
  int open_descriptors() const {
    std::error_code ec;
    int n = 0;
    for (auto it = std::filesystem::directory_iterator("/proc/" + std::to_string(pid_) + "/fd", ec);
         !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
      ++n;
    return n;
  }
  // ARENA_HOSTILE_SERVER: another build's arena, as in hostile_test.cpp.
  static std::string binary() {
    const char* other = std::getenv("ARENA_HOSTILE_SERVER");
    return other && *other ? other : ARENA_BINARY;
  }

 private:
  pid_t pid_ = -1;
  unsigned short port_ = 0;
  std::string log_, out_;
};

std::string temp_log(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("arena_edges_" + name + "_" + std::to_string(::getpid()) + ".log"))
      .string();
}

// A WebSocket upgrade from `source`: the answer's status (0: no answer within `wait`), and how
// long it took.
struct Attempt {
  int status = 0;
  double ms = 0;
  std::string text;
};
Attempt try_upgrade(RawSocket& s, unsigned short port, milliseconds wait) {
  Attempt a;
  const auto t0 = Clock::now();
  if (!s.ok()) return a;
  s.write(upgrade(port));  // may fail if the refusal came first: it is read all the same
  s.read_until("\r\n\r\n", wait);
  // A refusal closes the connection: its body comes with it.
  if (http_status(s.received()) != 101) s.read_to_end(milliseconds(500));
  a.ms = ms_since(t0);
  a.status = http_status(s.received());
  a.text = s.received();
  return a;
}

TEST(HostileEdgesNet, AtTheDescriptorLimitNewClientsAreRefusedAtOnceAndTheServerIdles) {
  constexpr rlim_t kNoFile = 160;
  const std::string log = temp_log("fd_limit");
  LimitedServer server;
  // No per-address cap, so that descriptors run out first.
  ASSERT_TRUE(server.start(log, kNoFile, {"--max-connections-per-address", "0"}))
      << server.stdout_text() << "; see " << log;
  const int base = server.open_descriptors();
  // Connections from two loopback addresses until the server refuses five: each is held (a
  // WebSocket that said nothing, idle timeout 600 s) or refused with 503 within a second.
  const char* sources[] = {"127.0.0.1", "127.0.0.2"};
  std::vector<RawSocket> held;
  int refused = 0;
  double slowest_refusal_ms = 0;
  for (int i = 0; i < 400 && refused < 5; ++i) {
    RawSocket s(server.port(), 0, sources[i % 2]);
    ASSERT_TRUE(s.ok()) << "connect " << i << ": " << std::strerror(errno);
    const Attempt a = try_upgrade(s, server.port(), seconds(5));
    if (a.status == 101) {
      held.push_back(std::move(s));
      continue;
    }
    ++refused;
    slowest_refusal_ms = std::max(slowest_refusal_ms, a.ms);
    EXPECT_EQ(a.status, 503) << "connection " << i << " after " << a.ms << " ms: " << a.text;
    EXPECT_NE(a.text.find("descriptor limit"), std::string::npos) << a.text;
    EXPECT_LT(a.ms, 1500.0) << "a refusal must be prompt, not a hang";
  }
  ASSERT_EQ(refused, 5) << held.size() << " connections held and none refused; see " << log;
  EXPECT_GE(static_cast<int>(held.size()), static_cast<int>(kNoFile) - base - 10);

  // At the limit, a new client every 100 ms for 3 s: each refused at once; the server's CPU.
  const double cpu0 = server.cpu_seconds();
  const auto t0 = Clock::now();
  int probes = 0, probe_refusals = 0;
  double slowest_probe_ms = 0;
  while (seconds_since(t0) < 3.0) {
    const auto h = get(server.port(), "/healthz");  // a plain GET too
    RawSocket s(server.port(), 0, sources[probes % 2]);
    const Attempt a = try_upgrade(s, server.port(), seconds(5));
    ++probes;
    // A descriptor may come free as connections end (a refused one, the GET): then a client
    // is served, and held, so that the server stays at its limit. Never a client unanswered.
    const int got = http_status(h);
    EXPECT_TRUE(got == 503 || got == 200) << "probe " << probes << ": " << h;
    EXPECT_TRUE(a.status == 503 || a.status == 101) << "probe " << probes << ": " << a.text;
    if (a.status == 503) {
      EXPECT_NE(a.text.find("descriptor limit"), std::string::npos) << a.text;
    }
    probe_refusals += (got == 503) + (a.status == 503);
    if (a.status == 101) held.push_back(std::move(s));
    slowest_probe_ms = std::max(slowest_probe_ms, a.ms);
    std::this_thread::sleep_for(milliseconds(100));
  }
  const double elapsed = seconds_since(t0);
  const double cpu_share = (server.cpu_seconds() - cpu0) / elapsed;
  std::printf("[edges] fd limit %d: %zu connections held, %d refused while filling (slowest "
              "%.1f ms); at the limit %d probes (a GET and an upgrade each), %d refused (slowest %.1f ms), server CPU %.1f%% of "
              "a core over %.1f s (server: %s)\n",
              static_cast<int>(kNoFile), held.size(), refused, slowest_refusal_ms, probes,
              probe_refusals, slowest_probe_ms, cpu_share * 100, elapsed,
              LimitedServer::binary().c_str());
  EXPECT_GE(probe_refusals, probes) << "at the limit, most probes are refused";
  EXPECT_LT(slowest_probe_ms, 1500.0);
  // Spinning is a whole core (issue 53: ~100%); idle at the limit, with a refusal every 50 ms
  // and the probes' own connections, 1-8% of a core in the ASan build on a loaded machine.
  EXPECT_LT(cpu_share, 0.20) << "the server spins at the descriptor limit";

  // Descriptors free again: the next client is served.
  held.erase(held.end() - 10, held.end());
  Attempt again;
  const auto t1 = Clock::now();
  while (seconds_since(t1) < 5.0) {
    RawSocket s(server.port());
    again = try_upgrade(s, server.port(), seconds(5));
    if (again.status == 101) break;
    std::this_thread::sleep_for(milliseconds(100));
  }
  EXPECT_EQ(again.status, 101) << again.text << "\n" << server.log_text();
  held.clear();
  server.stop();
  const std::string text = server.log_text();
  EXPECT_NE(text.find("at the descriptor limit"), std::string::npos) << text;
  EXPECT_NE(text.find("accepting again"), std::string::npos) << text;
  if (!::testing::Test::HasFailure()) std::filesystem::remove(log);
}

TEST(HostileEdgesNet, OneAddressIsCappedByDefaultWhileAnotherStillConnects) {
  constexpr rlim_t kNoFile = 160;  // the default cap: three quarters, 120
  constexpr int kCap = 120;
  const std::string log = temp_log("per_address");
  LimitedServer server;
  ASSERT_TRUE(server.start(log, kNoFile, {})) << server.stdout_text() << "; see " << log;
  EXPECT_NE(server.stdout_text().find("at most 120 connections per address"), std::string::npos)
      << server.stdout_text();
  std::vector<RawSocket> held;
  for (int i = 0; i < kCap; ++i) {
    RawSocket s(server.port(), 0, "127.0.0.3");
    const Attempt a = try_upgrade(s, server.port(), seconds(5));
    ASSERT_EQ(a.status, 101) << "connection " << i << ": " << a.text;
    held.push_back(std::move(s));
  }
  RawSocket over(server.port(), 0, "127.0.0.3");
  const Attempt refused = try_upgrade(over, server.port(), seconds(5));
  EXPECT_EQ(refused.status, 503) << refused.text;
  EXPECT_NE(refused.text.find("too many connections from 127.0.0.3: at most 120 at once"),
            std::string::npos)
      << refused.text;
  EXPECT_EQ(header(refused.text, "Retry-After"), "1");
  EXPECT_LT(refused.ms, 1500.0);
  // Another address is not touched by the first one's cap.
  RawSocket other(server.port(), 0, "127.0.0.4");
  EXPECT_EQ(try_upgrade(other, server.port(), seconds(5)).status, 101);
  // A connection of the first address ends: it may connect again.
  held.pop_back();
  Attempt again;
  const auto t0 = Clock::now();
  while (seconds_since(t0) < 5.0) {
    RawSocket s(server.port(), 0, "127.0.0.3");
    again = try_upgrade(s, server.port(), seconds(5));
    if (again.status == 101) break;
    std::this_thread::sleep_for(milliseconds(50));
  }
  EXPECT_EQ(again.status, 101) << again.text;
  held.clear();
  server.stop();
  if (!::testing::Test::HasFailure()) std::filesystem::remove(log);
}

class EdgesTest : public ServerTest {
 protected:
  void SetUp() override {}  // each test starts its server with the config it needs
};

TEST_F(EdgesTest, TheCapIsConfigurableAndCountsWebSocketsAndHttpAlike) {
  HubConfig config = test_hub_config();
  config.max_connections_per_address = 3;
  start_server(config);
  RawSocket a(port()), b(port());
  ASSERT_EQ(try_upgrade(a, port(), seconds(5)).status, 101);  // a WebSocket
  ASSERT_TRUE(b.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"));  // a kept-alive HTTP one
  ASSERT_TRUE(b.read_until("ok\n", seconds(5)));
  RawSocket c(port());
  ASSERT_EQ(try_upgrade(c, port(), seconds(5)).status, 101);
  RawSocket d(port());
  const Attempt over = try_upgrade(d, port(), seconds(5));
  EXPECT_EQ(over.status, 503) << over.text;
  EXPECT_NE(over.text.find("at most 3 at once"), std::string::npos) << over.text;
}

// --- 4. HTTP: HEAD, directories, percent-decoding ---------------------------------------------

TEST_F(EdgesTest, HeadAnswersAsGetWithoutABody) {
  start_server();
  for (const std::string target : {"/", "/js/app.js", "/api/players", "/healthz", "/nothing"}) {
    const std::string got = get(port(), target);
    const std::string head = round_trip(
        port(), "HEAD " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    EXPECT_EQ(http_status(head), http_status(got)) << target;
    EXPECT_EQ(body_of(head), "") << target << ": a HEAD answer with a body";
    EXPECT_EQ(header(head, "Content-Length"), std::to_string(body_of(got).size())) << target;
    EXPECT_EQ(header(head, "Content-Type"), header(got, "Content-Type")) << target;
  }
  // On a kept-alive connection, the answer after a HEAD's is read where it starts.
  const std::string two = round_trip(port(),
                                   "HEAD /index.html HTTP/1.1\r\nHost: x\r\n\r\n"
                                   "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  const auto second = two.find("\r\n\r\n") + 4;
  EXPECT_TRUE(two.compare(second, 15, "HTTP/1.1 200 OK") == 0) << two;
  EXPECT_TRUE(two.ends_with("\r\n\r\nok\n")) << two;
}

TEST_F(EdgesTest, ADirectoryIsRedirectedToItsSlashAndNeverAnsweredEmpty) {
  start_server();
  const std::string js = get(port(), "/js");
  EXPECT_EQ(http_status(js), 301) << js;
  EXPECT_EQ(header(js, "Location"), "/js/");
  EXPECT_EQ(header(get(port(), "/js?x=1"), "Location"), "/js/?x=1");
  EXPECT_EQ(header(get(port(), "//js"), "Location"), "/js/") << "another host to a browser";
  // The directory itself has no index.html: 404, not 200 empty.
  EXPECT_EQ(http_status(get(port(), "/js/")), 404);
  const std::string index = get(port(), "/");
  EXPECT_EQ(http_status(index), 200);
  EXPECT_FALSE(body_of(index).empty());
}

TEST_F(EdgesTest, StaticPathsArePercentDecodedOnceAndStaySafe) {
  start_server();
  const std::string plain = get(port(), "/index.html");
  const std::string escaped = get(port(), "/index%2Ehtml");
  EXPECT_EQ(http_status(escaped), 200);
  EXPECT_EQ(body_of(escaped), body_of(plain));
  for (const std::string bad : {"/%2e%2e/CMakeLists.txt", "/js/%2E%2E/%2E%2E/CMakeLists.txt",
                                "/index%zz.html", "/index.htm%6", "/a%2Fb", "/%00"}) {
    const std::string got = get(port(), bad);
    EXPECT_EQ(http_status(got), 400) << bad << ": " << got;
  }
  EXPECT_NE(body_of(get(port(), "/index%zz.html")).find("'%zz'"), std::string::npos);
}

TEST_F(EdgesTest, RestQueryParametersAndPathSegmentsArePercentDecodedOnceStrictly) {
  start_server();
  // The page's GDL leaderboard request (issue 52, item 6).
  const std::string gdl = get(port(), "/api/leaderboard?game=gdl%3AconnectFour");
  EXPECT_EQ(http_status(gdl), 200) << gdl;
  EXPECT_TRUE(Json::parse(body_of(gdl), nullptr, false).is_array()) << gdl;
  // Names are decoded too; lower-case hex as well.
  EXPECT_EQ(http_status(get(port(), "/api/leaderboard?%67ame=gdl%3aconnectFour")), 200);
  EXPECT_EQ(http_status(get(port(), "/api/games?game=%63hess&limit=%35")), 200);
  // Once: "%253A" is the text "%3A", not ':'.
  const std::string twice = get(port(), "/api/leaderboard?game=gdl%253AconnectFour");
  EXPECT_EQ(http_status(twice), 400);
  EXPECT_NE(body_of(twice).find("unknown game 'gdl%3AconnectFour'"), std::string::npos) << twice;
  // '+' is a space in a query (the form encoding); %2B is a '+'.
  EXPECT_NE(body_of(get(port(), "/api/leaderboard?game=no+such")).find("'no such'"),
            std::string::npos);
  EXPECT_NE(body_of(get(port(), "/api/leaderboard?game=no%2Bsuch")).find("'no+such'"),
            std::string::npos);
  // Bad escapes: 400 naming them.
  for (const auto& [target, named] : std::vector<std::pair<std::string, std::string>>{
           {"/api/leaderboard?game=%zz", "'%zz'"},
           {"/api/leaderboard?game=chess%4", "'%4'"},
           {"/api/leaderboard?game=chess%", "'%'"},
           {"/api/games?li%xmit=5", "'%xm'"},
           {"/api/games/1%zz", "'%zz'"},
           {"/api/leaderboard?game=%00", "NUL"},
           {"/api/leaderboard?game=%ff", "not UTF-8"}}) {
    const std::string got = get(port(), target);
    EXPECT_EQ(http_status(got), 400) << target << ": " << got;
    EXPECT_NE(body_of(got).find(named), std::string::npos) << target << ": " << got;
  }
  // Path segments: "/api/games/%31" is game 1 (none here: 404, not 400 "not a game id").
  const std::string one = get(port(), "/api/games/%31");
  EXPECT_EQ(http_status(one), 404) << one;
}

// --- 5. Origin, and the browser's session in its cookie ---------------------------------------

TEST_F(EdgesTest, AnUpgradeFromAnotherOriginIsRefusedNamingIt) {
  start_server();
  const std::string own = "http://127.0.0.1:" + std::to_string(port());
  for (const std::string& origin : std::vector<std::string>{"http://127.0.0.1:" + std::to_string(port() + 1), "http://evil.example",
        "https://127.0.0.1:" + std::to_string(port()) + ".evil.example", "null", "garbage"}) {
    RawSocket s(port());
    int status = 0;
    upgrade_and_hello(s, port(), "Origin: " + origin + "\r\n", &status);
    EXPECT_EQ(status, 403) << origin;
    s.read_to_end(seconds(5));
    EXPECT_NE(s.received().find("WebSocket refused"), std::string::npos) << s.received();
  }
  // The server's own origin (any case), and no Origin at all (a bot), connect.
  for (const std::string& extra : std::vector<std::string>{
           "Origin: " + own + "\r\n",
           "Origin: HTTP://127.0.0.1:" + std::to_string(port()) + "\r\n", ""}) {
    RawSocket s(port());
    int status = 0;
    const Json w = upgrade_and_hello(s, port(), extra, &status);
    EXPECT_EQ(status, 101) << extra;
    EXPECT_EQ(w.value("type", ""), "welcome") << w.dump();
  }
}

TEST_F(EdgesTest, TheAllowListAdmitsTheOriginsItNames) {
  HubConfig config = test_hub_config();
  config.allowed_origins = {*normalize_origin("https://arena.example/", true)};
  start_server(config);
  for (const auto& [origin, expected] : std::vector<std::pair<std::string, int>>{
           {"https://arena.example", 101},
           {"https://ARENA.example:443", 101},
           {"http://arena.example", 403},
           {"https://arena.example:8443", 403}}) {
    RawSocket s(port());
    int status = 0;
    upgrade_and_hello(s, port(), "Origin: " + origin + "\r\n", &status);
    EXPECT_EQ(status, expected) << origin;
  }
}

TEST_F(EdgesTest, ABrowsersWelcomeCarriesNoTokenAndItsCookieIsItsSession) {
  start_server();
  const std::string origin = "Origin: http://127.0.0.1:" + std::to_string(port()) + "\r\n";
  // The first visit: the 101 sets the cookie; the welcome has no token.
  RawSocket first(port());
  std::string head;
  const Json w1 = upgrade_and_hello(first, port(), origin, nullptr, &head);
  ASSERT_EQ(w1.value("type", ""), "welcome") << w1.dump();
  EXPECT_EQ(w1.value("session", "?"), "");
  const std::string set = header(head, "Set-Cookie");
  ASSERT_TRUE(set.starts_with("arena_session=")) << head;
  EXPECT_NE(set.find("HttpOnly"), std::string::npos);
  const std::string cookie = set.substr(0, set.find(';'));
  // Back with the cookie: the same player, still no token.
  RawSocket again(port());
  const Json w2 = upgrade_and_hello(again, port(), origin + "Cookie: " + cookie + "\r\n");
  EXPECT_EQ(w2["player"], w1["player"]);
  EXPECT_EQ(w2.value("session", "?"), "");
  // A program without Origin still gets its token (protocol/README.md) and can resume by it.
  RawSocket bot(port());
  const Json w3 = upgrade_and_hello(bot, port(), "");
  EXPECT_GE(w3.value("session", "").size(), 16u) << w3.dump();
}

// --- 6. a malformed session cookie ------------------------------------------------------------

TEST_F(EdgesTest, AMalformedSessionCookieIsReplacedNotFatal) {
  start_server();
  for (const std::string& bad : std::vector<std::string>{"x", "short", "\"0123456789abcdef0123\"", "0123456789abcdef!!!!", std::string(200, 'a'),
        ""}) {
    RawSocket s(port());
    std::string head;
    int status = 0;
    const Json w = upgrade_and_hello(s, port(), "Cookie: arena_session=" + bad + "\r\n", &status,
                                     &head);
    ASSERT_EQ(status, 101) << bad;
    EXPECT_EQ(w.value("type", ""), "welcome") << "cookie '" << bad << "': " << w.dump();
    const std::string set = header(head, "Set-Cookie");
    ASSERT_TRUE(set.starts_with("arena_session=")) << "no fresh cookie for '" << bad << "'";
    // The fresh cookie is a session: coming back with it is the same player.
    RawSocket back(port());
    const Json w2 = upgrade_and_hello(back, port(), "Cookie: " + set.substr(0, set.find(';')) + "\r\n");
    EXPECT_EQ(w2["player"], w["player"]) << bad;
    // And a page load with the bad cookie gets a fresh one too.
    const std::string page = get(port(), "/healthz", "Cookie: arena_session=" + bad + "\r\n");
    EXPECT_TRUE(header(page, "Set-Cookie").starts_with("arena_session=")) << page;
  }
  // A bad copy beside a good one (two paths or domains): the good one is the session.
  RawSocket good(port());
  std::string head;
  const Json w = upgrade_and_hello(good, port(), "Cookie: arena_session=bad; arena_session=0123456789abcdef0123456789abcdef\r\n",
                                   nullptr, &head);
  EXPECT_EQ(w.value("type", ""), "welcome");
  EXPECT_EQ(header(head, "Set-Cookie"), "") << head;
  EXPECT_EQ(w.value("session", ""), "0123456789abcdef0123456789abcdef");
}

// --- 7. the bearer scheme in any case ---------------------------------------------------------

TEST_F(EdgesTest, TheBearerSchemeIsCaseInsensitive) {
  start_server();
  auto token = store_.create_bot_token("case-bot");
  ASSERT_TRUE(token) << token.error();
  for (const std::string scheme : {"Bearer ", "bearer ", "BEARER ", "bEaReR  ", "Bearer\t"}) {
    RawSocket s(port());
    int status = 0;
    const Json w = upgrade_and_hello(s, port(), "Authorization: " + scheme + *token + "\r\n", &status);
    EXPECT_EQ(status, 101) << scheme;
    EXPECT_EQ(w["player"].value("name", ""), "case-bot") << "'" << scheme << "': " << w.dump();
    EXPECT_TRUE(w["player"].value("bot", false)) << scheme;
  }
  // A wrong token in lower case is a failed login (401), not a guest.
  RawSocket wrong(port());
  int status = 0;
  upgrade_and_hello(wrong, port(), "Authorization: bearer nope\r\n", &status);
  EXPECT_EQ(status, 401);
  // Another scheme is no token login: a guest, as before.
  RawSocket basic(port());
  const Json g = upgrade_and_hello(basic, port(), "Authorization: Basic Zm9vOmJhcg==\r\n");
  EXPECT_FALSE(g["player"].value("bot", true)) << g.dump();
}

// --- the pure parts -----------------------------------------------------------------------------

TEST(EdgesParsing, PercentDecodingIsStrict) {
  EXPECT_EQ(*percent_decode("gdl%3AconnectFour", true), "gdl:connectFour");
  EXPECT_EQ(*percent_decode("a+b%2B", true), "a b+");
  EXPECT_EQ(*percent_decode("a+b", false), "a+b");
  EXPECT_EQ(*percent_decode("%E2%82%AC", true), "\xE2\x82\xAC");
  for (const std::string bad : {"%", "%4", "%zz", "%g0", "%00", "%C0%80", "%ED%A0%80", "%F4%90%80%80", "%E2%82"})
    EXPECT_FALSE(percent_decode(bad, true)) << bad;
  EXPECT_NE(percent_decode("x%zzy", true).error().find("'%zz'"), std::string::npos);
  EXPECT_FALSE(decode_path("/a%2Fb"));
  EXPECT_EQ(*decode_path("/api/games/%31/export"), "/api/games/1/export");
  auto q = decode_query("a=1&&b&c=x%20y&a=2");
  ASSERT_TRUE(q);
  EXPECT_EQ((*q)["a"], "2");
  EXPECT_EQ((*q)["b"], "");
  EXPECT_EQ((*q)["c"], "x y");
}

TEST(EdgesParsing, OriginsCompareBySchemeHostAndPort) {
  EXPECT_EQ(*normalize_origin("HTTP://Example.COM"), "http://example.com:80");
  EXPECT_EQ(*normalize_origin("https://example.com:443"), "https://example.com:443");
  EXPECT_EQ(*normalize_origin("http://[::1]:8080"), "http://[::1]:8080");
  EXPECT_FALSE(normalize_origin("example.com"));
  EXPECT_FALSE(normalize_origin("http://example.com/path"));
  EXPECT_TRUE(normalize_origin("http://example.com/", true));
  EXPECT_FALSE(normalize_origin("http://a:99999"));
  EXPECT_FALSE(origin_refusal("http://example.com", "example.com", {}));
  EXPECT_FALSE(origin_refusal("https://example.com", "example.com", {}));
  EXPECT_FALSE(origin_refusal("http://example.com:8080", "EXAMPLE.com:8080", {}));
  EXPECT_TRUE(origin_refusal("http://example.com:8081", "example.com:8080", {}));
  EXPECT_TRUE(origin_refusal("http://sub.example.com", "example.com", {}));
  EXPECT_TRUE(origin_refusal("null", "example.com", {}));
  EXPECT_FALSE(origin_refusal("null", "example.com", {"null"}));
  EXPECT_FALSE(origin_refusal("http://other", "example.com", {"*"}));
  EXPECT_TRUE(origin_refusal("chrome-extension://abc", "abc", {}));
}

TEST(EdgesParsing, BearerAndSessionCookies) {
  EXPECT_EQ(bearer_token("bearer abc"), "abc");
  EXPECT_EQ(bearer_token("BEARER   abc  "), "abc");
  EXPECT_EQ(bearer_token("Bearer"), "");
  EXPECT_EQ(bearer_token("Bearerx abc"), std::nullopt);
  EXPECT_EQ(bearer_token("Basic abc"), std::nullopt);
  EXPECT_EQ(bearer_token(""), std::nullopt);
  EXPECT_EQ(session_cookie("arena_session=short"), "");
  EXPECT_EQ(session_cookie("a=1; arena_session=0123456789abcdef"), "0123456789abcdef");
  EXPECT_EQ(session_cookie("arena_session=bad; arena_session=0123456789abcdef"),
            "0123456789abcdef");
  EXPECT_EQ(cookie_value("arena_session=bad", "arena_session"), "bad");
}

}  // namespace
}  // namespace arena::server::testing
