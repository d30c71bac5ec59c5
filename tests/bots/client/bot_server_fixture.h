#pragma once
// An in-process server on a free loopback port (memory store) and helpers to run bots and
// scripted fake clients against it. Every wait is bounded.

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "bots/client/bot_runner.h"
#include "bots/client/search_player.h"
#include "db/memory_store.h"
#include "server/server.h"

namespace arena::client::testing {

using Json = nlohmann::json;

class BotServerTest : public ::testing::Test {
 protected:
  void TearDown() override {
    for (auto& b : bots_) b->stop();
    bots_.clear();
    if (server_) server_->stop();
  }
  void start_server(server::HubConfig hub = {}) {
    server::ServerConfig config;
    config.port = 0;
    config.threads = 2;
    hub.lobby_interval_ms = 20;
    config.hub = std::move(hub);
    server_ = std::make_unique<server::Server>(config, store_);
    auto started = server_->start();
    ASSERT_TRUE(started) << started.error();
  }
  std::string url() const { return "ws://127.0.0.1:" + std::to_string(server_->port()) + "/ws"; }

  BotRunner& start_bot(BotConfig config, const std::string& spec, int threads = 1) {
    BotRunOptions o;
    o.url = url();
    o.config = std::move(config);
    o.search_threads = threads;
    if (is_puzzle_spec(spec)) {
      o.solver = make_puzzle_solver(spec).value();
    } else {
      o.players = search_player_factory(spec);
    }
    auto bot = BotRunner::start(std::move(o));
    EXPECT_TRUE(bot) << bot.error();
    bots_.push_back(std::move(*bot));
    return *bots_.back();
  }
  // A seeker and an acceptor for `games` games of `game`.
  std::pair<BotRunner*, BotRunner*> pair_of_bots(const std::string& game, const std::string& spec_a,
                                                 const std::string& spec_b, int games,
                                                 const std::string& tc = "none",
                                                 const std::string& options = "",
                                                 int parallel = 1) {
    BotConfig a{.name = "seeker_" + game,
                .games = {game},
                .seek_options = options,
                .time_control = tc,
                .seek_games = games,
                .max_parallel = parallel};
    BotConfig b{.name = "taker_" + game,
                .games = {game},
                .accept_seeks = true,
                .max_games = games,
                .max_parallel = parallel};
    BotRunner* ra = &start_bot(a, spec_a);
    BotRunner* rb = &start_bot(b, spec_b);
    return {ra, rb};
  }

  db::MemoryStore store_;
  std::unique_ptr<server::Server> server_;
  std::vector<std::unique_ptr<BotRunner>> bots_;
};

// A scripted client for misbehaving players: records every frame, lets the test send.
class FakeClient final : public MessageHandler {
 public:
  using Script = std::function<void(FakeClient&, const Json&)>;
  FakeClient(const std::string& url, std::string name, Script script)
      : name_(std::move(name)),
        script_(std::move(script)),
        conn_(parse_ws_url(url).value(), "", *this) {
    conn_.start();
  }
  ~FakeClient() override { conn_.stop(); }
  void send(const Json& j) { conn_.send(j.dump()); }
  WsConnection& connection() { return conn_; }
  // The first message matching `pred`, waiting up to `ms`; null on timeout.
  Json wait_for(const std::function<bool(const Json&)>& pred, int ms = 20000) {
    std::unique_lock lock(mutex_);
    Json found;
    changed_.wait_for(lock, std::chrono::milliseconds(ms), [&] {
      for (const auto& j : seen_)
        if (pred(j)) {
          found = j;
          return true;
        }
      return false;
    });
    return found;
  }
  Json wait_type(const std::string& type, int ms = 20000) {
    return wait_for([&](const Json& j) { return j.value("type", "") == type; }, ms);
  }

 private:
  void on_open() override { send({{"type", "hello"}, {"version", 1}, {"name", name_}}); }
  void on_message(std::string_view text) override {
    Json j = Json::parse(text, nullptr, false);
    if (script_) script_(*this, j);
    std::lock_guard lock(mutex_);
    seen_.push_back(std::move(j));
    changed_.notify_all();
  }
  void on_closed() override {}

  std::string name_;
  Script script_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<Json> seen_;
  WsConnection conn_;
};

}  // namespace arena::client::testing
