// bench_store: the store under the server's load (issue 6, "Speed"). The load of
// bench_server_load (bench/arena_load.h) runs twice in the same process: first with a
// MemoryStore (writes "durable" at once: the server alone), then with the SqliteStore from
// open_sqlite_store in a fresh temporary directory (WAL, group commit), once with
// synchronous=NORMAL (the server's default) and once with FULL (`arena serve --synchronous
// full`), each on its own file.
//
// Printed:
//   - moves persisted per second: the flat-out phase with SQLite (a move is announced only
//     once it is durable: with FULL on disk, with NORMAL in the OS; see db/sqlite_store.h),
//     against the MemoryStore's
//     moves per second measured in the same run, and the moves the file holds at the end
//     against the server's own count;
//   - the move round trip p50/p99 in the paced phase with each store, the difference of the
//     99th percentiles and whether it stays within the 1 ms.
//
// usage: bench_store [--connections N] [--seconds S] [--warmup S] [--pace-ms MS]
//                    [--client-threads T] [--server-threads T] [--game NAME]

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "bench/arena_load.h"
#include "db/sqlite_store.h"
#include "server/memory_store.h"

namespace {

using namespace arena;
using namespace arena::bench;

// Moves stored in every game of the file (finished or not).
std::uint64_t stored_moves(db::Store& store) {
  db::GameFilter all;
  all.finished_only = false;
  all.limit = 0;
  auto games = store.list_games(all);
  if (!games) return 0;
  std::uint64_t n = 0;
  for (const auto& g : *games) n += static_cast<std::uint64_t>(g.plies);
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  int exit_status = 0;
  auto flags = read_load_flags(argc, argv, "bench_store", exit_status);
  if (!flags) return exit_status;
  fit_connections_to_fd_limit(*flags);
  std::printf(
      "store: %d connections, %d games of %s, windows of %.1f s (+%.1f s warm-up), "
      "MemoryStore, then SqliteStore (WAL) with synchronous=NORMAL and with FULL\n",
      flags->connections, flags->connections / 2, flags->game.c_str(), flags->seconds,
      flags->warmup);
  if (flags->lobby_interval_ms >= 0)
    std::printf("  lobby updates coalesced over %d ms (not the server's default)\n",
                flags->lobby_interval_ms);
  std::fflush(stdout);

  server::MemoryStore memory;
  auto with_memory = run_arena_load(memory, *flags);
  if (!with_memory) {
    std::printf("FAILED (MemoryStore): %s\n", with_memory.error().c_str());
    return 1;
  }

  print_phase("paced, MemoryStore", with_memory->paced);
  print_phase("flat out, MemoryStore", with_memory->flat);
  // Both synchronous settings, each on a fresh file, against the same MemoryStore run.
  for (const bool full : {false, true}) {
    const char* sync = full ? "FULL" : "NORMAL";
    char dir_template[] = "/tmp/arena_bench_store.XXXXXX";
    if (mkdtemp(dir_template) == nullptr) {
      std::printf("FAILED: cannot create a temporary directory under /tmp\n");
      return 1;
    }
    const std::filesystem::path dir(dir_template);
    db::SqliteOptions options;
    options.synchronous_full = full;
    auto sqlite = db::open_sqlite_store((dir / "arena.db").string(), options);
    if (!sqlite) {
      std::printf("FAILED: %s\n", sqlite.error().c_str());
      std::filesystem::remove_all(dir);
      return 1;
    }
    auto with_sqlite = run_arena_load(**sqlite, *flags);
    if (!with_sqlite) {
      std::printf("FAILED (SqliteStore, synchronous=%s): %s\n", sync, with_sqlite.error().c_str());
      sqlite->reset();
      std::filesystem::remove_all(dir);
      return 1;
    }
    (*sqlite)->flush();
    const std::uint64_t in_file = stored_moves(**sqlite);
    const std::size_t commits = (*sqlite)->commits();
    const auto& ckpt = (*sqlite)->checkpointer();
    const std::size_t checkpoints = ckpt.runs(), complete = ckpt.complete_runs(),
                      restarts = ckpt.restarts();
    std::error_code ec;
    const auto wal_bytes = std::filesystem::file_size(dir / "arena.db-wal", ec);
    sqlite->reset();
    std::filesystem::remove_all(dir);

    const auto& m = *with_memory;
    const auto& s = *with_sqlite;
    std::printf("SqliteStore, WAL, synchronous=%s%s:\n", sync,
                full ? "" : " (the server's default)");
    print_phase("paced, SqliteStore", s.paced);
    print_phase("flat out, SqliteStore", s.flat);
    std::printf("  moves persisted per second (flat out): %.0f; ratio to the MemoryStore: %.3f\n",
                s.flat.per_second(),
                m.flat.per_second() > 0 ? s.flat.per_second() / m.flat.per_second() : 0);
    std::printf(
        "  moves in the file at the end: %llu of the server's %llu; group commits %zu "
        "(%.1f writes per commit)\n",
        static_cast<unsigned long long>(in_file), static_cast<unsigned long long>(s.server_moves),
        commits, commits > 0 ? static_cast<double>(in_file) / static_cast<double>(commits) : 0);
    std::printf(
        "  WAL file at the end: %.1f MiB; checkpoints %zu (%zu copied the whole log, %zu "
        "restarted it)\n",
        ec ? 0.0 : static_cast<double>(wal_bytes) / (1024.0 * 1024.0), checkpoints, complete,
        restarts);
    const double delta = s.paced.percentile(99) - m.paced.percentile(99);
    std::printf("  paced p99: SqliteStore %.3f ms - MemoryStore %.3f ms = %+.3f ms: %s\n",
                s.paced.percentile(99), m.paced.percentile(99), delta,
                delta <= 1.0 ? "holds (<= 1 ms)" : "DOES NOT HOLD (> 1 ms)");
    std::printf("  paced p50 difference: %+.3f ms\n",
                s.paced.percentile(50) - m.paced.percentile(50));
    std::fflush(stdout);
  }
  return 0;
}
