#include "db/write_queue.h"

#include <pthread.h>

#include <cstdio>
#include <exception>
#include <future>
#include <utility>
#include <vector>

namespace arena::db {

WriteQueue::WriteQueue(Connection connection, std::size_t max_batch,
                       std::function<void(Connection&)> when_idle, std::chrono::microseconds window)
    : connection_(std::move(connection)),
      max_batch_(max_batch == 0 ? 1 : max_batch),
      when_idle_(std::move(when_idle)),
      window_(window),
      thread_([this] {
        pthread_setname_np(pthread_self(), "arena-writer");  // for top -H and perf
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

void WriteQueue::post(Job job, Done done) {
  bool wake = false;
  {
    std::lock_guard lock(mutex_);
    const auto now = Clock::now();
    const bool follows_closely = window_.count() > 0 && now - last_post_ < window_;
    last_post_ = now;
    queue_.push_back({std::move(job), std::move(done), now, follows_closely});
    // While the thread waits out a window, only a full batch wakes it early: a wake-up per
    // post would cost the context switches the window is there to save.
    wake = waiting_for_work_ || queue_.size() >= max_batch_;
  }
  if (wake) wake_.notify_one();
}

Expected<void> WriteQueue::run(Job job) {
  if (std::this_thread::get_id() == thread_.get_id()) return run_one(job);
  std::promise<Expected<void>> promise;
  auto result = promise.get_future();
  post(std::move(job), [&promise](Expected<void> r) { promise.set_value(std::move(r)); });
  return result.get();
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
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [this] { return queue_.empty() && in_flight_ == 0; });
}

void WriteQueue::loop() {
  for (;;) {
    std::deque<Item> batch;
    {
      std::unique_lock lock(mutex_);
      waiting_for_work_ = true;
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      waiting_for_work_ = false;
      if (queue_.empty()) return;  // stopping and drained
      if (queue_.front().follows_closely)
        wake_.wait_until(lock, queue_.front().posted + window_,
                         [this] { return stopping_ || queue_.size() >= max_batch_; });
      while (!queue_.empty() && batch.size() < max_batch_) {
        batch.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
      in_flight_ = batch.size();
    }
    run_batch(batch);
    // Destroyed before flush() may return: a callback can hold the last reference to its
    // caller's objects (a server's Match and its timer), which must not outlive the caller.
    batch.clear();
    bool empty = false;
    {
      std::lock_guard lock(mutex_);
      in_flight_ = 0;
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
