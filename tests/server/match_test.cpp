// Match without a network: clocks on a manual time source (no sleeping), durability,
// resends, draws, aborts, resignations, illegal moves and abandonment claims.

#include "server/match/match.h"

#include <functional>

#include <gtest/gtest.h>
#include <boost/asio/io_context.hpp>

#include "db/memory_store.h"
#include "tests/server/test_games.h"

namespace arena::server {
namespace {

using protocol::Json;

struct Recorder : MatchObserver {
  std::vector<Json> events;
  bool finished = false;
  void on_match_event(std::int64_t, const Text& e) override { events.push_back(Json::parse(*e)); }
  void on_match_finished(std::int64_t) override { finished = true; }
};

class MatchTest : public ::testing::Test {
 protected:
  std::shared_ptr<Match> make(const std::string& tc, bool illegal_loses = false,
                              const std::function<void(MatchSettings&)>& tweak = {}) {
    MatchSettings s;
    s.game_id = 1;
    s.kind = "race";
    s.time_control = *parse_time_control(tc);
    s.players = {{1, "ann", false}, {2, "bob", false}};
    s.illegal_move_loses = illegal_loses;
    s.reconnect_grace_ms = 5000;
    if (tweak) tweak(s);
    auto m = std::make_shared<Match>(ioc.get_executor(), s,
                                     std::make_unique<GameAdapter<testing::Race>>(testing::Race{}),
                                     store, time, observer);
    m->start();
    run();
    return m;
  }
  void run() {
    ioc.restart();
    ioc.run();
  }
  Reply collect() {
    return [this](Text t) { replies.push_back(Json::parse(*t)); };
  }
  void move(const std::shared_ptr<Match>& m, int seat, const std::string& mv,
            const std::string& id) {
    m->move(seat, {1, mv, id, {}}, collect());
    run();
  }
  Json last() const { return observer->events.back(); }

  boost::asio::io_context ioc;
  db::MemoryStore store;
  std::shared_ptr<ManualTimeSource> time = std::make_shared<ManualTimeSource>();
  std::shared_ptr<Recorder> observer = std::make_shared<Recorder>();
  std::vector<Json> replies;
};

TEST_F(MatchTest, StartsWithGameStartThenTheFirstState) {
  make("none");
  ASSERT_EQ(observer->events.size(), 2u);
  EXPECT_EQ(observer->events[0]["type"], "game_start");
  EXPECT_EQ(observer->events[0]["version"], 0);
  EXPECT_EQ(last()["type"], "state");
  EXPECT_EQ(last()["version"], 1);
  EXPECT_EQ(last()["legal_moves"], Json::array({"1", "2"}));
}

TEST_F(MatchTest, RunningOutOfTimeLosesWithoutSleeping) {
  auto m = make("fischer:1000+0");
  time->advance(1001);
  m->check_time();
  run();
  EXPECT_EQ(last()["type"], "game_end");
  EXPECT_EQ(last()["result"], "0-1");
  EXPECT_EQ(last()["reason"], "timeout");
}

TEST_F(MatchTest, FischerIncrementIsAddedAfterEachMove) {
  auto m = make("fischer:1000+500");
  time->advance(300);
  move(m, 0, "1", "a");
  EXPECT_EQ(last()["clocks"], Json::array({1200, 1000}));
  time->advance(999);
  m->check_time();
  run();
  EXPECT_EQ(last()["type"], "state") << "999 ms of 1000 is not a loss";
}

TEST_F(MatchTest, MoveTimeIsPerMove) {
  auto m = make("movetime:150");
  time->advance(140);
  move(m, 0, "1", "a");
  time->advance(140);
  move(m, 1, "1", "b");
  EXPECT_EQ(last()["type"], "state");
  time->advance(151);
  move(m, 0, "1", "c");
  EXPECT_EQ(last()["type"], "game_end");
  EXPECT_EQ(last()["reason"], "timeout");
  EXPECT_EQ(last()["result"], "0-1");
}

TEST_F(MatchTest, AMoveIsAnnouncedOnlyWhenDurable) {
  auto m = make("none");
  store.hold_callbacks(true);
  move(m, 0, "2", "a");
  EXPECT_EQ(last()["version"], 1) << "no state before the store said durable";
  EXPECT_TRUE(replies.empty());
  store.release();
  run();
  EXPECT_EQ(last()["version"], 2);
  EXPECT_EQ(last()["last_move"], "2");
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_EQ(replies[0]["type"], "move_ack");
  EXPECT_EQ(replies[0]["version"], 2);
}

TEST_F(MatchTest, AFailedWriteTakesTheMoveBack) {
  auto m = make("none");
  store.fail_writes(true);
  move(m, 0, "2", "a");
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_EQ(replies[0]["code"], "internal");
  store.fail_writes(false);
  move(m, 0, "1", "b");
  EXPECT_EQ(last()["position"], "1:1");
}

TEST_F(MatchTest, AResentMoveIsAcknowledgedNotReplayed) {
  auto m = make("none");
  move(m, 0, "1", "a");
  move(m, 0, "1", "a");
  ASSERT_EQ(replies.size(), 2u);
  EXPECT_EQ(replies[1]["type"], "move_ack");
  EXPECT_EQ(replies[1]["version"], replies[0]["version"]);
  EXPECT_EQ(last()["position"], "1:1");
}

TEST_F(MatchTest, OutOfTurnAndIllegalMovesAreErrorsAndChangeNothing) {
  auto m = make("none");
  move(m, 1, "1", "a");
  move(m, 0, "3", "b");
  ASSERT_EQ(replies.size(), 2u);
  EXPECT_EQ(replies[0]["code"], "not_your_turn");
  EXPECT_EQ(replies[1]["code"], "illegal_move");
  EXPECT_EQ(observer->events.size(), 2u);
  move(m, 0, "1", "c");
  EXPECT_EQ(last()["position"], "1:1");
}

TEST_F(MatchTest, ALeagueCanMakeAnIllegalMoveLose) {
  auto m = make("none", /*illegal_loses=*/true);
  move(m, 0, "3", "a");
  EXPECT_EQ(last()["type"], "game_end");
  EXPECT_EQ(last()["result"], "0-1");
  EXPECT_EQ(last()["reason"], "illegal_move");
}

TEST_F(MatchTest, AbortOnlyBeforeTheFirstMove) {
  auto m = make("none");
  move(m, 0, "1", "a");
  m->action(1, protocol::GameActionKind::kAbort, collect());
  run();
  EXPECT_EQ(replies.back()["code"], "cannot_abort");
  auto m2 = make("none");
  m2->action(1, protocol::GameActionKind::kAbort, collect());
  run();
  EXPECT_EQ(last()["result"], "*");
}

TEST_F(MatchTest, DrawNeedsAnOfferFromTheOtherSide) {
  auto m = make("none");
  m->action(0, protocol::GameActionKind::kAcceptDraw, collect());
  m->action(0, protocol::GameActionKind::kOfferDraw, collect());
  m->action(0, protocol::GameActionKind::kAcceptDraw, collect());
  run();
  EXPECT_EQ(replies[0]["code"], "no_draw_offer");
  EXPECT_EQ(replies[1]["code"], "no_draw_offer") << "one cannot accept one's own offer";
  EXPECT_EQ(last()["type"], "draw_offer");
  m->action(1, protocol::GameActionKind::kAcceptDraw, collect());
  run();
  EXPECT_EQ(last()["result"], "1/2-1/2");
  EXPECT_EQ(last()["reason"], "agreement");
}

TEST_F(MatchTest, ResignationLoses) {
  auto m = make("none");
  m->action(1, protocol::GameActionKind::kResign, collect());
  run();
  EXPECT_EQ(last()["result"], "1-0");
  EXPECT_TRUE(observer->finished);
  move(m, 0, "1", "z");
  EXPECT_EQ(replies.back()["code"], "game_over");
}

TEST_F(MatchTest, AWinCanBeClaimedOnlyAfterTheGracePeriod) {
  auto m = make("none");
  m->action(0, protocol::GameActionKind::kClaimWin, collect());
  run();
  EXPECT_EQ(replies.back()["code"], "cannot_claim");
  m->connection_changed(1, false);
  time->advance(4999);
  m->action(0, protocol::GameActionKind::kClaimWin, collect());
  run();
  EXPECT_EQ(replies.back()["code"], "cannot_claim");
  time->advance(1);
  m->action(0, protocol::GameActionKind::kClaimWin, collect());
  run();
  EXPECT_EQ(last()["result"], "1-0");
  EXPECT_EQ(last()["reason"], "abandonment");
}

TEST_F(MatchTest, HistoryIsResentFromAVersion) {
  auto m = make("none");
  move(m, 0, "1", "a");
  move(m, 1, "1", "b");
  std::vector<Json> got;
  m->send_history(1, [&](Text t) { got.push_back(Json::parse(*t)); });
  run();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0]["version"], 2);
  EXPECT_EQ(got[1]["version"], 3);
}

TEST_F(MatchTest, ATournamentAdjudicatesADrawAfterItsMaximumPlies) {
  auto m = make("none", false, [](MatchSettings& s) { s.max_plies = 3; });
  move(m, 0, "1", "a");
  move(m, 1, "1", "b");
  EXPECT_EQ(last()["type"], "state") << "two plies of three";
  move(m, 0, "1", "c");
  EXPECT_EQ(last()["type"], "game_end");
  EXPECT_EQ(last()["result"], "1/2-1/2");
  EXPECT_EQ(last()["reason"], "adjudicated");
}

// Research mode: the error is recorded with a random legal move instead of ending the game.
class SubstitutionTest : public MatchTest {
 protected:
  std::shared_ptr<Match> make_research(const std::string& tc) {
    auto id = store.create_game({"race", "", "", 1, 2, tc, 7, std::nullopt});
    EXPECT_TRUE(id && *id == 1);
    return make(tc, false, [](MatchSettings& s) {
      s.substitute_on_error = true;
      s.seed = 7;
    });
  }
  db::MoveRecord recorded(std::size_t ply) {
    auto d = store.game_detail(1);
    EXPECT_TRUE(d && d->moves.size() > ply);
    return d && d->moves.size() > ply ? d->moves[ply] : db::MoveRecord{};
  }
};

TEST_F(SubstitutionTest, AnIllegalMoveIsReplacedByARandomLegalOne) {
  auto m = make_research("none");
  move(m, 0, "9", "a");
  ASSERT_FALSE(replies.empty());
  EXPECT_EQ(replies.back()["type"], "error");
  EXPECT_NE(replies.back()["message"].get<std::string>().find("random legal move"),
            std::string::npos);
  EXPECT_EQ(last()["type"], "state");
  EXPECT_EQ(last()["to_move"], 1) << "the substituted move was played for ann";
  const std::string played = last()["last_move"];
  EXPECT_TRUE(played == "1" || played == "2") << played;
  EXPECT_EQ(recorded(0).move, played);
  EXPECT_EQ(recorded(0).pv, "substituted: illegal move 9");
}

TEST_F(SubstitutionTest, AFlagFallIsReplacedByARandomLegalMove) {
  auto m = make_research("movetime:150");
  time->advance(151);
  m->check_time();
  run();
  EXPECT_EQ(last()["type"], "state") << "no loss on time in research mode";
  EXPECT_EQ(last()["to_move"], 1);
  EXPECT_EQ(recorded(0).pv, "substituted: timeout");
}

TEST(TimeControl, ParsesTheThreeKindsAndNamesABadOne) {
  EXPECT_EQ(parse_time_control("none")->kind, ClockKind::kNone);
  EXPECT_EQ(parse_time_control("fischer:60000+1000")->increment_ms, 1000);
  EXPECT_EQ(parse_time_control("movetime:150")->base_ms, 150);
  auto bad = parse_time_control("blitz");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("'blitz'"), std::string::npos);
  EXPECT_FALSE(parse_time_control("fischer:0+0"));
}

}  // namespace
}  // namespace arena::server
