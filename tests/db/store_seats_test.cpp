// The store's seats and scores (migration 0003, game_seats): a game of more than two seats
// names every seat's player, every finished game keeps each seat's score, a result of three to
// six scores is accepted (and not rated), bad seats and scores are refused with the reason.

#include <future>

#include <gtest/gtest.h>

#include "db/sqlite_store.h"
#include "tests/db/raw_db.h"
#include "tests/db/temp_dir.h"

namespace arena::db {
namespace {

class StoreSeatsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = open_sqlite_store(path_);
    ASSERT_TRUE(opened) << opened.error();
    store_ = std::move(*opened);
  }
  PlayerId player(const std::string& name) {
    auto p = store_->find_or_create_player(name, true);
    EXPECT_TRUE(p) << p.error();
    return p ? p->id : 0;
  }
  NewGame new_game(const std::vector<PlayerId>& seats) {
    NewGame g;
    g.kind = "gdl:test";
    g.start_position = "(step 0)";
    g.first = seats.at(0);
    g.second = seats.at(1);
    if (seats.size() > 2) g.seats = seats;
    return g;
  }
  Expected<void> finish(GameId id, const std::string& result, std::vector<int> scores) {
    std::promise<Expected<void>> p;
    store_->finish_game({id, result, "goals", "(step 9)", std::move(scores)},
                        [&](Expected<void> r) { p.set_value(std::move(r)); });
    return p.get_future().get();
  }

  test::TempDir dir_;
  std::string path_ = dir_.file("arena.db");
  std::unique_ptr<SqliteStore> store_;
};

TEST_F(StoreSeatsTest, AGameOfFourSeatsKeepsItsPlayersAndScores) {
  const PlayerId a = player("a"), b = player("b"), c = player("c"), d = player("d");
  auto id = store_->create_game(new_game({a, b, c, d}));
  ASSERT_TRUE(id) << id.error();
  auto live = store_->game_detail(*id);
  ASSERT_TRUE(live) << live.error();
  EXPECT_EQ(live->summary.seat_names, (std::vector<std::string>{"a", "b", "c", "d"}));
  EXPECT_TRUE(live->summary.scores.empty()) << "no scores while it is live";
  ASSERT_TRUE(finish(*id, "100-0-25-0", {100, 0, 25, 0}));
  auto done = store_->game_detail(*id);
  EXPECT_EQ(done->summary.result, "100-0-25-0");
  EXPECT_EQ(done->summary.scores, (std::vector<int>{100, 0, 25, 0}));
  // Listed for the player of seat 3 too, and not rated.
  GameFilter by_d;
  by_d.player = d;
  auto listed = store_->list_games(by_d);
  ASSERT_TRUE(listed) << listed.error();
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ(listed->front().seat_names.size(), 4u);
  test::RawDb raw(path_);
  EXPECT_EQ(raw.integer("SELECT COUNT(*) FROM rating_history"), 0);
  EXPECT_EQ(raw.integer("SELECT score FROM game_seats WHERE seat = 2"), 25);
}

TEST_F(StoreSeatsTest, ATwoSeatGameKeepsItsScoresAndIsRatedByItsResult) {
  const PlayerId a = player("a"), b = player("b");
  auto id = store_->create_game(new_game({a, b}));
  ASSERT_TRUE(id);
  ASSERT_TRUE(finish(*id, "1-0", {75, 25}));
  auto done = store_->game_detail(*id);
  EXPECT_EQ(done->summary.scores, (std::vector<int>{75, 25}));
  EXPECT_EQ(done->summary.seat_names, (std::vector<std::string>{"a", "b"}));
  test::RawDb raw(path_);
  EXPECT_EQ(raw.integer("SELECT COUNT(*) FROM rating_history"), 4);
}

TEST_F(StoreSeatsTest, RefusesBadSeatsResultsAndScores) {
  const PlayerId a = player("a"), b = player("b"), c = player("c");
  NewGame wrong = new_game({a, b, c});
  wrong.seats = {b, a, c};
  auto refused = store_->create_game(wrong);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().find("seats 0 and 1"), std::string::npos) << refused.error();
  wrong.seats = {a, b, c, a, b, c, a};
  EXPECT_FALSE(store_->create_game(wrong));
  auto id = store_->create_game(new_game({a, b, c}));
  ASSERT_TRUE(id);
  auto bad = finish(*id, "100-0", {100, 0, 0});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("'100-0'"), std::string::npos) << bad.error();
  EXPECT_FALSE(finish(*id, "101-0-0", {100, 0, 0}));
  auto score = finish(*id, "100-0-0", {100, 0, 101});
  ASSERT_FALSE(score);
  EXPECT_NE(score.error().find("101"), std::string::npos) << score.error();
  EXPECT_TRUE(finish(*id, "100-0-0", {100, 0, 0})) << "a failed finish changed nothing";
}

}  // namespace
}  // namespace arena::db
