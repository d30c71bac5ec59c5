// Hub without a network: fake connections that record what they are sent, on an io_context
// this test runs itself. The lobby's round robin (a busy server sends its lobby in batches, so
// no tick floods every connection at once) and how long a finished game stays in memory.

#include "server/hub.h"

#include <chrono>
#include <future>
#include <map>
#include <mutex>

#include <gtest/gtest.h>
#include <boost/asio/io_context.hpp>

#include "db/forwarding_store.h"
#include "db/memory_store.h"
#include "games/catalog/catalog.h"
#include "tests/server/fake_connection.h"
#include "tests/server/hub_fixture.h"

namespace arena::server {
namespace {

using protocol::Json;
using testing::FakeConnection;

class HubTest : public testing::FakeHubTest {
 protected:
  void make_hub(std::int64_t lobby_interval_ms, std::int64_t grace_ms = 30'000) {
    HubConfig config;
    config.lobby_interval_ms = lobby_interval_ms;
    config.reconnect_grace_ms = grace_ms;
    config.make_game = [](std::string_view name, const GameOptions& o) {
      return make_game(name, o);
    };
    config.load_game = [](std::string_view name, std::string_view p) { return load_game(name, p); };
    FakeHubTest::make_hub(std::move(config));
  }
  std::shared_ptr<FakeConnection> join(const std::string& name) {
    auto c = std::make_shared<FakeConnection>();
    c->limiter = RateLimiter(1'000'000, 1'000'000);  // thousands of games at full speed
    hub->on_open(c);
    hub->on_message(
        c, Json{{"type", "hello"}, {"version", protocol::kProtocolVersion}, {"name", name}}.dump());
    EXPECT_EQ(c->count("welcome"), 1u) << name;
    return c;
  }
  // Runs ready handlers one at a time until none is left and no timer is due within `quiet`.
  template <typename AfterEach>
  void run_until_quiet(AfterEach after_each, std::chrono::milliseconds quiet) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
      ioc.restart();
      if (ioc.run_one_for(quiet) == 0) return;
      after_each();
    }
    ADD_FAILURE() << "the hub did not go quiet within 20 s";
  }
  void run_for(std::chrono::milliseconds ms) {
    ioc.restart();
    ioc.run_for(ms);
  }
};

// The tournament director starts games from another thread for any player it sees online: a
// connection listed under its player before its welcome was queued could be sent a game_start
// first, which a client cannot place (it learns its own id from the welcome) and so never plays.
TEST_F(HubTest, NoOtherThreadSeesAPlayerOnlineBeforeItsWelcomeIsQueued) {
  make_hub(1000);
  auto c = std::make_shared<FakeConnection>();
  std::future<std::map<db::PlayerId, int>> seen;
  bool answered_during_welcome = false;
  db::PlayerId id = 0;
  c->on_send = [&](const Json& m) {
    if (m.value("type", "") != "welcome") return;
    id = m["player"].value("id", db::PlayerId{0});
    seen = std::async(std::launch::async, [&] { return hub->online_counts(); });
    answered_during_welcome =
        seen.wait_for(std::chrono::milliseconds(300)) == std::future_status::ready;
  };
  hub->on_open(c);
  hub->on_message(
      c, Json{{"type", "hello"}, {"version", protocol::kProtocolVersion}, {"name", "a"}}.dump());
  ASSERT_EQ(c->count("welcome"), 1u);
  ASSERT_TRUE(seen.valid());
  const auto counts = seen.get();
  // Either the other thread waited until the welcome was queued, or it did not see the player.
  EXPECT_FALSE(answered_during_welcome && counts.contains(id))
      << "player " << id << " was online before its welcome was queued";
  EXPECT_TRUE(hub->online_counts().contains(id));
}

TEST_F(HubTest, LobbyReachesEveryConnectionInBatchesNeverAllAtOnce) {
  make_hub(1);
  constexpr int kConnections = 3 * kLobbyConnectionsPerInterval + 7;
  std::vector<std::shared_ptr<FakeConnection>> conns;
  for (int i = 0; i < kConnections; ++i) conns.push_back(join("p" + std::to_string(i)));
  auto lobbies = [&] {
    std::size_t n = 0;
    for (auto& c : conns) n += c->count("lobby");
    return n;
  };
  // Each hello answered with its own snapshot; the rest come from the timer.
  std::size_t before = lobbies();
  EXPECT_EQ(before, static_cast<std::size_t>(kConnections));
  std::size_t largest_batch = 0, ticks_that_sent = 0;
  run_until_quiet(
      [&] {
        const std::size_t now = lobbies();
        largest_batch = std::max(largest_batch, now - before);
        ticks_that_sent += now > before;
        before = now;
      },
      std::chrono::milliseconds(200));
  EXPECT_LE(largest_batch, static_cast<std::size_t>(kLobbyConnectionsPerInterval));
  EXPECT_GE(ticks_that_sent, 4u);  // 157 connections in batches of at most 50
  // Everyone ends with the whole lobby: every player online.
  for (auto& c : conns) {
    ASSERT_GE(c->count("lobby"), 2u);
    EXPECT_EQ(c->last("lobby")["players_online"], kConnections);
    EXPECT_EQ(c->last("lobby")["players"].size(), kLobbyListCap);
  }
}

TEST_F(HubTest, LobbyChangeReachesAFewConnectionsInOneTick) {
  make_hub(1);
  auto ann = join("ann"), bob = join("bob");
  run_until_quiet([] {}, std::chrono::milliseconds(100));
  const std::size_t bob_before = bob->count("lobby");
  hub->on_message(ann, Json{{"type", "seek"}, {"game", "tictactoe"}}.dump());
  ASSERT_EQ(ann->count("seek_created"), 1u);
  run_until_quiet([] {}, std::chrono::milliseconds(100));
  ASSERT_EQ(bob->count("lobby"), bob_before + 1);  // one update for one change
  const Json lobby = bob->last("lobby");
  ASSERT_EQ(lobby["seeks"].size(), 1u);
  EXPECT_EQ(lobby["seeks"][0]["game"], "tictactoe");
}

// A game of tic-tac-toe between two fake connections, played to its end: 0 wins.
std::int64_t play_short_game(Hub& hub, const std::shared_ptr<FakeConnection>& a,
                             const std::shared_ptr<FakeConnection>& b,
                             const std::function<void()>& run) {
  hub.on_message(a, Json{{"type", "seek"}, {"game", "tictactoe"}}.dump());
  const auto seek_id = a->last("seek_created")["seek_id"];
  const std::size_t started = a->count("game_start"), ended = a->count("game_end");
  hub.on_message(b, Json{{"type", "accept"}, {"seek_id", seek_id}}.dump());
  run();
  if (a->count("game_start") != started + 1) {
    ADD_FAILURE() << "no game_start";
    return 0;
  }
  const Json start = a->last("game_start");
  const std::int64_t id = start["game_id"];
  const bool a_first = start["players"][0]["id"] == a->player.id;
  const std::vector<std::string> moves = {"a1", "b1", "a2", "b2", "a3"};  // first player wins
  for (std::size_t k = 0; k < moves.size(); ++k) {
    const auto& mover = (k % 2 == 0) == a_first ? a : b;
    hub.on_message(mover, Json{{"type", "move"},
                               {"game_id", id},
                               {"move", moves[k]},
                               {"client_id", "m" + std::to_string(k)}}
                              .dump());
    run();
  }
  EXPECT_EQ(a->count("game_end"), ended + 1) << "game " << id << " did not end";
  return id;
}

TEST_F(HubTest, AFinishedGameStaysResumableForTheGracePeriodOnly) {
  make_hub(1000, /*grace_ms=*/300);
  auto ann = join("ann"), bob = join("bob");
  const std::int64_t id = play_short_game(*hub, ann, bob, [&] { drain(); });
  ASSERT_EQ(ann->count("game_end"), 1u);
  ASSERT_NE(hub->find_match(id), nullptr);

  // Within the grace period: a resume gets the history up to game_end.
  hub->on_message(ann, Json{{"type", "resume"}, {"game_id", id}, {"since_version", 0}}.dump());
  run_for(std::chrono::milliseconds(50));
  EXPECT_EQ(ann->count("game_end"), 2u);

  // After it, the sweep drops the game from memory; a resume names it unknown.
  run_for(std::chrono::milliseconds(400));
  hub->sweep();
  EXPECT_EQ(hub->find_match(id), nullptr);
  hub->on_message(ann, Json{{"type", "resume"}, {"game_id", id}, {"since_version", 0}}.dump());
  run_for(std::chrono::milliseconds(50));
  ASSERT_GE(ann->count("error"), 1u);
  EXPECT_EQ(ann->last("error")["code"], "no_such_game");
  // The store still has the whole game.
  auto stored = store.game_detail(id);
  ASSERT_TRUE(stored) << stored.error();
  EXPECT_EQ(stored->summary.result, "1-0");
  EXPECT_EQ(stored->moves.size(), 5u);
}

// Lag compensation: before a state goes out after a move, each player of the game (not a
// spectator) is asked to measure its round trip, so the turn's own delivery is what the next
// move is credited (protocol/README.md, "Lag compensation").
TEST_F(HubTest, EachPlayerIsProbedAheadOfEveryStateAfterAMove) {
  make_hub(1000);
  auto ann = join("ann"), bob = join("bob"), eve = join("eve");
  hub->on_message(ann, Json{{"type", "seek"}, {"game", "tictactoe"}}.dump());
  hub->on_message(
      bob, Json{{"type", "accept"}, {"seek_id", ann->last("seek_created")["seek_id"]}}.dump());
  drain();
  const Json start = ann->last("game_start");
  ASSERT_FALSE(start.is_null());
  const std::int64_t id = start["game_id"];
  send(eve, Json{{"type", "watch"}, {"game_id", id}});
  const bool ann_first = start["players"][0]["id"] == ann->player.id;
  const std::vector<std::string> moves = {"a1", "b1", "a2", "b2", "a3"};  // first player wins
  for (std::size_t k = 0; k < moves.size(); ++k)
    send((k % 2 == 0) == ann_first ? ann : bob,
         Json{{"type", "move"},
              {"game_id", id},
              {"move", moves[k]},
              {"client_id", "m" + std::to_string(k)}});
  ASSERT_EQ(ann->count("game_end"), 1u);
  // Five moves: five states after a move, each with its probe ahead of it.
  EXPECT_EQ(ann->turn_probes, 5);
  EXPECT_EQ(bob->turn_probes, 5);
  EXPECT_EQ(ann->states_after_probe, 5);
  EXPECT_EQ(bob->states_after_probe, 5);
  EXPECT_GE(eve->count("state"), 5u);
  EXPECT_EQ(eve->turn_probes, 0);
}

TEST_F(HubTest, FinishedGamesInMemoryAreCapped) {
  make_hub(1000, /*grace_ms=*/3'600'000);
  auto ann = join("ann"), bob = join("bob");
  const std::int64_t first = play_short_game(*hub, ann, bob, [&] { drain(); });
  ASSERT_NE(hub->find_match(first), nullptr);
  std::int64_t last = first;
  for (std::size_t k = 0; k < kFinishedKept; ++k)
    last = play_short_game(*hub, ann, bob, [&] { drain(); });
  hub->sweep();
  EXPECT_EQ(hub->find_match(first), nullptr);  // the oldest of kFinishedKept + 1
  EXPECT_NE(hub->find_match(last), nullptr);
}

// Every seek is in every lobby snapshot, and a challenge reaches its target at once: a player
// has at most kMaxOpenSeeks and kMaxOpenChallenges open, more are answered busy, and one freed
// (cancelled, taken) makes room again. Others are not held to the first player's count.
TEST_F(HubTest, OpenSeeksAndChallengesPerPlayerAreBounded) {
  make_hub(/*lobby_interval_ms=*/10);
  auto ann = join("ann"), bob = join("bob");
  const Json seek{{"type", "seek"}, {"game", "tictactoe"}};
  for (int k = 0; k < protocol::kMaxOpenSeeks; ++k) send(ann, seek);
  EXPECT_EQ(ann->count("seek_created"), static_cast<std::size_t>(protocol::kMaxOpenSeeks));
  EXPECT_EQ(ann->count("error"), 0u);
  send(ann, seek);
  ASSERT_EQ(ann->count("error"), 1u);
  EXPECT_EQ(ann->last("error")["code"], "busy");
  EXPECT_EQ(ann->last("error")["ref"], "seek");
  EXPECT_NE(ann->last("error")["message"].get<std::string>().find("64 open seeks"),
            std::string::npos);
  send(bob, seek);  // bob is not held to ann's count
  EXPECT_EQ(bob->count("seek_created"), 1u);
  run_for(std::chrono::milliseconds(100));
  EXPECT_EQ(ann->last("lobby")["seeks"].size(),
            static_cast<std::size_t>(protocol::kMaxOpenSeeks) + 1);
  // Bob takes one of ann's seeks: ann may seek once more.
  const std::int64_t taken = ann->last("seek_created")["seek_id"];
  send(bob, Json{{"type", "accept"}, {"seek_id", taken}});
  EXPECT_EQ(bob->count("game_start"), 1u);
  send(ann, seek);
  EXPECT_EQ(ann->count("seek_created"), static_cast<std::size_t>(protocol::kMaxOpenSeeks) + 1);
  EXPECT_EQ(ann->count("error"), 1u);

  auto carl = join("carl");
  const Json to_bob{
      {"type", "challenge"}, {"to", bob->last("welcome")["player"]["name"]}, {"game", "chess"}};
  for (int k = 0; k < protocol::kMaxOpenChallenges; ++k) send(carl, to_bob);
  EXPECT_EQ(carl->count("challenge_created"),
            static_cast<std::size_t>(protocol::kMaxOpenChallenges));
  EXPECT_EQ(bob->count("challenge_offer"), static_cast<std::size_t>(protocol::kMaxOpenChallenges));
  send(carl, to_bob);
  ASSERT_EQ(carl->count("error"), 1u);
  EXPECT_EQ(carl->last("error")["code"], "busy");
  EXPECT_EQ(carl->last("error")["ref"], "challenge");
  EXPECT_EQ(bob->count("challenge_offer"), static_cast<std::size_t>(protocol::kMaxOpenChallenges));
  const std::int64_t declined = carl->last("challenge_created")["challenge_id"];
  send(bob, Json{{"type", "decline"}, {"challenge_id", declined}});
  send(carl, to_bob);
  EXPECT_EQ(carl->count("challenge_created"),
            static_cast<std::size_t>(protocol::kMaxOpenChallenges) + 1);
}

// A memory store that keeps the bot versions registered through the write queue and the games
// it is asked to create, and refuses the versions when told to.
class EngineStore final : public db::ForwardingStore {
 public:
  explicit EngineStore(db::Store& inner) : db::ForwardingStore(inner) {}
  void register_bot_version_async(const db::BotVersion& v, db::Registered done) override {
    if (refuse) return done(make_error("the disk is full"));
    versions.push_back(v);
    db::ForwardingStore::register_bot_version_async(v, std::move(done));
  }
  void create_game_async(const db::NewGame& g, db::Created done) override {
    games.push_back(g);
    db::ForwardingStore::create_game_async(g, std::move(done));
  }
  bool refuse = false;
  std::vector<db::BotVersion> versions;
  std::vector<db::NewGame> games;
};

// A hello that names its engine (hello.engine) is recorded as the player's bot version before
// the welcome, and the games the player starts afterwards carry that version in its seat; a
// player without one has none. A bad engine is refused naming the field, and a version the store
// cannot record fails the hello (no welcome; the client may say hello again).
TEST_F(HubTest, AHelloThatNamesItsEngineIsRecordedAsTheBotVersionOfItsGames) {
  EngineStore engines(store);
  HubConfig config;
  config.make_game = [](std::string_view name, const GameOptions& o) { return make_game(name, o); };
  hub = std::make_shared<Hub>(ioc.get_executor(), std::move(config), engines, time);
  const Json engine{{"search", "alphabeta:eval=open_moves,depth=3"}, {"heuristic", "open_moves"}};
  auto hello = [&](const std::shared_ptr<FakeConnection>& c, const std::string& name,
                   const Json& with) {
    Json h{{"type", "hello"}, {"version", protocol::kProtocolVersion}, {"name", name}};
    if (!with.is_null()) h["engine"] = with;
    send(c, h);
  };
  auto ann = std::make_shared<FakeConnection>(), bob = std::make_shared<FakeConnection>();
  hub->on_open(ann);
  hub->on_open(bob);
  hello(ann, "ann", engine);
  hello(bob, "bob", Json());
  ASSERT_EQ(ann->count("welcome"), 1u);
  ASSERT_EQ(bob->count("welcome"), 1u);
  const std::int64_t ann_id = ann->last("welcome")["player"]["id"];
  ASSERT_EQ(engines.versions.size(), 1u);
  EXPECT_EQ(engines.versions[0].player, ann_id);
  EXPECT_EQ(engines.versions[0].search, "alphabeta:eval=open_moves,depth=3");
  EXPECT_EQ(engines.versions[0].heuristic, "open_moves");
  const std::int64_t version = *store.register_bot_version(engines.versions[0]);

  send(ann, Json{{"type", "seek"}, {"game", "tictactoe"}});
  send(bob, Json{{"type", "accept"}, {"seek_id", ann->last("seek_created")["seek_id"]}});
  ASSERT_EQ(bob->count("game_start"), 1u);
  ASSERT_EQ(engines.games.size(), 1u);
  const db::NewGame& g = engines.games[0];
  EXPECT_EQ(g.first == ann_id ? g.first_version : g.second_version, version);
  EXPECT_EQ(g.first == ann_id ? g.second_version : g.first_version, 0) << "bob named none";

  auto carl = std::make_shared<FakeConnection>();
  hub->on_open(carl);
  // Carl's hello is refused with `code` and `message`, and he is not welcomed.
  auto refused = [&](const Json& with, std::size_t errors, const std::string& code,
                     const std::string& message) {
    hello(carl, "carl", with);
    EXPECT_EQ(carl->count("welcome"), 0u);
    ASSERT_EQ(carl->count("error"), errors);
    EXPECT_EQ(carl->last("error")["code"], code);
    EXPECT_EQ(carl->last("error")["message"], message);
  };
  refused(Json{{"heuristic", "open_moves"}}, 1, "missing_field",
          "in 'engine': missing field 'search'");
  engines.refuse = true;
  refused(engine, 2, "internal", "the engine could not be recorded: the disk is full");
  engines.refuse = false;
  hello(carl, "carl", engine);
  EXPECT_EQ(carl->count("welcome"), 1u);
  EXPECT_EQ(engines.versions.size(), 2u);
  hub->release();  // before `engines`, which it uses, goes
  hub.reset();
}

// The rate limit: a burst, then the rate; refusals counted until a quiet pause between two.
TEST(RateLimiter, CountsDropsUntilAQuietPauseAndCallsAFloodAFlood) {
  RateLimiter limiter(protocol::kMaxMessagesPerSecond, protocol::kMaxMessageBurst);
  for (int i = 0; i < protocol::kMaxMessageBurst; ++i) ASSERT_TRUE(limiter.allow(0));
  for (int i = 0; i < protocol::kMaxDroppedMessages; ++i) ASSERT_FALSE(limiter.allow(0));
  EXPECT_FALSE(limiter.flooding()) << "exactly the limit of drops is not yet a flood";
  EXPECT_FALSE(limiter.allow(0));
  EXPECT_TRUE(limiter.flooding());
  // A quiet pause longer than kFloodQuietMs: the bucket is full again and the count starts over.
  const std::int64_t later = protocol::kFloodQuietMs + 1;
  for (int i = 0; i < protocol::kMaxMessageBurst; ++i) ASSERT_TRUE(limiter.allow(later));
  EXPECT_FALSE(limiter.allow(later));
  EXPECT_EQ(limiter.dropped(), 1);
  EXPECT_FALSE(limiter.flooding());
}

// A connection that keeps sending far above the rate is told each dropped message until the
// drop limit, then closed once with 1008 and a reason; the others are not touched.
TEST_F(HubTest, AFloodIsClosedWithAPolicyReasonAfterTheDropLimit) {
  make_hub(1000);
  auto flooder = join("flooder");
  flooder->limiter = RateLimiter(protocol::kMaxMessagesPerSecond, protocol::kMaxMessageBurst);
  auto other = join("other");
  const int sent = protocol::kMaxMessageBurst + protocol::kMaxDroppedMessages + 500;
  for (int i = 0; i < sent; ++i)
    hub->on_message(flooder, Json{{"type", "ping"}, {"id", std::to_string(i)}}.dump());
  drain();
  ASSERT_EQ(flooder->policy_closes.size(), 1u);
  EXPECT_NE(flooder->policy_closes[0].find("flooding"), std::string::npos)
      << flooder->policy_closes[0];
  // Every refusal up to the limit was answered rate_limited (the bucket refills a little while
  // the loop runs, so a few more pings may be answered), none after it.
  EXPECT_EQ(flooder->count("error"), static_cast<std::size_t>(protocol::kMaxDroppedMessages));
  EXPECT_GE(flooder->count("pong"), static_cast<std::size_t>(protocol::kMaxMessageBurst));
  hub->on_message(other, Json{{"type", "ping"}, {"id", "x"}}.dump());
  drain();
  EXPECT_EQ(other->count("pong"), 1u);
  EXPECT_TRUE(other->policy_closes.empty());
}

}  // namespace
}  // namespace arena::server
