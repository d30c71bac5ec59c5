#include "db/write_queue.h"

#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <future>
#include <utility>
#include <vector>

namespace arena::db {

int set_thread_nice(int nice) {
  // PRIO_PROCESS with 0 is the calling thread on Linux (setpriority(2), "BUGS").
  errno = 0;
  const int before = getpriority(PRIO_PROCESS, 0);
  const int base = before == -1 && errno != 0 ? 0 : before;
  if (nice != 0) (void)setpriority(PRIO_PROCESS, 0, std::min(19, base + nice));
  return base;
}

namespace {

// Another thread's nice value, by its id (Linux: a thread id is a PRIO_PROCESS target).
bool set_nice_of(int tid, int nice) {
  return setpriority(PRIO_PROCESS, static_cast<id_t>(tid), nice) == 0;
}

}  // namespace

WriteQueue::WriteQueue(Connection connection, std::size_t max_batch,
                       std::function<void(Connection&)> when_idle, std::chrono::microseconds window,
                       std::chrono::milliseconds defer, int nice, bool boost_when_waited)
    : connection_(std::move(connection)),
      max_batch_(max_batch == 0 ? 1 : max_batch),
      when_idle_(std::move(when_idle)),
      window_(window),
      defer_(defer),
      nice_(nice),
      boost_when_waited_(boost_when_waited && nice > 0),
      thread_([this] {
        pthread_setname_np(pthread_self(), "arena-writer");  // for top -H and perf
        {
          // Under the lock: a thread already waiting keeps it at base_nice_ (end_wait lowers it).
          std::lock_guard lock(mutex_);
          tid_ = static_cast<int>(gettid());
          base_nice_ = set_thread_nice(0);  // reads it
          lowered_nice_ = std::min(19, base_nice_ + nice_);
          if (waiters_ == 0 || !boost_when_waited_)
            set_thread_nice(nice_);
          else
            boosted_ = true;
        }
        loop();
      }) {}

WriteQueue::~WriteQueue() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void WriteQueue::push(Job job, Done done, bool deferred) {
  const auto now = Clock::now();
  const bool follows_closely = !deferred && window_.count() > 0 && now - last_post_ < window_;
  if (!deferred) {
    last_post_ = now;
    ++urgent_;
  }
  queue_.push_back(
      {std::move(job), std::move(done), now, follows_closely, deferred, ++posted_seq_});
}

bool WriteQueue::must_run() const {
  return !queue_.empty() && (urgent_ > 0 || flushes_waiting_ > 0 || queue_.size() >= max_batch_);
}

void WriteQueue::post(Job job, Done done) {
  bool wake = false;
  {
    std::lock_guard lock(mutex_);
    push(std::move(job), std::move(done), false);
    // While the thread waits out a window, only a full batch wakes it early: a wake-up per
    // post would cost the context switches the window is there to save.
    wake = waiting_for_work_ || queue_.size() >= max_batch_;
  }
  if (wake) wake_.notify_one();
}

void WriteQueue::post_deferred(Job job, Done done) {
  bool wake = false;
  {
    std::lock_guard lock(mutex_);
    push(std::move(job), std::move(done), true);
    // The thread is woken only to start the deferral clock (it slept with nothing queued) or
    // for a full batch: one wake-up per `defer_` at most under a steady flow of moves.
    wake = (waiting_for_work_ && queue_.size() == 1) || queue_.size() >= max_batch_;
  }
  if (wake) wake_.notify_one();
}

void WriteQueue::begin_wait() {
  if (waiters_++ > 0 || !boost_when_waited_ || tid_ == 0 || boosted_ || boost_refused_) return;
  if (set_nice_of(tid_, base_nice_)) {
    boosted_ = true;
    ++boosts_;
  } else {
    boost_refused_ = true;  // no CAP_SYS_NICE, RLIMIT_NICE too low: it would fail every time
    ++boost_refusals_;
    std::fprintf(stderr,
                 "arena store: the writer runs at nice %d and this process may not raise it back "
                 "to %d while a thread waits for it (%s; it needs CAP_SYS_NICE or an RLIMIT_NICE "
                 "of %d): reads and synchronous writes may wait behind busy threads\n",
                 lowered_nice_, base_nice_, std::strerror(errno), 20 - base_nice_);
  }
}

void WriteQueue::end_wait() {
  if (--waiters_ > 0 || !boosted_) return;
  (void)set_nice_of(tid_, lowered_nice_);  // lowering a priority is always allowed
  boosted_ = false;
}

std::size_t WriteQueue::boosts() const {
  std::lock_guard lock(mutex_);
  return boosts_;
}

std::size_t WriteQueue::boost_refusals() const {
  std::lock_guard lock(mutex_);
  return boost_refusals_;
}

Expected<void> WriteQueue::run(Job job) {
  if (std::this_thread::get_id() == thread_.get_id()) return run_one(job);
  std::promise<Expected<void>> promise;
  auto result = promise.get_future();
  {
    std::lock_guard lock(mutex_);
    begin_wait();
  }
  post(std::move(job), [&promise](Expected<void> r) { promise.set_value(std::move(r)); });
  Expected<void> r = result.get();
  std::lock_guard lock(mutex_);
  end_wait();
  return r;
}

std::size_t WriteQueue::size() const {
  std::lock_guard lock(mutex_);
  return queue_.size() + in_flight_;
}

std::size_t WriteQueue::commits() const {
  std::lock_guard lock(mutex_);
  return commits_;
}

void WriteQueue::flush() {
  if (std::this_thread::get_id() == thread_.get_id()) return;  // it would wait for itself
  std::unique_lock lock(mutex_);
  const std::uint64_t target = posted_seq_;
  if (done_seq_ >= target) return;
  ++flushes_waiting_;  // deferred jobs (and a commit window) may not wait any longer
  begin_wait();
  wake_.notify_one();
  idle_.wait(lock, [this, target] { return done_seq_ >= target; });
  --flushes_waiting_;
  end_wait();
}

void WriteQueue::loop() {
  for (;;) {
    std::deque<Item> batch;
    {
      std::unique_lock lock(mutex_);
      // Sleep while nothing is queued, or while only deferred jobs are, younger than defer_.
      while (!stopping_ && !must_run()) {
        waiting_for_work_ = true;
        if (queue_.empty()) {
          wake_.wait(lock);
        } else {
          const auto deadline = queue_.front().posted + defer_;
          if (Clock::now() >= deadline) {
            waiting_for_work_ = false;
            break;
          }
          wake_.wait_until(lock, deadline);
        }
        waiting_for_work_ = false;
      }
      if (queue_.empty()) return;  // only when stopping: drained
      if (queue_.front().follows_closely)
        wake_.wait_until(lock, queue_.front().posted + window_, [this] {
          return stopping_ || flushes_waiting_ > 0 || queue_.size() >= max_batch_;
        });
      while (!queue_.empty() && batch.size() < max_batch_) {
        if (!queue_.front().deferred) --urgent_;
        batch.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
      in_flight_ = batch.size();
    }
    run_batch(batch);
    const std::uint64_t last = batch.back().seq;
    // Destroyed before flush() may return: a callback can hold the last reference to its
    // caller's objects (a server's Match and its timer), which must not outlive the caller.
    batch.clear();
    bool empty = false;
    {
      std::lock_guard lock(mutex_);
      in_flight_ = 0;
      done_seq_ = last;
      empty = queue_.empty();
    }
    idle_.notify_all();
    if (empty && when_idle_) when_idle_(connection_);
  }
}

namespace {

// Prepared once per connection (exec would parse the text again for every job).
Expected<void> run_cached(Connection& c, const std::string& sql) {
  auto stmt = c.prepare(sql);
  if (!stmt) return Error{stmt.error()};
  return stmt->run();
}

}  // namespace

void WriteQueue::run_batch(std::deque<Item>& batch) {
  std::vector<Expected<void>> results;
  results.reserve(batch.size());
  Expected<void> txn = run_cached(connection_, "BEGIN IMMEDIATE");
  if (txn) {
    // A savepoint per job when there are several: a failing job is undone alone and the rest
    // of the batch still commits. A job alone needs none: if it fails, nothing is committed.
    const bool savepoints = batch.size() > 1;
    for (Item& item : batch) {
      Expected<void> r = savepoints ? run_cached(connection_, "SAVEPOINT job") : Expected<void>{};
      if (r) r = item.job(connection_);
      if (savepoints) {
        if (!r) (void)run_cached(connection_, "ROLLBACK TO job");
        (void)run_cached(connection_, "RELEASE job");
      }
      results.push_back(std::move(r));
    }
    const bool only_failure = !savepoints && !results.front();
    txn = only_failure ? run_cached(connection_, "ROLLBACK") : run_cached(connection_, "COMMIT");
    if (!txn) (void)connection_.exec("ROLLBACK");
  }
  {
    // Counted before the callbacks run: a caller that saw its write done sees its commit.
    std::lock_guard lock(mutex_);
    ++commits_;
  }
  for (std::size_t i = 0; i < batch.size(); ++i) {
    if (!batch[i].done) continue;
    Expected<void> r = txn ? std::move(results[i])
                           : Expected<void>(make_error("cannot write database " +
                                                       connection_.path() + ": " + txn.error()));
    try {
      batch[i].done(std::move(r));
    } catch (const std::exception& e) {
      // A throwing callback must not kill the writer: every later write depends on it.
      std::fprintf(stderr, "arena store: a write callback threw: %s\n", e.what());
    }
  }
}

Expected<void> WriteQueue::run_one(Job& job) {
  if (auto ok = connection_.exec("BEGIN IMMEDIATE"); !ok)
    return make_error("cannot write database " + connection_.path() + ": " + ok.error());
  Expected<void> r = job(connection_);
  if (r) r = connection_.exec("COMMIT");
  if (!r) (void)connection_.exec("ROLLBACK");
  return r;
}

}  // namespace arena::db
