// House bots through a real server on a loopback port: a seek the server expires is opened
// again (with a short seek_ttl_ms), a person's open seek is taken after a short wait (a bot's is
// not), and a draw offer is answered, the decline relayed to the offerer as draw_declined.

#include <chrono>
#include <set>
#include <thread>

#include "tests/bots/client/bot_server_fixture.h"

namespace arena::client::testing {
namespace {

using Clock = std::chrono::steady_clock;

// The ids of the seeks `player` has in a lobby snapshot.
std::set<std::int64_t> seeks_of(const Json& lobby, std::int64_t player) {
  std::set<std::int64_t> out;
  for (const auto& s : lobby.value("seeks", Json::array()))
    if (s.contains("by") && s["by"].value("id", std::int64_t{0}) == player)
      out.insert(s.value("seek_id", std::int64_t{0}));
  return out;
}

// Waits up to `ms` for `done`, polling.
bool eventually(const std::function<bool()>& done, int ms) {
  const auto until = Clock::now() + std::chrono::milliseconds(ms);
  while (Clock::now() < until) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return done();
}

BotConfig house_config(const std::string& name) {
  return {.name = name,
          .games = {"tictactoe"},
          .keep_seek_open = true,
          .accept_seeks = true,
          .accept_bot_seeks = false,
          .accept_seek_after_ms = 1500};
}

TEST_F(BotServerTest, AHouseBotOpensAnotherSeekWhenTheServerExpiresIts) {
  server::HubConfig hub;
  hub.seek_ttl_ms = 1000;  // swept every second: a seek lives 1 to 2 s
  start_server(hub);
  BotRunner& bot = start_bot(house_config("house_expiry"), "random");
  ASSERT_TRUE(eventually([&] { return bot.session().player_id() != 0; }, 10000));
  const std::int64_t id = bot.session().player_id();
  FakeClient watcher(url(), "watcher", nullptr);
  const Json first = watcher.wait_for(
      [&](const Json& j) { return j.value("type", "") == "lobby" && seeks_of(j, id).size() == 1; });
  ASSERT_FALSE(first.is_null()) << "the house bot's first seek is in the lobby";
  const std::int64_t first_seek = *seeks_of(first, id).begin();

  ASSERT_TRUE(eventually([&] { return bot.session().stats().seeks_gone >= 2; }, 10000))
      << "two seeks expired in 10 s";
  // Still exactly one seek of the bot in the lobby, a new one.
  const Json later = watcher.wait_for([&](const Json& j) {
    auto ids = seeks_of(j, id);
    return j.value("type", "") == "lobby" && ids.size() == 1 && *ids.begin() > first_seek + 1;
  });
  ASSERT_FALSE(later.is_null()) << "the bot seeks again after each expiry";
  EXPECT_EQ(bot.session().stats().games_started, 0) << "no game took them: they expired";
  // And the seek it keeps open starts a game.
  watcher.send({{"type", "accept"}, {"seek_id", *seeks_of(later, id).begin()}});
  EXPECT_FALSE(watcher.wait_type("game_start", 10000).is_null());
}

TEST_F(BotServerTest, AHouseBotTakesAPersonsSeekAfterAShortWaitAndNoBotsSeek) {
  start_server();
  BotRunner& house = start_bot(house_config("house_taker"), "random");
  // Another bot's seek (a bot: it logs in with a token): a house bot must not take it (house
  // bots would play each other).
  BotRunOptions o;
  o.url = url();
  o.token = store_.create_bot_token("other_bot").value();
  o.config = {.name = "other_bot", .games = {"tictactoe"}, .keep_seek_open = true};
  o.players = search_player_factory("random");
  auto started = BotRunner::start(std::move(o));
  ASSERT_TRUE(started) << started.error();
  bots_.push_back(std::move(*started));
  BotRunner& other_bot = *bots_.back();
  ASSERT_TRUE(eventually(
      [&] { return house.session().player_id() != 0 && other_bot.session().player_id() != 0; },
      10000));
  FakeClient person(url(), "person", nullptr);
  ASSERT_FALSE(person.wait_type("welcome").is_null());
  const auto sent = Clock::now();
  person.send({{"type", "seek"}, {"game", "tictactoe"}, {"options", ""}, {"time_control", "none"}});
  const Json start = person.wait_type("game_start", 10000);
  const auto waited =
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - sent).count();
  ASSERT_FALSE(start.is_null()) << "nobody took the person's seek";
  EXPECT_TRUE(start["players"][1].value("name", "").starts_with("house_taker")) << start.dump();
  EXPECT_GE(waited, 1400) << "the house bot leaves a new seek to people for 1.5 s";
  EXPECT_LT(waited, 5000);
  // A qubic seek (tic-tac-toe's variant 4x4x4) is no tic-tac-toe: not taken.
  FakeClient qubic(url(), "qubic_person", nullptr);
  ASSERT_FALSE(qubic.wait_type("welcome").is_null());
  qubic.send({{"type", "seek"},
              {"game", "tictactoe"},
              {"options", "variant=4x4x4"},
              {"time_control", "none"}});
  EXPECT_TRUE(qubic.wait_type("game_start", 3000).is_null());
  EXPECT_EQ(other_bot.session().stats().games_started, 0) << "the other bot's seek was taken";
  EXPECT_EQ(house.session().stats().games_started, 1);
}

// The person plays first, the bot (a full-depth search: its score is 0, a draw) answers; then
// the person offers a draw. With a margin below 0 the bot declines and the server relays it to
// the person (draw_declined, by the bot's seat); with the default margin it accepts.
class DrawTest : public BotServerTest {
 protected:
  // Seeks tic-tac-toe, lets the bot take it, plays one move and waits for the bot's; returns
  // the game id.
  std::int64_t play_to_the_second_turn(FakeClient& person) {
    EXPECT_FALSE(person.wait_type("welcome").is_null());
    person.send(
        {{"type", "seek"}, {"game", "tictactoe"}, {"options", ""}, {"time_control", "none"}});
    const Json start = person.wait_type("game_start", 10000);
    EXPECT_FALSE(start.is_null());
    const std::int64_t game = start.value("game_id", std::int64_t{0});
    const Json first = person.wait_for([&](const Json& j) {
      return j.value("type", "") == "state" && j.value("version", 0) == 1;
    });
    person.send({{"type", "move"},
                 {"game_id", game},
                 {"move", first["legal_moves"][0]},
                 {"client_id", "p1"}});
    // The bot's move: the state after it has the person to move again.
    EXPECT_FALSE(person
                     .wait_for([&](const Json& j) {
                       return j.value("type", "") == "state" && j.value("version", 0) == 3;
                     })
                     .is_null());
    return game;
  }
  BotRunner& drawing_bot(int margin) {
    BotConfig c{.name = "house_drawer", .games = {"tictactoe"}, .accept_seeks = true};
    c.draw_margin = margin;
    return start_bot(c, "alphabeta:eval=bad_heuristic,depth=9");
  }
};

TEST_F(DrawTest, ABotThatIsNotAheadAcceptsADraw) {
  start_server();
  BotRunner& bot = drawing_bot(10);
  FakeClient person(url(), "person", nullptr);
  const std::int64_t game = play_to_the_second_turn(person);
  person.send({{"type", "offer_draw"}, {"game_id", game}});
  const Json end = person.wait_type("game_end", 10000);
  ASSERT_FALSE(end.is_null()) << "the bot accepted: the game ends";
  EXPECT_EQ(end["result"], "1/2-1/2");
  EXPECT_EQ(end["reason"], "agreement");
  EXPECT_EQ(bot.session().stats().draws_accepted, 1);
  EXPECT_EQ(bot.session().stats().errors, 0) << bot.session().stats().last_error;
}

TEST_F(DrawTest, ABotAheadDeclinesAndTheServerRelaysIt) {
  start_server();
  BotRunner& bot = drawing_bot(-1);  // its score 0 is above -1: "ahead"
  FakeClient person(url(), "person", nullptr);
  FakeClient spectator(url(), "spectator", nullptr);
  const std::int64_t game = play_to_the_second_turn(person);
  ASSERT_FALSE(spectator.wait_type("welcome").is_null());
  spectator.send({{"type", "watch"}, {"game_id", game}});
  ASSERT_FALSE(spectator.wait_type("game_start").is_null());
  person.send({{"type", "offer_draw"}, {"game_id", game}});
  const Json declined = person.wait_type("draw_declined", 10000);
  ASSERT_FALSE(declined.is_null()) << "the person learns the bot declined";
  EXPECT_EQ(declined["game_id"], game);
  EXPECT_EQ(declined["by"], 1) << "the bot's seat";
  EXPECT_GT(declined.value("version", 0), 3);
  EXPECT_FALSE(spectator.wait_type("draw_declined", 10000).is_null()) << "spectators see it too";
  EXPECT_EQ(bot.session().stats().draws_declined, 1);
  // The offer is gone: declining it again is refused.
  person.send({{"type", "decline_draw"}, {"game_id", game}});
  const Json refused = person.wait_for([](const Json& j) {
    return j.value("type", "") == "error" && j.value("ref", "") == "decline_draw";
  });
  ASSERT_FALSE(refused.is_null());
  EXPECT_EQ(refused["code"], "no_draw_offer");
  EXPECT_TRUE(person.wait_type("game_end", 500).is_null()) << "the game goes on";
}

}  // namespace
}  // namespace arena::client::testing
