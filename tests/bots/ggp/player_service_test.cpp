// The player side of the GGP protocol: PlayerService answering each message as the protocol
// says (in process), and the same over HTTP through HttpServer and post_message.

#include "bots/ggp/player_service.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "bots/ggp/ggp_game.h"
#include "bots/ggp/http_client.h"
#include "bots/ggp/http_server.h"
#include "tests/bots/ggp/ggp_test_support.h"

namespace arena::ggp {
namespace {

PlayerFactory first_legal(bool use_all_time = false) {
  return [use_all_time]() -> Expected<std::unique_ptr<gdl::GdlPlayer>> {
    return std::unique_ptr<gdl::GdlPlayer>(
        std::make_unique<test::FirstLegalPlayer>(use_all_time));
  };
}

// ggp-base's INFO replies, for the default name.
const std::string kAvailable = "((name arena) (status available))";
const std::string kBusy = "((name arena) (status busy))";

Reply send(PlayerService& service, const std::string& body) {
  return service.handle(body, Clock::now());
}

std::string start(const std::string& id, const std::string& role, int playclock = 5) {
  return start_text(id, role, test::tictactoe_rules(), 10, playclock);
}

TEST(GgpPlayerService, InfoIsAvailableThenBusyDuringAMatch) {
  PlayerService service(first_legal());
  EXPECT_EQ(send(service, "(INFO)").body, kAvailable);
  const Reply ready = send(service, start("m1", "xplayer"));
  EXPECT_EQ(ready.status, 200);
  EXPECT_EQ(ready.body, "ready");
  EXPECT_EQ(send(service, "(INFO)").body, kBusy);
  EXPECT_EQ(send(service, start("m2", "oplayer")).body, "busy");  // one match at a time
  EXPECT_EQ(send(service, start("m1", "xplayer")).body, "ready");  // a repeated START
  EXPECT_EQ(send(service, "(ABORT m1)").body, "aborted");
  EXPECT_EQ(send(service, "(INFO)").body, kAvailable);
}

TEST(GgpPlayerService, AnswersInfoWithItsNameAndPreviewAfterReadingTheRules) {
  PlayerServiceOptions options;
  options.name = "my player";  // made one atom
  PlayerService service(first_legal(), options);
  EXPECT_EQ(send(service, "(INFO)").body, "((name my_player) (status available))");
  const Reply preview = send(service, "(PREVIEW (" + test::tictactoe_rules() + "\n) 5)");
  EXPECT_EQ(preview.status, 200);
  EXPECT_EQ(preview.body, "done");
  const Reply broken = send(service, "(PREVIEW ((role x) (legal x)) 5)");
  EXPECT_EQ(broken.status, 400);
  EXPECT_NE(broken.body.find("PREVIEW: the rules"), std::string::npos) << broken.body;
  EXPECT_EQ(send(service, "(PREVIEW (role x))").status, 400);  // no clock
  EXPECT_EQ(send(service, "(ABORT nothing)").body, "aborted");  // nothing to abort
}

TEST(GgpPlayerService, RefusesAGdlTwoSheetNamingGdlTwo) {
  PlayerService service(first_legal());
  const Reply r = send(service, start_text("g2", "xplayer",
                                           test::tictactoe_rules() + "\n(role random)", 10, 5));
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(r.body.find("GDL-II"), std::string::npos) << r.body;
  EXPECT_EQ(send(service, "(INFO)").body, kAvailable);
}

// Two services play a whole game through the protocol, each answer checked to be legal by a
// reasoner of our own, and both end with STOP.
TEST(GgpPlayerService, PlaysAWholeGameAndStops) {
  PlayerService x(first_legal()), o(first_legal());
  ASSERT_EQ(send(x, start("g", "xPlayer")).body, "ready");  // roles in any case
  ASSERT_EQ(send(o, start("g", "OPLAYER")).body, "ready");
  auto judge = GgpGame::create(test::tictactoe_rules(), "tictactoe", std::chrono::seconds(10));
  ASSERT_TRUE(judge) << judge.error();
  std::vector<std::string> previous;
  int steps = 0;
  while (!(*judge)->is_terminal()) {
    ASSERT_LT(steps, 9);
    const Reply rx = send(x, play_text("g", previous));
    const Reply ro = send(o, play_text("g", previous));
    ASSERT_EQ(rx.status, 200) << rx.body;
    ASSERT_EQ(ro.status, 200) << ro.body;
    auto mx = parse_sexpr(rx.body), mo = parse_sexpr(ro.body);
    ASSERT_TRUE(mx && mo);
    ASSERT_TRUE((*judge)->play({*mx, *mo})) << rx.body << " " << ro.body;
    previous = {rx.body, ro.body};
    ++steps;
  }
  // Whatever the players' order of moves, tic-tac-toe ends within 9 steps with goals that add
  // up to 100.
  const int gx = *(*judge)->machine().goal((*judge)->state(), 0);
  const int go = *(*judge)->machine().goal((*judge)->state(), 1);
  EXPECT_EQ(gx + go, 100);
  EXPECT_GE(steps, 5);
  EXPECT_EQ(send(x, stop_text("g", previous)).body, "done");
  EXPECT_EQ(send(o, stop_text("g", previous)).body, "done");
  EXPECT_EQ(send(x, "(INFO)").body, kAvailable);
}

TEST(GgpPlayerService, RefusesBadPlaysAndKeepsItsState) {
  PlayerService service(first_legal());
  ASSERT_EQ(send(service, start("m", "xplayer")).body, "ready");
  const Reply unknown = send(service, "(PLAY other NIL)");
  EXPECT_EQ(unknown.status, 400);
  EXPECT_NE(unknown.body.find("no match 'other'"), std::string::npos) << unknown.body;
  const Reply first = send(service, "(PLAY m NIL)");
  ASSERT_EQ(first.status, 200) << first.body;
  EXPECT_NE(first.body.find("(play"), std::string::npos) << first.body;
  EXPECT_EQ(send(service, "(PLAY m NIL)").body, first.body);  // a repeated first PLAY
  // x's move is legal but o cannot play while x has control.
  const Reply illegal = send(service, "(PLAY m ((play 1 1 x) (play 2 2 o)))");
  EXPECT_EQ(illegal.status, 400);
  EXPECT_NE(illegal.body.find("not legal for oplayer"), std::string::npos) << illegal.body;
  const Reply count = send(service, "(PLAY m ((play 1 1 x)))");
  EXPECT_EQ(count.status, 400);
  EXPECT_NE(count.body.find("1 moves for 2 roles"), std::string::npos) << count.body;
  const Reply symbol = send(service, "(PLAY m ((fly 1 1 x) noop))");
  EXPECT_EQ(symbol.status, 400);
  EXPECT_NE(symbol.body.find("'fly' is not in the rules"), std::string::npos) << symbol.body;
  // The state did not move: the legal joint move is still accepted, and x now waits.
  const Reply next = send(service, "(PLAY m ((play 1 1 x) noop))");
  ASSERT_EQ(next.status, 200) << next.body;
  EXPECT_EQ(next.body, "noop");
  const Reply nil = send(service, "(PLAY m NIL)");
  EXPECT_EQ(nil.status, 400);
  EXPECT_NE(nil.body.find("NIL moves after the first turn"), std::string::npos) << nil.body;
}

TEST(GgpPlayerService, RefusesBadStarts) {
  PlayerService service(first_legal());
  const Reply rules = send(service, "(START m xplayer ((role xplayer) (<= (legal xplayer ?m))) 5 5)");
  EXPECT_EQ(rules.status, 400);
  EXPECT_NE(rules.body.find("START: the rules"), std::string::npos) << rules.body;
  const Reply role = send(service, start("m", "zplayer"));
  EXPECT_EQ(role.status, 400);
  EXPECT_NE(role.body.find("no role 'zplayer'"), std::string::npos) << role.body;
  const Reply garbage = send(service, "(START m");
  EXPECT_EQ(garbage.status, 400);
  EXPECT_EQ(send(service, "(INFO)").body, kAvailable);
  EXPECT_EQ(send(service, "(STOP nothing NIL)").body, "done");  // nothing to stop
}

TEST(GgpPlayerService, AnswersWithinThePlayClockLessTheMargin) {
  PlayerServiceOptions options;
  options.margin = std::chrono::milliseconds(300);
  PlayerService service(first_legal(/*use_all_time=*/true), options);
  ASSERT_EQ(send(service, start("m", "xplayer", /*playclock=*/1)).body, "ready");
  const auto begin = Clock::now();
  const Reply r = service.handle("(PLAY m NIL)", begin);
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - begin).count();
  EXPECT_EQ(r.status, 200);
  EXPECT_GE(ms, 650);  // the player used its time: 1 s less 300 ms
  EXPECT_LT(ms, 900);
}

// The same service behind the HTTP server, spoken to with the manager's client.
class GgpHttp : public ::testing::Test {
 protected:
  void SetUp() override {
    HttpServerOptions options;
    options.body_limit = 256 * 1024;
    auto opened = HttpServer::open(
        "127.0.0.1", 0,
        [this](std::string_view body, Clock::time_point received) {
          if (body == "(sleep)") std::this_thread::sleep_for(std::chrono::milliseconds(1500));
          return service_.handle(body, received);
        },
        options);
    ASSERT_TRUE(opened) << opened.error();
    server_ = std::move(*opened);
    thread_ = std::thread([this] { server_->run(); });
    url_ = "http://127.0.0.1:" + std::to_string(server_->port());
  }
  void TearDown() override {
    if (server_) server_->stop();
    if (thread_.joinable()) thread_.join();
  }
  Expected<Reply> post(const std::string& body, int timeout_ms = 5000) {
    return post_message(url_, body, std::chrono::milliseconds(timeout_ms));
  }

  PlayerService service_{first_legal()};
  std::unique_ptr<HttpServer> server_;
  std::thread thread_;
  std::string url_;
};

TEST_F(GgpHttp, SpeaksTheProtocol) {
  auto info = post("(INFO)");
  ASSERT_TRUE(info) << info.error();
  EXPECT_EQ(info->status, 200);
  EXPECT_EQ(info->body, kAvailable);
  auto ready = post(start("h", "oplayer"));
  ASSERT_TRUE(ready) << ready.error();
  EXPECT_EQ(ready->body, "ready");
  auto move = post("(PLAY h NIL)");
  ASSERT_TRUE(move) << move.error();
  EXPECT_EQ(move->body, "noop");
  auto done = post("(STOP h ((play 1 1 x) noop))");
  ASSERT_TRUE(done) << done.error();
  EXPECT_EQ(done->body, "done");
}

TEST_F(GgpHttp, MalformedAndOversizedBodiesGetErrors) {
  auto bad = post("(PLAY");
  ASSERT_TRUE(bad) << bad.error();
  EXPECT_EQ(bad->status, 400);
  EXPECT_NE(bad->body.find("unbalanced"), std::string::npos) << bad->body;
  auto big = post("(INFO " + std::string(300 * 1024, 'x') + ")");
  if (big) {
    EXPECT_EQ(big->status, 413);  // or the server closed the connection: also refused
  }
  auto info = post("(INFO)");  // still serving
  ASSERT_TRUE(info) << info.error();
  EXPECT_EQ(info->body, kAvailable);
}

TEST_F(GgpHttp, InfoIsAnsweredWhileAnotherMessageIsHandled) {
  std::thread slow([this] { (void)post("(sleep)"); });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const auto begin = Clock::now();
  auto info = post("(INFO)");
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - begin).count();
  slow.join();
  ASSERT_TRUE(info) << info.error();
  EXPECT_LT(ms, 1000);
}

TEST_F(GgpHttp, TheClientGivesUpAtItsTimeout) {
  const auto begin = Clock::now();
  auto r = post("(sleep)", 300);
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - begin).count();
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("no reply in time"), std::string::npos) << r.error();
  EXPECT_LT(ms, 1200);
}

TEST(GgpHttpClient, ErrorsNameTheUrl) {
  EXPECT_FALSE(parse_player_url("ftp://x:1"));
  EXPECT_FALSE(parse_player_url("http://host"));
  EXPECT_FALSE(parse_player_url("http://host:99999"));
  auto u = parse_player_url("http://127.0.0.1:9147/ggp");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->target, "/ggp");
  // A port nobody listens on (bound and closed at once).
  unsigned short port = 0;
  {
    auto s = HttpServer::open("127.0.0.1", 0, [](std::string_view, Clock::time_point) {
      return Reply{};
    });
    ASSERT_TRUE(s);
    port = (*s)->port();
  }
  auto r = post_message("http://127.0.0.1:" + std::to_string(port), "(INFO)",
                        std::chrono::milliseconds(2000));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("127.0.0.1"), std::string::npos) << r.error();
}

}  // namespace
}  // namespace arena::ggp
