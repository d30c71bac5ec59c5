// Games of more than two seats and simultaneous turns, on a Match without a network: the
// state says which seats move and each one's legal moves, a turn is played once every mover
// has moved, refusals (a second move in a turn, a seat that does not move, an illegal move),
// clocks per seat, the store's rows (one per mover, replayable turn by turn) and the end's
// per-seat scores. The game is Tally (tally_game.h), written for these tests.

#include <functional>

#include <gtest/gtest.h>
#include <boost/asio/io_context.hpp>

#include "db/memory_store.h"
#include "games/core/turn_rows.h"
#include "server/match/match.h"
#include "tests/server/tally_game.h"

namespace arena::server {
namespace {

using protocol::Json;
using testing::Tally;

struct Recorder : MatchObserver {
  std::vector<Json> events;
  void on_match_event(std::int64_t, const Text& e) override { events.push_back(Json::parse(*e)); }
  void on_match_finished(std::int64_t) override {}
};

class SeatsTest : public ::testing::Test {
 protected:
  std::shared_ptr<Match> make(const std::string& tc, int seats = 3, bool simultaneous = true,
                              const std::function<void(MatchSettings&)>& tweak = {}) {
    auto id = store.create_game({"tally", "", "", 1, 2, tc, 0, std::nullopt});
    MatchSettings s;
    s.game_id = *id;
    s.kind = "tally";
    s.time_control = *parse_time_control(tc);
    for (int p = 0; p < seats; ++p)
      s.players.push_back({p + 1, "p" + std::to_string(p), false});
    s.draws_possible = seats == 2;
    if (tweak) tweak(s);
    auto m = std::make_shared<Match>(ioc.get_executor(), s,
                                     std::make_unique<Tally>(seats, simultaneous), store, time,
                                     observer);
    m->start();
    run();
    return m;
  }
  void run() {
    ioc.restart();
    ioc.run();
  }
  // Sends seat's move; returns what the sender was answered (acks and errors) by the end.
  void move(const std::shared_ptr<Match>& m, int seat, const std::string& mv,
            const std::string& id) {
    m->move(seat, {1, mv, id, {}}, [this, seat](Text t) {
      replies[seat].push_back(Json::parse(*t));
    });
    run();
  }
  Json last() const { return observer->events.back(); }
  Json last_of(const std::string& type) const {
    for (auto it = observer->events.rbegin(); it != observer->events.rend(); ++it)
      if ((*it)["type"] == type) return *it;
    return Json();
  }
  std::size_t count(const std::string& type) const {
    std::size_t n = 0;
    for (const auto& e : observer->events) n += e["type"] == type;
    return n;
  }

  boost::asio::io_context ioc;
  db::MemoryStore store;
  std::shared_ptr<ManualTimeSource> time = std::make_shared<ManualTimeSource>();
  std::shared_ptr<Recorder> observer = std::make_shared<Recorder>();
  std::map<int, std::vector<Json>> replies;
};

TEST_F(SeatsTest, GameStartListsEverySeatAndTheStateEveryMoversMoves) {
  make("fischer:60000+0");
  const Json start = observer->events.at(0);
  ASSERT_EQ(start["type"], "game_start");
  EXPECT_EQ(start["players"].size(), 3u);
  EXPECT_EQ(start["seats"], Json::array({"p0", "p1", "p2"}));
  EXPECT_EQ(start["simultaneous"], true);
  const Json state = last();
  ASSERT_EQ(state["type"], "state");
  EXPECT_EQ(state["movers"], Json::array({0, 1, 2}));
  EXPECT_EQ(state["to_move"], 0);
  EXPECT_EQ(state["legal_moves"], Json::array({"a", "b"}));
  ASSERT_EQ(state["legal_moves_by_seat"].size(), 3u);
  EXPECT_EQ(state["legal_moves_by_seat"][2], Json::array({"a", "b"}));
  EXPECT_EQ(state["clocks"], Json::array({60000, 60000, 60000}));
}

TEST_F(SeatsTest, ATurnIsPlayedOnceEveryMoverHasMoved) {
  auto m = make("none");
  move(m, 0, "a", "x0");
  EXPECT_EQ(last()["type"], "moved");
  EXPECT_EQ(last()["seat"], 0);
  EXPECT_EQ(last().dump().find("\"a\""), std::string::npos) << "the move stays secret";
  EXPECT_TRUE(replies[0].empty()) << "the ack comes with the turn";
  move(m, 2, "b", "x2");
  EXPECT_EQ(count("state"), 1u);
  move(m, 1, "b", "x1");
  const Json state = last();
  ASSERT_EQ(state["type"], "state");
  EXPECT_EQ(state["last_move"], "a b b");
  // Turn 1: the last seat only has noop, so it is no mover.
  EXPECT_EQ(state["movers"], Json::array({0, 1}));
  EXPECT_EQ(state["legal_moves_by_seat"][2], Json::array());
  for (int seat : {0, 1, 2}) {
    ASSERT_EQ(replies[seat].size(), 1u) << seat;
    EXPECT_EQ(replies[seat][0]["type"], "move_ack");
    EXPECT_EQ(replies[seat][0]["version"], state["version"]);
  }
}

TEST_F(SeatsTest, RefusesASecondMoveAMoveOutOfTurnAndAnIllegalMove) {
  auto m = make("none");
  move(m, 0, "a", "x0");
  move(m, 0, "b", "y0");
  ASSERT_EQ(replies[0].size(), 1u);
  EXPECT_EQ(replies[0][0]["code"], "already_moved");
  move(m, 1, "c", "x1");
  ASSERT_EQ(replies[1].size(), 1u);
  EXPECT_EQ(replies[1][0]["code"], "illegal_move");
  EXPECT_NE(replies[1][0]["message"].get<std::string>().find("'c'"), std::string::npos);
  // A resend of a kept move is not an error, and its ack comes once.
  move(m, 0, "a", "x0");
  EXPECT_EQ(replies[0].size(), 1u);
  move(m, 1, "b", "x1");
  move(m, 2, "a", "x2");
  EXPECT_EQ(replies[0].size(), 2u);
  EXPECT_EQ(replies[0][1]["type"], "move_ack");
  EXPECT_EQ(last()["last_move"], "a b a");
  // Turn 1: seat 2 does not move.
  move(m, 2, "a", "z2");
  ASSERT_EQ(replies[2].size(), 2u);
  EXPECT_EQ(replies[2][1]["code"], "not_your_turn");
}

TEST_F(SeatsTest, EachMoversClockRunsUntilItsOwnMove) {
  auto m = make("fischer:1000+100");
  time->advance(300);
  move(m, 0, "a", "x0");
  time->advance(300);
  move(m, 1, "a", "x1");
  time->advance(300);
  move(m, 2, "a", "x2");
  EXPECT_EQ(last()["clocks"], Json::array({800, 500, 200}));
  // Turn 1: seats 0 and 1 move; seat 1 runs out while seat 0 has moved.
  move(m, 0, "b", "y0");
  time->advance(501);
  m->check_time();
  run();
  const Json end = last();
  ASSERT_EQ(end["type"], "game_end");
  EXPECT_EQ(end["reason"], "timeout");
  EXPECT_EQ(end["scores"], Json::array({100, 0, 100}));
  EXPECT_EQ(end["result"], "100-0-100");
  EXPECT_EQ(store.game_detail(m->game_id())->summary.result, "100-0-100");
}

TEST_F(SeatsTest, TheStoreHasOneRowPerMoverAndTheScoresAtTheEnd) {
  auto m = make("none");
  const std::vector<std::vector<std::string>> turns = {
      {"a", "b", "b"}, {"b", "b"}, {"a", "a", "b"}, {"b", "a"}};
  for (const auto& t : turns)
    for (std::size_t seat = 0; seat < t.size(); ++seat)
      move(m, static_cast<int>(seat), t[seat], "t" + std::to_string(count("state")) +
                                                    "s" + std::to_string(seat));
  const Json end = last();
  ASSERT_EQ(end["type"], "game_end");
  EXPECT_EQ(end["reason"], "goals");
  // Totals: seat 0: 1+2+1+2, seat 1: 2+2+1+1, seat 2: 2+2 (it moves on even turns only).
  EXPECT_EQ(end["scores"], Json::array({60, 60, 40}));
  auto stored = store.game_detail(m->game_id());
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->summary.scores, (std::vector<int>{60, 60, 40}));
  std::vector<std::string> rows;
  for (const auto& r : stored->moves) rows.push_back(r.move);
  EXPECT_EQ(rows, (std::vector<std::string>{"a", "b", "b", "b", "b", "a", "a", "b", "b", "a"}));
  // Each row stores the seat that made it.
  std::vector<int> seats;
  for (const auto& r : stored->moves) seats.push_back(r.seat);
  EXPECT_EQ(seats, (std::vector<int>{0, 1, 2, 0, 1, 0, 1, 2, 0, 1}));
  // The rows replay turn by turn; each row's seat follows from the game.
  Tally fresh;
  const RowReplay replay = replay_rows(fresh, rows, true);
  EXPECT_EQ(replay.error, "");
  ASSERT_EQ(replay.rows.size(), 10u);
  EXPECT_EQ(replay.rows[5].seat, 0);
  EXPECT_EQ(replay.rows[5].turn, 2);
  EXPECT_EQ(replay.rows[9].seat, 1);
  EXPECT_EQ(replay.positions.size(), 4u);
  EXPECT_EQ(fresh.scores(), (std::vector<int>{60, 60, 40}));
}

TEST_F(SeatsTest, AnIncompleteLastTurnDoesNotReplay) {
  Tally game;
  const RowReplay r = replay_rows(game, {"a", "b", "a", "b"});
  EXPECT_EQ(r.rows.size(), 3u);
  EXPECT_NE(r.error.find("incomplete"), std::string::npos) << r.error;
  Tally other;
  EXPECT_NE(replay_rows(other, {"a", "x", "a"}).error.find("does not replay"), std::string::npos);
}

TEST_F(SeatsTest, ARestoredMatchContinuesFromItsRows) {
  auto m = make("none");
  move(m, 0, "a", "1");
  move(m, 1, "a", "2");
  move(m, 2, "b", "3");
  auto stored = store.game_detail(m->game_id());
  std::vector<std::string> rows;
  for (const auto& r : stored->moves) rows.push_back(r.move);
  MatchSettings s = m->settings();
  auto again = std::make_shared<Match>(ioc.get_executor(), s, std::make_unique<Tally>(), store,
                                       time, observer);
  auto seats = again->replay(rows);
  ASSERT_TRUE(seats) << seats.error();
  EXPECT_EQ(seats->size(), 3u);
  again->start();
  run();
  EXPECT_EQ(last()["movers"], Json::array({0, 1}));
  move(again, 0, "b", "4");
  move(again, 1, "b", "5");
  EXPECT_EQ(store.game_detail(m->game_id())->moves.size(), 5u);
}

TEST_F(SeatsTest, ThreeSeatsTakingTurnsAndResigning) {
  auto m = make("none", 3, /*simultaneous=*/false);
  EXPECT_EQ(last()["movers"], Json::array({0}));
  EXPECT_FALSE(last().contains("legal_moves_by_seat"));
  move(m, 1, "a", "x");
  EXPECT_EQ(replies[1].at(0)["code"], "not_your_turn");
  move(m, 0, "a", "y");
  EXPECT_EQ(last()["to_move"], 1);
  EXPECT_EQ(replies[0].at(0)["type"], "move_ack") << "one mover: acked at once";
  m->action(2, protocol::GameActionKind::kOfferDraw, [&](Text t) {
    replies[2].push_back(Json::parse(*t));
  });
  run();
  EXPECT_EQ(replies[2].at(0)["code"], "draw_not_possible");
  m->action(2, protocol::GameActionKind::kResign, {});
  run();
  EXPECT_EQ(last()["type"], "game_end");
  EXPECT_EQ(last()["scores"], Json::array({100, 100, 0}));
}

TEST_F(SeatsTest, SubstitutesARandomMoveForASeatThatRanOut) {
  auto m = make("movetime:100", 3, true, [](MatchSettings& s) {
    s.substitute_on_error = true;
    s.seed = 7;
  });
  move(m, 0, "a", "x0");
  move(m, 1, "a", "x1");
  time->advance(101);
  m->check_time();
  run();
  ASSERT_EQ(last()["type"], "state") << last().dump();
  auto stored = store.game_detail(m->game_id());
  ASSERT_EQ(stored->moves.size(), 3u);
  EXPECT_EQ(stored->moves[2].pv, "substituted: timeout");
}

}  // namespace
}  // namespace arena::server
