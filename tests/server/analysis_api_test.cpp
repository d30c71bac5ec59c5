// The analysis pages' REST reads (issue 52): rating history, profiles, a game kind's
// statistics and a tournament's games, answered by handle_api over a SQLite store (which keeps
// a rating history) and the memory store (which keeps none), with games written to the store
// as the server writes them.

#include <gtest/gtest.h>

#include <functional>
#include <future>
#include <memory>

#include <boost/asio/io_context.hpp>
#include <nlohmann/json.hpp>

#include "db/memory_store.h"
#include "db/sqlite_store.h"
#include "server/api/rest.h"
#include "server/hub.h"
#include "tests/db/temp_dir.h"
#include "tests/server/test_games.h"

namespace arena::server {
namespace {

using Json = nlohmann::json;

// X wins on the top row in 5 plies: X a3, O a2, X b3, O b2, X c3. Legal moves before each:
// 9, 8, 7, 6, 5 (the final position is over and not counted): a mean branching of 7.
const std::vector<std::string> kXWins = {"a3", "a2", "b3", "b2", "c3"};
// A draw in 9 plies (a full board, no line).
const std::vector<std::string> kDraw = {"b2", "a3", "c3", "a1", "a2", "c2", "b3", "b1", "c1"};

class AnalysisApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = db::open_sqlite_store(dir_.file("arena.db"));
    ASSERT_TRUE(opened) << opened.error();
    sqlite_ = std::move(*opened);
  }
  void TearDown() override {
    if (hub_) hub_->release();
  }
  void make_hub(db::Store& store) {
    hub_ = std::make_shared<Hub>(ioc_.get_executor(), testing::test_hub_config(), store,
                                 std::make_shared<SteadyTimeSource>());
  }
  // A finished tic-tac-toe game of `moves`; `scores[i]` is move i's score (mover's side).
  db::GameId play(db::Store& store, db::PlayerId first, db::PlayerId second,
                  const std::vector<std::string>& moves, const std::string& result,
                  const std::vector<std::optional<int>>& scores, std::int64_t first_version = 0) {
    db::NewGame g;
    g.kind = kind_;
    g.first = first;
    g.second = second;
    g.time_control = "none";
    g.first_version = first_version;
    auto id = store.create_game(g);
    EXPECT_TRUE(id) << id.error();
    for (std::size_t i = 0; i < moves.size(); ++i) {
      db::MoveRecord m;
      m.game = *id;
      m.ply = static_cast<int>(i);
      m.seat = static_cast<int>(i % 2);
      m.move = moves[i];
      m.depth = 1;
      m.nodes = 10;
      if (i < scores.size()) m.score = scores[i];
      std::promise<Expected<void>> done;
      store.append_move(m, [&](Expected<void> r) { done.set_value(std::move(r)); });
      EXPECT_TRUE(done.get_future().get());
    }
    std::promise<Expected<void>> done;
    store.finish_game({*id, result, result == "1/2-1/2" ? "board_full" : "line", "end"},
                      [&](Expected<void> r) { done.set_value(std::move(r)); });
    EXPECT_TRUE(done.get_future().get());
    return *id;
  }
  Json get(const std::string& target, int status = 200) {
    auto reply = handle_api(*hub_, target);
    EXPECT_TRUE(reply) << target;
    if (!reply) return {};
    EXPECT_EQ(reply->status, status) << target << ": " << reply->body;
    return Json::parse(reply->body);
  }

  std::string kind_ = "tictactoe";  // of the games play() stores
  arena::test::TempDir dir_;
  std::unique_ptr<db::SqliteStore> sqlite_;
  boost::asio::io_context ioc_;
  std::shared_ptr<Hub> hub_;
};

TEST_F(AnalysisApiTest, RatingHistoryHasAPointPerRatedGameOldestFirst) {
  auto ann = *sqlite_->find_or_create_player("ann", true);
  auto bob = *sqlite_->find_or_create_player("bob", true);
  const auto g1 = play(*sqlite_, ann.id, bob.id, kXWins, "1-0", {});
  const auto g2 = play(*sqlite_, bob.id, ann.id, kDraw, "1/2-1/2", {});
  make_hub(*sqlite_);
  Json all = get("/api/ratings/history?game=tictactoe");
  ASSERT_EQ(all.size(), 4u) << all;
  EXPECT_EQ(all[0]["game_id"], g1);
  EXPECT_EQ(all[3]["game_id"], g2);
  EXPECT_EQ(all[0]["game"], "tictactoe");
  Json mine = get("/api/ratings/history?game=tictactoe&player=" + std::to_string(ann.id));
  ASSERT_EQ(mine.size(), 2u);
  for (const auto& p : mine) EXPECT_EQ(p["name"], "ann");
  EXPECT_GT(mine[0]["rating"].get<double>(), 1500.0) << "ann won her first game";
  // The last point is where the leaderboard stands.
  Json board = get("/api/leaderboard?game=tictactoe");
  for (const auto& row : board)
    if (row["player"] == ann.id) {
      EXPECT_DOUBLE_EQ(row["rating"].get<double>(), mine[1]["rating"].get<double>());
      EXPECT_DOUBLE_EQ(row["deviation"].get<double>(), mine[1]["deviation"].get<double>());
    }
  EXPECT_GT(mine[1]["at_ms"].get<std::int64_t>(), 0);
  EXPECT_NE(get("/api/ratings/history?game=tictactoe&player=x", 400)["error"].get<std::string>().find(
                "player must be a positive player id"),
            std::string::npos);
  EXPECT_NE(get("/api/ratings/history", 400)["error"].get<std::string>().find("'game'"),
            std::string::npos);
  EXPECT_NE(get("/api/ratings/history?game=noSuchGame", 400)["error"].get<std::string>().find(
                "unknown game 'noSuchGame'"),
            std::string::npos);
}

// A replay shows chess in SAN: the game's detail gives each move's SAN beside its UCI; games
// whose move text is what people read (tic-tac-toe) get none.
TEST_F(AnalysisApiTest, AChessGamesDetailGivesEachMoveInSan) {
  auto ann = *sqlite_->find_or_create_player("ann", true);
  auto bob = *sqlite_->find_or_create_player("bob", true);
  kind_ = "chess";
  const auto chess = play(*sqlite_, ann.id, bob.id, {"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "g8f6", "e1g1"},
                          "1/2-1/2", {});
  kind_ = "tictactoe";
  const auto ttt = play(*sqlite_, ann.id, bob.id, kXWins, "1-0", {});
  make_hub(*sqlite_);
  Json d = get("/api/games/" + std::to_string(chess));
  std::vector<std::string> sans;
  for (const auto& m : d["moves"]) sans.push_back(m.value("san", "?"));
  EXPECT_EQ(sans, (std::vector<std::string>{"e4", "e5", "Nf3", "Nc6", "Bb5", "Nf6", "O-O"})) << d["moves"];
  EXPECT_EQ(d["moves"][0]["move"], "e2e4");  // the protocol's text stays
  const Json plain = get("/api/games/" + std::to_string(ttt));
  for (const auto& m : plain["moves"]) EXPECT_FALSE(m.contains("san")) << m;
}

TEST_F(AnalysisApiTest, AProfileHasRatingsHistoryRecentGamesAndEngineVersions) {
  auto ann = *sqlite_->find_or_create_player("ann", true);
  auto bob = *sqlite_->find_or_create_player("bob", true);
  auto version = sqlite_->register_bot_version({ann.id, "alphabeta:depth=2", "h1", "{\"w\":1}"});
  ASSERT_TRUE(version) << version.error();
  const auto g1 = play(*sqlite_, ann.id, bob.id, kXWins, "1-0", {}, *version);
  const auto g2 = play(*sqlite_, bob.id, ann.id, kDraw, "1/2-1/2", {});
  make_hub(*sqlite_);
  Json p = get("/api/profile/" + std::to_string(ann.id));
  EXPECT_EQ(p["name"], "ann");
  EXPECT_EQ(p["bot"], true);
  ASSERT_EQ(p["ratings"].size(), 1u);
  EXPECT_EQ(p["ratings"][0]["game"], "tictactoe");
  EXPECT_EQ(p["ratings"][0]["games"], 2);
  EXPECT_EQ(p["ratings"][0]["wins"], 1);
  EXPECT_EQ(p["ratings"][0]["draws"], 1);
  EXPECT_EQ(p["history"].size(), 2u);
  ASSERT_EQ(p["recent"].size(), 2u);
  EXPECT_EQ(p["recent"][0]["id"], g2) << "newest first";
  EXPECT_EQ(p["recent"][0]["player_ids"], Json::array({bob.id, ann.id}));
  EXPECT_EQ(p["recent"][1]["id"], g1);
  ASSERT_EQ(p["versions"].size(), 1u);
  EXPECT_EQ(p["versions"][0]["search"], "alphabeta:depth=2");
  EXPECT_EQ(p["versions"][0]["heuristic"], "h1");
  EXPECT_EQ(p["versions"][0]["parameters"], "{\"w\":1}");
  EXPECT_EQ(p["versions"][0]["games"], 1);
  EXPECT_EQ(get("/api/profile/" + std::to_string(bob.id))["versions"].size(), 0u);
  EXPECT_NE(get("/api/profile/999", 404)["error"].get<std::string>().find("no player 999"),
            std::string::npos);
  EXPECT_NE(get("/api/profile/ann", 400)["error"].get<std::string>().find("'ann' is not a player id"),
            std::string::npos);
  // The games list links its players too.
  EXPECT_EQ(get("/api/games?game=tictactoe")[1]["player_ids"], Json::array({ann.id, bob.id}));
}

TEST_F(AnalysisApiTest, GameStatsCountResultsLengthsBranchingAndTheBotsScores) {
  auto ann = *sqlite_->find_or_create_player("ann", true);
  auto bob = *sqlite_->find_or_create_player("bob", true);
  auto version = sqlite_->register_bot_version({ann.id, "alphabeta:depth=2", "h1", ""});
  ASSERT_TRUE(version);
  // ann (X) scores +50, +50, +80 and wins; bob (O) scores -30, -10 and loses: every score's
  // sign foretells its side's result.
  play(*sqlite_, ann.id, bob.id, kXWins, "1-0", {50, -30, 50, -10, 80}, *version);
  play(*sqlite_, bob.id, ann.id, kDraw, "1/2-1/2", {});
  make_hub(*sqlite_);
  Json s = get("/api/stats?game=tictactoe");
  EXPECT_EQ(s["games"], 2);
  EXPECT_EQ(s["sampled"], 2);
  EXPECT_EQ(s["first_wins"], 1);
  EXPECT_EQ(s["second_wins"], 0);
  EXPECT_EQ(s["draws"], 1);
  EXPECT_EQ(s["lengths"], Json::array({9, 5}));
  // (9+8+7+6+5) + (9+8+...+1) positions with a move to make, over 5 + 9 of them.
  EXPECT_EQ(s["positions"], 14);
  EXPECT_DOUBLE_EQ(s["mean_branching"].get<double>(), (35.0 + 45.0) / 14.0);
  ASSERT_EQ(s["heuristics"].size(), 2u) << s;
  const Json& a = s["heuristics"][0]["player"] == "ann" ? s["heuristics"][0] : s["heuristics"][1];
  const Json& b = s["heuristics"][0]["player"] == "ann" ? s["heuristics"][1] : s["heuristics"][0];
  EXPECT_EQ(a["heuristic"], "h1");
  EXPECT_EQ(b["heuristic"], "");
  EXPECT_EQ(a["scores"], 3);
  EXPECT_EQ(b["scores"], 2);
  // ann's changes: 0 then 30; bob's: 20.
  EXPECT_DOUBLE_EQ(a["move_invariance"].get<double>(), 15.0);
  EXPECT_DOUBLE_EQ(b["move_invariance"].get<double>(), 20.0);
  // Plies to the end: ann's moves at 5, 3 and 1 (buckets <=8, <=4, <=2), all foretelling.
  ASSERT_EQ(a["outcome_determination"].size(), 3u);
  for (const auto& bucket : a["outcome_determination"]) {
    EXPECT_EQ(bucket["agreement"], 1.0);
    EXPECT_EQ(bucket["samples"], 1);
  }
  EXPECT_EQ(a["outcome_determination"][0]["plies_to_end"], 2);
  EXPECT_FALSE(s["missing"].get<std::string>().empty());
  EXPECT_NE(get("/api/stats?game=noSuchGame", 400)["error"].get<std::string>().find("unknown game"),
            std::string::npos);
  EXPECT_EQ(get("/api/stats", 400)["error"], "missing query parameter 'game'");
  // A game nobody played: zeros, no branching.
  Json none = get("/api/stats?game=qubic");
  EXPECT_EQ(none["games"], 0);
  EXPECT_TRUE(none["mean_branching"].is_null());
}

TEST_F(AnalysisApiTest, ATournamentsGamesNameTheirPlayersAndResults) {
  auto ann = *sqlite_->find_or_create_player("ann", true);
  auto bob = *sqlite_->find_or_create_player("bob", true);
  auto t = sqlite_->create_tournament({"cup", "tictactoe", "round-robin", "", "none"});
  ASSERT_TRUE(t) << t.error();
  auto p1 = sqlite_->add_pairing({*t, 0, ann.id, bob.id});
  auto p2 = sqlite_->add_pairing({*t, 0, bob.id, ann.id});
  ASSERT_TRUE(p1 && p2);
  const auto g = play(*sqlite_, ann.id, bob.id, kXWins, "1-0", {});
  ASSERT_TRUE(sqlite_->set_pairing_game(*p1, g));
  make_hub(*sqlite_);
  Json games = get("/api/tournaments/" + std::to_string(*t) + "/games");
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[0]["game_id"], g);
  EXPECT_EQ(games[0]["players"], Json::array({"ann", "bob"}));
  EXPECT_EQ(games[0]["player_ids"], Json::array({ann.id, bob.id}));
  EXPECT_EQ(games[0]["result"], "1-0");
  EXPECT_EQ(games[1]["game_id"], 0);
  EXPECT_EQ(games[1]["result"], "");
  EXPECT_NE(get("/api/tournaments/x/games", 400)["error"].get<std::string>().find("'x'"),
            std::string::npos);
}

// The memory store: no rating model, so no history; the rest as the SQLite store.
TEST_F(AnalysisApiTest, TheMemoryStoreAnswersTheSameReads) {
  db::MemoryStore memory;
  auto ann = *memory.find_or_create_player("ann", true);
  auto bob = *memory.find_or_create_player("bob", false);
  auto version = memory.register_bot_version({ann.id, "mcts", "h2", ""});
  ASSERT_TRUE(version);
  play(memory, ann.id, bob.id, kXWins, "1-0", {40, -40, 40, -40, 40}, *version);
  make_hub(memory);
  Json p = get("/api/profile/" + std::to_string(ann.id));
  EXPECT_EQ(p["name"], "ann");
  ASSERT_EQ(p["versions"].size(), 1u);
  EXPECT_EQ(p["versions"][0]["heuristic"], "h2");
  EXPECT_EQ(p["versions"][0]["games"], 1);
  EXPECT_GT(p["versions"][0]["created_at_ms"].get<std::int64_t>(), 0);
  ASSERT_EQ(p["recent"].size(), 1u);
  EXPECT_EQ(p["recent"][0]["player_ids"], Json::array({ann.id, bob.id}));
  EXPECT_TRUE(get("/api/ratings/history?game=tictactoe").empty());
  EXPECT_EQ(get("/api/profile/" + std::to_string(bob.id))["bot"], false);
  EXPECT_EQ(get("/api/profile/7", 404)["error"], "no player 7");
  Json s = get("/api/stats?game=tictactoe");
  EXPECT_EQ(s["first_wins"], 1);
  EXPECT_DOUBLE_EQ(s["mean_branching"].get<double>(), 7.0);
}

// The heuristic lab's stored measures (arena analyze --db) in /api/stats: per heuristic its
// newest run's, by name, with named figures and null for an undefined one; `missing` only while
// none are stored. The same from both stores.
void expect_lab_json(db::Store& store, const std::function<Json(const std::string&)>& get) {
  Json before = get("/api/stats?game=tictactoe");
  EXPECT_TRUE(before["lab"].empty());
  EXPECT_NE(before["missing"].get<std::string>().find("arena analyze"), std::string::npos);
  db::LabMeasures m;
  m.heuristic = "fuzzy_goal";
  m.games = 12;
  m.positions = 80;
  m.moves = 68;
  m.spread = 2.0;
  m.mean_change = 1.0;
  m.mean_norm = 0.5;
  m.unchanged = 0.25;
  m.sign_agreement = 0.75;
  m.outcome = {{1, 4, 30, 0.9, 0.6}, {40, std::nullopt, 2, std::nullopt, std::nullopt}};
  db::LabMeasures other = m;
  other.heuristic = "count_lines";
  other.outcome = {{1, 4, 30, 0.5, 0.0}};
  ASSERT_TRUE(store.record_lab_run({"tictactoe", 1'000, "old run", "{}", {m, other}}));
  m.outcome[0].sign_agreement = 0.95;
  auto newest = store.record_lab_run(
      {"tictactoe", 2'000, "12 self-play games", R"({"player": "random", "seed": 3})", {m}});
  ASSERT_TRUE(newest) << newest.error();
  Json s = get("/api/stats?game=tictactoe");
  EXPECT_FALSE(s.contains("missing"));
  ASSERT_EQ(s["lab"].size(), 2u) << s;
  EXPECT_EQ(s["lab"][0]["heuristic"], "count_lines");
  EXPECT_EQ(s["lab"][0]["source"], "old run");
  const Json& h = s["lab"][1];
  EXPECT_EQ(h["heuristic"], "fuzzy_goal");
  EXPECT_EQ(h["run"], *newest);
  EXPECT_EQ(h["measured_at_ms"], 2'000);
  EXPECT_EQ(h["source"], "12 self-play games");
  EXPECT_EQ(h["parameters"]["player"], "random");
  EXPECT_EQ(h["parameters"]["seed"], 3);
  EXPECT_EQ(h["games"], 12);
  EXPECT_EQ(h["positions"], 80);
  EXPECT_EQ(h["moves"], 68);
  EXPECT_EQ(h["move_invariance"]["mean_change"], 1.0);
  EXPECT_EQ(h["move_invariance"]["mean_norm"], 0.5);
  EXPECT_EQ(h["move_invariance"]["unchanged"], 0.25);
  EXPECT_TRUE(h["move_invariance"]["p90_norm"].is_null());
  EXPECT_EQ(h["outcome_determination"]["sign_agreement"], 0.75);
  EXPECT_TRUE(h["outcome_determination"]["correlation"].is_null());
  const Json& buckets = h["outcome_determination"]["buckets"];
  ASSERT_EQ(buckets.size(), 2u);
  EXPECT_EQ(buckets[0], (Json{{"min_plies", 1}, {"max_plies", 4}, {"positions", 30},
                              {"sign_agreement", 0.95}, {"correlation", 0.6}}));
  EXPECT_TRUE(buckets[1]["max_plies"].is_null());
  EXPECT_TRUE(buckets[1]["sign_agreement"].is_null());
  // Another kind's page has none of them.
  EXPECT_TRUE(get("/api/stats?game=qubic")["lab"].empty());
}

TEST_F(AnalysisApiTest, GameStatsServeTheLabsStoredMeasures) {
  make_hub(*sqlite_);
  expect_lab_json(*sqlite_, [&](const std::string& target) { return get(target); });
}

TEST_F(AnalysisApiTest, GameStatsServeTheLabsMeasuresFromTheMemoryStore) {
  db::MemoryStore memory;
  make_hub(memory);
  expect_lab_json(memory, [&](const std::string& target) { return get(target); });
}

}  // namespace
}  // namespace arena::server
