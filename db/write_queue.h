#pragma once
// The store's single writer: one thread, one connection, one FIFO queue.
//
// Group commit: when the thread wakes it takes every waiting job (up to max_batch) and runs them
// in ONE transaction, each inside its own savepoint so that a failing job (a bad game id) is
// rolled back alone and the others still commit. Callbacks run on the writer thread after the
// COMMIT returned, i.e. when the writes are durable. Jobs run in the order they were posted,
// so writes posted by one thread land in that thread's order.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "db/sqlite_db.h"
#include "games/core/expected.h"

namespace arena::db {

// Lowers the calling thread's priority by `nice` steps below the one it started with (Linux
// keeps a nice value per thread, inherited from the creating thread): a positive step lets
// every thread of the process's priority run first when the CPUs are busy, also in a process
// started under `nice`. The result is capped at 19. 0 does nothing; a failure is ignored: it
// costs only that preference. Returns the thread's nice value before the change.
int set_thread_nice(int nice);

// The writer's priority while someone waits for it. A writer at a positive nice value makes
// whoever waits for it (run(), flush(): a synchronous write, a read that first stores the
// journaled moves) wait behind every busy thread of normal priority: a priority inversion
// (bench_store_faults --phase inversion measures it; figures in db/README.md). So while at
// least one thread waits in run() or flush(), the writer runs at the priority it started with
// (the process's, nice 0 unless the process was started under `nice`), and goes back down when
// the last one returns. Going back up in priority needs CAP_SYS_NICE or an RLIMIT_NICE of 20; a
// process without either keeps the inversion (boost_refusals() counts the refused tries).
class WriteQueue {
 public:
  // A unit of work on the writer connection, inside a transaction the queue owns.
  using Job = std::function<Expected<void>(Connection&)>;
  using Done = std::function<void(Expected<void>)>;

  // `when_idle` (may be empty) runs on the writer thread, with its connection and outside any
  // transaction, each time a batch leaves the queue empty: upkeep that must not hold up writes.
  //
  // `window` (0: none) is a group-commit window. When the first job of a batch came less than
  // `window` after the job before it (writes are arriving close together), the thread waits
  // until `window` after that first job was posted, or until max_batch jobs wait, before it
  // begins the transaction, so that more jobs share the commit. A job after a quiet spell is
  // written at once. It trades latency (up to `window` per write) for fewer commits and less
  // CPU per write: see bench/store.cpp's `gather`.
  //
  // `defer` is how long a job posted with post_deferred may wait for company (see there).
  // `nice` is how many steps the thread runs below the process's priority (set_thread_nice);
  // 0 keeps the process's. With `boost_when_waited` (the default) the thread runs at the
  // process's priority while anyone waits for it (see above); false keeps the lower one
  // throughout (what bench_store_faults --phase inversion compares it with).
  WriteQueue(Connection connection, std::size_t max_batch,
             std::function<void(Connection&)> when_idle = {},
             std::chrono::microseconds window = std::chrono::microseconds{0},
             std::chrono::milliseconds defer = std::chrono::milliseconds{20}, int nice = 0,
             bool boost_when_waited = true);
  // Runs every queued job, then stops the thread.
  ~WriteQueue();
  WriteQueue(const WriteQueue&) = delete;
  WriteQueue& operator=(const WriteQueue&) = delete;

  // Queues `job`; `done` (may be empty) gets its result once it is durable.
  void post(Job job, Done done);
  // Queues a job nobody waits for (its data is already safe elsewhere: the move journal). It
  // does not wake the thread: it is written with the next job posted with post(), at a
  // flush(), when max_batch jobs wait, or at the latest `defer` after the oldest waiting one
  // was posted. Many share one commit, which costs far less CPU per job than a commit each.
  void post_deferred(Job job, Done done);
  // Runs `job` through the queue and waits until it is durable. On the writer thread itself
  // (inside a callback) it runs at once in its own transaction instead of deadlocking.
  Expected<void> run(Job job);
  // Jobs posted and not yet durable (including a batch being committed).
  std::size_t size() const;
  // Blocks until every job posted before the call is durable and its callback has returned.
  // Deferred jobs are written at once. On the writer thread itself it returns at once.
  void flush();
  // Transactions committed so far (for tests and metrics: fewer than jobs means grouping),
  // counted before their callbacks run.
  std::size_t commits() const;
  // Times a waiter raised the writer back to the process's priority, and tries the system
  // refused (see above).
  std::size_t boosts() const;
  std::size_t boost_refusals() const;

 private:
  using Clock = std::chrono::steady_clock;
  struct Item {
    Job job;
    Done done;
    Clock::time_point posted;
    bool follows_closely = false;  // posted less than window_ after the job before it
    bool deferred = false;         // post_deferred: nobody waits for it
    std::uint64_t seq = 0;         // 1, 2, ... in posting order
  };

  // Under mutex_: whether queued jobs must be written now (a job from post(), a flush, or a
  // full batch waits), so that the thread must not sleep.
  bool must_run() const;
  void push(Job job, Done done, bool deferred);

  // Under mutex_: a thread begins or ends waiting for the writer (the priority boost).
  void begin_wait();
  void end_wait();

  void loop();
  void run_batch(std::deque<Item>& batch);
  Expected<void> run_one(Job& job);

  Connection connection_;
  std::size_t max_batch_;
  std::function<void(Connection&)> when_idle_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable idle_;
  std::deque<Item> queue_;
  std::size_t in_flight_ = 0;
  std::size_t commits_ = 0;
  std::size_t urgent_ = 0;           // queued jobs from post() (not deferred)
  std::size_t flushes_waiting_ = 0;  // flush() calls waiting: deferred jobs go at once
  std::uint64_t posted_seq_ = 0;     // the last job's seq
  std::uint64_t done_seq_ = 0;       // every job up to this seq is durable and called back
  bool stopping_ = false;
  std::chrono::microseconds window_;
  std::chrono::milliseconds defer_;
  Clock::time_point last_post_{};  // when the last job was posted
  bool waiting_for_work_ = false;  // the thread sleeps until a job comes: a post must wake it
  int nice_;                    // steps below the process's priority
  int base_nice_ = 0;           // the thread's nice value at its start, lowered_nice_ after
  int lowered_nice_ = 0;
  bool boost_when_waited_;
  int tid_ = 0;                 // the writer thread's id once it runs (under mutex_)
  std::size_t waiters_ = 0;     // threads in run() or flush()
  bool boosted_ = false;        // the writer runs at base_nice_ for them
  bool boost_refused_ = false;  // the system refused: not tried again
  std::size_t boosts_ = 0, boost_refusals_ = 0;
  std::thread thread_;             // last: starts after everything above is ready
};

}  // namespace arena::db
