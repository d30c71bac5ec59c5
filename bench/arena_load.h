#pragma once
// The load of bench/server_load, as a function bench/store can run again with another store:
// an in-process arena server on a free loopback port with the given store, LoadClients playing
// random games on it (a paced phase, then a flat-out phase), and the echo and forward references.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "bench/load_client.h"
#include "db/store.h"

namespace arena::bench {

struct LoadFlags {
  int connections = 1000;
  double seconds = 10;  // each measured window
  double warmup = 1;    // before each window, not measured
  int pace_ms = 100;
  int client_threads = 2;
  int server_threads = 2;
  std::string game = "tictactoe";
  int lobby_interval_ms = -1;  // -1: the server's default (HubConfig); for diagnosis only
  int rounds = 3;              // bench_store: rounds of every store, interleaved
  std::string stores = "hop,normal,full";  // bench_store: what runs beside the MemoryStore
  int commit_window_us = 1000;             // bench_store: the `gather` store's window
};

// Parses --connections --seconds --warmup --pace-ms --client-threads --server-threads --game
// --lobby-interval-ms --rounds --stores --commit-window-us;
// the error names the bad flag or value. `extra` may consume other flags (returns true if so).
Expected<LoadFlags> parse_load_flags(int argc, char** argv,
                                     const std::function<bool(const std::string&)>& extra = {});
std::string load_flags_help();
// A benchmark's command line: the flags, or nullopt after printing --help (`exit_status` 0) or
// the error and the help (2) under `program`'s name.
std::optional<LoadFlags> read_load_flags(int argc, char** argv, const char* program,
                                         int& exit_status);

// Raises the fd limit and, if it is still too low for `flags.connections` (two descriptors a
// connection: both ends live in this process), lowers the count and says so on stdout.
void fit_connections_to_fd_limit(LoadFlags& flags);

struct ArenaLoadResult {
  int connections = 0;
  double rss_per_connection = 0;  // bytes: (RSS after connecting - before) / connections
  PhaseResult paced, flat;
  std::uint64_t server_moves = 0;  // the hub's move counter at the end
};

// Runs the server with `store`, connects, plays both phases, stops. Error: the clients could
// not connect (it says how many did).
Expected<ArenaLoadResult> run_arena_load(db::Store& store, const LoadFlags& flags);

struct EchoLoadResult {
  double rss_per_connection = 0;
  PhaseResult flat;
};
Expected<EchoLoadResult> run_echo_load(const LoadFlags& flags);
// The same with the forwarding reference (EchoMode::kPairs, LoadMode::kForward): the
// connections in pairs taking turns, each message written to both.
Expected<EchoLoadResult> run_forward_load(const LoadFlags& flags);

// One line "label  p50 .. ms  p99 .. ms  N round trips  ..", for the reports.
void print_phase(const char* label, const PhaseResult& r);

}  // namespace arena::bench
