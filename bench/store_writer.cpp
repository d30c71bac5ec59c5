// bench_store_writer: the store's writer on its own, without the server and its load clients
// (issue 6: moves persisted per second with the chosen durability, and what each costs). On
// two cores shared with the server and the load clients, bench_store's latencies move with
// every other process on the machine; the CPU time per stored move measured here does not.
//
// `--in-flight` K games are written at a time: each game's next write is posted when its
// previous one is durable (create_game_async, --plies moves, finish_game with its rating
// updates), so the writer's group commits hold up to K writes, as the server's do when K games
// move at once. As in the server, a write's callback hands over to another thread (an
// io_context, here the only work of the bench's own thread), which posts the next write: the
// writer's wake-ups and its completions' hand-overs are in the figures. Games rotate over --players
// bots in pairs, so that rating rows are spread over the file as in a league.
//
// Printed per run: moves per second, CPU time per move of the store's threads (writer and
// checkpointer, bench::thread_cpu_seconds) and of the whole process (a journaled move's
// append runs on the caller's thread), and writes per commit. The
// reference, measured in the same run and interleaved with it over --rounds: HopStore
// (bench/hop_store.h), the same writer thread and queue with a MemoryStore behind it, i.e.
// everything but SQLite. Then, per K, the medians and their ratios to HopStore's.
//
// usage: bench_store_writer [--games N] [--plies P] [--in-flight 1,4,16] [--players N]
//                           [--rounds R] [--stores hop,normal,commit,full]

#include <sys/resource.h>
#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "bench/hop_store.h"
#include "bench/load_client.h"
#include "bench/median.h"
#include "db/sqlite_store.h"

namespace {

using namespace arena;
using Clock = std::chrono::steady_clock;
using bench::median;

struct Flags {
  int games = 2000;
  int plies = 9;
  std::vector<int> in_flight{1, 4, 16};
  int players = 1000;
  int rounds = 3;
  std::vector<std::string> stores{"hop", "normal"};
};

struct Run {
  double moves_per_second = 0;
  double cpu_us_per_move = 0;
  double process_cpu_us_per_move = 0;  // every thread: also the journal's appends
  double writes_per_commit = 0;        // 0 where the store does not count commits
};

// Writes `games` games, `in_flight` at a time, from the store's own callbacks.
class Driver {
 public:
  Driver(db::Store& store, const Flags& flags, const std::vector<db::PlayerId>& players,
         int in_flight)
      : store_(store), flags_(flags), players_(players), in_flight_(in_flight) {}

  // Runs the io_context on this thread until every game is written or a write failed;
  // returns the first error.
  Expected<void> run() {
    auto work = boost::asio::make_work_guard(ioc_);
    for (int i = 0; i < in_flight_; ++i) start_game();
    std::thread waiter([this, &work] {
      std::unique_lock lock(mutex_);
      done_.wait(lock, [this] { return finished_ == flags_.games || !error_.empty(); });
      lock.unlock();
      boost::asio::post(ioc_, [&work] { work.reset(); });
    });
    ioc_.run();
    waiter.join();
    if (!error_.empty()) return make_error(error_);
    return {};
  }
  long long moves() const { return moves_.load(); }

 private:
  void start_game() {
    const int n = started_.fetch_add(1);
    if (n >= flags_.games) return;
    const std::size_t pair = static_cast<std::size_t>(n) % (players_.size() / 2);
    db::NewGame game;
    game.kind = "tictactoe";
    game.first = players_[2 * pair];
    game.second = players_[2 * pair + 1];
    game.time_control = "none";
    game.seed = static_cast<std::uint64_t>(n);
    store_.create_game_async(game, [this, n](Expected<db::GameId> id) {
      if (!id) return fail("create_game: " + id.error());
      boost::asio::post(ioc_, [this, game = *id, n] { move(game, 0, n); });
    });
  }

  void move(db::GameId game, int ply, int n) {
    db::MoveRecord m;
    m.game = game;
    m.ply = ply;
    m.move = std::to_string(ply);
    m.time_used_ms = 100;
    store_.append_move(m, [this, game, ply, n](Expected<void> ok) {
      if (!ok) return fail("append_move: " + ok.error());
      ++moves_;
      boost::asio::post(ioc_, [this, game, ply, n] { next(game, ply, n); });
    });
  }

  void next(db::GameId game, int ply, int n) {
    if (ply + 1 < flags_.plies) return move(game, ply + 1, n);
    db::GameEnd end;
    end.game = game;
    static const char* const kResults[] = {"1-0", "0-1", "1/2-1/2"};
    end.result = kResults[n % 3];
    end.reason = "bench";
    store_.finish_game(end, [this](Expected<void> finished) {
      if (!finished) return fail("finish_game: " + finished.error());
      {
        std::lock_guard lock(mutex_);
        ++finished_;
      }
      done_.notify_all();
      boost::asio::post(ioc_, [this] { start_game(); });
    });
  }

  void fail(const std::string& why) {
    {
      std::lock_guard lock(mutex_);
      if (error_.empty()) error_ = why;
    }
    done_.notify_all();
  }

  db::Store& store_;
  const Flags& flags_;
  const std::vector<db::PlayerId>& players_;
  int in_flight_;
  boost::asio::io_context ioc_{1};
  std::atomic<int> started_{0};
  std::atomic<long long> moves_{0};
  std::mutex mutex_;
  std::condition_variable done_;
  int finished_ = 0;
  std::string error_;
};

double store_cpu_seconds() {
  return bench::thread_cpu_seconds("arena-writer") + bench::thread_cpu_seconds("arena-checkpt");
}

// The whole process: with the move journal a move's append runs on the thread that calls
// append_move (here the driver's), not on the store's threads. The driver's own work is the
// same for every store.
double process_cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// One run on a fresh store: "hop", or SQLite with "normal" (with the move journal), "commit"
// (NORMAL without it) or "full" synchronous.
Expected<Run> run_once(const std::string& kind, int in_flight, const Flags& flags) {
  std::unique_ptr<db::Store> store;
  db::SqliteStore* sqlite = nullptr;
  std::filesystem::path dir;
  if (kind == "hop") {
    auto opened = bench::HopStore::open();
    if (!opened) return make_error(opened.error());
    store = std::move(*opened);
  } else {
    char dir_template[] = "/tmp/arena_bench_writer.XXXXXX";
    if (mkdtemp(dir_template) == nullptr)
      return make_error("cannot create a temporary directory under /tmp");
    dir = dir_template;
    db::SqliteOptions options;
    options.synchronous_full = kind == "full";
    options.move_journal = kind == "normal";
    auto opened = db::open_sqlite_store((dir / "arena.db").string(), options);
    if (!opened) {
      std::filesystem::remove_all(dir);
      return make_error(opened.error());
    }
    sqlite = opened->get();
    store = std::move(*opened);
  }
  std::vector<db::PlayerId> players;
  for (int i = 0; i < flags.players; ++i) {
    auto p = store->find_or_create_player("writer-bench-" + std::to_string(i), true);
    if (!p) return make_error("find_or_create_player: " + p.error());
    players.push_back(p->id);
  }
  store->flush();
  const std::size_t commits_before = sqlite ? sqlite->commits() : 0;
  const double cpu_before = store_cpu_seconds();
  const double process_before = process_cpu_seconds();
  const auto start = Clock::now();
  Driver driver(*store, flags, players, in_flight);
  auto ok = driver.run();
  store->flush();
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  const double cpu = store_cpu_seconds() - cpu_before;
  const double process_cpu = process_cpu_seconds() - process_before;
  Run r;
  const auto moves = static_cast<double>(driver.moves());
  if (ok && moves > 0) {
    r.moves_per_second = moves / seconds;
    r.cpu_us_per_move = cpu * 1e6 / moves;
    r.process_cpu_us_per_move = process_cpu * 1e6 / moves;
    // Every game is 1 + plies + 1 writes.
    const double writes = static_cast<double>(flags.games) * (flags.plies + 2);
    if (sqlite && sqlite->commits() > commits_before)
      r.writes_per_commit = writes / static_cast<double>(sqlite->commits() - commits_before);
  }
  store.reset();
  if (!dir.empty()) std::filesystem::remove_all(dir);
  if (!ok) return make_error(ok.error());
  return r;
}

const char* label(const std::string& kind) {
  return kind == "hop"      ? "HopStore"
         : kind == "full"   ? "SqliteStore FULL"
         : kind == "commit" ? "NORMAL, no journal"
                            : "SqliteStore NORMAL";
}

// The flags of the command line into `flags`; an exit status when the run should not go on
// (help printed: 0; a bad flag, named: 2).
std::optional<int> parse_flags(int argc, char** argv, Flags& flags) {
  CLI::App app{"bench_store_writer: the store's writer alone; CPU per stored move"};
  app.add_option("--games", flags.games, "games written per run")->check(CLI::Range(1, 10000000));
  app.add_option("--plies", flags.plies, "moves per game")->check(CLI::Range(1, 10000));
  app.add_option("--in-flight", flags.in_flight, "games written at a time, one run each")
      ->delimiter(',')
      ->check(CLI::Range(1, 100000));
  app.add_option("--players", flags.players, "bots the games rotate over (pairs)")
      ->check(CLI::Range(2, 1000000));
  app.add_option("--rounds", flags.rounds, "interleaved rounds of every run")
      ->check(CLI::Range(1, 1000));
  app.add_option("--stores", flags.stores,
                 "hop (the reference, always run), normal (with the move journal), commit "
                 "(NORMAL without it), full")
      ->delimiter(',')
      ->check(CLI::IsMember({"hop", "normal", "commit", "full"}));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // prints the help, or the error naming the flag
    return code == 0 ? 0 : 2;      // a bad flag exits 2, as arena's do
  }
  if (std::find(flags.stores.begin(), flags.stores.end(), "hop") == flags.stores.end())
    flags.stores.insert(flags.stores.begin(), "hop");  // the reference always runs
  return std::nullopt;
}

// runs[in-flight k][store] over the rounds, each run printed as it ends; nullopt if one failed
// (printed).
using Runs = std::vector<std::vector<std::vector<Run>>>;
std::optional<Runs> run_rounds(const Flags& flags) {
  Runs runs(
      flags.in_flight.size(), std::vector<std::vector<Run>>(flags.stores.size()));
  for (int round = 1; round <= flags.rounds; ++round) {
    for (std::size_t k = 0; k < flags.in_flight.size(); ++k) {
      for (std::size_t s = 0; s < flags.stores.size(); ++s) {
        auto r = run_once(flags.stores[s], flags.in_flight[k], flags);
        if (!r) {
          std::printf("FAILED (%s, %d in flight): %s\n", label(flags.stores[s]), flags.in_flight[k],
                      r.error().c_str());
          return std::nullopt;
        }
        std::printf(
            "  round %d, %2d in flight, %-19s %9.0f moves/s  %6.1f us CPU/move (process %6.1f)",
            round, flags.in_flight[k], label(flags.stores[s]), r->moves_per_second,
            r->cpu_us_per_move, r->process_cpu_us_per_move);
        if (r->writes_per_commit > 0) std::printf("  %.2f writes/commit", r->writes_per_commit);
        std::printf("\n");
        std::fflush(stdout);
        runs[k][s].push_back(*r);
      }
    }
  }
  return runs;
}

// Each store's medians over the rounds, against the HopStore reference.
void print_medians(const Flags& flags, const Runs& runs) {
  std::printf("medians over %d rounds (ratio to HopStore, the writer thread without SQLite):\n",
              flags.rounds);
  for (std::size_t k = 0; k < flags.in_flight.size(); ++k) {
    std::vector<double> ref_rate, ref_cpu, ref_process;
    for (const Run& r : runs[k][0]) {
      ref_rate.push_back(r.moves_per_second);
      ref_cpu.push_back(r.cpu_us_per_move);
      ref_process.push_back(r.process_cpu_us_per_move);
    }
    for (std::size_t s = 0; s < flags.stores.size(); ++s) {
      std::vector<double> rate, cpu, process;
      for (const Run& r : runs[k][s]) {
        rate.push_back(r.moves_per_second);
        cpu.push_back(r.cpu_us_per_move);
        process.push_back(r.process_cpu_us_per_move);
      }
      std::printf(
          "  %2d in flight, %-19s %9.0f moves/s (%.3f)  %6.1f us CPU/move (%.2f), process "
          "%6.1f (%.2f)\n",
          flags.in_flight[k], label(flags.stores[s]), median(rate), median(rate) / median(ref_rate),
          median(cpu), median(cpu) / median(ref_cpu), median(process),
          median(process) / median(ref_process));
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  if (auto exit_status = parse_flags(argc, argv, flags)) return *exit_status;
  std::printf("store writer: %d games of %d moves per run, %d players, %d rounds, in flight:",
              flags.games, flags.plies, flags.players, flags.rounds);
  for (int k : flags.in_flight) std::printf(" %d", k);
  std::printf("\n");
  std::fflush(stdout);
  auto runs = run_rounds(flags);
  if (!runs) return 1;
  print_medians(flags, *runs);
  return 0;
}
