// Lag compensation (protocol/README.md, "Lag compensation"): the rule of GameClock's LagRule
// (a credit bounded per move and by a quota, none without a measured round trip), the Match
// crediting the lag that comes with a move, and the server measuring a connection's round
// trip with its own pings (a client cannot claim lag).

#include <chrono>
#include <optional>
#include <thread>

#include <gtest/gtest.h>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include "db/memory_store.h"
#include "server/match/clock.h"
#include "server/match/match.h"
#include "server/server.h"
#include "tests/server/test_games.h"

namespace arena::server {
namespace {

using protocol::Json;

TimeControl tc(const std::string& text) { return *parse_time_control(text); }

// Lichess's quota: the gain is 15 centiseconds plus 2/5 of the game's estimated seconds
// (base + 40 increments), at most a second; 3 gains to start, 7 at most, 2 credited a move.
TEST(LagRule, FollowsLichesssQuotaForEachTimeControl) {
  const LagRule bullet = LagRule::for_control(tc("fischer:60000+0"));
  EXPECT_EQ(bullet.gain_ms, 390);
  EXPECT_EQ(bullet.initial_quota_ms, 1170);
  EXPECT_EQ(bullet.max_quota_ms, 2730);
  EXPECT_EQ(bullet.max_credit_ms, 780);
  EXPECT_EQ(LagRule::for_control(tc("fischer:180000+2000")).gain_ms, 1000) << "capped at 1 s";
  EXPECT_EQ(LagRule::for_control(tc("movetime:100")).gain_ms, 166) << "40 moves of 100 ms";
  const LagRule none = LagRule::for_control(tc("none"));
  EXPECT_EQ(none.gain_ms, 0);
  EXPECT_EQ(none.max_credit_ms, 0);
}

TEST(GameClockLag, NoCreditWithoutAMeasuredRoundTrip) {
  GameClock c(tc("fischer:1000+0"));
  c.start_turn(0, 0);
  EXPECT_TRUE(c.end_turn(0, 300, std::nullopt));
  EXPECT_EQ(c.remaining(0, 300), 700);
  EXPECT_EQ(c.lag_credit(0, 300, std::nullopt), 0);
  EXPECT_EQ(c.lag_credit(0, 300, 0), 0);
}

TEST(GameClockLag, AMoveIsCreditedItsMeasuredRoundTrip) {
  GameClock c(tc("fischer:1000+0"));
  c.start_turn(0, 0);
  EXPECT_TRUE(c.end_turn(0, 300, 40));
  EXPECT_EQ(c.remaining(0, 300), 740);
  EXPECT_EQ(c.lag_quota(0), c.lag_rule().initial_quota_ms - 40 + c.lag_rule().gain_ms);
}

TEST(GameClockLag, TheCreditOfOneMoveIsCapped) {
  GameClock c(tc("fischer:60000+0"));  // at most 780 ms a move
  c.start_turn(0, 0);
  EXPECT_TRUE(c.end_turn(0, 5000, 4000));
  EXPECT_EQ(c.remaining(0, 5000), 60000 - 5000 + 780);
}

TEST(GameClockLag, TheCreditIsNeverMoreThanTheTurnTook) {
  GameClock c(tc("fischer:1000+0"));
  c.start_turn(0, 0);
  EXPECT_TRUE(c.end_turn(0, 30, 200));
  EXPECT_EQ(c.remaining(0, 30), 1000) << "a clock never gains from a credit";
}

// A connection that always shows a long round trip gets 2 gains a move while its quota lasts,
// then one gain a move: in total never more than the first quota plus a gain per move.
TEST(GameClockLag, TheQuotaCapsTheTotalCredit) {
  GameClock c(tc("fischer:60000+0"));
  const LagRule r = c.lag_rule();  // gain 390
  std::int64_t now = 0, total = 0;
  std::vector<std::int64_t> credits;
  for (int move = 0; move < 8; ++move) {
    c.start_turn(0, now);
    now += 2000;
    const std::int64_t before = c.remaining(0, now);
    const std::int64_t credit = c.lag_credit(0, 2000, 10'000);
    ASSERT_TRUE(c.end_turn(0, now, 10'000));
    EXPECT_EQ(c.remaining(0, now) - before, credit);
    credits.push_back(credit);
    total += credit;
    EXPECT_LE(total, r.initial_quota_ms + (move + 1) * r.gain_ms);
  }
  EXPECT_EQ(credits, (std::vector<std::int64_t>{780, 780, 390, 390, 390, 390, 390, 390}));
}

TEST(GameClockLag, TheQuotaGrowsToItsMaximumAndNoFurther) {
  GameClock c(tc("fischer:60000+0"));
  for (int move = 0; move < 20; ++move) {
    c.start_turn(0, move * 10);
    ASSERT_TRUE(c.end_turn(0, move * 10 + 5, std::nullopt));
  }
  EXPECT_EQ(c.lag_quota(0), c.lag_rule().max_quota_ms);
}

TEST(GameClockLag, AMoveLateByLessThanItsCreditIsInTime) {
  GameClock c(tc("movetime:100"));
  c.start_turn(0, 0);
  EXPECT_FALSE(c.out_of_time(0, 130, 40));
  EXPECT_TRUE(c.out_of_time(0, 130, std::nullopt)) << "without the credit it is late";
  EXPECT_TRUE(c.out_of_time(0, 141, 40));
  EXPECT_TRUE(c.end_turn(0, 130, 40));
  EXPECT_EQ(c.remaining(0, 130), 100) << "a movetime clock starts each move full";
}

// The flag timer waits for the credit the seat's last lag would get, no longer.
TEST(GameClockLag, TheFlagFallsAfterTheCreditOfTheSeatsLastLag) {
  GameClock c(tc("movetime:100"));
  c.start_turn(0, 0);
  EXPECT_EQ(c.next_flag_in(0), 100) << "no lag measured yet";
  ASSERT_TRUE(c.end_turn(0, 50, 30));
  c.start_turn(0, 1000);
  EXPECT_EQ(c.next_flag_in(1000), 130);
  EXPECT_FALSE(c.flagged(1130));
  EXPECT_TRUE(c.flagged(1131));
}

struct Recorder : MatchObserver {
  std::vector<Json> events;
  void on_match_event(std::int64_t, const Text& e) override { events.push_back(Json::parse(*e)); }
  void on_match_finished(std::int64_t) override {}
};

class MatchLagTest : public ::testing::Test {
 protected:
  std::shared_ptr<Match> make(const std::string& control) {
    MatchSettings s;
    s.game_id = 1;
    s.kind = "race";
    s.time_control = tc(control);
    s.players = {{1, "ann", false}, {2, "bob", false}};
    auto m = std::make_shared<Match>(
        ioc.get_executor(), s, std::make_unique<GameAdapter<testing::Race>>(testing::Race{}),
        store, time, observer);
    m->start();
    run();
    return m;
  }
  void run() {
    ioc.restart();
    ioc.run();
  }
  void move(const std::shared_ptr<Match>& m, int seat, const std::string& id,
            std::optional<std::int64_t> lag) {
    m->move(seat, {1, "1", id, {}}, [](Text) {}, {}, lag);
    run();
  }
  Json last() const { return observer->events.back(); }

  boost::asio::io_context ioc;
  db::MemoryStore store;
  std::shared_ptr<ManualTimeSource> time = std::make_shared<ManualTimeSource>();
  std::shared_ptr<Recorder> observer = std::make_shared<Recorder>();
};

// The load test's failure in small: a 100 ms move whose state and answer took 30 ms on the
// way. Without the credit it loses on time.
TEST_F(MatchLagTest, AMoveLateByItsMeasuredLagIsPlayed) {
  auto m = make("movetime:100");
  time->advance(120);
  move(m, 0, "a", 30);
  EXPECT_EQ(last()["type"], "state");
  EXPECT_EQ(last()["to_move"], 1);
}

TEST_F(MatchLagTest, AMoveLateWithoutAMeasuredLagLosesOnTime) {
  auto m = make("movetime:100");
  time->advance(120);
  move(m, 0, "a", std::nullopt);
  EXPECT_EQ(last()["type"], "game_end");
  EXPECT_EQ(last()["reason"], "timeout");
}

TEST_F(MatchLagTest, AMoveLaterThanItsCreditLosesOnTime) {
  auto m = make("movetime:100");
  time->advance(131);
  move(m, 0, "a", 30);
  EXPECT_EQ(last()["type"], "game_end");
  EXPECT_EQ(last()["reason"], "timeout");
}

// The server's own queueing is not the mover's time: a move read 90 ms into its 100 ms turn
// is in time though the match's strand runs it 50 ms later.
TEST_F(MatchLagTest, AMoveIsTimedWhenItWasReadNotWhenTheMatchRunsIt) {
  auto m = make("movetime:100");
  time->advance(90);
  m->move(0, {1, "1", "a", {}}, [](Text) {}, {}, std::nullopt);
  time->advance(50);
  run();
  EXPECT_EQ(last()["type"], "state");
  EXPECT_EQ(last()["to_move"], 1);
}

TEST_F(MatchLagTest, TheFlagWaitsForTheCreditOfTheLastLag) {
  auto m = make("fischer:1000+0");
  time->advance(100);
  move(m, 0, "a", 50);  // ann: 950 left
  time->advance(100);
  move(m, 1, "b", 20);  // bob: 920 left
  time->advance(990);   // ann would be at -40 without her 50 ms
  m->check_time();
  run();
  EXPECT_EQ(last()["type"], "state");
  time->advance(11);
  m->check_time();
  run();
  EXPECT_EQ(last()["type"], "game_end");
  EXPECT_EQ(last()["reason"], "timeout");
  EXPECT_EQ(last()["result"], "0-1");
}

// Over the network: after a client's message the server pings it ("lag N") and takes the
// time to the pong as the connection's round trip. A client that answers late gets its
// lateness measured, never more: its moves are credited what was measured, within the rule.
TEST(ServerLagProbe, TheServerPingsAfterAMessageAndMeasuresThePong) {
  namespace beast = boost::beast;
  namespace websocket = beast::websocket;
  db::MemoryStore store;
  ServerConfig config;
  config.port = 0;
  config.threads = 1;
  Server server(config, store);
  ASSERT_TRUE(server.start());

  boost::asio::io_context ioc;
  boost::asio::ip::tcp::resolver resolver(ioc);
  websocket::stream<beast::tcp_stream> ws(ioc);
  beast::get_lowest_layer(ws).connect(
      boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), server.port()));
  ws.handshake("127.0.0.1", "/ws");
  std::vector<std::string> pings;
  ws.control_callback([&](websocket::frame_type kind, beast::string_view payload) {
    if (kind == websocket::frame_type::ping) pings.emplace_back(payload);
  });
  ws.text(true);
  ws.write(boost::asio::buffer(std::string(R"({"type":"hello","version":3,"name":"slow"})")));
  // The ping waits unread for 200 ms: the pong (Beast answers as it reads) is that late.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  beast::flat_buffer buffer;
  ws.read(buffer);  // the welcome; the ping before or after it
  while (pings.empty()) {
    buffer.clear();
    ws.write(boost::asio::buffer(std::string(R"({"type":"ping","id":1})")));
    ws.read(buffer);
  }
  EXPECT_EQ(pings.front(), "lag 1");
  // The hub's view: the one open connection is ours.
  std::int64_t lag = -1;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (lag < 0 && std::chrono::steady_clock::now() < deadline) {
    lag = server.hub().metrics().max_lag_ms;
    if (lag < 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_GE(lag, 190);
  EXPECT_LT(lag, 5000);
  ws.close(websocket::close_code::normal);
  server.stop();
}

}  // namespace
}  // namespace arena::server
