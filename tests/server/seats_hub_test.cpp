// The lobby for games of more than two seats (a seek stays open until enough players joined),
// and the hub's refusals around them: a challenge, a spectator's move, an old or new protocol
// version. Fake connections, no network (fake_connection.h).

#include <gtest/gtest.h>

#include "server/hub.h"
#include "tests/server/hub_fixture.h"
#include "tests/server/tally_game.h"

namespace arena::server {
namespace {

using protocol::Json;
using testing::FakeConnection;
using testing::Tally;

class SeatsHubTest : public testing::FakeHubTest {
 protected:
  void SetUp() override {
    HubConfig config;
    config.lobby_interval_ms = 1;
    // "tallyN": Tally with N seats.
    config.make_game = [](std::string_view name,
                          const GameOptions&) -> Expected<std::unique_ptr<AnyGame>> {
      if (name.starts_with("tally") && name.size() == 6 && name[5] >= '2' && name[5] <= '7')
        return std::unique_ptr<AnyGame>(std::make_unique<Tally>(name[5] - '0'));
      return make_error("unknown game '" + std::string(name) + "'");
    };
    config.load_game = [](std::string_view, std::string_view) -> Expected<std::unique_ptr<AnyGame>> {
      return make_error("not in this test");
    };
    make_hub(std::move(config));
  }
};

TEST_F(SeatsHubTest, ASeekOfThreeSeatsStartsWhenTwoOthersJoined) {
  auto ann = join("ann"), bob = join("bob"), cid = join("cid");
  send(ann, {{"type", "seek"}, {"game", "tally3"}});
  const auto seek = ann->last("seek_created")["seek_id"];
  send(ann, {{"type", "accept"}, {"seek_id", seek}});
  EXPECT_EQ(ann->last("error")["code"], "no_such_seek") << "the owner is in it already";
  send(bob, {{"type", "accept"}, {"seek_id", seek}});
  ASSERT_EQ(bob->count("seek_joined"), 1u);
  EXPECT_EQ(ann->last("seek_joined")["players"].size(), 2u);
  EXPECT_EQ(ann->count("game_start"), 0u);
  send(bob, {{"type", "accept"}, {"seek_id", seek}});
  EXPECT_EQ(bob->last("error")["code"], "no_such_seek") << "joined twice";
  send(cid, {{"type", "accept"}, {"seek_id", seek}});
  for (const auto& c : {ann, bob, cid}) {
    ASSERT_EQ(c->count("game_start"), 1u);
    const Json start = c->last("game_start");
    ASSERT_EQ(start["players"].size(), 3u);
    EXPECT_EQ(start["players"][0]["name"], ann->player.name) << "the seeker has seat 0";
    EXPECT_EQ(start["players"][2]["name"], cid->player.name);
    EXPECT_EQ(c->last("state")["movers"], Json::array({0, 1, 2}));
  }
  // The store names every seat.
  const auto id = ann->last("game_start")["game_id"].get<std::int64_t>();
  EXPECT_EQ(store.game_detail(id)->summary.seat_names.size(), 3u);
}

TEST_F(SeatsHubTest, AJoinerWhoLeavesIsNoLongerInTheSeek) {
  auto ann = join("ann"), bob = join("bob"), cid = join("cid"), dan = join("dan");
  send(ann, {{"type", "seek"}, {"game", "tally4"}});
  const auto seek = ann->last("seek_created")["seek_id"];
  send(bob, {{"type", "accept"}, {"seek_id", seek}});
  send(bob, {{"type", "cancel_seek"}, {"seek_id", seek}});
  EXPECT_EQ(bob->count("cancelled"), 1u);
  send(cid, {{"type", "accept"}, {"seek_id", seek}});
  hub->on_close(cid);
  drain();
  send(dan, {{"type", "accept"}, {"seek_id", seek}});
  EXPECT_EQ(dan->last("seek_joined")["players"].size(), 2u) << "only ann and dan";
  EXPECT_EQ(ann->count("game_start"), 0u);
}

TEST_F(SeatsHubTest, RefusesAChallengeOfMoreSeatsAndASpectatorsMove) {
  auto ann = join("ann"), bob = join("bob"), cid = join("cid"), eve = join("eve");
  send(ann, {{"type", "challenge"}, {"to", bob->player.name}, {"game", "tally3"}});
  EXPECT_EQ(ann->last("error")["code"], "bad_field");
  send(ann, {{"type", "seek"}, {"game", "tally7"}});
  EXPECT_EQ(ann->last("error")["code"], "unknown_game") << "at most six seats";
  send(ann, {{"type", "seek"}, {"game", "tally3"}});
  const auto seek = ann->last("seek_created")["seek_id"];
  send(bob, {{"type", "accept"}, {"seek_id", seek}});
  send(cid, {{"type", "accept"}, {"seek_id", seek}});
  const auto id = ann->last("game_start")["game_id"];
  send(eve, {{"type", "watch"}, {"game_id", id}});
  EXPECT_EQ(eve->count("game_start"), 1u);
  send(eve, {{"type", "move"}, {"game_id", id}, {"move", "a"}, {"client_id", "e"}});
  EXPECT_EQ(eve->last("error")["code"], "not_your_game");
  send(cid, {{"type", "move"}, {"game_id", id}, {"move", "a"}, {"client_id", "c"}});
  EXPECT_EQ(eve->last("moved")["seat"], 2) << "spectators see who has moved";
}

TEST_F(SeatsHubTest, AcceptsProtocolVersionsOneToThreeOnly) {
  auto old = join("old", 1);
  EXPECT_EQ(old->count("welcome"), 1u);
  EXPECT_EQ(old->last("welcome")["protocol"], 1) << "the version the hello asked for";
  auto now = join("now", 3);
  EXPECT_EQ(now->last("welcome")["protocol"], 3);
  auto future = join("future", 4);
  EXPECT_EQ(future->last("error")["code"], "bad_version");
}

}  // namespace
}  // namespace arena::server
