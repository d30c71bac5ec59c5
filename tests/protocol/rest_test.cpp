// The REST API's reply bodies (protocol/rest.h): the fields each endpoint has always sent, so
// the page and scripts that read them keep working now that the server fills structs.

#include "protocol/rest.h"

#include <gtest/gtest.h>

namespace arena::protocol {
namespace {

using Json = nlohmann::json;

Json parsed(const std::string& text) { return Json::parse(text); }

TEST(RestReplies, AStoredGameWithItsDetail) {
  ApiGame g;
  g.id = 7;
  g.game = "chess";
  g.players = {"alice", "bob"};
  g.result = "1-0";
  g.reason = "checkmate";
  g.plies = 2;
  auto& d = g.detail.emplace();
  d.start_position = "start";
  d.final_position = "end";
  ApiMove searched{0, "e2e4", 12, 0, 0, "after e4", 59000, ApiMoveInfo{5, 1234, "e2e4 e7e5", 31}, "e4"};
  ApiMove scored{1, "e7e5", 3, {}, {}, {}, {}, ApiMoveInfo{{}, {}, {}, -20}, {}};
  d.moves = {searched, scored};
  const Json j = parsed(encode_api(g));
  EXPECT_EQ(j["id"], 7);
  EXPECT_EQ(j["players"], Json({"alice", "bob"}));
  EXPECT_TRUE(j["scores"].is_null());  // no scores: null, as before
  EXPECT_EQ(j["live"], false);
  EXPECT_TRUE(j["board"].is_null());
  EXPECT_EQ(j["moves"][0], Json::parse(R"({"ply":0,"move":"e2e4","time_used_ms":12,"seat":0,
      "turn":0,"position":"after e4","clock_left_ms":59000,"san":"e4",
      "info":{"depth":5,"nodes":1234,"pv":"e2e4 e7e5","score":31}})"));
  // A score without a search: info holds the score only; no replay: no seat, turn or position.
  EXPECT_EQ(j["moves"][1], Json::parse(R"({"ply":1,"move":"e7e5","time_used_ms":3,
      "info":{"score":-20}})"));
  EXPECT_FALSE(j.contains("note"));  // none: absent
  g.detail.reset();
  EXPECT_FALSE(parsed(encode_api(g)).contains("moves"));  // a list entry has no detail
  g.note = "no goal value holds for white in this state";
  EXPECT_EQ(parsed(encode_api(g))["note"], g.note);
}

TEST(RestReplies, ListsCatalogLeaderboardErrorsAndCreation) {
  ApiGameList list;
  list.live.push_back(GameSummary{3, "tictactoe", "", "none", {}, 4, 9, true, "", ""});
  list.stored.push_back(ApiGame{});
  const Json games = parsed(encode_api(list));
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[0]["id"], 3);  // live games first
  EXPECT_EQ(games[0]["live"], true);
  EXPECT_EQ(games[1]["live"], false);

  const Json catalog = parsed(encode_api(std::vector<ApiCatalogEntry>{
      {"chess", "Chess", 2, "", false, ""},
      {"gdl:connectFour", "connectFour", 2, "", true, ""},
      {"gdl:bad", "bad", 2, "", true, "bad.kif:3: rule ...: (safety)"}}));
  EXPECT_FALSE(catalog[0].contains("gdl"));  // only GDL sheets are marked
  EXPECT_EQ(catalog[1]["gdl"], true);
  EXPECT_EQ(catalog[1]["players"], 2);
  EXPECT_FALSE(catalog[1].contains("refused"));  // only refused sheets say so
  EXPECT_EQ(catalog[2]["refused"], "bad.kif:3: rule ...: (safety)");

  const Json board =
      parsed(encode_api(std::vector<ApiLeaderboardRow>{{5, "bot", true, 1612.5, 80, 10, 6, 3, 1}}));
  EXPECT_EQ(board[0], Json::parse(R"({"player":5,"name":"bot","bot":true,"rating":1612.5,
      "deviation":80.0,"games":10,"wins":6,"losses":3,"draws":1})"));

  EXPECT_EQ(parsed(encode_api(ApiError{"no such game"})), Json({{"error", "no such game"}}));
  EXPECT_EQ(parsed(encode_api(ApiCreated{12, true})), Json({{"id", 12}, {"resumed", true}}));
  const Json t = parsed(encode_api(Json{{"id", 1}}, ApiDirectorStatus{{40, 41}, {"carol"}}));
  EXPECT_EQ(t["director"], Json::parse(R"({"running":[40,41],"waiting_for":["carol"]})"));
  EXPECT_FALSE(parsed(encode_api(Json{{"id", 1}}, std::nullopt)).contains("director"));
}

TEST(RestReplies, InvalidUtf8InANameIsReplacedNotThrown) {
  ApiGame g;
  g.players = {"bad\xff", "ok"};
  EXPECT_EQ(parsed(encode_api(g))["players"][0], "bad\xEF\xBF\xBD");
}

}  // namespace
}  // namespace arena::protocol
