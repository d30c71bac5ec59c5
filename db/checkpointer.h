#pragma once
// Checkpointer: moves the WAL into the database file from its own thread and connection, so
// the writer never does. With SQLite's automatic checkpoint, the commit that crosses the WAL
// size limit copies the log into the database and syncs it inside COMMIT, and every move
// waiting for that commit waits for the disk too (bench_store saw those stalls in the 99th
// percentile). The writer connection turns the automatic checkpoint off
// (wal_autocheckpoint = 0); this thread runs a PASSIVE checkpoint every `interval`, which never
// blocks the writer or the readers: it copies what no reader still needs and leaves the rest
// for the next round. The WAL then restarts from its beginning at the next commit after a
// complete checkpoint.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>

#include "db/sqlite_db.h"

namespace arena::db {

class Checkpointer {
 public:
  Checkpointer(Connection connection, std::chrono::milliseconds interval);
  // Stops the thread after a last checkpoint.
  ~Checkpointer();
  Checkpointer(const Checkpointer&) = delete;
  Checkpointer& operator=(const Checkpointer&) = delete;

  // Checkpoints run so far, and of those how many copied the whole log.
  std::size_t runs() const;
  std::size_t complete_runs() const;
  // RESTART checkpoints run because the log had grown past kRestartFrames.
  std::size_t restarts() const;

  static constexpr int kRestartFrames = 65536;  // 256 MiB of 4 KiB pages

 private:
  void loop();
  void checkpoint();

  Connection connection_;
  std::chrono::milliseconds interval_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  bool opened_ = false;  // only on the thread
  std::size_t runs_ = 0, complete_runs_ = 0, restarts_ = 0;
  std::thread thread_;  // last: started once everything above is ready
};

}  // namespace arena::db
