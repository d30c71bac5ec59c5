// WriteQueue: a failing job is undone, whether it is alone in its transaction or shares it
// with others, and the jobs around it still commit. The group-commit window holds writes that
// follow one another closely, and only those. Connection keeps no memory statistics.

#include "db/write_queue.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <linux/capability.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/db/temp_dir.h"
#include "tests/db/thread_nice.h"

namespace arena::db {
namespace {

using test::nice_of_thread;
using test::own_nice;

Connection open_table(const std::string& path) {
  auto c = Connection::open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX);
  EXPECT_TRUE(c) << c.error();
  EXPECT_TRUE(c->exec("PRAGMA journal_mode = WAL; CREATE TABLE t (v TEXT NOT NULL)"));
  return std::move(*c);
}

// Inserts `value`, then fails if asked: the row must not survive a failure.
WriteQueue::Job insert(const std::string& value, bool then_fail = false) {
  return [value, then_fail](Connection& c) -> Expected<void> {
    if (auto ok = c.exec("INSERT INTO t (v) VALUES ('" + value + "')"); !ok) return ok;
    if (then_fail) return make_error("job " + value + " failed after writing");
    return {};
  };
}

std::vector<std::string> rows(const std::string& path) {
  auto c = Connection::open(path, SQLITE_OPEN_READONLY);
  EXPECT_TRUE(c) << c.error();
  auto stmt = c->prepare("SELECT v FROM t ORDER BY rowid");
  EXPECT_TRUE(stmt) << stmt.error();
  std::vector<std::string> out;
  while (true) {
    auto row = stmt->step();
    if (!row || !*row) break;
    out.push_back(stmt->text(0));
  }
  return out;
}

// Connection::open turns SQLite's memory statistics off before SQLite's first use (they cost a
// process-wide mutex per allocation): the count of memory in use stays at zero however much
// SQLite allocates. ctest runs every test in a process of its own, so this open is the first.
TEST(Connection, KeepsNoMemoryStatistics) {
  test::TempDir dir;
  const std::string path = dir.file("m.db");
  Connection c = open_table(path);
  for (int i = 0; i < 100; ++i)
    ASSERT_TRUE(c.exec("INSERT INTO t (v) VALUES (hex(randomblob(500)))"));
  sqlite3_int64 now = -1, highest = -1;
  ASSERT_EQ(sqlite3_status64(SQLITE_STATUS_MEMORY_USED, &now, &highest, 0), SQLITE_OK);
  EXPECT_EQ(now, 0);
  EXPECT_EQ(highest, 0);
  EXPECT_EQ(sqlite3_memory_used(), 0);
}

TEST(WriteQueue, AFailingJobAloneCommitsNothing) {
  test::TempDir dir;
  const std::string path = dir.file("q.db");
  WriteQueue queue(open_table(path), 16);
  auto failed = queue.run(insert("half", true));
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error(), "job half failed after writing");
  ASSERT_TRUE(queue.run(insert("whole")));
  EXPECT_EQ(rows(path), std::vector<std::string>{"whole"});
}

TEST(WriteQueue, AFailingJobInABatchIsUndoneAloneAndTheRestCommit) {
  test::TempDir dir;
  const std::string path = dir.file("q.db");
  WriteQueue queue(open_table(path), 16);
  // The first job holds the writer until the next three are queued, so they share a batch.
  std::promise<void> started, release;
  std::shared_future<void> released = release.get_future().share();
  queue.post(
      [&started, released](Connection&) -> Expected<void> {
        started.set_value();
        released.wait();
        return {};
      },
      {});
  started.get_future().wait();
  std::vector<std::promise<Expected<void>>> results(3);
  const std::vector<std::string> values{"a", "b", "c"};
  for (std::size_t i = 0; i < 3; ++i)
    queue.post(insert(values[i], i == 1),
               [&results, i](Expected<void> r) { results[i].set_value(std::move(r)); });
  const std::size_t commits_before = queue.commits();
  release.set_value();
  std::vector<Expected<void>> got;
  for (auto& p : results) got.push_back(p.get_future().get());
  EXPECT_TRUE(got[0]);
  ASSERT_FALSE(got[1]);
  EXPECT_EQ(got[1].error(), "job b failed after writing");
  EXPECT_TRUE(got[2]);
  queue.flush();
  EXPECT_EQ(queue.commits() - commits_before, 2u) << "the held job's commit and one for the batch";
  EXPECT_EQ(rows(path), (std::vector<std::string>{"a", "c"}));
}

// A window far longer than any test: a job it held would make the test wait a minute.
constexpr auto kLongWindow = std::chrono::seconds(60);

TEST(WriteQueue, TheWindowDoesNotHoldAWriteAfterAQuietSpell) {
  test::TempDir dir;
  const std::string path = dir.file("q.db");
  WriteQueue queue(open_table(path), 16, {}, kLongWindow);
  const auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(queue.run(insert("alone")));
  EXPECT_LT(std::chrono::steady_clock::now() - start, kLongWindow / 2);
  EXPECT_EQ(rows(path), std::vector<std::string>{"alone"});
}

TEST(WriteQueue, WritesThatFollowCloselyWaitForTheBatchToFillAndShareOneCommit) {
  test::TempDir dir;
  const std::string path = dir.file("q.db");
  WriteQueue queue(open_table(path), 4, {}, kLongWindow);
  ASSERT_TRUE(queue.run(insert("first")));  // after a quiet spell: at once
  ASSERT_EQ(queue.commits(), 1u);
  std::vector<std::promise<Expected<void>>> results(4);
  const std::vector<std::string> values{"a", "b", "c", "d"};
  auto post = [&](std::size_t i) {
    queue.post(insert(values[i]),
               [&results, i](Expected<void> r) { results[i].set_value(std::move(r)); });
  };
  post(0);  // follows "first" closely: held for the window or a full batch
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(queue.commits(), 1u) << "the write was not held";
  EXPECT_EQ(queue.size(), 1u);
  for (std::size_t i = 1; i < 4; ++i) post(i);  // the batch is full: committed at once
  for (auto& r : results) EXPECT_TRUE(r.get_future().get());
  queue.flush();
  EXPECT_EQ(queue.commits(), 2u);
  EXPECT_EQ(rows(path), (std::vector<std::string>{"first", "a", "b", "c", "d"}));
}

// Deferred jobs (the journaled moves) wait for company: not written by themselves until the
// defer period ends, but at once with the next ordinary job, at a flush, or for a full batch.
TEST(WriteQueue, DeferredJobsWaitUntilAnOrdinaryJobAFlushOrAFullBatchTakesThem) {
  test::TempDir dir;
  const std::string path = dir.file("q.db");
  WriteQueue queue(open_table(path), 4, {}, std::chrono::microseconds{0}, std::chrono::minutes(1));
  std::atomic<int> stored{0};
  auto deferred = [&](const std::string& v) {
    queue.post_deferred(insert(v), [&stored](Expected<void> r) { stored += r ? 1 : 0; });
  };
  deferred("a");
  deferred("b");
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(queue.commits(), 0u) << "a deferred job was written by itself";
  EXPECT_EQ(queue.size(), 2u);
  ASSERT_TRUE(queue.run(insert("c")));  // an ordinary job: takes both into its commit
  EXPECT_EQ(queue.commits(), 1u);
  EXPECT_EQ(stored.load(), 2);
  deferred("d");
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(queue.commits(), 1u);
  queue.flush();  // does not wait a minute
  EXPECT_EQ(queue.commits(), 2u);
  EXPECT_EQ(rows(path), (std::vector<std::string>{"a", "b", "c", "d"}));
  for (const char* v : {"e", "f", "g", "h"}) deferred(v);  // a full batch goes at once
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (stored.load() < 7 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_EQ(stored.load(), 7);
  EXPECT_EQ(queue.commits(), 3u);
}

TEST(WriteQueue, ADeferredJobIsWrittenWhenItsPeriodEnds) {
  test::TempDir dir;
  const std::string path = dir.file("q.db");
  WriteQueue queue(open_table(path), 64, {}, std::chrono::microseconds{0},
                   std::chrono::milliseconds(30));
  std::promise<Expected<void>> done;
  const auto start = std::chrono::steady_clock::now();
  queue.post_deferred(insert("late"), [&](Expected<void> r) { done.set_value(std::move(r)); });
  auto result = done.get_future();
  ASSERT_EQ(result.wait_for(std::chrono::seconds(20)), std::future_status::ready);
  EXPECT_TRUE(result.get());
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(30));
  EXPECT_EQ(rows(path), std::vector<std::string>{"late"});
}

// Whether this process may take a thread from `to` back to `from` (CAP_SYS_NICE, RLIMIT_NICE).
bool may_raise_priority(int from, int to) {
  bool ok = false;
  std::thread([&ok, from, to] {
    ok = setpriority(PRIO_PROCESS, 0, to) == 0 && setpriority(PRIO_PROCESS, 0, from) == 0;
  }).join();
  return ok;
}

// Waits up to 10 s for the writer thread's nice value to become `nice`; returns the last seen.
int wait_for_writer_nice(int nice) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  int seen = nice_of_thread("arena-writer");
  while (seen != nice && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    seen = nice_of_thread("arena-writer");
  }
  return seen;
}

// Posts a job that holds the writer until the returned promise is set, then inserts 'held'.
std::promise<void> hold_writer(WriteQueue& queue) {
  std::promise<void> release;
  auto released = release.get_future().share();
  queue.post(
      [released](Connection& c) {
        released.wait();
        return c.exec("INSERT INTO t (v) VALUES ('held')");
      },
      {});
  return release;
}

// The priority inversion of a writer 10 nice steps down: whoever waits for it (flush, run)
// would wait behind every busy thread of normal priority. While someone waits, it runs at the
// priority it started with (the test's: 0 unless ctest runs under nice).
TEST(WriteQueue, WhileAThreadWaitsForItTheWriterRunsAtNormalPriority) {
  const int base = own_nice(), low = std::min(19, base + 10);
  if (low == base) GTEST_SKIP() << "this test runs at nice " << base << ": no lower priority";
  if (!may_raise_priority(base, low))
    GTEST_SKIP() << "this process may not raise a thread's priority (no CAP_SYS_NICE)";
  test::TempDir dir;
  const std::string path = dir.file("q.db");
  WriteQueue queue(open_table(path), 16, {}, std::chrono::microseconds{0}, std::chrono::minutes(1),
                   /*nice=*/10);
  ASSERT_TRUE(queue.run(insert("first")));  // the thread has started and set its nice value
  ASSERT_EQ(wait_for_writer_nice(low), low);
  // A job that holds the writer until released, and a flush that waits for it.
  std::promise<void> release = hold_writer(queue);
  std::thread flusher([&queue] { queue.flush(); });
  EXPECT_EQ(wait_for_writer_nice(base), base) << "a waiter left the writer at nice " << low;
  release.set_value();
  flusher.join();
  EXPECT_EQ(wait_for_writer_nice(low), low) << "the writer stayed at nice " << base;
  // run() waits too.
  std::promise<void> release_again;
  auto released_again = release_again.get_future().share();
  queue.post_deferred(
      [released_again](Connection& c) {
        released_again.wait();
        return c.exec("INSERT INTO t (v) VALUES ('held again')");
      },
      {});
  std::thread runner([&queue] { EXPECT_TRUE(queue.run(insert("last"))); });
  EXPECT_EQ(wait_for_writer_nice(base), base);
  release_again.set_value();
  runner.join();
  EXPECT_EQ(wait_for_writer_nice(low), low);
  EXPECT_GE(queue.boosts(), 2u);
  EXPECT_EQ(rows(path), (std::vector<std::string>{"first", "held", "held again", "last"}));
}

// Takes CAP_SYS_NICE from the calling thread (capabilities are per thread on Linux).
bool drop_sys_nice_of_this_thread() {
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2]{};
  if (syscall(SYS_capget, &header, data) != 0) return false;
  data[0].effective &= ~(1u << CAP_SYS_NICE);
  return syscall(SYS_capset, &header, data) == 0;
}

// A server started under `nice 5`: its writer runs 10 steps below it (15), and a waiter raises
// it back to 5, never above the process's own priority.
TEST(WriteQueue, UnderNiceTheWriterStaysBelowTheProcessAndIsRaisedOnlyToIt) {
  if (own_nice() != 0) GTEST_SKIP() << "this test runs at nice " << own_nice();
  if (!may_raise_priority(5, 15)) GTEST_SKIP() << "this process may not raise a priority";
  test::TempDir dir;
  const std::string path = dir.file("q.db");
  int started = -100, boosted = -100, after = -100;
  std::thread server([&] {
    ASSERT_EQ(setpriority(PRIO_PROCESS, 0, 5), 0);  // this thread, and so the writer it starts
    WriteQueue queue(open_table(path), 16, {}, std::chrono::microseconds{0},
                     std::chrono::minutes(1), /*nice=*/10);
    ASSERT_TRUE(queue.run(insert("first")));
    started = wait_for_writer_nice(15);
    std::promise<void> release = hold_writer(queue);
    std::thread flusher([&queue] { queue.flush(); });
    boosted = wait_for_writer_nice(5);
    release.set_value();
    flusher.join();
    after = wait_for_writer_nice(15);
  });
  server.join();
  EXPECT_EQ(started, 15);
  EXPECT_EQ(boosted, 5) << "raised to the process's priority, not to nice 0";
  EXPECT_EQ(after, 15);
  EXPECT_EQ(rows(path), (std::vector<std::string>{"first", "held"}));
}

// A process that may not raise a priority back (a container without CAP_SYS_NICE) keeps the
// writer at its nice value, and says once what that costs.
TEST(WriteQueue, AWriterThatMayNotBeRaisedKeepsItsNiceAndSaysSo) {
  rlimit limit{};
  ASSERT_EQ(getrlimit(RLIMIT_NICE, &limit), 0);
  if (limit.rlim_cur >= 20) GTEST_SKIP() << "RLIMIT_NICE lets any thread raise a priority";
  if (own_nice() != 0) GTEST_SKIP() << "this test runs at nice " << own_nice();
  test::TempDir dir;
  const std::string path = dir.file("q.db");
  WriteQueue queue(open_table(path), 16, {}, std::chrono::microseconds{0}, std::chrono::minutes(1),
                   /*nice=*/10);
  queue.post(insert("first"), {});
  ASSERT_EQ(wait_for_writer_nice(10), 10);
  std::promise<void> release = hold_writer(queue);
  testing::internal::CaptureStderr();
  std::promise<bool> dropped;
  std::thread flusher([&queue, &dropped] {
    dropped.set_value(drop_sys_nice_of_this_thread());
    queue.flush();
  });
  ASSERT_TRUE(dropped.get_future().get()) << "capset failed";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (queue.boost_refusals() == 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_EQ(nice_of_thread("arena-writer"), 10);
  release.set_value();
  flusher.join();
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_EQ(queue.boost_refusals(), 1u);
  EXPECT_EQ(queue.boosts(), 0u);
  EXPECT_NE(said.find("the writer runs at nice 10 and this process may not raise it back to 0"),
            std::string::npos)
      << said;
  EXPECT_EQ(nice_of_thread("arena-writer"), 10);
}

}  // namespace
}  // namespace arena::db
