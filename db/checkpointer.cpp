#include "db/checkpointer.h"

#include <pthread.h>

#include <sqlite3.h>

namespace arena::db {

Checkpointer::Checkpointer(Connection connection, std::chrono::milliseconds interval,
                           int restart_frames, std::atomic<bool>& restart_wanted)
    : connection_(std::move(connection)),
      interval_(interval),
      restart_frames_(restart_frames),
      restart_wanted_(restart_wanted),
      thread_([this] {
        pthread_setname_np(pthread_self(), "arena-checkpt");  // for top -H and perf
        loop();
      }) {}

Checkpointer::~Checkpointer() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

std::size_t Checkpointer::runs() const {
  std::lock_guard lock(mutex_);
  return runs_;
}

std::size_t Checkpointer::restarts() const {
  std::lock_guard lock(mutex_);
  return restarts_;
}

std::size_t Checkpointer::complete_runs() const {
  std::lock_guard lock(mutex_);
  return complete_runs_;
}

void Checkpointer::loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    const bool stop = wake_.wait_for(lock, interval_, [this] { return stopping_; });
    lock.unlock();
    checkpoint();
    lock.lock();
    if (stop) return;
  }
}

void Checkpointer::checkpoint() {
  if (!opened_) {
    // A new connection opens the log lazily, at its first read; until then a checkpoint
    // reports -1 frames and copies nothing.
    opened_ = static_cast<bool>(
        connection_.exec("PRAGMA busy_timeout = 200; SELECT count(*) FROM sqlite_master"));
    if (!opened_) return;
  }
  int log_frames = 0, copied = 0;
  // A busy database (another checkpoint, a writer restarting the log) is tried again next
  // round; any other failure too: the WAL only grows meanwhile, nothing is lost.
  int rc = sqlite3_wal_checkpoint_v2(connection_.handle(), nullptr, SQLITE_CHECKPOINT_PASSIVE,
                                     &log_frames, &copied);
  bool restarted = false;
  if (rc == SQLITE_OK && log_frames > 16 * restart_frames_) {
    rc = sqlite3_wal_checkpoint_v2(connection_.handle(), nullptr, SQLITE_CHECKPOINT_RESTART,
                                   &log_frames, &copied);
    restarted = rc == SQLITE_OK;
  } else if (rc == SQLITE_OK && log_frames > restart_frames_) {
    restart_wanted_ = true;
  }
  std::lock_guard lock(mutex_);
  ++runs_;
  restarts_ += restarted;
  if (rc == SQLITE_OK && log_frames >= 0 && copied == log_frames) ++complete_runs_;
}

bool writer_checkpoint(Connection& writer, std::atomic<bool>& restart_wanted) {
  if (!restart_wanted.exchange(false)) return false;
  int log_frames = 0, copied = 0;
  const int rc = sqlite3_wal_checkpoint_v2(writer.handle(), nullptr, SQLITE_CHECKPOINT_PASSIVE,
                                           &log_frames, &copied);
  if (rc != SQLITE_OK || copied != log_frames) restart_wanted = true;  // the next idle moment
  return true;
}

}  // namespace arena::db
