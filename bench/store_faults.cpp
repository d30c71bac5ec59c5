// bench_store_faults: the store's known faults of issue 25 item 5, measured.
//
// Phase `inversion` (5.1, and 5.3's lag). The store's writer runs at nice 10 with the move
// journal (SqliteOptions::background_nice), and some threads wait for it: a read first stores
// the journaled moves (flush), a synchronous write (find_or_create_player, tournaments, tokens)
// waits for its commit. With the CPUs busy, a writer at nice 10 gets a tenth of a CPU's share
// against threads at nice 0, and whoever waits for it waits too: a priority inversion. Per
// round, on a fresh file each time, under --busy threads spinning at nice 0:
//   a mover appends a move every --move-us to --games games (the journal's path, as the I/O
//   threads do) and keeps each move's acknowledgement time;
//   a waiter, every --wait-ms, alternately reads (list_games: flush, then one summary) and
//   writes synchronously (find_or_create_player of a new name): the operations that wait;
//   an observer with a connection of its own polls the moves table every --poll-us and records
//   how long after its acknowledgement each move of the first game became visible there: the
//   lag of a reader of the SQLite file alone (`arena export` before it read the journal);
//   a second observer polls a second SqliteStore on the file (no journal of its own: what
//   `arena export` opens while the server runs) with game_detail: the export's lag now.
// Stores compared, interleaved over --rounds: `boost` (nice 10, raised to 0 while someone
// waits: the default), `nice10` (nice 10 throughout: before the fix), `nice0` (the writer at
// the process's priority). Printed: per store the medians over the rounds of each round's
// p50, p99 and max of the read, the synchronous write, the append and the export's lag.
//
// Phase `memory` (5.4). `arena serve --db :memory:` keeps games in a MemoryStore: the heap
// (mallinfo2) per stored move and per finished game, with the store's bound on finished games
// (--keep) and without it.
//
// usage: bench_store_faults [--phase inversion|memory|all] [--rounds R] [--seconds S]
//                           [--busy N] [--games G] [--move-us US] [--wait-ms MS]
//                           [--poll-us US] [--stores boost,nice10,nice0]
//                           [--memory-games N] [--plies P] [--keep K]

#include <malloc.h>
#include <sqlite3.h>
#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "bench/median.h"
#include "db/memory_store.h"
#include "db/sqlite_store.h"

namespace {

using namespace arena;
using Clock = std::chrono::steady_clock;
using bench::median;

struct Flags {
  std::string phase = "all";
  int rounds = 3;
  double seconds = 5;
  int busy = static_cast<int>(2 * std::max(1u, std::thread::hardware_concurrency()));
  int games = 16;
  int move_us = 500;
  int wait_ms = 10;
  int poll_us = 500;
  std::vector<std::string> stores{"boost", "nice10", "nice0"};
  int memory_games = 20000;
  int plies = 60;
  int keep = 1000;
};

// p50, p99 and max of one sample, in ms.
struct Tail {
  double p50 = 0, p99 = 0, max = 0;
  std::size_t n = 0;
};

Tail tail_of(std::vector<double> v) {
  Tail t;
  t.n = v.size();
  if (v.empty()) return t;
  std::sort(v.begin(), v.end());
  auto at = [&v](double p) {
    return v[std::min(v.size() - 1,
                      static_cast<std::size_t>(p / 100.0 * static_cast<double>(v.size())))];
  };
  t.p50 = at(50);
  t.p99 = at(99);
  t.max = v.back();
  return t;
}

double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

struct Round {
  Tail read, sync_write, append, lag, export_lag;
};

// A store in a fresh directory under /tmp, its writer set up as `kind` says, with flags.games
// games of two players.
struct InversionStore {
  std::filesystem::path dir;
  std::string path;
  db::SqliteOptions options;
  std::unique_ptr<db::SqliteStore> store;
  std::vector<db::GameId> games;
};

Expected<InversionStore> open_inversion_store(const std::string& kind, const Flags& flags) {
  char dir_template[] = "/tmp/arena_bench_faults.XXXXXX";
  if (mkdtemp(dir_template) == nullptr) return make_error("cannot create a directory in /tmp");
  InversionStore s;
  s.dir = dir_template;
  s.path = (s.dir / "arena.db").string();
  s.options.background_nice = kind == "nice0" ? 0 : 10;
  s.options.boost_waited_writer = kind == "boost";
  s.options.journal_segment_bytes = 64 << 10;  // rotations every few hundred moves
  auto opened = db::open_sqlite_store(s.path, s.options);
  if (!opened) {
    std::filesystem::remove_all(s.dir);
    return make_error(opened.error());
  }
  s.store = std::move(*opened);
  auto a = s.store->find_or_create_player("a", true);
  auto b = s.store->find_or_create_player("b", true);
  if (!a || !b) return make_error("cannot create the players");
  for (int i = 0; i < flags.games; ++i) {
    auto id = s.store->create_game({"chess", "", "start", a->id, b->id, "none", 1, {}, 0, 0});
    if (!id) return make_error(id.error());
    s.games.push_back(*id);
  }
  s.store->flush();
  return s;
}

// One round's four clients of the store and what they measured; each loop runs on a thread of
// its own until `end`.
class InversionClients {
 public:
  InversionClients(const Flags& flags, InversionStore& s, db::SqliteStore& second)
      : flags_(flags),
        s_(s),
        second_(second),
        start_(Clock::now()),
        end_(start_ + std::chrono::duration_cast<Clock::duration>(
                          std::chrono::duration<double>(flags.seconds))),
        max_plies_(static_cast<std::size_t>(flags.seconds * 1e6 / flags.move_us) + 16),
        acked_(max_plies_) {
    for (auto& t : acked_) t.store(-1);
  }

  // Appends a move every flags.move_us, round the games; the first game's acknowledgement times
  // by ply (the observer's lag).
  void move() {
    std::vector<int> ply(s_.games.size(), 0);
    auto next = Clock::now();
    for (std::size_t i = 0; Clock::now() < end_; ++i) {
      next += std::chrono::microseconds(flags_.move_us);
      std::this_thread::sleep_until(next);
      const std::size_t g = i % s_.games.size();
      db::MoveRecord m;
      m.game = s_.games[g];
      m.ply = ply[g];
      m.move = "m" + std::to_string(ply[g]);
      const auto t0 = Clock::now();
      bool ok = true;
      s_.store->append_move(m, [&ok](Expected<void> r) { ok = r.has_value(); });
      if (!ok) return fail("append_move failed");
      appends_.push_back(ms_since(t0));
      if (g == 0 && static_cast<std::size_t>(ply[g]) < max_plies_)
        acked_[static_cast<std::size_t>(ply[g])].store(micros_since_start());
      ++ply[g];
    }
  }

  // Every flags.wait_ms, a read and a synchronous write by turns: both wait for the writer.
  void wait() {
    auto next = Clock::now();
    for (int i = 0; Clock::now() < end_; ++i) {
      next += std::chrono::milliseconds(flags_.wait_ms);
      std::this_thread::sleep_until(next);
      const auto t0 = Clock::now();
      if (i % 2 == 0) {
        db::GameFilter one;
        one.finished_only = false;
        one.limit = 1;
        if (!s_.store->list_games(one)) return fail("list_games failed");
        reads_.push_back(ms_since(t0));
      } else {
        if (!s_.store->find_or_create_player("p" + std::to_string(i), true))
          return fail("find_or_create_player failed");
        writes_.push_back(ms_since(t0));
      }
    }
  }

  // Polls the file read-only for the first game's moves: how long after its acknowledgement a
  // move is in the database.
  void observe() {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(s_.path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK)
      return fail("the observer cannot open the file");
    sqlite3_busy_timeout(db, 5000);
    sqlite3_stmt* stmt = nullptr;
    const std::string sql =
        "SELECT COALESCE(MAX(ply), -1) FROM moves WHERE game_id = " + std::to_string(s_.games[0]);
    sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr);
    std::int64_t seen = -1;
    while (Clock::now() < end_ + std::chrono::milliseconds(200)) {
      std::this_thread::sleep_for(std::chrono::microseconds(flags_.poll_us));
      if (sqlite3_step(stmt) == SQLITE_ROW) {
        const std::int64_t top = sqlite3_column_int64(stmt, 0);
        const auto now = micros_since_start();
        for (std::int64_t p = seen + 1; p <= top && p < static_cast<std::int64_t>(max_plies_); ++p)
          if (const auto t = acked_[static_cast<std::size_t>(p)].load(); t >= 0)
            lags_.push_back(static_cast<double>(now - t) / 1000.0);
        seen = std::max(seen, top);
      }
      sqlite3_reset(stmt);
    }
    sqlite3_finalize(stmt);
    sqlite3_close(db);
  }

  // Polls the second store (as `arena export` opens it) for the first game's moves.
  void export_moves() {
    std::size_t seen = 0;
    while (Clock::now() < end_ + std::chrono::milliseconds(200)) {
      std::this_thread::sleep_for(std::chrono::microseconds(flags_.poll_us));
      auto detail = second_.game_detail(s_.games[0]);
      if (!detail) return fail("the second store: " + detail.error());
      const auto now = micros_since_start();
      for (std::size_t p = seen; p < detail->moves.size() && p < max_plies_; ++p)
        if (const auto t = acked_[p].load(); t >= 0)
          export_lags_.push_back(static_cast<double>(now - t) / 1000.0);
      seen = std::max(seen, detail->moves.size());
    }
  }

  // The first failure of any loop, or the round's tails.
  Expected<Round> result() const {
    if (!error_.empty()) return make_error(error_);
    Round r;
    r.read = tail_of(reads_);
    r.sync_write = tail_of(writes_);
    r.append = tail_of(appends_);
    r.lag = tail_of(lags_);
    r.export_lag = tail_of(export_lags_);
    return r;
  }

 private:
  std::int64_t micros_since_start() const {
    return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start_).count();
  }

  void fail(const std::string& why) {
    std::lock_guard lock(error_mutex_);
    if (error_.empty()) error_ = why;
  }

  const Flags& flags_;
  InversionStore& s_;
  db::SqliteStore& second_;
  const Clock::time_point start_;
  const Clock::time_point end_;
  const std::size_t max_plies_;
  std::vector<std::atomic<std::int64_t>> acked_;
  std::vector<double> appends_, reads_, writes_, lags_, export_lags_;
  std::string error_;
  std::mutex error_mutex_;
};

// flags.busy threads that spin until told to stop: the CPU contention of the round.
std::vector<std::thread> start_busy_threads(int n, const std::atomic<bool>& stop) {
  std::vector<std::thread> busy;
  for (int i = 0; i < n; ++i)
    busy.emplace_back([&stop] {
      volatile std::uint64_t x = 0;
      while (!stop.load(std::memory_order_relaxed)) x = x + 1;
    });
  return busy;
}

Expected<Round> run_inversion(const std::string& kind, const Flags& flags) {
  auto opened = open_inversion_store(kind, flags);
  if (!opened) return make_error(opened.error());
  InversionStore& s = *opened;
  std::atomic<bool> stop{false};
  std::vector<std::thread> busy = start_busy_threads(flags.busy, stop);
  auto second = db::open_sqlite_store(s.path, s.options);  // as `arena export` opens it
  if (!second) {
    stop = true;
    for (auto& t : busy) t.join();
    return make_error("the second store: " + second.error());
  }
  InversionClients clients(flags, s, **second);
  std::thread mover([&clients] { clients.move(); });
  std::thread waiter([&clients] { clients.wait(); });
  std::thread observer([&clients] { clients.observe(); });
  std::thread exporter([&clients] { clients.export_moves(); });
  mover.join();
  waiter.join();
  observer.join();
  exporter.join();
  second->reset();
  stop = true;
  for (auto& t : busy) t.join();
  s.store.reset();
  std::filesystem::remove_all(s.dir);
  return clients.result();
}

void print_tail(const char* what, const Tail& t) {
  std::printf("  %-11s p50 %7.3f  p99 %7.3f  max %7.3f ms (n %zu)\n", what, t.p50, t.p99, t.max,
              t.n);
}

int inversion(const Flags& flags) {
  std::printf(
      "inversion: %d busy threads at nice 0 on %u CPUs, %d games, a move every %d us, a read or "
      "a synchronous write every %d ms, the export's observer polling every %d us, %.1f s per "
      "run, %d rounds\n",
      flags.busy, std::thread::hardware_concurrency(), flags.games, flags.move_us, flags.wait_ms,
      flags.poll_us, flags.seconds, flags.rounds);
  std::vector<std::vector<Round>> runs(flags.stores.size());
  for (int round = 1; round <= flags.rounds; ++round)
    for (std::size_t s = 0; s < flags.stores.size(); ++s) {
      auto r = run_inversion(flags.stores[s], flags);
      if (!r) {
        std::printf("FAILED (%s): %s\n", flags.stores[s].c_str(), r.error().c_str());
        return 1;
      }
      std::printf("round %d, %s:\n", round, flags.stores[s].c_str());
      print_tail("read", r->read);
      print_tail("sync write", r->sync_write);
      print_tail("append", r->append);
      print_tail("file lag", r->lag);
      print_tail("export lag", r->export_lag);
      std::fflush(stdout);
      runs[s].push_back(*r);
    }
  std::printf("medians over %d rounds (ms):\n", flags.rounds);
  std::printf("  %-7s %-24s %-24s %-24s %-24s %-24s\n", "store", "read p50/p99/max",
              "sync write p50/p99/max", "append p50/p99/max", "file lag p50/p99/max",
              "export lag p50/p99/max");
  for (std::size_t s = 0; s < flags.stores.size(); ++s) {
    auto med = [&](auto field) {
      std::vector<double> p50, p99, max;
      for (const Round& r : runs[s]) {
        const Tail& t = field(r);
        p50.push_back(t.p50);
        p99.push_back(t.p99);
        max.push_back(t.max);
      }
      char text[64];
      std::snprintf(text, sizeof text, "%.3f/%.3f/%.3f", median(p50), median(p99), median(max));
      return std::string(text);
    };
    std::printf("  %-7s %-24s %-24s %-24s %-24s %-24s\n", flags.stores[s].c_str(),
                med([](const Round& r) -> const Tail& { return r.read; }).c_str(),
                med([](const Round& r) -> const Tail& { return r.sync_write; }).c_str(),
                med([](const Round& r) -> const Tail& { return r.append; }).c_str(),
                med([](const Round& r) -> const Tail& { return r.lag; }).c_str(),
                med([](const Round& r) -> const Tail& { return r.export_lag; }).c_str());
  }
  return 0;
}

// The heap in use (glibc's arenas), in bytes.
double heap_bytes() {
  malloc_trim(0);
  const struct mallinfo2 m = mallinfo2();
  return static_cast<double>(m.uordblks + m.hblkhd);
}

// Fills a MemoryStore with `games` finished games of `plies` moves; the heap it grew by.
double fill_memory_store(db::MemoryStore& store, int games, int plies) {
  const double before = heap_bytes();
  auto a = store.find_or_create_player("a", true);
  auto b = store.find_or_create_player("b", true);
  for (int g = 0; g < games; ++g) {
    auto id = store.create_game({"chess",
                                 "",
                                 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                                 a->id,
                                 b->id,
                                 "fischer:60000+1000",
                                 1,
                                 {},
                                 0,
                                 0});
    for (int p = 0; p < plies; ++p) {
      db::MoveRecord m;
      m.game = *id;
      m.ply = p;
      m.move = "e2e4";
      m.time_used_ms = 120;
      m.clock_left_ms = 59000;
      m.depth = 8;
      m.nodes = 123456;
      m.score = 15;
      m.pv = "e2e4 e7e5 g1f3";  // a short PV, as the bots send
      store.append_move(m, [](Expected<void>) {});
    }
    store.finish_game({*id, "1-0", "checkmate", "8/8/8/8/8/8/8/8 w - - 0 1", {}},
                      [](Expected<void>) {});
  }
  return heap_bytes() - before;
}

int memory(const Flags& flags) {
  std::printf("memory: MemoryStore, %d finished games of %d plies (a move with a 3-move PV)\n",
              flags.memory_games, flags.plies);
  for (int keep : {0, flags.keep}) {
    db::MemoryStore store(keep == 0 ? db::MemoryStore::kKeepEveryGame
                                    : static_cast<std::size_t>(keep));
    const double grew = fill_memory_store(store, flags.memory_games, flags.plies);
    const double moves = static_cast<double>(flags.memory_games) * flags.plies;
    std::printf("  %-28s heap +%.1f MiB: %.0f bytes per move, %.0f bytes per game of %d plies\n",
                keep == 0 ? "every game kept" : ("last " + std::to_string(keep) + " kept").c_str(),
                grew / (1024.0 * 1024.0), grew / moves, grew / flags.memory_games, flags.plies);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  CLI::App app{"bench_store_faults: the store's known faults (issue 25 item 5), measured"};
  app.add_option("--phase", flags.phase, "inversion, memory or all")
      ->check(CLI::IsMember({"inversion", "memory", "all"}));
  app.add_option("--rounds", flags.rounds, "interleaved rounds")->check(CLI::Range(1, 100));
  app.add_option("--seconds", flags.seconds, "seconds per run")->check(CLI::Range(0.5, 600.0));
  app.add_option("--busy", flags.busy, "threads spinning at nice 0")->check(CLI::Range(0, 256));
  app.add_option("--games", flags.games, "games the mover plays")->check(CLI::Range(1, 10000));
  app.add_option("--move-us", flags.move_us, "a move every this many us")
      ->check(CLI::Range(50, 1000000));
  app.add_option("--wait-ms", flags.wait_ms, "a read or synchronous write every this many ms")
      ->check(CLI::Range(1, 10000));
  app.add_option("--poll-us", flags.poll_us, "the observer's poll period")
      ->check(CLI::Range(50, 1000000));
  app.add_option("--stores", flags.stores, "boost, nice10, nice0")
      ->delimiter(',')
      ->check(CLI::IsMember({"boost", "nice10", "nice0"}));
  app.add_option("--memory-games", flags.memory_games, "memory: games stored")
      ->check(CLI::Range(1, 10000000));
  app.add_option("--plies", flags.plies, "memory: moves per game")->check(CLI::Range(1, 10000));
  app.add_option("--keep", flags.keep, "memory: the bound on finished games compared")
      ->check(CLI::Range(1, 10000000));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  int status = 0;
  if (flags.phase != "memory") status |= inversion(flags);
  if (flags.phase != "inversion") status |= memory(flags);
  return status;
}
