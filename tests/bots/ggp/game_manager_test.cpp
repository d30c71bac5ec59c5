// The game manager against small GGP players written in Python (tests/bots/ggp/
// ggp_test_support.h): the messages it sends and their order, and the clocks and replacement
// moves when a player is slow, answers garbage, plays illegally or cannot be reached.

#include "bots/ggp/game_manager.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "bots/ggp/http_server.h"
#include "bots/ggp/match_record.h"
#include "tests/bots/ggp/ggp_test_support.h"
#include "tests/db/temp_dir.h"

namespace arena::ggp {
namespace {

// x plays the diagonal, o the top row's two other cells: x wins at step 5.
const std::vector<std::string> kXMoves = {"(play 1 1 x)", "noop", "(play 2 2 x)", "noop",
                                          "(play 3 3 x)"};
const std::vector<std::string> kOMoves = {"noop", "(play 1 2 o)", "noop", "(play 1 3 o)",
                                          "noop"};

class GgpManager : public ::testing::Test {
 protected:
  void SetUp() override { script_ = test::write_python_player(scratch_.path()); }

  // Starts a Python player and returns its URL; its messages go to log(k).
  std::string player(const std::string& mode, const std::vector<std::string>& moves) {
    const std::string log = script_ + "." + std::to_string(children_.size()) + ".log";
    std::vector<std::string> argv = {"/usr/bin/python3", script_, mode, log};
    argv.insert(argv.end(), moves.begin(), moves.end());
    children_.push_back(std::make_unique<test::Child>(argv));
    logs_.push_back(log);
    const std::string line = children_.back()->first_line();
    EXPECT_FALSE(line.empty()) << "the Python player did not start";
    return test::url_from_line(line);
  }

  MatchConfig config(std::vector<std::string> players) {
    MatchConfig c;
    c.rules = test::tictactoe_rules();
    c.source = "tictactoe.kif";
    c.players = std::move(players);
    c.startclock = 2;
    c.playclock = 1;
    c.grace = std::chrono::milliseconds(300);
    c.match_id = "t1";
    return c;
  }

  // Declared before the children, so that it is removed after they are stopped.
  arena::test::TempDir scratch_{"arena-ggp-"};
  std::string script_;
  std::vector<std::unique_ptr<test::Child>> children_;
  std::vector<std::string> logs_;
};

bool any_event(const MatchResult& r, const std::string& text) {
  return std::any_of(r.events.begin(), r.events.end(),
                     [&](const std::string& e) { return e.find(text) != std::string::npos; });
}

TEST_F(GgpManager, SendsStartPlaysAndStopInOrder) {
  const std::string x = player("list", kXMoves), o = player("list", kOMoves);
  auto r = run_ggp_match(config({x, o}));
  ASSERT_TRUE(r) << r.error();
  EXPECT_TRUE(r->terminal);
  EXPECT_EQ(r->roles, (std::vector<std::string>{"xplayer", "oplayer"}));
  ASSERT_EQ(r->moves.size(), 5u);
  for (std::size_t s = 0; s < 5; ++s)
    EXPECT_EQ(r->moves[s], (std::vector<std::string>{kXMoves[s], kOMoves[s]}));
  EXPECT_EQ(r->goals, (std::vector<int>{100, 0}));
  EXPECT_EQ(r->substitutions, (std::vector<int>{0, 0}));
  EXPECT_TRUE(r->events.empty()) << r->events.front();
  // What o heard: START with its role and the clocks, PLAY NIL, then each joint move in role
  // order, and STOP with the last one.
  const auto heard = test::lines_of(logs_[1]);
  ASSERT_EQ(heard.size(), 7u);
  EXPECT_TRUE(heard[0].starts_with("(start t1 oplayer (")) << heard[0].substr(0, 80);
  EXPECT_TRUE(heard[0].ends_with(") 2 1)")) << heard[0];
  EXPECT_EQ(heard[1], "(play t1 nil)");
  EXPECT_EQ(heard[2], "(play t1 ((play 1 1 x) noop))");
  EXPECT_EQ(heard[5], "(play t1 (noop (play 1 3 o)))");
  EXPECT_EQ(heard[6], "(stop t1 ((play 3 3 x) noop))");
  // What a match record is made of: the states (the initial one first), their times, and
  // per step and role the seconds taken and no error.
  ASSERT_EQ(r->states.size(), 6u);
  EXPECT_NE(r->states[0].find("(control xplayer)"), std::string::npos) << r->states[0];
  EXPECT_NE(r->states[1].find("(mark 1 1 x)"), std::string::npos) << r->states[1];
  EXPECT_EQ(r->state_ms.size(), 6u);
  EXPECT_LE(r->start_ms, r->state_ms.front());
  ASSERT_EQ(r->seconds.size(), 5u);
  ASSERT_EQ(r->errors.size(), 5u);
  EXPECT_EQ(r->errors[0], (std::vector<std::string>{"", ""}));
  const auto record = nlohmann::json::parse(match_record_json(*r, {x, o}));
  EXPECT_EQ(record["matchId"], "t1");
  EXPECT_EQ(record["gameRoleNames"], nlohmann::json({"xplayer", "oplayer"}));
  EXPECT_EQ(record["playerNamesFromHost"], nlohmann::json({x, o}));
  EXPECT_EQ(record["moves"][0], nlohmann::json({kXMoves[0], kOMoves[0]}));
  EXPECT_EQ(record["states"].size(), 6u);
  EXPECT_EQ(record["goalValues"], nlohmann::json({100, 0}));
  EXPECT_EQ(record["isCompleted"], true);
  EXPECT_EQ(record["isAborted"], false);
  EXPECT_EQ(record["startClock"], 2);
}

TEST_F(GgpManager, ALateAnswerIsReplacedByARandomLegalMove) {
  // o sleeps 3 s on its first PLAY, where its only legal move is noop.
  const std::string x = player("list", kXMoves), o = player("slow-first", kOMoves);
  const auto begin = Clock::now();
  auto r = run_ggp_match(config({x, o}));
  const double s = std::chrono::duration<double>(Clock::now() - begin).count();
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->substitutions, (std::vector<int>{0, 1}));
  EXPECT_TRUE(any_event(*r, "step 1, oplayer")) << r->events.front();
  EXPECT_TRUE(any_event(*r, "no reply in time")) << r->events.front();
  EXPECT_EQ(r->moves[0][1], "noop");
  EXPECT_EQ(r->goals, (std::vector<int>{100, 0}));
  EXPECT_GE(s, 1.2);  // waited for the play clock and the grace
  EXPECT_LT(s, 3.0);  // but not for the sleeper
}

TEST_F(GgpManager, GarbageAndIllegalMovesAreReplaced) {
  // o's second answer takes x's cell; x's list is then out of step only if o's random
  // replacement takes a diagonal cell, so x's count is not asserted.
  const std::string x = player("list", kXMoves);
  const std::string o = player("list", {"noop", "(play 1 1 o)", "noop", "(play 1 3 o)", "noop"});
  auto r = run_ggp_match(config({x, o}));
  ASSERT_TRUE(r) << r.error();
  EXPECT_GE(r->substitutions[1], 1);
  EXPECT_TRUE(any_event(*r, "step 2, oplayer")) << r->events.front();
  EXPECT_TRUE(any_event(*r, "is not legal for oplayer")) << r->events.front();
  EXPECT_TRUE(r->terminal);
  EXPECT_EQ(r->goals[0] + r->goals[1], 100);

  const std::string g = player("garbage", {});
  auto garbage = run_ggp_match(config({x, g}));
  ASSERT_TRUE(garbage) << garbage.error();
  EXPECT_TRUE(any_event(*garbage, "instead of ready")) << garbage->events.front();
  EXPECT_TRUE(any_event(*garbage, "is not a move")) << garbage->events.front();
  // Every one of o's answers was replaced.
  EXPECT_EQ(garbage->substitutions[1], static_cast<int>(garbage->moves.size()));
  EXPECT_TRUE(garbage->terminal);
}

TEST_F(GgpManager, AnUnreachablePlayerPlaysRandomly) {
  unsigned short port = 0;
  {
    auto s = HttpServer::open("127.0.0.1", 0, [](std::string_view, Clock::time_point) {
      return Reply{};
    });
    ASSERT_TRUE(s);
    port = (*s)->port();
  }
  const std::string x = player("list", kXMoves);
  auto r = run_ggp_match(config({x, "http://127.0.0.1:" + std::to_string(port)}));
  ASSERT_TRUE(r) << r.error();
  EXPECT_TRUE(r->terminal);
  EXPECT_EQ(r->substitutions[1], static_cast<int>(r->moves.size()));
  EXPECT_TRUE(any_event(*r, "start, oplayer")) << r->events.front();
}

TEST_F(GgpManager, RefusesWhatCannotBePlayed) {
  auto count = run_ggp_match(config({"http://127.0.0.1:1"}));
  ASSERT_FALSE(count);
  EXPECT_NE(count.error().find("2 roles; 1 players"), std::string::npos) << count.error();
  auto url = run_ggp_match(config({"http://127.0.0.1:1", "127.0.0.1:2"}));
  ASSERT_FALSE(url);
  EXPECT_NE(url.error().find("127.0.0.1:2"), std::string::npos) << url.error();
  auto c = config({"http://127.0.0.1:1", "http://127.0.0.1:2"});
  c.rules = "(role a) (<= (legal a ?m))";
  auto rules = run_ggp_match(c);
  ASSERT_FALSE(rules);
  EXPECT_NE(rules.error().find("tictactoe.kif"), std::string::npos) << rules.error();
  c = config({"http://127.0.0.1:1", "http://127.0.0.1:2"});
  c.playclock = 0;
  EXPECT_FALSE(run_ggp_match(c));
}

}  // namespace
}  // namespace arena::ggp
