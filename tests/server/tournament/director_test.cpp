// The server runs tournaments: created through POST /api/tournaments, played by the bots logged
// in under the players' names, fair colour-swapped starts, waiting for absent players, and a
// restart in the middle that continues the same tournament without replaying a finished game.

#include "server/tournament/director.h"

#include <chrono>
#include <map>
#include <set>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "bots/client/bot_runner.h"
#include "bots/client/http_request.h"
#include "bots/client/search_player.h"
#include "db/sqlite_store.h"
#include "server/server.h"
#include "tournament/report/tournament_json.h"
#include "tests/db/temp_dir.h"
#include "tests/server/recording_store.h"

namespace arena::server {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// Three tic-tac-toe players, two games a pairing from one random opening ply: 6 games.
const char* kLeague = R"({
  "name": "ttt", "game": "tictactoe", "format": "round-robin",
  "players": ["rand", "greedy", "perfect"], "games_per_pairing": 2, "concurrency": 2,
  "opening_plies": 1, "seed": 5
})";
const std::map<std::string, std::string> kSpecs = {
    {"rand", "random:seed=3"}, {"greedy", "greedy"}, {"perfect", "alphabeta:depth=9"}};

class DirectorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = db::open_sqlite_store(dir_.path() + "/t.db");
    ASSERT_TRUE(opened) << opened.error();
    store_ = std::move(*opened);
    recording_ = std::make_unique<testing::RecordingStore>(*store_);
    for (const auto& [name, spec] : kSpecs) tokens_[name] = *store_->create_bot_token(name);
    start_server(0);
  }
  void TearDown() override {
    bots_.clear();
    if (server_) server_->stop();
  }
  void start_server(unsigned short port) {
    ServerConfig config;
    config.port = port;
    config.threads = 2;
    config.close_grace_ms = 200;
    // As `arena serve` does: /api/tournaments reads the store's file.
    config.hub.tournaments = [db = dir_.path() + "/t.db"](std::optional<std::int64_t> id) {
      return tournament::tournaments_json(db, id);
    };
    server_ = std::make_unique<Server>(config, *recording_);
    auto started = server_->start();
    ASSERT_TRUE(started) << started.error();
    url_ = "http://127.0.0.1:" + std::to_string(server_->port());
  }
  void start_bot(const std::string& name) {
    client::BotRunOptions o;
    o.url = "ws://127.0.0.1:" + std::to_string(server_->port()) + "/ws";
    o.token = tokens_.at(name);
    o.config.name = name;
    o.config.games = {"tictactoe"};
    o.players = client::search_player_factory(kSpecs.at(name));
    o.search_threads = 1;
    auto bot = client::BotRunner::start(std::move(o));
    ASSERT_TRUE(bot) << bot.error();
    bots_.push_back(std::move(*bot));
  }
  Expected<client::HttpResponse> post(const std::string& body, const std::string& token) {
    return client::http_request(url_, "POST", "/api/tournaments", body, token);
  }
  json get(std::int64_t id) {
    auto r = client::http_request(url_, "GET", "/api/tournaments/" + std::to_string(id));
    EXPECT_TRUE(r && r->status == 200) << (r ? r->body : r.error());
    return r ? json::parse(r->body, nullptr, false) : json();
  }
  // Polls until `done(state)` or 60 s.
  json wait_until(std::int64_t id, const std::function<bool(const json&)>& done) {
    const auto deadline = Clock::now() + std::chrono::seconds(60);
    json state;
    while (Clock::now() < deadline) {
      state = get(id);
      if (state.is_object() && done(state)) return state;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ADD_FAILURE() << "tournament " << id << " did not get there: " << state.dump();
    return state;
  }
  std::int64_t create() {
    auto r = post(kLeague, tokens_.at("rand"));
    EXPECT_TRUE(r) << r.error();
    if (!r) return 0;
    EXPECT_EQ(r->status, 201) << r->body;
    return json::parse(r->body).value("id", std::int64_t{0});
  }

  test::TempDir dir_;
  std::unique_ptr<db::Store> store_;
  std::unique_ptr<testing::RecordingStore> recording_;  // store_ as the server sees it
  std::map<std::string, std::string> tokens_;
  std::unique_ptr<Server> server_;
  std::vector<std::unique_ptr<client::BotRunner>> bots_;
  std::string url_;
};

TEST_F(DirectorTest, CreatingATournamentNeedsABotTokenAndAGoodConfig) {
  auto anonymous = post(kLeague, "");
  ASSERT_TRUE(anonymous) << anonymous.error();
  EXPECT_EQ(anonymous->status, 401);
  EXPECT_EQ(post(kLeague, "not-a-token")->status, 401);
  auto bad = post(R"({"game": "tictactoe", "players": ["a", "b"], "games_per_pairing": 0})",
                  tokens_.at("rand"));
  EXPECT_EQ(bad->status, 400);
  EXPECT_NE(bad->body.find("games_per_pairing"), std::string::npos) << bad->body;
  auto unknown = post(R"({"game": "go", "players": ["a", "b"]})", tokens_.at("rand"));
  EXPECT_EQ(unknown->status, 400);
  EXPECT_NE(unknown->body.find("go"), std::string::npos) << unknown->body;
  auto not_json = post("{", tokens_.at("rand"));
  EXPECT_EQ(not_json->status, 400);
}

TEST_F(DirectorTest, ItsTicksCallTheStoreFromTheDirectorsThreadNeverAnIoThread) {
  for (const auto& [name, spec] : kSpecs) start_bot(name);
  const std::int64_t id = create();
  ASSERT_GT(id, 0);
  wait_until(id, [](const json& s) { return s.value("status", "") == "finished"; });
  // Pairings read every tick, each game's row, set_pairing_game, finish_tournament.
  for (const char* call : {"pairings", "create_game", "set_pairing_game", "finish_tournament"})
    EXPECT_EQ(recording_->callers(call), std::set<std::string>{"arena-director"}) << call;
}

TEST_F(DirectorTest, BotsPlayEveryPairingAsColourSwappedPairsFromTheSameStart) {
  for (const auto& [name, spec] : kSpecs) start_bot(name);
  const std::int64_t id = create();
  ASSERT_GT(id, 0);
  json end = wait_until(id, [](const json& s) { return s.value("status", "") == "finished"; });
  EXPECT_EQ(end.value("games_played", 0), 6);
  auto rows = store_->pairings(id);
  ASSERT_TRUE(rows);
  ASSERT_EQ(rows->size(), 6u);
  for (std::size_t k = 0; k + 1 < rows->size(); k += 2) {
    const auto& a = (*rows)[k];
    const auto& b = (*rows)[k + 1];
    EXPECT_TRUE(!a.result.empty() && a.result != "*") << "row " << k;
    EXPECT_EQ(a.first, b.second) << "colours swapped in pair " << k / 2;
    EXPECT_EQ(a.second, b.first);
    auto ga = store_->game_detail(a.game);
    auto gb = store_->game_detail(b.game);
    ASSERT_TRUE(ga && gb);
    EXPECT_EQ(ga->start_position, gb->start_position) << "pair " << k / 2;
    EXPECT_EQ(ga->seed, gb->seed);
    EXPECT_NE(ga->seed, 0u);
  }
  // Every player played four games (two opponents, two games each).
  std::map<std::string, int> games;
  for (const auto& row : end["standings"]) games[row["player"]] = row["games"];
  EXPECT_EQ(games, (std::map<std::string, int>{{"greedy", 4}, {"perfect", 4}, {"rand", 4}}));
}

TEST_F(DirectorTest, ItWaitsForAnAbsentPlayerAndSaysWho) {
  start_bot("rand");
  start_bot("greedy");
  const std::int64_t id = create();
  ASSERT_GT(id, 0);
  json waiting = wait_until(id, [](const json& s) { return s.value("games_played", 0) == 2; });
  EXPECT_EQ(waiting["director"]["waiting_for"], json::array({"perfect"}));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(get(id).value("games_played", 0), 2) << "no game without its player";
  // Posting the same league again resumes it rather than starting another.
  auto again = post(kLeague, tokens_.at("greedy"));
  ASSERT_TRUE(again);
  EXPECT_EQ(again->status, 200);
  EXPECT_EQ(json::parse(again->body), (json{{"id", id}, {"resumed", true}}));
  start_bot("perfect");
  json end = wait_until(id, [](const json& s) { return s.value("status", "") == "finished"; });
  EXPECT_EQ(end.value("games_played", 0), 6);
}

TEST_F(DirectorTest, AStoppedServerContinuesTheSameTournamentWithoutReplayingFinishedGames) {
  start_bot("rand");
  start_bot("greedy");
  const std::int64_t id = create();
  ASSERT_GT(id, 0);
  wait_until(id, [](const json& s) { return s.value("games_played", 0) == 2; });
  auto before = store_->pairings(id);
  ASSERT_TRUE(before);
  std::map<std::int64_t, db::GameId> finished;  // pairing -> its game
  for (const auto& r : *before)
    if (!r.result.empty() && r.result != "*") finished[r.id] = r.game;
  EXPECT_EQ(finished.size(), 2u);
  bots_.clear();
  const unsigned short port = server_->port();
  server_->stop();
  server_.reset();
  start_server(port);  // the same store file, as after a restart
  for (const auto& [name, spec] : kSpecs) start_bot(name);
  json end = wait_until(id, [](const json& s) { return s.value("status", "") == "finished"; });
  EXPECT_EQ(end.value("games_played", 0), 6);
  auto after = store_->pairings(id);
  ASSERT_TRUE(after);
  for (const auto& r : *after) {
    EXPECT_TRUE(!r.result.empty() && r.result != "*") << "pairing " << r.id;
    if (finished.contains(r.id)) {
      EXPECT_EQ(r.game, finished[r.id]) << "replayed " << r.id;
    }
  }
}

}  // namespace
}  // namespace arena::server
