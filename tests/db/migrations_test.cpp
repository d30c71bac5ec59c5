// Schema migrations: applied on a new file, idempotent on reopen, newer databases refused.

#include <gtest/gtest.h>

#include "db/migrations.h"
#include "db/sqlite_store.h"
#include "db/tournament_reader.h"
#include "tests/db/raw_db.h"
#include "tests/db/temp_dir.h"

namespace arena::db {
namespace {

// A tic-tac-toe game between two new players; 0 (and a test failure) if it cannot be made.
GameId new_game(Store& store) {
  const auto a = store.find_or_create_player("a", true);
  const auto b = store.find_or_create_player("b", true);
  EXPECT_TRUE(a && b);
  if (!a || !b) return 0;
  NewGame g;
  g.kind = "tictactoe";
  g.first = a->id;
  g.second = b->id;
  auto id = store.create_game(g);
  EXPECT_TRUE(id) << id.error();
  return id ? *id : 0;
}

// Undoes schema 6 (the heuristic lab's tables), for the tests that take a file back to an
// older schema.
constexpr const char* kDropLabTables =
    "DROP TABLE lab_outcome; DROP TABLE lab_heuristics; DROP TABLE lab_runs; ";

TEST(Migrations, VersionsAreNumberedWithoutGaps) {
  const auto all = known_migrations();
  ASSERT_FALSE(all.empty());
  for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i].version, static_cast<int>(i + 1));
  EXPECT_EQ(schema_version(), all.back().version);
}

TEST(Migrations, ApplyOnANewFile) {
  test::TempDir dir;
  const std::string path = dir.file("new.db");
  {
    auto store = open_sqlite_store(path);
    ASSERT_TRUE(store) << store.error();
  }
  test::RawDb raw(path);
  EXPECT_EQ(raw.integer("PRAGMA user_version"), schema_version());
  EXPECT_EQ(raw.text("PRAGMA journal_mode"), "wal");
  for (const char* table : {"players", "bot_versions", "games", "moves", "ratings",
                            "rating_history", "tournaments", "pairings", "puzzle_attempts",
                            "lab_runs", "lab_heuristics", "lab_outcome"})
    EXPECT_EQ(raw.integer(std::string("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' "
                                      "AND name = '") +
                          table + "'"),
              1)
        << table;
}

TEST(Migrations, ReopenIsIdempotentAndKeepsData) {
  test::TempDir dir;
  const std::string path = dir.file("reopen.db");
  {
    auto store = open_sqlite_store(path);
    ASSERT_TRUE(store) << store.error();
    ASSERT_TRUE((*store)->find_or_create_player("alice", false));
  }
  for (int i = 0; i < 2; ++i) {
    auto store = open_sqlite_store(path);
    ASSERT_TRUE(store) << store.error();
    auto alice = (*store)->find_or_create_player("alice", false);
    ASSERT_TRUE(alice) << alice.error();
    EXPECT_EQ(alice->id, 1);
  }
  test::RawDb raw(path);
  EXPECT_EQ(raw.integer("PRAGMA user_version"), schema_version());
  EXPECT_EQ(raw.integer("SELECT COUNT(*) FROM players"), 1);
}

// Schema 4 adds the seat of each move row: a file of schema 3 opens, its rows read with the seat
// unknown, and rows stored after it keep their seat.
TEST(Migrations, AFileOfSchemaThreeGainsTheMovesSeatAndKeepsItsRows) {
  test::TempDir dir;
  const std::string path = dir.file("three.db");
  GameId game = 0;
  {
    auto store = open_sqlite_store(path);
    ASSERT_TRUE(store) << store.error();
    game = new_game(**store);
    ASSERT_NE(game, 0);
    MoveRecord m;
    m.game = game;
    m.ply = 0;
    m.seat = 0;
    m.move = "b2";
    (*store)->append_move(m, nullptr);
    (*store)->flush();
  }
  {
    test::RawDb raw(path);
    ASSERT_EQ(raw.text("SELECT seat FROM moves"), "0");
    // Back to schema 3: no seat column (nor schema 5's games.note, nor schema 6's lab tables).
    ASSERT_TRUE(
        raw.exec(std::string(kDropLabTables) +
                 "ALTER TABLE games DROP COLUMN note; ALTER TABLE moves DROP COLUMN seat; "
                 "PRAGMA user_version = 3"));
    ASSERT_EQ(raw.integer("PRAGMA user_version"), 3);
  }
  auto store = open_sqlite_store(path);
  ASSERT_TRUE(store) << store.error();
  MoveRecord m;
  m.game = game;
  m.ply = 1;
  m.seat = 1;
  m.move = "a1";
  (*store)->append_move(m, nullptr);
  (*store)->flush();
  auto detail = (*store)->game_detail(game);
  ASSERT_TRUE(detail) << detail.error();
  ASSERT_EQ(detail->moves.size(), 2u);
  EXPECT_EQ(detail->moves[0].move, "b2");
  EXPECT_EQ(detail->moves[0].seat, -1) << "stored before schema 4";
  EXPECT_EQ(detail->moves[1].seat, 1);
  test::RawDb raw(path);
  EXPECT_EQ(raw.integer("PRAGMA user_version"), schema_version());
}

TEST(Migrations, AFileOfSchemaFourGainsTheGamesNoteAndKeepsItsGames) {
  test::TempDir dir;
  const std::string path = dir.file("four.db");
  GameId game = 0;
  {
    auto store = open_sqlite_store(path);
    ASSERT_TRUE(store) << store.error();
    game = new_game(**store);
    ASSERT_NE(game, 0);
    (*store)->finish_game({game, "1-0", "win", "final"}, nullptr);
    (*store)->flush();
  }
  {
    test::RawDb raw(path);
    ASSERT_TRUE(raw.exec(std::string(kDropLabTables) +
                         "ALTER TABLE games DROP COLUMN note; PRAGMA user_version = 4"));
  }
  auto store = open_sqlite_store(path);
  ASSERT_TRUE(store) << store.error();
  auto detail = (*store)->game_detail(game);
  ASSERT_TRUE(detail) << detail.error();
  EXPECT_EQ(detail->summary.result, "1-0");
  EXPECT_EQ(detail->summary.note, "") << "stored before schema 5";
  test::RawDb raw(path);
  EXPECT_EQ(raw.integer("PRAGMA user_version"), schema_version());
  EXPECT_EQ(raw.text("SELECT COUNT(*) FROM pragma_table_info('games') WHERE name = 'note'"), "1");
}

// Schema 6 adds the heuristic lab's tables: a file of schema 5 opens with its games kept and
// takes a lab run.
TEST(Migrations, AFileOfSchemaFiveGainsTheLabTablesAndKeepsItsGames) {
  test::TempDir dir;
  const std::string path = dir.file("five.db");
  GameId game = 0;
  {
    auto store = open_sqlite_store(path);
    ASSERT_TRUE(store) << store.error();
    game = new_game(**store);
    ASSERT_NE(game, 0);
  }
  {
    test::RawDb raw(path);
    ASSERT_TRUE(raw.exec(std::string(kDropLabTables) + "PRAGMA user_version = 5"));
    ASSERT_EQ(raw.integer("SELECT COUNT(*) FROM sqlite_master WHERE name LIKE 'lab_%'"), 0);
  }
  auto store = open_sqlite_store(path);
  ASSERT_TRUE(store) << store.error();
  ASSERT_TRUE((*store)->game_detail(game));
  LabMeasures m;
  m.heuristic = "material";
  m.outcome = {{1, 4, 10, 0.5, std::nullopt}};
  auto run = (*store)->record_lab_run({"tictactoe", 0, "test", "{}", {m}});
  ASSERT_TRUE(run) << run.error();
  auto rows = (*store)->lab_measures("tictactoe");
  ASSERT_TRUE(rows && rows->size() == 1u);
  EXPECT_EQ((*rows)[0].measures.outcome.size(), 1u);
  test::RawDb raw(path);
  EXPECT_EQ(raw.integer("PRAGMA user_version"), schema_version());
}

// The tournament reader opens a file read-only and does not migrate it: a file of schema 3 (no
// moves.seat, no games.note) still gives its pairings and its players' move statistics.
TEST(Migrations, TheTournamentReaderReadsAFileOfSchemaThreeAsItIs) {
  test::TempDir dir;
  const std::string path = dir.file("three.db");
  std::int64_t tournament = 0;
  {
    auto store = open_sqlite_store(path);
    ASSERT_TRUE(store) << store.error();
    NewTournament t;
    t.name = "old";
    t.kind = "tictactoe";
    t.format = "round-robin";
    auto id = (*store)->create_tournament(t);
    ASSERT_TRUE(id) << id.error();
    tournament = *id;
    const auto a = (*store)->find_or_create_player("a", true);
    const auto b = (*store)->find_or_create_player("b", true);
    ASSERT_TRUE(a && b);
    NewGame g;
    g.kind = "tictactoe";
    g.first = a->id;
    g.second = b->id;
    g.tournament_id = tournament;
    auto game = (*store)->create_game(g);
    ASSERT_TRUE(game) << game.error();
    Pairing p;
    p.tournament = tournament;
    p.round = 1;
    p.first = a->id;
    p.second = b->id;
    auto pairing = (*store)->add_pairing(p);
    ASSERT_TRUE(pairing) << pairing.error();
    ASSERT_TRUE((*store)->set_pairing_game(*pairing, *game));
    MoveRecord m;
    m.game = *game;
    m.seat = 0;
    m.move = "b2";
    m.depth = 3;
    (*store)->append_move(m, nullptr);
    (*store)->finish_game({*game, "1-0", "resignation", "final"}, nullptr);
    (*store)->flush();
  }
  {
    test::RawDb raw(path);
    ASSERT_TRUE(
        raw.exec("ALTER TABLE games DROP COLUMN note; ALTER TABLE moves DROP COLUMN seat; "
                 "PRAGMA user_version = 3"));
  }
  auto reader = TournamentReader::open(path);
  ASSERT_TRUE(reader) << reader.error();
  auto rows = reader->pairings(tournament);
  ASSERT_TRUE(rows) << rows.error();
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ(rows->at(0).result, "1-0");
  EXPECT_EQ(rows->at(0).note, "");
  // Without a stored seat the rows' seats come from the caller (a replay); here: seat 0.
  auto stats = reader->move_stats(tournament, [](const std::string&, const std::string&,
                                                 const std::vector<std::string>& moves) {
    return std::vector<int>(moves.size(), 0);
  });
  ASSERT_TRUE(stats) << stats.error();
  ASSERT_EQ(stats->size(), 1u);
  EXPECT_EQ(stats->at(0).moves, 1);
  EXPECT_EQ(stats->at(0).depth_sum, 3.0);
  test::RawDb raw(path);
  EXPECT_EQ(raw.integer("PRAGMA user_version"), 3) << "the reader changed the file";
}

TEST(Migrations, NewerDatabaseIsRefusedNamingBothVersions) {
  test::TempDir dir;
  const std::string path = dir.file("future.db");
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "PRAGMA user_version = 999", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
  }
  auto store = open_sqlite_store(path);
  ASSERT_FALSE(store);
  EXPECT_NE(store.error().find(path), std::string::npos) << store.error();
  EXPECT_NE(store.error().find("999"), std::string::npos) << store.error();
  EXPECT_NE(store.error().find("(" + std::to_string(schema_version()) + ")"), std::string::npos)
      << store.error();
  test::RawDb raw(path);
  EXPECT_EQ(raw.integer("PRAGMA user_version"), 999) << "the refused file must be left alone";
}

}  // namespace
}  // namespace arena::db
