// PuzzleSessions' refusals and bounds, on a hub without a network: a game of two seats is no
// puzzle, whatever options it is asked with; a player prepares one puzzle_start at a
// time and the server a few (the rest are answered `busy`), a player holds at most
// kKeptPerPlayer puzzles (a new one closes the oldest finished, else the oldest unfinished), and
// the sweep closes idle puzzles and finished ones after the grace period. Without them a client
// could queue solver runs on the blocking threads (which serve HTTP too) and fill the memory.

#include "server/puzzles/puzzle_sessions.h"

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <boost/asio/io_context.hpp>

#include "db/memory_store.h"
#include "server/hub.h"
#include "tests/server/fake_connection.h"
#include "tests/server/test_games.h"

namespace arena::server {
namespace {

using protocol::Json;
using testing::FakeConnection;

class PuzzleBoundsTest : public ::testing::Test {
 protected:
  void TearDown() override {
    if (hub) hub->release();
  }
  // `solver`: an optimal_length on the blocking io_context, which runs only when the test says.
  void make_hub(bool solver) {
    HubConfig config = testing::test_hub_config();
    config.reconnect_grace_ms = 1'000;
    config.puzzle_idle_ms = 60'000;
    if (solver)
      config.optimal_length = [](std::string_view, std::string_view position) {
        return std::optional<int>(std::stoi(std::string(position)));
      };
    hub = std::make_shared<Hub>(ioc.get_executor(), std::move(config), store, time);
    hub->use_blocking_executor(blocking.get_executor());
  }
  std::shared_ptr<FakeConnection> join(const std::string& name) {
    auto c = std::make_shared<FakeConnection>();
    c->limiter = RateLimiter(1'000'000, 1'000'000);
    hub->on_open(c);
    hub->on_message(
        c, Json{{"type", "hello"}, {"version", protocol::kProtocolVersion}, {"name", name}}.dump());
    drain();
    EXPECT_EQ(c->count("welcome"), 1u) << name;
    return c;
  }
  void send(const std::shared_ptr<FakeConnection>& c, const Json& j) {
    hub->on_message(c, j.dump());
    drain();
  }
  void start_counter(const std::shared_ptr<FakeConnection>& c, int at) {
    send(c, Json{{"type", "puzzle_start"}, {"puzzle", "counter"}, {"state", std::to_string(at)}});
  }
  // The hub's handlers and, when asked, the blocking ones, until neither has work.
  void drain(bool with_blocking = false) {
    for (std::size_t ran = 1; ran > 0;) {
      ran = 0;
      ioc.restart();
      while (std::size_t n = ioc.poll()) ran += n;
      if (!with_blocking) break;
      blocking.restart();
      while (std::size_t n = blocking.poll()) ran += n;
    }
  }

  boost::asio::io_context ioc, blocking;
  db::MemoryStore store;
  std::shared_ptr<ManualTimeSource> time = std::make_shared<ManualTimeSource>();
  std::shared_ptr<Hub> hub;
};

// The server adds a seed to a hand-written puzzle's options; a game of two seats refuses it, and
// the error must still say that the game is no puzzle, not that the seed is a bad option.
TEST_F(PuzzleBoundsTest, AGameOfTwoSeatsIsNotAPuzzle) {
  make_hub(/*solver=*/false);
  auto ann = join("ann");
  for (const Json& start :
       {Json{{"type", "puzzle_start"}, {"puzzle", "chess"}},
        Json{{"type", "puzzle_start"}, {"puzzle", "isolation"}, {"scramble", 3}},
        Json{{"type", "puzzle_start"}, {"puzzle", "race"}, {"state", "2:0"}}}) {
    const std::size_t errors = ann->count("error");
    send(ann, start);
    ASSERT_EQ(ann->count("error"), errors + 1) << start;
    EXPECT_EQ(ann->last("error")["code"], "unknown_game") << start;
    EXPECT_NE(ann->last("error")["message"].get<std::string>().find("is not a puzzle: a game of 2"),
              std::string::npos)
        << ann->last("error");
  }
  EXPECT_EQ(ann->count("puzzle_state"), 0u);
  // A bad option of a puzzle is still named as one.
  send(ann, Json{{"type", "puzzle_start"}, {"puzzle", "sliding"}, {"options", "size=12"}});
  EXPECT_EQ(ann->last("error")["code"], "bad_options");
}

TEST_F(PuzzleBoundsTest, APlayerPreparesOnePuzzleStartAtATime) {
  make_hub(/*solver=*/true);
  auto ann = join("ann");
  start_counter(ann, 3);  // waits for the solver
  EXPECT_EQ(ann->count("puzzle_state"), 0u);
  start_counter(ann, 4);
  ASSERT_EQ(ann->count("error"), 1u);
  EXPECT_EQ(ann->last("error")["code"], "busy");
  EXPECT_EQ(ann->last("error")["ref"], "puzzle_start");
  EXPECT_NE(ann->last("error")["message"].get<std::string>().find("still being prepared"),
            std::string::npos);

  drain(/*with_blocking=*/true);
  ASSERT_EQ(ann->count("puzzle_state"), 1u);
  EXPECT_EQ(ann->last("puzzle_state")["position"], "3");
  // Once its state is sent, the next start is taken.
  start_counter(ann, 4);
  drain(/*with_blocking=*/true);
  EXPECT_EQ(ann->count("puzzle_state"), 2u);
  EXPECT_EQ(ann->count("error"), 1u);
}

// A client may send its next start the moment it reads a start's state or error: the start is
// freed before either goes out (here the next start is sent from inside the send).
TEST_F(PuzzleBoundsTest, TheNextStartIsTakenAsSoonAsTheStateOrErrorIsSent) {
  make_hub(/*solver=*/true);
  auto ann = join("ann");
  int chained = 0;
  ann->on_send = [&](const Json& j) {
    const bool answered =
        j["type"] == "puzzle_state" || (j["type"] == "error" && j["code"] == "unknown_game");
    if (!answered || chained++ >= 2) return;
    hub->on_message(ann,
                    Json{{"type", "puzzle_start"}, {"puzzle", "counter"}, {"state", "2"}}.dump());
  };
  send(ann, Json{{"type", "puzzle_start"}, {"puzzle", "no-such-puzzle"}});  // an error, then
  drain(/*with_blocking=*/true);  // a start, whose state is followed by another start
  EXPECT_EQ(chained, 3);
  EXPECT_EQ(ann->count("puzzle_state"), 2u);
  EXPECT_EQ(ann->count("error"), 1u) << ann->last("error");
}

TEST_F(PuzzleBoundsTest, AStartRefusedByTheGameFreesItsSlot) {
  make_hub(/*solver=*/true);
  auto ann = join("ann");
  send(ann, Json{{"type", "puzzle_start"}, {"puzzle", "no-such-puzzle"}});
  ASSERT_EQ(ann->count("error"), 1u);
  EXPECT_EQ(ann->last("error")["code"], "unknown_game");
  start_counter(ann, 2);
  drain(true);
  EXPECT_EQ(ann->count("error"), 1u);
  EXPECT_EQ(ann->count("puzzle_state"), 1u);
}

TEST_F(PuzzleBoundsTest, TheServerPreparesAFewStartsAtOnce) {
  make_hub(/*solver=*/true);
  std::vector<std::shared_ptr<FakeConnection>> players;
  for (int k = 0; k < PuzzleSessions::kStartsInFlight; ++k) {
    players.push_back(join("p" + std::to_string(k)));
    start_counter(players.back(), 5);
    EXPECT_EQ(players.back()->count("error"), 0u) << k;
  }
  auto late = join("late");
  start_counter(late, 5);
  ASSERT_EQ(late->count("error"), 1u);
  EXPECT_EQ(late->last("error")["code"], "busy");
  EXPECT_NE(late->last("error")["message"].get<std::string>().find("the server is preparing"),
            std::string::npos);
  drain(/*with_blocking=*/true);
  for (auto& p : players) EXPECT_EQ(p->count("puzzle_state"), 1u);
  start_counter(late, 5);
  drain(/*with_blocking=*/true);
  EXPECT_EQ(late->count("puzzle_state"), 1u);
}

TEST_F(PuzzleBoundsTest, APlayerHoldsAtMostKeptPerPlayerPuzzlesTheOldestFinishedClosedFirst) {
  make_hub(/*solver=*/false);
  auto ann = join("ann");
  start_counter(ann, 0);  // solved at the start: over
  ASSERT_EQ(ann->count("puzzle_end"), 1u);
  const std::int64_t finished = ann->last("puzzle_state")["puzzle_id"];
  std::vector<std::int64_t> open;
  for (std::size_t k = 0; k < PuzzleSessions::kKeptPerPlayer; ++k) {
    start_counter(ann, 5);
    open.push_back(ann->last("puzzle_state")["puzzle_id"]);
  }
  // kKeptPerPlayer + 1 were started: the finished one was closed, every unfinished one is held.
  EXPECT_EQ(hub->metrics().puzzles, PuzzleSessions::kKeptPerPlayer);
  send(ann, Json{{"type", "puzzle_move"}, {"puzzle_id", finished}, {"move", "dec"}});
  EXPECT_EQ(ann->last("error")["code"], "no_such_puzzle");
  send(ann, Json{{"type", "puzzle_move"}, {"puzzle_id", open.front()}, {"move", "dec"}});
  EXPECT_EQ(ann->last("puzzle_state")["position"], "4");

  // One more: now the oldest unfinished one goes, and only ann's.
  auto bob = join("bob");
  start_counter(bob, 5);
  const std::int64_t bobs = bob->last("puzzle_state")["puzzle_id"];
  start_counter(ann, 5);
  const std::size_t errors = ann->count("error");
  send(ann, Json{{"type", "puzzle_move"}, {"puzzle_id", open.front()}, {"move", "dec"}});
  ASSERT_EQ(ann->count("error"), errors + 1);
  EXPECT_EQ(ann->last("error")["code"], "no_such_puzzle");
  EXPECT_NE(ann->last("error")["message"].get<std::string>().find("closed"), std::string::npos);
  send(ann, Json{{"type", "puzzle_move"}, {"puzzle_id", open[1]}, {"move", "dec"}});
  EXPECT_EQ(ann->count("error"), errors + 1);
  send(bob, Json{{"type", "puzzle_move"}, {"puzzle_id", bobs}, {"move", "dec"}});
  EXPECT_EQ(bob->count("error"), 0u);
  // The closed puzzle's row stays, unfinished, with its move.
  auto row = store.game_detail(open.front());
  ASSERT_TRUE(row) << row.error();
  EXPECT_EQ(row->summary.result, "");
  EXPECT_EQ(row->moves.size(), 1u);
}

TEST_F(PuzzleBoundsTest, TheSweepClosesIdlePuzzlesAndFinishedOnesAfterTheGrace) {
  make_hub(/*solver=*/false);
  auto ann = join("ann");
  start_counter(ann, 1);
  const std::int64_t solved = ann->last("puzzle_state")["puzzle_id"];
  start_counter(ann, 3);
  const std::int64_t idle = ann->last("puzzle_state")["puzzle_id"];
  start_counter(ann, 3);
  const std::int64_t busy = ann->last("puzzle_state")["puzzle_id"];
  send(ann, Json{{"type", "puzzle_move"}, {"puzzle_id", solved}, {"move", "dec"}});
  ASSERT_EQ(ann->count("puzzle_end"), 1u);
  EXPECT_EQ(hub->metrics().puzzles, 2u);  // the finished one is not in progress

  // Within the grace a late move is told the puzzle is over.
  time->advance(500);
  hub->sweep();
  send(ann, Json{{"type", "puzzle_move"}, {"puzzle_id", solved}, {"move", "dec"}});
  EXPECT_EQ(ann->last("error")["code"], "game_over");
  time->advance(600);
  hub->sweep();
  send(ann, Json{{"type", "puzzle_move"}, {"puzzle_id", solved}, {"move", "dec"}});
  EXPECT_EQ(ann->last("error")["code"], "no_such_puzzle");

  // A move keeps a puzzle; an hour untouched closes it.
  time->advance(59'000);
  send(ann, Json{{"type", "puzzle_move"}, {"puzzle_id", busy}, {"move", "dec"}});
  time->advance(2'000);
  hub->sweep();
  EXPECT_EQ(hub->metrics().puzzles, 1u);
  const std::size_t errors = ann->count("error");
  send(ann, Json{{"type", "puzzle_move"}, {"puzzle_id", busy}, {"move", "dec"}});
  EXPECT_EQ(ann->count("error"), errors);
  EXPECT_EQ(ann->last("puzzle_state")["position"], "1");
  send(ann, Json{{"type", "puzzle_move"}, {"puzzle_id", idle}, {"move", "dec"}});
  EXPECT_EQ(ann->last("error")["code"], "no_such_puzzle");
}

}  // namespace
}  // namespace arena::server
