// MemoryStore (`arena serve --db :memory:`): it keeps a bounded number of finished games, so a
// long run does not grow without bound; a dropped game is answered with the bound, and what
// it counted for (the leaderboard, its tournament's pairing, its kind) stays.

#include "db/memory_store.h"

#include <gtest/gtest.h>

#include <string>

namespace arena::db {
namespace {

GameId play(MemoryStore& store, PlayerId a, PlayerId b, const std::string& result, int plies) {
  auto id = store.create_game({"chess", "", "start", a, b, "none", 1, {}, 0, 0});
  EXPECT_TRUE(id) << id.error();
  for (int ply = 0; ply < plies; ++ply) {
    MoveRecord m;
    m.game = *id;
    m.ply = ply;
    m.move = "m" + std::to_string(ply);
    store.append_move(m, [](Expected<void>) {});
  }
  if (!result.empty()) store.finish_game({*id, result, "test", "final", {}}, [](Expected<void>) {});
  return *id;
}

TEST(MemoryStore, KeepsTheLastFinishedGamesAndNamesTheBoundForADroppedOne) {
  MemoryStore store(2);
  const PlayerId a = store.find_or_create_player("a", true)->id;
  const PlayerId b = store.find_or_create_player("b", true)->id;
  const auto tournament = store.create_tournament({"t", "chess", "round-robin", "", "none"});
  ASSERT_TRUE(tournament);
  const GameId live = play(store, a, b, "", 3);  // unfinished: never dropped
  const GameId first = play(store, a, b, "1-0", 4);
  ASSERT_TRUE(store.add_pairing({*tournament, 1, a, b, first}));
  const GameId second = play(store, a, b, "0-1", 4);
  const GameId third = play(store, a, b, "1/2-1/2", 4);
  const GameId fourth = play(store, a, b, "1-0", 4);
  EXPECT_EQ(store.dropped_games(), 2u);

  auto dropped = store.game_detail(first);
  ASSERT_FALSE(dropped);
  EXPECT_NE(dropped.error().find("game " + std::to_string(first) + " is no longer kept"),
            std::string::npos)
      << dropped.error();
  EXPECT_NE(dropped.error().find("keeps the last 2 finished games"), std::string::npos)
      << dropped.error();
  EXPECT_FALSE(store.game_detail(second));
  auto unknown = store.game_detail(1000);
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error(), "no game 1000");

  for (GameId kept : {live, third, fourth}) {
    auto detail = store.game_detail(kept);
    ASSERT_TRUE(detail) << detail.error();
    EXPECT_EQ(detail->moves.size(), kept == live ? 3u : 4u);
  }
  GameFilter all;
  all.finished_only = false;
  all.limit = 1 << 20;
  auto listed = store.list_games(all);
  ASSERT_TRUE(listed);
  ASSERT_EQ(listed->size(), 3u);
  EXPECT_EQ(listed->at(0).id, fourth);
  EXPECT_EQ(listed->at(1).id, third);
  EXPECT_EQ(listed->at(2).id, live);
  ASSERT_EQ(store.unfinished_games()->size(), 1u);

  // What the dropped games counted for stays.
  auto board = store.leaderboard("chess");
  ASSERT_TRUE(board);
  ASSERT_EQ(board->size(), 2u);
  EXPECT_EQ(board->at(0).games, 4);
  EXPECT_EQ(board->at(0).wins, 2);
  EXPECT_EQ(board->at(0).losses, 1);
  EXPECT_EQ(board->at(0).draws, 1);
  auto pairings = store.pairings(*tournament);
  ASSERT_TRUE(pairings);
  ASSERT_EQ(pairings->size(), 1u);
  EXPECT_EQ(pairings->at(0).result, "1-0");
  EXPECT_EQ(*store.stored_kinds(), std::vector<std::string>{"chess"});

  // Ids are not reused.
  const GameId fifth = play(store, a, b, "", 1);
  EXPECT_GT(fifth, fourth);
}

TEST(MemoryStore, APlayerIsFoundByNameWithAsciiCaseFolded) {
  MemoryStore store;
  auto alice = store.find_or_create_player("Alice", true);
  ASSERT_TRUE(alice);
  auto found = store.player_by_name("aLICE");
  ASSERT_TRUE(found && found->has_value());
  EXPECT_EQ((*found)->id, alice->id);
  auto none = store.player_by_name("Alicia");
  ASSERT_TRUE(none);
  EXPECT_FALSE(none->has_value());
}

TEST(MemoryStore, KeepEveryGameKeepsThemAll) {
  MemoryStore store(MemoryStore::kKeepEveryGame);
  const PlayerId a = store.find_or_create_player("a", true)->id;
  const PlayerId b = store.find_or_create_player("b", true)->id;
  GameId first = 0;
  for (int i = 0; i < 50; ++i) {
    const GameId id = play(store, a, b, "1-0", 2);
    if (i == 0) first = id;
  }
  EXPECT_EQ(store.dropped_games(), 0u);
  EXPECT_TRUE(store.game_detail(first));
}

// The default bound: a long run of a throw-away server keeps at most this many finished games.
TEST(MemoryStore, ByDefaultItKeepsTenThousandFinishedGames) {
  MemoryStore store;
  const PlayerId a = store.find_or_create_player("a", true)->id;
  const PlayerId b = store.find_or_create_player("b", true)->id;
  for (std::size_t i = 0; i < MemoryStore::kDefaultKeptGames + 5; ++i) play(store, a, b, "1-0", 0);
  EXPECT_EQ(store.dropped_games(), 5u);
  GameFilter all;
  all.finished_only = false;
  all.limit = 1 << 20;
  EXPECT_EQ(store.list_games(all)->size(), MemoryStore::kDefaultKeptGames);
  EXPECT_EQ(store.leaderboard("chess")->at(0).games,
            static_cast<int>(MemoryStore::kDefaultKeptGames + 5));
}

TEST(MemoryStore, KeepsAGamesNoteAndDoesNotRateTheGame) {
  MemoryStore store;
  const PlayerId a = store.find_or_create_player("a", true)->id;
  const PlayerId b = store.find_or_create_player("b", true)->id;
  const GameId plain = play(store, a, b, "1-0", 1);
  const GameId noted = play(store, a, b, "", 1);
  store.finish_game({noted, "0-1", "goals", "final", {0, 100}, "no goal value holds for white"},
                    [](Expected<void>) {});
  EXPECT_EQ(store.game_detail(noted)->summary.note, "no goal value holds for white");
  EXPECT_EQ(store.game_detail(plain)->summary.note, "");
  // Kept, not rated: the leaderboard and the results count the plain game only.
  auto board = store.leaderboard("chess");
  ASSERT_TRUE(board) << board.error();
  ASSERT_EQ(board->size(), 2u);
  for (const auto& row : *board) EXPECT_EQ(row.games, 1) << row.name;
  auto results = store.game_results("chess");
  ASSERT_TRUE(results) << results.error();
  ASSERT_EQ(results->size(), 1u);
  EXPECT_EQ(results->at(0).game, plain);
}

}  // namespace
}  // namespace arena::db
