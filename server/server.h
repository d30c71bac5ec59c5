#pragma once
// Server: the whole `arena serve` process in one object, so tests can run it in-process on a
// free port. Owns the io_context and its threads, the hub and the listener; the store is
// the caller's (it must outlive the server).

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "db/store.h"
#include "games/core/expected.h"
#include "server/hub.h"
#include "server/match/clock.h"

namespace boost::asio {
class io_context;
}

namespace arena::server {

class Listener;
class TournamentDirector;

struct ServerConfig {
  std::string host = "127.0.0.1";
  unsigned short port = 8080;  // 0: any free port
  std::string web_root;        // empty: no static files
  int threads = 2;
  bool restore_unfinished = true;  // reload the store's unfinished games at start
  int close_grace_ms = 2000;       // at stop, how long clients get to answer the close
  // Read every GDL sheet once at start, on a blocking thread, so that the first /api/catalog
  // (which marks the sheets the reader refuses) does not wait for it. `arena serve` sets it.
  bool check_gdl_sheets_at_start = false;
  HubConfig hub;                   // empty factories mean the catalog
};

class Server {
 public:
  Server(ServerConfig config, db::Store& store,
         std::shared_ptr<const TimeSource> time = std::make_shared<SteadyTimeSource>());
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds and starts the threads; the error names the address that failed.
  Expected<void> start();
  unsigned short port() const { return port_; }
  Hub& hub() { return *hub_; }
  // Stops accepting, closes every client with "going away", flushes the store, joins.
  void stop();

 private:
  void schedule_sweep();

  ServerConfig config_;
  db::Store& store_;
  std::shared_ptr<const TimeSource> time_;
  std::unique_ptr<boost::asio::io_context> ioc_;
  std::shared_ptr<Hub> hub_;
  std::shared_ptr<TournamentDirector> director_;
  // An io_context run by named threads until stop(); defined in server.cpp.
  struct Workers;
  // The director's own thread ("arena-director"): its ticks read pairings and write games and
  // pairings synchronously, which must not hold up an I/O thread (db/store.h's rule).
  std::unique_ptr<Workers> director_workers_;
  // What may wait on SQLite or the disk for an HTTP request (net/http_session.h), and the
  // puzzle solver (Hub::use_blocking_executor): threads "arena-blocking". Declared after ioc_, so
  // destroyed before it (its queued work holds sessions whose sockets belong to ioc_).
  std::unique_ptr<Workers> blocking_workers_;
  // Work for later that no one waits for: a GDL sheet's compile after its first game (over 20 s
  // for the largest; Hub::use_compile_executor). One thread, "arena-compile", at a lower
  // priority (kCompileNice), so that it takes neither the blocking threads (a sheet's first
  // game, HTTP requests) nor the CPU from what people wait for. (The check of every sheet at
  // start stays on the blocking threads: /api/catalog waits for it.)
  std::unique_ptr<Workers> compile_workers_;
  std::shared_ptr<Listener> listener_;
  std::vector<std::thread> threads_;
  unsigned short port_ = 0;
  bool stopped_ = false;
  struct Sweeper;
  std::shared_ptr<Sweeper> sweeper_;
};

}  // namespace arena::server
