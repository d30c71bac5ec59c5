#include "db/checkpointer.h"

#include <pthread.h>

#include <sqlite3.h>

#include "db/write_queue.h"  // set_thread_nice

namespace arena::db {

Checkpointer::Checkpointer(Connection connection, std::chrono::milliseconds interval,
                           int restart_frames, std::atomic<bool>& restart_wanted, int nice)
    : connection_(std::move(connection)),
      interval_(interval),
      restart_frames_(restart_frames),
      restart_wanted_(restart_wanted),
      thread_([this, nice] {
        pthread_setname_np(pthread_self(), "arena-checkpt");  // for top -H and perf
        set_thread_nice(nice);
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

std::size_t Checkpointer::syncs_before_restart() const {
  std::lock_guard lock(mutex_);
  return syncs_before_restart_;
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
  // Raised by an earlier round and not yet served: the writer has had no idle moment since.
  const bool asked_before = restart_wanted_.load();
  int log_frames = 0, copied = 0;
  // A busy database (another checkpoint, a writer restarting the log) is tried again next
  // round; any other failure too: the WAL only grows meanwhile, nothing is lost.
  int rc = sqlite3_wal_checkpoint_v2(connection_.handle(), nullptr, SQLITE_CHECKPOINT_PASSIVE,
                                     &log_frames, &copied);
  bool restarted = false, synced = false;
  if (rc == SQLITE_OK && log_frames > restart_frames_) {
    // The log is to start over, and whoever makes it (the writer in its next idle moment, or
    // the RESTART below) runs a last checkpoint that holds the writer up. SQLite syncs the log
    // before a checkpoint and the database file after a complete one, and an fsync costs in
    // proportion to the dirty pages: left to that last checkpoint, the sync of everything this
    // thread had copied would hold every waiting move up. So catch up with what the writer
    // appended during this round's copy, then sync both files from this thread: the last
    // checkpoint copies and syncs only what came after (db/README.md, "Measured"). The catch-up
    // delays the restart by its syncs, during which the writer appends: worth it only for a
    // large log (kCatchUpFrames). Below that the last checkpoint has little to sync anyway,
    // and with a small limit (tests use 64 frames) a slow disk let the log grow past its
    // bound in the parallel test run.
    if (log_frames >= kCatchUpFrames) {
      rc = sqlite3_wal_checkpoint_v2(connection_.handle(), nullptr, SQLITE_CHECKPOINT_PASSIVE,
                                     &log_frames, &copied);
      if (rc == SQLITE_OK) rc = sync_file(SQLITE_FCNTL_FILE_POINTER);
      if (rc == SQLITE_OK) rc = sync_file(SQLITE_FCNTL_JOURNAL_POINTER);
      synced = rc == SQLITE_OK;
    }
    // Should a sync fail, the last checkpoint syncs for itself: slower, nothing lost.
    // Only a writer that was asked a round ago and has not been idle since gets the RESTART:
    // a fast writer asked for the first time gets its idle moment, however large the log.
    if (asked_before && log_frames > 16 * restart_frames_) {
      rc = sqlite3_wal_checkpoint_v2(connection_.handle(), nullptr, SQLITE_CHECKPOINT_RESTART,
                                     &log_frames, &copied);
      restarted = rc == SQLITE_OK;
      if (restarted) restart_wanted_ = false;  // the log started over: nothing left to ask
    } else {
      restart_wanted_ = true;
    }
  }
  std::lock_guard lock(mutex_);
  ++runs_;
  restarts_ += restarted;
  syncs_before_restart_ += synced;
  if (rc == SQLITE_OK && log_frames >= 0 && copied == log_frames) ++complete_runs_;
}

int Checkpointer::sync_file(int which) {
  sqlite3_file* file = nullptr;
  const int rc = sqlite3_file_control(connection_.handle(), "main", which, &file);
  if (rc != SQLITE_OK) return rc;
  if (file == nullptr || file->pMethods == nullptr) return SQLITE_OK;  // not open: nothing to sync
  return file->pMethods->xSync(file, SQLITE_SYNC_NORMAL);
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
