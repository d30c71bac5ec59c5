#include "bench/arena_load.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include <malloc.h>

#include "bench/echo_server.h"
#include "server/server.h"

// gperftools' call that gives tcmalloc's free pages back to the system; null where the
// executable runs on glibc's malloc (arena_malloc, CMakeLists.txt).
extern "C" void MallocExtension_ReleaseFreeMemory() __attribute__((weak));

namespace arena::bench {

namespace {

// RSS with the heap's free pages given back first, so memory a previous run freed is not
// counted as "already there" by the next one.
double trimmed_rss() {
  if (MallocExtension_ReleaseFreeMemory != nullptr) MallocExtension_ReleaseFreeMemory();
  malloc_trim(0);
  return rss_bytes();
}

std::chrono::milliseconds to_ms(double seconds) {
  return std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000));
}

}  // namespace

std::string load_flags_help() {
  return "  --connections N     client connections (default 1000; games are N/2)\n"
         "  --seconds S         each measured window (default 10)\n"
         "  --warmup S          play before each window, not measured (default 1)\n"
         "  --pace-ms MS        paced phase: wait before answering a state (default 100)\n"
         "  --client-threads T  client io_contexts (default 2)\n"
         "  --server-threads T  server I/O threads, also the echo server's (default 2)\n"
         "  --game NAME         catalog game to play (default tictactoe)\n"
         "  --lobby-interval-ms MS  the hub's lobby coalescing interval (default: the "
         "server's)\n"
         "  --rounds N          bench_store: rounds of every store, interleaved (default 3)\n"
         "  --stores LIST       bench_store: what runs beside the MemoryStore, from hop (its\n"
         "                      writes through the writer thread), normal and full (SQLite's\n"
         "                      synchronous; NORMAL journals moves), commit (NORMAL with a\n"
         "                      commit per move, no journal), nonice (NORMAL with the\n"
         "                      writer at normal priority) and gather (NORMAL with a\n"
         "                      group-commit window);\n"
         "                      default hop,normal,full\n"
         "  --commit-window-us US  bench_store: the window of `gather` (default 1000)\n";
}

std::optional<LoadFlags> read_load_flags(int argc, char** argv, const char* program,
                                         int& exit_status) {
  bool help = false;
  auto flags = parse_load_flags(argc, argv, [&](const std::string& a) {
    if (a != "--help" && a != "-h") return false;
    help = true;
    return true;
  });
  if (help) {
    std::printf("usage: %s [flags]\n%s", program, load_flags_help().c_str());
    exit_status = 0;
    return std::nullopt;
  }
  if (!flags) {
    std::fprintf(stderr, "%s: %s\n%s", program, flags.error().c_str(), load_flags_help().c_str());
    exit_status = 2;
    return std::nullopt;
  }
  return *flags;
}

Expected<LoadFlags> parse_load_flags(int argc, char** argv,
                                     const std::function<bool(const std::string&)>& extra) {
  LoadFlags f;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (extra && extra(a)) continue;
    if (i + 1 >= argc) return make_error("flag " + a + " needs a value (or is unknown)");
    const std::string v = argv[++i];
    char* end = nullptr;
    const double number = std::strtod(v.c_str(), &end);
    const bool numeric = end != v.c_str() && *end == '\0' && number >= 0;
    if (a == "--game") {
      f.game = v;
      continue;
    }
    if (a == "--stores") {
      std::stringstream list(v);
      std::string name;
      while (std::getline(list, name, ','))
        if (name != "hop" && name != "normal" && name != "full" && name != "gather" &&
            name != "commit" && name != "nonice")
          return make_error("flag --stores: '" + name +
                            "' is not hop, normal, commit, nonice, full or gather");
      f.stores = v;
      continue;
    }
    if (!numeric) return make_error("flag " + a + ": '" + v + "' is not a number >= 0");
    if (a == "--connections")
      f.connections = static_cast<int>(number);
    else if (a == "--seconds")
      f.seconds = number;
    else if (a == "--warmup")
      f.warmup = number;
    else if (a == "--pace-ms")
      f.pace_ms = static_cast<int>(number);
    else if (a == "--client-threads")
      f.client_threads = static_cast<int>(number);
    else if (a == "--server-threads")
      f.server_threads = static_cast<int>(number);
    else if (a == "--lobby-interval-ms")
      f.lobby_interval_ms = static_cast<int>(number);
    else if (a == "--rounds")
      f.rounds = static_cast<int>(number);
    else if (a == "--commit-window-us")
      f.commit_window_us = static_cast<int>(number);
    else
      return make_error("unknown flag " + a);
  }
  if (f.connections < 2) return make_error("--connections must be at least 2");
  if (f.seconds <= 0) return make_error("--seconds must be > 0");
  if (f.rounds < 1) return make_error("--rounds must be at least 1");
  if (f.client_threads < 1 || f.server_threads < 1) return make_error("threads must be >= 1");
  return f;
}

void fit_connections_to_fd_limit(LoadFlags& flags) {
  constexpr std::uint64_t kSpare = 64;  // files, the listener, SQLite, stdio
  const std::uint64_t limit = raise_fd_limit();
  const std::uint64_t need = 2 * static_cast<std::uint64_t>(flags.connections) + kSpare;
  if (limit >= need) return;
  const int fit = static_cast<int>((limit > kSpare ? limit - kSpare : 0) / 2) & ~1;
  std::printf(
      "NOTE: the fd limit is %llu (soft raised to hard); %d connections need %llu "
      "(both ends are in this process): running %d connections instead\n",
      static_cast<unsigned long long>(limit), flags.connections,
      static_cast<unsigned long long>(need), fit);
  flags.connections = std::max(2, fit);
}

Expected<ArenaLoadResult> run_arena_load(db::Store& store, const LoadFlags& flags) {
  server::ServerConfig config;
  config.port = 0;
  config.threads = flags.server_threads;
  config.restore_unfinished = false;
  config.close_grace_ms = 500;
  if (flags.lobby_interval_ms >= 0) config.hub.lobby_interval_ms = flags.lobby_interval_ms;
  server::Server server(config, store);
  if (auto started = server.start(); !started) return make_error(started.error());

  ArenaLoadResult out;
  const double rss_before = trimmed_rss();
  LoadClients clients({server.port(), flags.connections, flags.client_threads, LoadMode::kGames,
                       flags.game, 1, "arena-io"});
  if (auto up = clients.connect(std::chrono::seconds(60)); !up) {
    clients.stop();
    server.stop();
    return make_error("arena server: " + up.error());
  }
  out.connections = flags.connections - flags.connections % 2;
  out.rss_per_connection = (trimmed_rss() - rss_before) / out.connections;
  out.paced = clients.run_phase(flags.pace_ms, to_ms(flags.warmup), to_ms(flags.seconds));
  out.flat = clients.run_phase(0, to_ms(flags.warmup), to_ms(flags.seconds));
  out.server_moves = server.hub().metrics().moves_total;
  clients.stop();
  server.stop();
  return out;
}

namespace {

Expected<EchoLoadResult> run_reference_load(const LoadFlags& flags, EchoMode mode) {
  EchoServer echo(flags.server_threads, mode);
  EchoLoadResult out;
  const double rss_before = trimmed_rss();
  const LoadMode load = mode == EchoMode::kPairs ? LoadMode::kForward : LoadMode::kEcho;
  LoadClients clients({echo.port(), flags.connections, flags.client_threads, load, "", 1, "echo-io"});
  const char* name = mode == EchoMode::kPairs ? "forward server: " : "echo server: ";
  if (auto up = clients.connect(std::chrono::seconds(60)); !up) {
    clients.stop();
    return make_error(name + up.error());
  }
  out.rss_per_connection = (trimmed_rss() - rss_before) / flags.connections;
  out.flat = clients.run_phase(0, to_ms(flags.warmup), to_ms(flags.seconds));
  clients.stop();
  return out;
}

}  // namespace

Expected<EchoLoadResult> run_echo_load(const LoadFlags& flags) {
  return run_reference_load(flags, EchoMode::kEcho);
}

Expected<EchoLoadResult> run_forward_load(const LoadFlags& flags) {
  return run_reference_load(flags, EchoMode::kPairs);
}

void print_phase(const char* label, const PhaseResult& r) {
  std::printf(
      "  %-28s p50 %8.3f ms  p99 %8.3f ms  (p99.9 %.3f, max %.3f)  %9llu round trips  "
      "%10.0f /s  games %llu  errors %llu  server CPU %.1f us/round trip",
      label, r.percentile(50), r.percentile(99), r.percentile(99.9), r.percentile(100),
      static_cast<unsigned long long>(r.moves), r.per_second(),
      static_cast<unsigned long long>(r.games_finished), static_cast<unsigned long long>(r.errors),
      r.server_cpu_us_per_move());
  if (r.store_cpu_seconds > 0) std::printf(" + store %.1f", r.store_cpu_us_per_move());
  std::printf("  clients %.1f  steal %.0f%% others %.0f%%\n",
              r.moves > 0 ? r.client_cpu_seconds * 1e6 / static_cast<double>(r.moves) : 0.0,
              100 * r.steal_share, 100 * r.others_share);
  if (!r.first_error.empty()) std::printf("    first error: %s\n", r.first_error.c_str());
}

}  // namespace arena::bench
