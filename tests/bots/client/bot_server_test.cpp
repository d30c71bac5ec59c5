// Bots playing through a real server on a loopback port: every game kind, a batch at 100 ms
// per move, a dropped connection, and misbehaving opponents.

#include <set>
#include <thread>

#include "bots/client/search_player.h"
#include "bots/solver/puzzle_solver.h"
#include "games/catalog/catalog.h"
#include "tests/bots/client/bot_server_fixture.h"
#include "tests/games/puzzles/eight_puzzle_bfs.h"

namespace arena::client::testing {
namespace {

constexpr int kWaitMs = 90000;

constexpr int kBatchGames = 50;  // the fifty games at 100 ms a move

// The batch's clock. ThreadSanitizer runs the bots and the server several times slower (the
// first search of a game, the JSON, the hand-offs), and on a shared machine a 100 ms move there
// was lost on time with one busy process beside it (a third of the move is the margin for all
// that is not search): its build checks this batch's threads at 300 ms a move. The 100 ms
// claim is this test in the other builds (it passed the ASan build with three busy processes).
#ifdef __SANITIZE_THREAD__
constexpr const char* kBatchClock = "movetime:300";
#else
constexpr const char* kBatchClock = "movetime:100";
#endif

void expect_clean_finish(const BotStats& a, const BotStats& b, int games) {
  EXPECT_EQ(a.games_finished, games);
  EXPECT_EQ(b.games_finished, games);
  EXPECT_EQ(a.wins, b.losses);
  EXPECT_EQ(a.losses, b.wins);
  EXPECT_EQ(a.draws, b.draws);
  EXPECT_EQ(a.lost_on_time + b.lost_on_time, 0);
  EXPECT_EQ(a.fallbacks + b.fallbacks, 0) << a.last_error << " / " << b.last_error;
  for (const auto& r : a.reasons) {
    EXPECT_NE(r, "timeout");
    EXPECT_NE(r, "abandonment");
    EXPECT_FALSE(r.empty());
  }
}

TEST_F(BotServerTest, BotsPlayEveryGameKindToTheEnd) {
  start_server();
  struct Pair {
    std::string game;
    BotRunner *a, *b;
  };
  std::vector<Pair> pairs;
  std::vector<std::pair<std::string, BotRunner*>> solvers;
  for (const GameInfo& g : game_catalog()) {
    if (g.num_players == 2) {
      // A random mover against a one-ply-deeper search with the game's first heuristic.
      auto [a, b] = pair_of_bots(g.name, "random", "alphabeta:depth=1", 1);
      pairs.push_back({g.name, a, b});
    } else {
      BotConfig c{.name = "solver_" + g.name,
                  .games = {g.name},
                  .puzzles = 1,
                  .scramble = g.name == "rubik" ? 3 : 14,
                  .seed = 7};
      if (g.name == "sliding") c.puzzle_options = "size=3";
      if (g.name == "rubik") c.puzzle_options = "scramble=0";  // solved, then our 3 turns
      solvers.emplace_back(g.name, &start_bot(c, "idastar:h=manhattan"));
    }
  }
  ASSERT_FALSE(pairs.empty());
  for (auto& p : pairs) {
    EXPECT_TRUE(p.a->session().wait_done(kWaitMs)) << p.game;
    EXPECT_TRUE(p.b->session().wait_done(kWaitMs)) << p.game;
    SCOPED_TRACE(p.game);
    expect_clean_finish(p.a->session().stats(), p.b->session().stats(), 1);
    EXPECT_GT(p.a->session().stats().moves_sent, 0);
    EXPECT_GT(p.b->session().stats().moves_sent, 0);
  }
  for (auto& [game, bot] : solvers) {
    EXPECT_TRUE(bot->session().wait_done(kWaitMs)) << game;
    const BotStats s = bot->session().stats();
    EXPECT_EQ(s.puzzles_solved, 1) << game << ": " << s.last_error;
  }
}

// The AI course's per-move clock: fifty games, two at a time on one search thread each, so a
// search may wait for the other game's (the wait comes out of its budget; SessionTest
// ASearchThatWaitedForAWorkerHasOnlyTheRestOfItsBudget). Nothing may be lost on time. (Depth 6
// now takes a few milliseconds; the search's own time cap is AlphaBeta.TimeLimitIsHonoured.)
TEST_F(BotServerTest, BatchAtHundredMillisecondsPerMoveLosesNothingOnTime) {
  start_server();
  auto [a, b] =
      pair_of_bots("isolation", "alphabeta:eval=improved_score,depth=6",
                   "alphabeta:eval=custom_score_2,depth=6", kBatchGames, kBatchClock, "", 2);
  const auto describe = [](const BotStats& st) {
    return "started " + std::to_string(st.games_started) + ", finished " +
           std::to_string(st.games_finished) + ", moves " + std::to_string(st.moves_sent) +
           ", errors " + std::to_string(st.errors) + ", last error: " + st.last_error;
  };
  EXPECT_TRUE(a->session().wait_done(kWaitMs / 3)) << "seeker: " << describe(a->session().stats());
  EXPECT_TRUE(b->session().wait_done(kWaitMs / 3)) << "taker: " << describe(b->session().stats());
  expect_clean_finish(a->session().stats(), b->session().stats(), kBatchGames);
  std::string reasons;
  for (const auto& r : a->session().stats().reasons) reasons += " " + r;
  std::printf("batch: %d isolation games at %s, seeker %d-%d, losses on time %d, endings:%s\n",
              kBatchGames, kBatchClock, a->session().stats().wins, a->session().stats().losses,
              a->session().stats().lost_on_time + b->session().stats().lost_on_time,
              reasons.c_str());
}

TEST_F(BotServerTest, ADroppedBotReconnectsAndFinishesTheGame) {
  start_server();
  auto [a, b] = pair_of_bots("chess", "random", "random", 1);
  // Cut the seeker's TCP connection once it has played a few moves.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (a->session().stats().moves_sent < 3 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  ASSERT_GE(a->session().stats().moves_sent, 3);
  a->connection().drop();
  EXPECT_TRUE(a->session().wait_done(kWaitMs / 3))
      << a->session().stats().moves_sent
      << " moves, last error: " << a->session().stats().last_error;
  EXPECT_TRUE(b->session().wait_done(kWaitMs / 3))
      << b->session().stats().moves_sent
      << " moves, last error: " << b->session().stats().last_error;
  EXPECT_GE(a->session().stats().connections, 2) << "the bot came back";
  expect_clean_finish(a->session().stats(), b->session().stats(), 1);
}

// A token the server refuses (401 at the upgrade) is final: the connection stops trying and
// says why, where a network failure is retried. A known token connects.
TEST_F(BotServerTest, ARefusedTokenStopsTheConnectionWithTheServersReason) {
  start_server();
  struct Quiet final : MessageHandler {
    std::atomic<int> opened{0};
    void on_open() override { ++opened; }
    void on_message(std::string_view) override {}
    void on_closed() override {}
  } handler;
  WsConnection wrong(parse_ws_url(url()).value(), "not-a-token", handler);
  wrong.start();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!wrong.refused() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_TRUE(wrong.refused()) << wrong.last_error();
  EXPECT_NE(wrong.last_error().find("refused the token (HTTP 401: unknown bot token)"),
            std::string::npos)
      << wrong.last_error();
  EXPECT_EQ(wrong.connects(), 0);
  wrong.stop();
  EXPECT_EQ(handler.opened.load(), 0);

  auto token = store_.create_bot_token("known");
  ASSERT_TRUE(token) << token.error();
  WsConnection right(parse_ws_url(url()).value(), *token, handler);
  right.start();
  while (handler.opened.load() == 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(handler.opened.load(), 1);
  EXPECT_FALSE(right.refused());
  right.stop();

  // Nothing listening: not a refusal; the connection keeps trying and names the failure.
  WsConnection nowhere(parse_ws_url("ws://127.0.0.1:1/ws").value(), "x", handler);
  nowhere.start();
  while (nowhere.last_error().empty() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_NE(nowhere.last_error().find("connect to 127.0.0.1:1"), std::string::npos)
      << nowhere.last_error();
  EXPECT_FALSE(nowhere.refused());
  nowhere.stop();
}

// A fake that seeks a game (so it moves first) and then misbehaves with `on_turn`.
std::unique_ptr<FakeClient> misbehaving_seeker(
    const std::string& url, const std::string& tc,
    std::function<void(FakeClient&, const Json&)> on_turn) {
  return std::make_unique<FakeClient>(url, "rogue", [tc, on_turn](FakeClient& f, const Json& j) {
    const std::string type = j.value("type", "");
    if (type == "welcome")
      f.send({{"type", "seek"}, {"game", "isolation"}, {"options", ""}, {"time_control", tc}});
    if (type == "state" && j.value("to_move", -1) == 0 && j["result"].is_null() && on_turn)
      on_turn(f, j);
  });
}

// The solver `arena serve` injects: every 8-puzzle's optimal length is its breadth-first
// distance from the goal, a kind without a solver or a search past its budget says unknown.
TEST(OptimalPuzzleLength, MatchesTheBreadthFirstDistances) {
  const auto bfs = puzzles::test::eight_puzzle_bfs();
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    const auto p = puzzles::SlidingPuzzle::random(3, seed);
    const auto d = arena::solver::optimal_puzzle_length("8-puzzle", p.serialize(), 0);
    ASSERT_TRUE(d) << p.serialize();
    EXPECT_EQ(*d, bfs.distance[static_cast<std::size_t>(puzzles::test::rank9(p))]) << p.serialize();
  }
  EXPECT_FALSE(arena::solver::optimal_puzzle_length("chess", "", 1000));
  const auto hard = puzzles::SlidingPuzzle::deserialize(bfs.farthest.front());
  ASSERT_TRUE(hard);
  EXPECT_EQ(arena::solver::optimal_puzzle_length("sliding", hard->serialize(), 0), 31);
  EXPECT_FALSE(arena::solver::optimal_puzzle_length("sliding", hard->serialize(), 1000)) << "past the budget";
}

// Through the server: puzzle_end carries the optimal length (here of a scrambled 15-puzzle,
// at most the scramble's length) and the player's own length.
TEST_F(BotServerTest, APuzzleEndsWithItsOptimalLength) {
  server::HubConfig hub;
  hub.optimal_length = [](std::string_view puzzle, std::string_view position) {
    return arena::solver::optimal_puzzle_length(puzzle, position, 2'000'000);
  };
  start_server(hub);
  auto solver = make_puzzle_solver("idastar");
  ASSERT_TRUE(solver);
  std::vector<std::string> solution;
  FakeClient c(url(), "solver", [&](FakeClient& f, const Json& j) {
    if (j.value("type", "") == "welcome")
      f.send({{"type", "puzzle_start"}, {"puzzle", "15-puzzle"}, {"seed", 9}, {"scramble", 12}});
  });
  Json state = c.wait_for([](const Json& j) { return j.value("type", "") == "puzzle_state"; });
  ASSERT_FALSE(state.is_null());
  auto moves = (*solver)("15-puzzle", state["position"].get<std::string>());
  ASSERT_TRUE(moves) << moves.error();
  // A detour of two moves and back first, so the player's length is not the optimum.
  const std::string there = state["legal_moves"][0];
  const auto back = puzzles::SlidingPuzzle::deserialize(state["position"].get<std::string>());
  ASSERT_TRUE(back);
  auto detour = *back;
  detour.make_move(*detour.parse_move(there));
  typename puzzles::SlidingPuzzle::MoveList ml;
  std::string undo;
  detour.generate_moves(ml);
  for (const auto& m : ml) {
    auto t = detour;
    t.make_move(m);
    if (t.serialize() == back->serialize()) undo = detour.move_to_string(m);
  }
  ASSERT_FALSE(undo.empty());
  std::vector<std::string> all{there, undo};
  all.insert(all.end(), moves->begin(), moves->end());
  c.send({{"type", "puzzle_solution"}, {"puzzle_id", state["puzzle_id"]}, {"moves", all}});
  Json end = c.wait_for([](const Json& j) { return j.value("type", "") == "puzzle_end"; });
  ASSERT_FALSE(end.is_null());
  EXPECT_TRUE(end["solved"].get<bool>());
  EXPECT_EQ(end["length"], all.size());
  ASSERT_TRUE(end["optimal_length"].is_number_integer()) << end;
  EXPECT_EQ(end["optimal_length"], moves->size()) << "IDA* with Manhattan is optimal";
  EXPECT_LE(end["optimal_length"].get<int>(), 12);
}

class MisbehavingTest : public BotServerTest {
 protected:
  BotRunner& taker() {
    return start_bot(
        {.name = "honest", .games = {"isolation"}, .accept_seeks = true, .max_games = 1},
        "alphabeta:eval=improved_score,depth=2");
  }
  Json game_end(FakeClient& f) { return f.wait_type("game_end", kWaitMs); }
};

TEST_F(MisbehavingTest, IllegalMovesAreRefusedAndTheOffenderLosesOnTime) {
  start_server();
  auto rogue = misbehaving_seeker(url(), "movetime:300", [](FakeClient& f, const Json& s) {
    f.send({{"type", "move"}, {"game_id", s["game_id"]}, {"move", "zz99"}, {"client_id", "x"}});
  });
  BotRunner& bot = taker();
  const Json err =
      rogue->wait_for([](const Json& j) { return j.value("code", "") == "illegal_move"; });
  EXPECT_FALSE(err.is_null()) << "the server refuses the illegal move";
  const Json end = game_end(*rogue);
  EXPECT_EQ(end.value("reason", ""), "timeout");
  EXPECT_EQ(end.value("result", ""), "0-1");
  EXPECT_TRUE(bot.session().wait_done(kWaitMs));
  EXPECT_EQ(bot.session().stats().wins, 1);
}

TEST_F(MisbehavingTest, AnIllegalMoveLosesInALeagueThatSaysSo) {
  server::HubConfig hub;
  hub.illegal_move_loses = true;
  start_server(hub);
  auto rogue = misbehaving_seeker(url(), "none", [](FakeClient& f, const Json& s) {
    f.send({{"type", "move"}, {"game_id", s["game_id"]}, {"move", "zz99"}, {"client_id", "x"}});
  });
  BotRunner& bot = taker();
  const Json end = game_end(*rogue);
  EXPECT_EQ(end.value("reason", ""), "illegal_move");
  EXPECT_TRUE(bot.session().wait_done(kWaitMs));
  EXPECT_EQ(bot.session().stats().wins, 1);
}

TEST_F(MisbehavingTest, ASilentOpponentLosesOnTime) {
  start_server();
  auto rogue = misbehaving_seeker(url(), "movetime:300", nullptr);
  BotRunner& bot = taker();
  const Json end = game_end(*rogue);
  EXPECT_EQ(end.value("reason", ""), "timeout");
  EXPECT_TRUE(bot.session().wait_done(kWaitMs));
  EXPECT_EQ(bot.session().stats().wins, 1);
  EXPECT_EQ(bot.session().stats().reasons, std::vector<std::string>{"timeout"});
}

// Disconnect (the socket closed) and crash (cut without a close): either way the bot claims
// the win once the grace period is over, in a game without a clock.
void expect_abandonment_claimed(MisbehavingTest& t, FakeClient* rogue_raw, bool crash,
                                std::unique_ptr<FakeClient>& rogue, BotRunner& bot) {
  ASSERT_FALSE(rogue_raw->wait_type("game_start").is_null());
  if (crash) rogue->connection().drop();
  rogue.reset();  // gone for good
  EXPECT_TRUE(bot.session().wait_done(kWaitMs));
  const BotStats s = bot.session().stats();
  EXPECT_EQ(s.wins, 1);
  EXPECT_EQ(s.reasons, std::vector<std::string>{"abandonment"});
  (void)t;
}

TEST_F(MisbehavingTest, ADisconnectedOpponentIsClaimedAfterTheGracePeriod) {
  server::HubConfig hub;
  hub.reconnect_grace_ms = 300;
  start_server(hub);
  auto rogue = misbehaving_seeker(url(), "none", nullptr);
  BotRunner& bot = taker();
  expect_abandonment_claimed(*this, rogue.get(), false, rogue, bot);
}

TEST_F(MisbehavingTest, ACrashedOpponentIsClaimedAfterTheGracePeriod) {
  server::HubConfig hub;
  hub.reconnect_grace_ms = 300;
  start_server(hub);
  auto rogue = misbehaving_seeker(url(), "none", nullptr);
  BotRunner& bot = taker();
  expect_abandonment_claimed(*this, rogue.get(), true, rogue, bot);
}

}  // namespace
}  // namespace arena::client::testing
