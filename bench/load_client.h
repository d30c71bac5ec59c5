#pragma once
// LoadClients: many WebSocket clients on loopback, driven by a few threads with async Beast
// (one io_context per thread, never a thread per connection), shared by bench/server_load and
// bench/store.
//
// Games mode (an arena server): clients come in pairs on the same thread; the first seeks
// (`seek` -> `seek_created`), its partner accepts, both play random legal moves from each
// `state`'s `legal_moves`, and the seeker seeks again when the game ends, as long as a phase
// is running. A move's round trip is the time from sending it to receiving the next state of
// that game (the mover's own copy of the new state).
// Echo mode (bench/echo_server.h): each client sends a move-sized message, waits for its echo
// and sends again.
// Forward mode (bench/echo_server.h's kPairs): partners pair up with "pair K"; the seeker sends
// a move-sized message, the server sends it to both, and whoever did not send it answers with
// its own, as the two players of a game take turns. A round trip is the time from sending a
// message to receiving its own copy (as a mover receives its state).
//
// Every mode counts the frames the clients receive and send in the window: what the server
// wrote and read for the moves measured, lobby updates and game starts and ends included.
//
// Lifetime: connect() opens every connection (and says hello to an arena server); run_phase()
// plays for a warm-up and then measures one window; stop() closes every socket. Every wait is
// bounded, so a broken server ends a phase with errors instead of hanging it.

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bench/proc_stats.h"
#include "games/core/expected.h"

namespace arena::bench {

enum class LoadMode { kGames, kEcho, kForward };

struct LoadConfig {
  unsigned short port = 0;
  int connections = 1000;  // rounded down to even in games mode
  int threads = 2;         // client threads (io_contexts)
  LoadMode mode = LoadMode::kGames;
  std::string game = "tictactoe";
  std::uint64_t seed = 1;
  // The server's threads in this process (by name), whose CPU time a phase reports.
  std::string server_thread_name = "arena-io";
  // The store's threads (db/write_queue.h, db/checkpointer.h), reported apart: the MemoryStore
  // has none, so the figure is 0 there.
  std::vector<std::string> store_thread_names = {"arena-writer", "arena-checkpt"};
};

struct PhaseResult {
  double seconds = 0;                  // the measured window
  std::uint64_t moves = 0;             // round trips completed in the window (echoes in echo mode)
  std::vector<double> round_trips_ms;  // sorted ascending
  std::uint64_t games_finished = 0;    // games that ended in the window
  std::uint64_t errors = 0;            // server `error` messages (busy/rate_limited are resent)
  std::uint64_t frames_in = 0;         // frames the clients received in the window
  std::uint64_t frames_out = 0;        // and sent
  std::string first_error;             // the first one, verbatim
  // CPU time (user + system) of the server's threads over the window: unlike the latency, a
  // figure that noise from other processes on a shared machine hardly moves.
  double server_cpu_seconds = 0;
  double store_cpu_seconds = 0;  // the same for the store's threads
  // The machine's CPU time over the window (/proc/stat), as shares of all CPUs' time: stolen
  // by the hypervisor for other guests, and used by other processes than this one. A window
  // with much of either measured the neighbours as much as the server.
  double client_cpu_seconds = 0;  // the load clients' own threads ("load-client")
  double steal_share = 0;
  double others_share = 0;

  double per_second() const { return seconds > 0 ? static_cast<double>(moves) / seconds : 0; }
  // Server CPU microseconds per round trip in the window; 0 if none.
  double server_cpu_us_per_move() const {
    return moves > 0 ? server_cpu_seconds * 1e6 / static_cast<double>(moves) : 0;
  }
  // `count` per round trip in the window; 0 if none. frames_per_move: the frames through the
  // server, read and written.
  double per_move(std::uint64_t count) const {
    return moves > 0 ? static_cast<double>(count) / static_cast<double>(moves) : 0;
  }
  double frames_per_move() const { return per_move(frames_in + frames_out); }
  double store_cpu_us_per_move() const {
    return moves > 0 ? store_cpu_seconds * 1e6 / static_cast<double>(moves) : 0;
  }
  // The p-th percentile (0..100) of the round trips in ms, nearest rank; 0 if none.
  double percentile(double p) const;
};

class LoadClients {
 public:
  explicit LoadClients(LoadConfig config);
  ~LoadClients();
  LoadClients(const LoadClients&) = delete;
  LoadClients& operator=(const LoadClients&) = delete;

  // Opens every connection (and, in games mode, waits for each `welcome`) within `timeout`;
  // the error says how many came up.
  Expected<void> connect(std::chrono::milliseconds timeout);
  // Plays with `pace_ms` between receiving a state and answering it (0: at once) for
  // `warmup`, then measures `window`; play stops at the end of the window.
  PhaseResult run_phase(int pace_ms, std::chrono::milliseconds warmup,
                        std::chrono::milliseconds window);
  // Closes every socket and joins the client threads.
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace arena::bench
