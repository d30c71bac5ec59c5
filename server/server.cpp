#include "server/server.h"

#include <pthread.h>

#include <cstdio>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include "db/write_queue.h"  // set_thread_nice
#include "games/catalog/catalog.h"
#include "server/net/listener.h"
#include "server/tournament/director.h"

namespace arena::server {

namespace {
// Threads for HTTP work that may wait (store reads, files): two, so that one slow export does
// not hold up every other request.
constexpr int kBlockingThreads = 2;
// How many steps below the server's priority the compile thread runs.
constexpr int kCompileNice = 10;
}  // namespace

struct Server::Workers {
  boost::asio::io_context ioc;
  std::vector<std::thread> threads;

  // Starts `count` threads named `name` (for top -H and perf) that run ioc until stop(), each
  // `nice` steps below the process's priority.
  void start(int count, const char* name, int nice = 0) {
    for (int i = 0; i < count; ++i)
      threads.emplace_back([this, name, nice] {
        pthread_setname_np(pthread_self(), name);
        db::set_thread_nice(nice);
        auto work = boost::asio::make_work_guard(ioc);
        ioc.run();
      });
  }
  // Work under way finishes; queued work is dropped with ioc.
  void stop() {
    ioc.stop();
    for (auto& t : threads) t.join();
    threads.clear();
  }
};

struct Server::Sweeper {
  explicit Sweeper(boost::asio::io_context& ioc) : timer(ioc), guard(ioc.get_executor()) {}
  boost::asio::steady_timer timer;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> guard;
  bool stopped = false;
};

Server::Server(ServerConfig config, db::Store& store, std::shared_ptr<const TimeSource> time)
    : config_(std::move(config)), store_(store), time_(std::move(time)) {
  if (!config_.hub.make_game)
    config_.hub.make_game = [](std::string_view name, const GameOptions& o) {
      return make_game(name, o);
    };
  if (!config_.hub.load_game)
    config_.hub.load_game = [](std::string_view name, std::string_view p) {
      return load_game(name, p);
    };
}

Server::~Server() {
  stop();
}

Expected<void> Server::start() {
  ioc_ = std::make_unique<boost::asio::io_context>(config_.threads);
  hub_ = std::make_shared<Hub>(ioc_->get_executor(), config_.hub, store_, time_);
  blocking_workers_ = std::make_unique<Workers>();
  hub_->use_blocking_executor(blocking_workers_->ioc.get_executor());
  compile_workers_ = std::make_unique<Workers>();
  hub_->use_compile_executor(compile_workers_->ioc.get_executor());
  // Tournaments first, so that their games come back with their rules (adjudication, policy).
  director_workers_ = std::make_unique<Workers>();
  director_ = std::make_shared<TournamentDirector>(director_workers_->ioc.get_executor(), store_);
  if (auto loaded = director_->load(); !loaded)
    std::fprintf(stderr, "arena serve: tournaments not continued: %s\n", loaded.error().c_str());
  director_->attach(hub_);
  if (config_.restore_unfinished) hub_->restore_unfinished();
  listener_ = std::make_shared<Listener>(*ioc_, blocking_workers_->ioc.get_executor(), hub_,
                                         hub_, config_.web_root);
  if (auto opened = listener_->open(config_.host, config_.port); !opened) return opened;
  port_ = listener_->port();
  listener_->run();
  sweeper_ = std::make_shared<Sweeper>(*ioc_);
  schedule_sweep();
  blocking_workers_->start(kBlockingThreads, "arena-blocking");
  compile_workers_->start(1, "arena-compile", kCompileNice);
  if (config_.check_gdl_sheets_at_start)
    boost::asio::post(blocking_workers_->ioc, [] { (void)gdl_game_catalog(true); });
  director_workers_->start(1, "arena-director");
  for (int i = 0; i < std::max(1, config_.threads); ++i)
    threads_.emplace_back([this] {
      // Named so that top -H and perf tell the server's threads from others in the process.
      pthread_setname_np(pthread_self(), "arena-io");
      ioc_->run();
    });
  return {};
}

void Server::schedule_sweep() {
  sweeper_->timer.expires_after(std::chrono::seconds(1));
  sweeper_->timer.async_wait([this, sweeper = sweeper_](boost::system::error_code ec) {
    if (ec || sweeper->stopped) return;
    hub_->sweep();
    director_->poke();  // a player who left, a game that ended while a tick ran
    schedule_sweep();
  });
}

void Server::stop() {
  if (stopped_ || !ioc_) return;
  stopped_ = true;
  listener_->stop();
  hub_->shutdown();
  // A start that failed (the port taken) stopped before the sweeper was made.
  if (sweeper_)
    boost::asio::post(sweeper_->timer.get_executor(), [sweeper = sweeper_] {
      sweeper->stopped = true;
      sweeper->timer.cancel();
    });
  // Give the close handshakes a moment, then stop: every move was durable before it was
  // announced, so nothing is lost by not waiting longer.
  const auto wait_for_connections = [this](std::chrono::milliseconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (hub_->metrics().connections > 0 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  };
  wait_for_connections(std::chrono::milliseconds(config_.close_grace_ms));
  // A client that has not answered the close by now gets its socket closed: it then sees
  // the close frame and the end of the stream instead of a connection that never ends.
  hub_->close_remaining();
  wait_for_connections(std::chrono::milliseconds(500));
  store_.flush();
  if (sweeper_) sweeper_->guard.reset();
  ioc_->stop();
  for (auto& t : threads_) t.join();
  threads_.clear();
  director_workers_->stop();  // a tick under way finishes first
  blocking_workers_->stop();  // requests under way finish; their answers go nowhere now
  compile_workers_->stop();   // a compile under way finishes; the queued ones are dropped
  hub_->release();
  director_.reset();
  // Writes that were still queued hold their Matches in their callbacks: let the store finish
  // them while the io_context (which the Matches' timers use) still exists.
  store_.flush();
}

}  // namespace arena::server
