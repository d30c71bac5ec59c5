// The move journal (db/move_journal.h): a move is durable once its record is in the journal,
// before SQLite stores it; a killed process's journaled moves are stored at the next open; the
// store's reads never miss an acknowledged move; only the process holding the journal's lock
// journals; segments are deleted once stored.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>
#include <string>
#include <thread>

#include "db/move_journal.h"
#include "db/sqlite_store.h"
#include "tests/db/raw_db.h"
#include "tests/db/temp_dir.h"
#include "tests/db/thread_nice.h"
#include "tests/db/move_record.h"

namespace arena::db {
namespace {

using test::nice_of_thread;
using test::own_nice;

using namespace std::chrono_literals;

using test::mv;

// A store whose writer would keep journaled moves for a minute: what a test sees stored in
// the meantime was stored because something asked for it, not because time passed.
std::unique_ptr<SqliteStore> open_slow(const std::string& path) {
  SqliteOptions options;
  options.journal_defer = std::chrono::minutes(1);
  auto store = open_sqlite_store(path, options);
  EXPECT_TRUE(store) << store.error();
  return store ? std::move(*store) : nullptr;
}

GameId new_game(SqliteStore& store) {
  auto a = store.find_or_create_player("a", true);
  auto b = store.find_or_create_player("b", true);
  auto id = store.create_game({"chess", "", "start", a->id, b->id, "none", 7, {}, 0, 0});
  EXPECT_TRUE(id) << id.error();
  return id ? *id : 0;
}

Expected<void> append(SqliteStore& store, const MoveRecord& m) {
  std::promise<Expected<void>> p;
  store.append_move(m, [&](Expected<void> r) { p.set_value(std::move(r)); });
  return p.get_future().get();
}

std::size_t segment_files(const std::string& db) {
  std::size_t n = 0;
  const std::filesystem::path p(db);
  const std::string prefix = p.filename().string() + "-moves-";
  for (const auto& e : std::filesystem::directory_iterator(p.parent_path()))
    n += e.path().filename().string().rfind(prefix, 0) == 0;
  return n;
}

TEST(MoveJournal, ARecordReadsBackAsWritten) {
  JournaledMove j;
  j.move = mv(42, 7, "e7e5");
  j.move.seat = 1;
  j.move.time_used_ms = 1234;
  j.move.clock_left_ms = 56789;
  j.move.depth = 9;
  j.move.nodes = 1234567890123;
  j.move.score = -35;
  j.move.pv = "e7e5 g1f3 b8c6";
  j.created_at_ms = 1790000000000;
  const std::string payload = encode_journaled_move(j);
  auto back = decode_journaled_move(payload);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->move.game, 42);
  EXPECT_EQ(back->move.ply, 7);
  EXPECT_EQ(back->move.seat, 1);
  EXPECT_EQ(back->move.move, "e7e5");
  EXPECT_EQ(back->move.time_used_ms, 1234);
  EXPECT_EQ(back->move.clock_left_ms, 56789);
  EXPECT_EQ(back->move.depth, 9);
  EXPECT_EQ(back->move.nodes, 1234567890123);
  EXPECT_EQ(back->move.score, -35);
  EXPECT_EQ(back->move.pv, "e7e5 g1f3 b8c6");
  EXPECT_EQ(back->created_at_ms, 1790000000000);
  j.move.score.reset();
  EXPECT_FALSE(decode_journaled_move(encode_journaled_move(j))->move.score.has_value());
  // Cut anywhere, or with a byte too many, it is not a record.
  for (std::size_t n = 0; n < payload.size(); ++n)
    EXPECT_FALSE(decode_journaled_move(payload.substr(0, n))) << "cut at " << n;
  EXPECT_FALSE(decode_journaled_move(payload + "x"));
}

// A journal left behind by a build before the seat was recorded (payload version 1: no seat
// after the ply) still reads, every field in place and the seat unknown.
TEST(MoveJournal, ARecordOfTheVersionBeforeTheSeatReadsWithTheSeatUnknown) {
  JournaledMove j;
  j.move = mv(42, 7, "e7e5");
  j.move.seat = 1;
  j.move.nodes = 99;
  j.move.pv = "e7e5 g1f3";
  j.created_at_ms = 1790000000000;
  const std::string v2 = encode_journaled_move(j);
  ASSERT_EQ(v2[0], 2);
  // Version 1: the version byte, game (8 bytes) and ply (4), then the rest without the seat (4).
  const std::string v1 = std::string(1, '\1') + v2.substr(1, 12) + v2.substr(17);
  auto back = decode_journaled_move(v1);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->move.game, 42);
  EXPECT_EQ(back->move.ply, 7);
  EXPECT_EQ(back->move.seat, -1);
  EXPECT_EQ(back->move.nodes, 99);
  EXPECT_EQ(back->move.move, "e7e5");
  EXPECT_EQ(back->move.pv, "e7e5 g1f3");
  EXPECT_EQ(back->created_at_ms, 1790000000000);
  EXPECT_FALSE(decode_journaled_move(std::string(1, '\3') + v2.substr(1))) << "an unknown version";
}

TEST(MoveJournal, AnAcknowledgedMoveIsJournaledAndTheStoresReadsSeeIt) {
  test::TempDir dir;
  const std::string path = dir.file("arena.db");
  auto store = open_slow(path);
  ASSERT_NE(store->journal(), nullptr);
  const GameId id = new_game(*store);
  test::RawDb raw(path, /*read_only=*/true);
  ASSERT_TRUE(append(*store, mv(id, 0, "e2e4")));
  // Acknowledged from the journal: SQLite does not hold it yet (the writer waits a minute)...
  EXPECT_EQ(store->journal()->appended(), 1u);
  EXPECT_EQ(raw.text("SELECT COUNT(*) FROM moves"), "0");
  // ...but a read through the store stores it first.
  auto detail = store->game_detail(id);
  ASSERT_TRUE(detail) << detail.error();
  ASSERT_EQ(detail->moves.size(), 1u);
  EXPECT_EQ(detail->moves[0].move, "e2e4");
  EXPECT_EQ(raw.text("SELECT COUNT(*) FROM moves"), "1");
  auto listed = store->list_games({"", 0, false, 10, 0, false});
  ASSERT_TRUE(listed);
  ASSERT_EQ(listed->size(), 1u);
  ASSERT_TRUE(append(*store, mv(id, 1, "e7e5")));
  listed = store->list_games({"", 0, false, 10, 0, false});
  EXPECT_EQ(listed->front().plies, 2);
}

TEST(MoveJournal, AFinishedGameHoldsEveryJournaledMoveAndTheResultInOrder) {
  test::TempDir dir;
  const std::string path = dir.file("arena.db");
  auto store = open_slow(path);
  const GameId id = new_game(*store);
  ASSERT_TRUE(append(*store, mv(id, 0, "f2f3")));
  ASSERT_TRUE(append(*store, mv(id, 1, "e7e5")));
  std::promise<Expected<void>> finished;
  store->finish_game({id, "0-1", "checkmate", "final"},
                     [&](Expected<void> r) { finished.set_value(std::move(r)); });
  // The finish does not wait a minute: it takes the journaled moves into its commit.
  ASSERT_EQ(finished.get_future().wait_for(10s), std::future_status::ready);
  test::RawDb raw(path, /*read_only=*/true);
  EXPECT_EQ(raw.text("SELECT group_concat(move, ' ') FROM (SELECT move FROM moves ORDER BY ply)"),
            "f2f3 e7e5");
  EXPECT_EQ(raw.text("SELECT result FROM games"), "0-1");
  // After the end a move is refused by the writer's checks, as without the journal.
  auto late = append(*store, mv(id, 2, "g2g4"));
  ASSERT_FALSE(late);
  EXPECT_NE(late.error().find("already finished"), std::string::npos) << late.error();
}

TEST(MoveJournal, MovesTheJournalCannotVouchForGetTheWritersErrors) {
  test::TempDir dir;
  auto store = open_slow(dir.file("arena.db"));
  const GameId id = new_game(*store);
  auto unknown = append(*store, mv(id + 100, 0, "e2e4"));
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().find("does not exist"), std::string::npos) << unknown.error();
  auto skipped = append(*store, mv(id, 1, "e2e4"));
  ASSERT_FALSE(skipped);
  EXPECT_NE(skipped.error().find("expects ply 0"), std::string::npos) << skipped.error();
  EXPECT_EQ(store->journal()->appended(), 0u);
  ASSERT_TRUE(append(*store, mv(id, 0, "e2e4")));
  EXPECT_EQ(store->journal()->appended(), 1u);
}

// The crash the journal is for: acknowledged moves still only in the journal when the process
// is killed. The next open stores them before anything else and deletes the old segments.
TEST(MoveJournal, AKilledProcesssJournaledMovesAreStoredAtTheNextOpen) {
  test::TempDir dir;
  const std::string path = dir.file("arena.db");
  GameId id = 0;
  {
    auto store = open_slow(path);
    id = new_game(*store);
  }
  const pid_t pid = fork();
  if (pid == 0) {
    auto store = open_slow(path);
    bool ok = store != nullptr;
    for (int ply = 0; ply < 5 && ok; ++ply) {
      MoveRecord m = mv(id, ply, "m" + std::to_string(ply));
      m.score = ply * 10;
      m.pv = "pv" + std::to_string(ply);
      ok = static_cast<bool>(append(*store, m));
    }
    if (!ok) _exit(3);
    raise(SIGKILL);  // no destructor runs: the writer never stored them
    _exit(4);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "child status " << status;
  {
    test::RawDb raw(path, /*read_only=*/true);
    EXPECT_EQ(raw.text("SELECT COUNT(*) FROM moves"), "0") << "the writer stored them already";
  }
  EXPECT_EQ(segment_files(path), 1u);
  // A torn record after the last whole one (what a kill mid-write could leave) is ignored.
  for (const auto& e : std::filesystem::directory_iterator(dir.path()))
    if (e.path().filename().string().rfind("arena.db-moves-", 0) == 0)
      std::ofstream(e.path(), std::ios::app) << "\x30\x00\x00\x00garbage";
  testing::internal::CaptureStderr();
  auto store = open_slow(path);
  const std::string said = testing::internal::GetCapturedStderr();
  ASSERT_NE(store, nullptr);
  EXPECT_NE(said.find("the last run did not stop cleanly; journaled moves stored now: 5, "
                      "already stored: 0"),
            std::string::npos)
      << said;
  auto detail = store->game_detail(id);
  ASSERT_TRUE(detail) << detail.error();
  ASSERT_EQ(detail->moves.size(), 5u);
  for (int ply = 0; ply < 5; ++ply) {
    EXPECT_EQ(detail->moves[static_cast<std::size_t>(ply)].move, "m" + std::to_string(ply));
    EXPECT_EQ(detail->moves[static_cast<std::size_t>(ply)].score, ply * 10);
    EXPECT_EQ(detail->moves[static_cast<std::size_t>(ply)].pv, "pv" + std::to_string(ply));
  }
  EXPECT_EQ(segment_files(path), 1u) << "the old segment is deleted, a new one is open";
  // The game goes on from ply 5, through the journal again.
  ASSERT_TRUE(append(*store, mv(id, 5, "m5")));
  EXPECT_EQ(store->journal()->appended(), 1u);
  store.reset();
  // Opened again: nothing is stored twice.
  store = open_slow(path);
  auto again = store->game_detail(id);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->moves.size(), 6u);
}

TEST(MoveJournal, ASecondProcessOnTheSameFileWritesMovesWithoutTheJournal) {
  test::TempDir dir;
  const std::string path = dir.file("arena.db");
  auto first = open_slow(path);
  ASSERT_NE(first->journal(), nullptr);
  const GameId id = new_game(*first);
  ASSERT_TRUE(append(*first, mv(id, 0, "e2e4")));
  // flock locks belong to the open file, so a second open in this process is refused as a
  // second process would be.
  auto second = open_slow(path);
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(second->journal(), nullptr);
  const GameId other = new_game(*second);
  ASSERT_TRUE(append(*second, mv(other, 0, "d2d4")));
  test::RawDb raw(path, /*read_only=*/true);
  EXPECT_EQ(raw.text("SELECT move FROM moves WHERE game_id = " + std::to_string(other)), "d2d4");
  second.reset();
  EXPECT_EQ(segment_files(path), 1u) << "the second store left the first one's journal alone";
  auto detail = first->game_detail(id);
  ASSERT_EQ(detail->moves.size(), 1u);
}

// `arena export` while the server runs: a second store on the file (no journal of its own)
// reads a live game's moves that the server acknowledged and has not stored in SQLite yet.
TEST(MoveJournal, ASecondStoreReadsTheMovesTheFirstHasOnlyJournaled) {
  test::TempDir dir;
  const std::string path = dir.file("arena.db");
  auto first = open_slow(path);
  const GameId id = new_game(*first);
  for (int ply = 0; ply < 3; ++ply)
    ASSERT_TRUE(append(*first, mv(id, ply, "m" + std::to_string(ply))));
  {
    test::RawDb raw(path, /*read_only=*/true);
    ASSERT_EQ(raw.text("SELECT COUNT(*) FROM moves"), "0") << "the writer stored them already";
  }
  auto second = open_slow(path);
  ASSERT_NE(second, nullptr);
  ASSERT_EQ(second->journal(), nullptr);
  auto seen = [&second, id] {
    auto d = second->game_detail(id);
    EXPECT_TRUE(d) << d.error();
    std::string moves;
    for (const auto& m : d->moves) moves += (moves.empty() ? "" : " ") + m.move;
    EXPECT_EQ(d->summary.plies, static_cast<int>(d->moves.size()));
    return moves;
  };
  EXPECT_EQ(seen(), "m0 m1 m2");
  first->flush();  // stored now, still in the journal's current segment: not read twice
  EXPECT_EQ(seen(), "m0 m1 m2");
  ASSERT_TRUE(append(*first, mv(id, 3, "m3")));
  EXPECT_EQ(seen(), "m0 m1 m2 m3");
  std::promise<Expected<void>> finished;
  first->finish_game({id, "1-0", "resignation", "final"},
                     [&](Expected<void> r) { finished.set_value(std::move(r)); });
  ASSERT_TRUE(finished.get_future().get());
  EXPECT_EQ(seen(), "m0 m1 m2 m3");
}

TEST(MoveJournal, SegmentsAreDeletedOnceTheirMovesAreStored) {
  test::TempDir dir;
  const std::string path = dir.file("arena.db");
  SqliteOptions options;
  options.journal_segment_bytes = 256;  // a few records each
  options.journal_defer = 1ms;
  auto opened = open_sqlite_store(path, options);
  ASSERT_TRUE(opened) << opened.error();
  auto store = std::move(*opened);
  const GameId id = new_game(*store);
  for (int ply = 0; ply < 200; ++ply)
    ASSERT_TRUE(append(*store, mv(id, ply, "move" + std::to_string(ply))));
  store->flush();
  EXPECT_LE(segment_files(path), 2u) << "stored segments are deleted as the writer goes";
  EXPECT_LE(store->journal()->segments(), 2u);
  auto detail = store->game_detail(id);
  ASSERT_EQ(detail->moves.size(), 200u);
  store.reset();
  EXPECT_EQ(segment_files(path), 0u) << "a clean close leaves no segment";
}

// Makes SQLite refuse to insert `move` (a trigger), as a full disk or an I/O error would.
bool refuse_inserts_of(test::RawDb& raw, const std::string& move) {
  return raw.exec("CREATE TRIGGER refuse BEFORE INSERT ON moves WHEN NEW.move = '" + move +
                  "' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END");
}

// A journaled move is acknowledged before SQLite stores it. Should its insert fail (here a
// trigger refuses it, as a full disk or an I/O error would), the move is logged with its game
// and ply, counted (also in queue_length, /metrics' arena_store_queue_length), and kept in the
// journal: the next start stores it, even into a game that has ended since.
TEST(MoveJournal, AMoveWhoseInsertFailsIsLoggedCountedAndStoredAtTheNextStart) {
  test::TempDir dir;
  const std::string path = dir.file("arena.db");
  auto store = open_slow(path);
  const GameId id = new_game(*store);
  ASSERT_TRUE(append(*store, mv(id, 0, "e2e4")));
  store->flush();
  test::RawDb raw(path);
  ASSERT_TRUE(refuse_inserts_of(raw, "e7e5"));
  testing::internal::CaptureStderr();
  ASSERT_TRUE(append(*store, mv(id, 1, "e7e5")));  // acknowledged: it is in the journal
  ASSERT_TRUE(append(*store, mv(id, 2, "g1f3")));
  store->flush();
  std::string said = testing::internal::GetCapturedStderr();
  EXPECT_NE(said.find("game " + std::to_string(id) +
                      " ply 1: an acknowledged move could not be stored in SQLite: "),
            std::string::npos)
      << said;
  EXPECT_NE(said.find("refused by the test"), std::string::npos) << said;
  EXPECT_NE(said.find("game " + std::to_string(id) + " ply 2: "), std::string::npos) << said;
  EXPECT_EQ(store->failed_journaled_moves(), 2u);
  EXPECT_EQ(store->unstored_journaled_moves(), 2u);
  EXPECT_EQ(store->queue_length(), 2u) << "/metrics shows them as not stored yet";
  EXPECT_EQ(store->game_detail(id)->moves.size(), 1u);
  // The game ends while they still cannot be stored: the result is stored...
  std::promise<Expected<void>> finished;
  store->finish_game({id, "1-0", "resignation", "final"},
                     [&](Expected<void> r) { finished.set_value(std::move(r)); });
  ASSERT_TRUE(finished.get_future().get());
  store.reset();
  EXPECT_GE(segment_files(path), 1u) << "the journal keeps the moves that are not stored";
  ASSERT_TRUE(raw.exec("DROP TRIGGER refuse"));
  // ...and the next start stores the moves into the ended game.
  testing::internal::CaptureStderr();
  store = open_slow(path);
  said = testing::internal::GetCapturedStderr();
  ASSERT_NE(store, nullptr);
  EXPECT_NE(said.find("journaled moves stored now: 2, already stored: 1"), std::string::npos)
      << said;
  EXPECT_NE(said.find("of those, 2 went into games that had ended"), std::string::npos) << said;
  auto detail = store->game_detail(id);
  ASSERT_TRUE(detail) << detail.error();
  ASSERT_EQ(detail->moves.size(), 3u);
  EXPECT_EQ(detail->moves[1].move, "e7e5");
  EXPECT_EQ(detail->moves[2].move, "g1f3");
  EXPECT_EQ(detail->summary.result, "1-0");
  store.reset();
  EXPECT_EQ(segment_files(path), 0u);
}

// Once the failure has passed, the game's next move takes the failed ones with it (in order),
// and the journal deletes their segments as usual.
TEST(MoveJournal, AMoveWhoseInsertFailedIsStoredWithItsGamesNextMove) {
  test::TempDir dir;
  const std::string path = dir.file("arena.db");
  auto store = open_slow(path);
  const GameId id = new_game(*store);
  ASSERT_TRUE(append(*store, mv(id, 0, "e2e4")));
  store->flush();
  test::RawDb raw(path);
  ASSERT_TRUE(refuse_inserts_of(raw, "e7e5"));
  testing::internal::CaptureStderr();
  ASSERT_TRUE(append(*store, mv(id, 1, "e7e5")));
  store->flush();
  ASSERT_EQ(store->unstored_journaled_moves(), 1u);
  ASSERT_TRUE(raw.exec("DROP TRIGGER refuse"));
  ASSERT_TRUE(append(*store, mv(id, 2, "g1f3")));
  store->flush();
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_NE(said.find("game " + std::to_string(id) +
                      ": 1 acknowledged moves that had failed (plies 1 to 1) are stored now"),
            std::string::npos)
      << said;
  EXPECT_EQ(store->unstored_journaled_moves(), 0u);
  EXPECT_EQ(store->queue_length(), 0u);
  EXPECT_EQ(store->failed_journaled_moves(), 1u);
  auto detail = store->game_detail(id);
  ASSERT_TRUE(detail) << detail.error();
  ASSERT_EQ(detail->moves.size(), 3u);
  EXPECT_EQ(detail->moves[1].move, "e7e5");
  EXPECT_EQ(detail->moves[2].move, "g1f3");
  store.reset();
  EXPECT_EQ(segment_files(path), 0u) << "every move is stored: the journal is deleted";
}

// The writer runs at a lower priority than the threads that append: were it to take their
// lock, a busy machine could preempt it holding the lock and make a move wait behind every
// busy thread. It rotates segments without the journal's lock.
TEST(MoveJournal, TheWriterStoresAndRotatesWithoutTheAppendersLock) {
  test::TempDir dir;
  const std::string path = dir.file("arena.db");
  SqliteOptions options;
  options.journal_segment_bytes = 64;  // every record fills its segment
  options.journal_defer = std::chrono::minutes(1);
  auto opened = open_sqlite_store(path, options);
  ASSERT_TRUE(opened) << opened.error();
  auto store = std::move(*opened);
  const GameId id = new_game(*store);
  for (int ply = 0; ply < 6; ++ply)
    ASSERT_TRUE(append(*store, mv(id, ply, "move" + std::to_string(ply))));
  {
    std::lock_guard hold(store->journal()->mutex());  // as an appending thread would
    auto flushed = std::async(std::launch::async, [&store] { store->flush(); });
    ASSERT_EQ(flushed.wait_for(20s), std::future_status::ready)
        << "the writer waited for the appenders' lock";
  }
  for (int ply = 6; ply < 12; ++ply)
    ASSERT_TRUE(append(*store, mv(id, ply, "move" + std::to_string(ply))));
  store->flush();
  EXPECT_LE(segment_files(path), 2u) << "the segments of stored moves are deleted";
  auto detail = store->game_detail(id);
  ASSERT_TRUE(detail) << detail.error();
  ASSERT_EQ(detail->moves.size(), 12u);
  for (int ply = 0; ply < 12; ++ply)
    EXPECT_EQ(detail->moves[static_cast<std::size_t>(ply)].move, "move" + std::to_string(ply));
  store.reset();
  EXPECT_EQ(segment_files(path), 0u);
}

// With the journal no move waits for the writer or the checkpointer, so they yield the CPUs to
// the I/O threads; without it every move waits for the writer, which keeps normal priority.
TEST(MoveJournal, WithTheJournalTheWriterAndCheckpointerRunAtALowerPriority) {
  test::TempDir dir;
  {
    auto store = open_sqlite_store(dir.file("a.db"));
    ASSERT_TRUE(store) << store.error();
    ASSERT_NE((*store)->journal(), nullptr);
    const int base = own_nice();  // 0 unless ctest runs under nice
    const int expected = std::min(19, base + SqliteOptions{}.background_nice);
    ASSERT_GT(SqliteOptions{}.background_nice, 0);
    if (expected == base) GTEST_SKIP() << "this test runs at nice " << base << ": none lower";
    // The threads set it as they start: wait for that (a write has passed the writer's start).
    ASSERT_TRUE((*store)->find_or_create_player("a", true));
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (nice_of_thread("arena-checkpt") != expected &&
           std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(1ms);
    EXPECT_EQ(nice_of_thread("arena-writer"), expected);
    EXPECT_EQ(nice_of_thread("arena-checkpt"), expected);
  }
  SqliteOptions options;
  options.move_journal = false;
  auto store = open_sqlite_store(dir.file("b.db"), options);
  ASSERT_TRUE(store) << store.error();
  ASSERT_TRUE((*store)->find_or_create_player("a", true));
  EXPECT_EQ(nice_of_thread("arena-writer"), own_nice());
}

}  // namespace
}  // namespace arena::db
