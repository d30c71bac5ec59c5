#pragma once
// An in-process server on a free port with the memory store, and helpers that play games
// through real WebSocket clients.

#include <memory>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "db/memory_store.h"
#include "server/server.h"
#include "tests/server/test_games.h"
#include "tests/common/ws_client.h"

namespace arena::server::testing {

class ServerTest : public ::testing::Test {
 protected:
  void SetUp() override { start_server(); }
  void TearDown() override {
    if (server_) server_->stop();
  }
  void start_server(HubConfig hub = test_hub_config(), int threads = 2) {
    ServerConfig config;
    config.port = 0;
    config.threads = threads;
    config.close_grace_ms = 200;  // the blocking test clients answer a close only when read
    config.web_root = std::string(ARENA_SOURCE_DIR) + "/web";
    hub.lobby_interval_ms = 20;
    config.hub = std::move(hub);
    server_ = std::make_unique<Server>(config, store_);
    auto started = server_->start();
    ASSERT_TRUE(started) << started.error();
  }
  unsigned short port() const { return server_->port(); }

  std::unique_ptr<WsClient> connect(const std::string& name, Headers headers = {}) {
    auto c = std::make_unique<WsClient>(port(), std::move(headers));
    EXPECT_TRUE(c->open());
    c->hello(name);
    return c;
  }

  // `a` seeks, `b` accepts; returns the game id (a plays first).
  std::int64_t start_game(WsClient& a, WsClient& b, const std::string& game,
                          const std::string& options = "", const std::string& tc = "none") {
    a.send(Json{{"type", "seek"}, {"game", game}, {"options", options}, {"time_control", tc}});
    Json created = a.expect("seek_created");
    b.send(Json{{"type", "accept"}, {"seek_id", created["seek_id"]}});
    Json start_a = a.expect("game_start");
    Json start_b = b.expect("game_start");
    EXPECT_EQ(start_a, start_b);
    return start_a.value("game_id", std::int64_t{0});
  }

  static Json next_state(WsClient& c, std::int64_t game_id, std::int64_t after) {
    return c.wait_for(
        [&](const Json& j) {
          return j.value("type", "") == "state" && j.value("game_id", std::int64_t{0}) == game_id &&
                 j.value("version", std::int64_t{-1}) > after;
        },
        "a state after version " + std::to_string(after));
  }

  // Plays random legal moves from the states the server sends until the game ends;
  // `between(ply, version)` may disturb the game (drop a client, add a spectator).
  // Returns the final state.
  // `after`: the version both clients have already seen (older states they hold are skipped).
  Json play_random(WsClient* seats[2], std::int64_t game_id, std::uint64_t seed,
                   const std::function<void(int, std::int64_t)>& between = {},
                   std::int64_t after = 0) {
    std::mt19937_64 rng(seed);
    std::int64_t version = after;
    for (int ply = 0; ply < 2000; ++ply) {
      Json s0 = next_state(*seats[0], game_id, version);
      Json s1 = next_state(*seats[1], game_id, version);
      EXPECT_EQ(s0, s1);
      if (s0.is_null() || ::testing::Test::HasFailure()) return s0;
      version = s0["version"];
      if (!s0["result"].is_null()) return s0;
      if (between) between(ply, version);
      const auto& moves = s0["legal_moves"];
      EXPECT_FALSE(moves.empty());
      if (moves.empty()) return s0;
      const int side = s0["to_move"];
      const std::string move = moves[rng() % moves.size()];
      const std::string id = "m" + std::to_string(ply);
      seats[side]->send(
          Json{{"type", "move"}, {"game_id", game_id}, {"move", move}, {"client_id", id}});
      Json ack = seats[side]->expect("move_ack");
      EXPECT_EQ(ack["client_id"], id);
    }
    ADD_FAILURE() << "game " << game_id << " did not end in 2000 plies";
    return Json{};
  }

  db::MemoryStore store_;
  std::unique_ptr<Server> server_;
};

// Two-player game kinds to play: every catalog game plus the test game.
inline std::vector<std::string> two_player_kinds() {
  std::vector<std::string> out{"race"};
  for (const auto& g : game_catalog())
    if (g.num_players == 2) out.push_back(g.name);
  return out;
}

}  // namespace arena::server::testing
