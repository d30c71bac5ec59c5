// `arena ggp-player` and `arena ggp-match` as processes, over loopback: the player answers a
// client's INFO/START/PLAY/STOP/ABORT, and the manager plays GDL tic-tac-toe between two
// players to its end.

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <regex>

#include <nlohmann/json.hpp>

#include "bots/ggp/http_client.h"
#include "bots/ggp/kif_message.h"
#include "tests/bots/ggp/ggp_test_support.h"
#include "tests/cli/run_command.h"

namespace arena::ggp {
namespace {

std::string start_player(std::unique_ptr<test::Child>& child, const std::string& preset) {
  child = std::make_unique<test::Child>(std::vector<std::string>{
      ARENA_BINARY, "ggp-player", "--port", "0", "--preset", preset, "--quiet"});
  const std::string line = child->first_line();
  EXPECT_NE(line.find("listening on http://127.0.0.1:"), std::string::npos) << line;
  return test::url_from_line(line);
}

Reply post(const std::string& url, const std::string& body) {
  auto r = post_message(url, body, std::chrono::seconds(10));
  EXPECT_TRUE(r) << r.error();
  return r ? *r : Reply{0, r.error()};
}

TEST(GgpCli, PlayerAnswersEveryMessage) {
  std::unique_ptr<test::Child> child;
  const std::string url = start_player(child, "GDL_Random");
  EXPECT_EQ(post(url, "(INFO)").body, "((name arena-GDL_Random) (status available))");
  EXPECT_EQ(post(url, start_text("c1", "xplayer", test::tictactoe_rules(), 5, 1)).body, "ready");
  EXPECT_EQ(post(url, "(info)").body, "((name arena-GDL_Random) (status busy))");
  const Reply move = post(url, "(PLAY c1 NIL)");
  EXPECT_EQ(move.status, 200);
  EXPECT_TRUE(std::regex_match(move.body, std::regex(R"(\(play [123] [123] x\))"))) << move.body;
  EXPECT_EQ(post(url, "(PLAY c1 (" + move.body + " noop))").body, "noop");
  const Reply bad = post(url, "(PLAY c1 (noop noop))");
  EXPECT_EQ(bad.status, 400);
  EXPECT_NE(bad.body.find("not legal"), std::string::npos) << bad.body;
  EXPECT_EQ(post(url, "(STOP c1 (noop (play 2 2 o)))").body, "done");
  EXPECT_EQ(post(url, "(INFO)").body, "((name arena-GDL_Random) (status available))");
  EXPECT_EQ(post(url, start_text("c2", "oplayer", test::tictactoe_rules(), 5, 1)).body, "ready");
  EXPECT_EQ(post(url, "(ABORT c2)").body, "aborted");
  EXPECT_EQ(post(url, "(INFO)").body, "((name arena-GDL_Random) (status available))");
  EXPECT_EQ(post(url, "not kif at all (").status, 400);
}

TEST(GgpCli, UnknownPresetIsAUsageError) {
  const auto r = arena::test::run_command(std::string(ARENA_BINARY) +
                                   " ggp-player --port 0 --preset AB_Improved");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("unknown GDL preset 'AB_Improved'"), std::string::npos) << r.output;
}

TEST(GgpCli, ManagerPlaysTicTacToeBetweenTwoArenaPlayers) {
  std::unique_ptr<test::Child> a, b;
  const std::string x = start_player(a, "GDL_UCT"), o = start_player(b, "GDL_Random");
  const auto r = arena::test::run_command(std::string(ARENA_BINARY) +
                                   " ggp-match --game gdl:tictactoe --player " + x +
                                   " --player " + o + " --startclock 3 --playclock 1");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find(", terminal,"), std::string::npos) << r.output;
  std::smatch goals;
  ASSERT_TRUE(std::regex_search(r.output, goals,
                                std::regex(R"(goals: xplayer (\d+), oplayer (\d+))")))
      << r.output;
  EXPECT_EQ(std::stoi(goals[1]) + std::stoi(goals[2]), 100) << r.output;
  EXPECT_NE(r.output.find("replaced: xplayer 0, oplayer 0"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("step 5:"), std::string::npos) << r.output;  // no win before step 5
}

TEST(GgpCli, ManagerTakesASheetFileWithGdlAndWritesAMatchRecord) {
  std::unique_ptr<test::Child> a, b;
  const std::string x = start_player(a, "GDL_Random"), o = start_player(b, "GDL_Random");
  const std::string record = ::testing::TempDir() + "/ggp_match_record.json";
  const auto r = arena::test::run_command(
      std::string(ARENA_BINARY) + " ggp-match --gdl " + ARENA_SOURCE_DIR +
      "/games/gdl/sheets/tictactoe.kif --player " + x + " --player " + o +
      " --startclock 3 --playclock 1 --record " + record);
  ASSERT_EQ(r.status, 0) << r.output;
  // Each step's moves with the seconds each player took.
  EXPECT_TRUE(std::regex_search(r.output, std::regex(R"(step 1: \(play \d \d x\) \(\d+\.\d\d s\), noop \(\d+\.\d\d s\))")))
      << r.output;
  std::ifstream in(record);
  ASSERT_TRUE(in) << record;
  const auto json = nlohmann::json::parse(in);
  std::remove(record.c_str());
  EXPECT_EQ(json["gameRoleNames"], nlohmann::json({"xplayer", "oplayer"}));
  EXPECT_EQ(json["states"].size(), json["moves"].size() + 1);
  EXPECT_EQ(json["isCompleted"], true);
  ASSERT_EQ(json["goalValues"].size(), 2u);
  EXPECT_EQ(json["goalValues"][0].get<int>() + json["goalValues"][1].get<int>(), 100);
  // Both --gdl and --game, or neither, is a mistake the command names.
  const auto both = arena::test::run_command(std::string(ARENA_BINARY) +
                                             " ggp-match --gdl x.kif --game gdl:tictactoe"
                                             " --player " + x + " --player " + o);
  EXPECT_EQ(both.status, 1) << both.output;
  EXPECT_NE(both.output.find("one of them"), std::string::npos) << both.output;
}

TEST(GgpCli, ManagerRefusesAnUnknownSheet) {
  const auto r = arena::test::run_command(std::string(ARENA_BINARY) +
                                   " ggp-match --game gdl:noSuchSheet --player http://127.0.0.1:1"
                                   " --player http://127.0.0.1:2");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("noSuchSheet"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace arena::ggp
