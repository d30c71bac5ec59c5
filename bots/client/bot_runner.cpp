#include "bots/client/bot_runner.h"

#include <chrono>
#include <utility>

namespace arena::client {

Expected<std::unique_ptr<BotRunner>> BotRunner::start(BotRunOptions options) {
  auto url = parse_ws_url(options.url);
  if (!url) return make_error(url.error());
  if (!options.players && !options.solver)
    return make_error("a bot needs a player factory or a puzzle solver");
  std::unique_ptr<BotRunner> runner(new BotRunner(std::move(options), std::move(*url)));
  runner->connection_->start();
  BotRunner* r = runner.get();
  runner->ticker_ = std::thread([r] {
    std::unique_lock lock(r->tick_mutex_);
    while (!r->tick_wake_.wait_for(lock, std::chrono::milliseconds(100),
                                   [r] { return !r->ticking_; })) {
      const auto now = std::chrono::steady_clock::now().time_since_epoch();
      r->session_->on_tick(std::chrono::duration_cast<std::chrono::milliseconds>(now).count());
    }
  });
  return runner;
}

BotRunner::BotRunner(BotRunOptions options, WsUrl url)
    : pool_(std::make_unique<JobPool>(options.search_threads)) {
  session_ = std::make_unique<BotSession>(
      std::move(options.config), std::move(options.players), std::move(options.solver),
      [this](std::string text) { connection_->send(std::move(text)); },
      [this](BotSession::Job job) { spawn(std::move(job)); });
  MessageHandler& handler = *this;  // private base: converted here, inside the class
  connection_ = std::make_unique<WsConnection>(std::move(url), options.token, handler);
}

BotRunner::~BotRunner() {
  stop();
}

void BotRunner::spawn(BotSession::Job job) {
  std::lock_guard lock(pool_mutex_);
  if (pool_) pool_->submit(std::move(job));
}

void BotRunner::stop() {
  {
    std::lock_guard lock(tick_mutex_);
    ticking_ = false;
  }
  tick_wake_.notify_all();
  if (ticker_.joinable()) ticker_.join();
  session_->stop();     // searches see the stop flag and return their best move so far
  connection_->stop();  // no more frames in or out; the I/O thread is joined
  std::unique_ptr<JobPool> pool;
  {
    std::lock_guard lock(pool_mutex_);
    pool = std::move(pool_);
  }
  pool.reset();  // finishes the queued jobs (their sends are dropped) and joins
}

}  // namespace arena::client
