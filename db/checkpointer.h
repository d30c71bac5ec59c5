#pragma once
// Checkpointer: moves the WAL into the database file from its own thread and connection, so
// the writer never waits for that copy. With SQLite's automatic checkpoint, the commit that
// crosses the WAL size limit copies the log into the database and syncs it inside COMMIT, and
// every move waiting for that commit waits for the disk too (db/README.md, "Measured"). The
// writer connection turns the automatic checkpoint off
// (wal_autocheckpoint = 0); this thread runs a PASSIVE checkpoint every `interval`, which never
// blocks the writer or the readers.
//
// The log starts again from its beginning only when a writer finds it entirely copied, which a
// busy writer never does (it appends while the copy runs). So past `restart_frames` this thread
// raises `restart_wanted`, and the writer, the next time its queue is empty, runs a PASSIVE
// checkpoint itself (writer_checkpoint): it copies only the little appended since this
// thread's last round, nothing can be appended meanwhile, and its next commit starts the log
// over. Before it raises the flag for a log of 4 MiB or more, this thread catches up once
// more and syncs the database file and the log itself, so that the writer's checkpoint syncs
// only what came after. Only a writer asked a round ago that has not been idle since, with a
// log past 16 times `restart_frames`, gets a RESTART checkpoint from here, which holds it up
// for the copy (so it is the last resort; a fast writer's first request is always its own).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>

#include "db/sqlite_db.h"

namespace arena::db {

class Checkpointer {
 public:
  // The log (in 4 KiB frames) from which a round catches up and syncs before asking for a
  // restart (see above): 4 MiB.
  static constexpr int kCatchUpFrames = 1024;

  // `nice`: steps below the process's priority (0: the process's; write_queue.h's
  // set_thread_nice).
  Checkpointer(Connection connection, std::chrono::milliseconds interval, int restart_frames,
               std::atomic<bool>& restart_wanted, int nice = 0);
  // Stops the thread after a last checkpoint.
  ~Checkpointer();
  Checkpointer(const Checkpointer&) = delete;
  Checkpointer& operator=(const Checkpointer&) = delete;

  // Checkpoints run so far, and of those how many copied the whole log.
  std::size_t runs() const;
  std::size_t complete_runs() const;
  // RESTART checkpoints forced because the log had grown past 16 x restart_frames.
  std::size_t restarts() const;
  // Rounds that caught up and synced both files before asking for the log to start over.
  std::size_t syncs_before_restart() const;

 private:
  void loop();
  void checkpoint();
  // Syncs the database file (SQLITE_FCNTL_FILE_POINTER) or the log (..._JOURNAL_POINTER)
  // through this connection's handle; returns an SQLite result code.
  int sync_file(int which);

  Connection connection_;
  std::chrono::milliseconds interval_;
  int restart_frames_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  bool opened_ = false;  // only on the thread
  std::atomic<bool>& restart_wanted_;
  std::size_t runs_ = 0, complete_runs_ = 0, restarts_ = 0, syncs_before_restart_ = 0;
  std::thread thread_;  // last: started once everything above is ready
};

// The writer's part (see above), for WriteQueue's idle hook: if a restart is wanted, a PASSIVE
// checkpoint on the writer's connection; wanted again if it could not copy everything.
// Returns whether it ran one.
bool writer_checkpoint(Connection& writer, std::atomic<bool>& restart_wanted);

}  // namespace arena::db
