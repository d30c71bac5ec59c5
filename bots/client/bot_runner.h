#pragma once
// BotRunner: one running bot = a BotSession + a WsConnection (its I/O thread) + a JobPool
// for the searches. What `arena bot`, the house bots and the tests start.
//
//   auto bot = BotRunner::start({.url = "ws://127.0.0.1:8080/ws", .token = t, .config = c,
//                                .players = search_player_factory("id:eval=material")});
//   bot->session().wait_done(60000);

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "bots/client/bot_session.h"
#include "bots/client/job_pool.h"
#include "bots/client/ws_connection.h"
#include "games/core/expected.h"

namespace arena::client {

struct BotRunOptions {
  std::string url;    // ws://HOST:PORT[/ws]
  std::string token;  // bot token; empty = a guest named config.name
  BotConfig config;
  PlayerFactory players;
  PuzzleSolver solver;
  int search_threads = 2;  // workers shared by this bot's games
};

class BotRunner final : private MessageHandler {
 public:
  static Expected<std::unique_ptr<BotRunner>> start(BotRunOptions options);
  ~BotRunner() override;
  BotRunner(const BotRunner&) = delete;
  BotRunner& operator=(const BotRunner&) = delete;

  BotSession& session() { return *session_; }
  WsConnection& connection() { return *connection_; }
  void stop();  // idempotent: stops searching, closes, joins

 private:
  explicit BotRunner(BotRunOptions options, WsUrl url);
  void on_open() override { session_->on_open(); }
  void on_message(std::string_view text) override { session_->on_message(text); }
  void on_closed() override { session_->on_closed(); }
  void spawn(BotSession::Job job);

  std::unique_ptr<BotSession> session_;
  std::unique_ptr<WsConnection> connection_;
  std::mutex pool_mutex_;
  std::unique_ptr<JobPool> pool_;
  std::thread ticker_;  // calls session_->on_tick a few times a second
  std::mutex tick_mutex_;
  std::condition_variable tick_wake_;
  bool ticking_ = true;
};

}  // namespace arena::client
