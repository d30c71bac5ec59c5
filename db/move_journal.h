#pragma once
// MoveJournal: the append-only file that makes a move durable before SQLite stores it.
//
// Why: a move must be durable before the server announces it, and a SQLite commit of its own
// per move costs the writer thread CPU the I/O threads need and holds the announcement up
// (db/README.md, "Measured"). With the journal,
// the I/O thread appends one record (a single pwrite to the page cache, a few microseconds),
// the move is durable against a kill of the process exactly as a WAL commit with
// synchronous=NORMAL is, and the server announces it at once. The writer thread stores the
// journaled moves in SQLite later, many to a commit (WriteQueue::post_deferred), which costs
// a fraction of the CPU. The I/O threads still never wait on SQLite.
//
// Files, beside the database: `<db>-moves.lock` (held with flock by the one process that
// journals; another process that opens the same database, such as `arena export` while the
// server runs, finds it taken and writes its moves the ordinary way) and segments
// `<db>-moves-<n>`. A segment is deleted once every record in it is committed to the
// database; when one grows past segment_limit the next record goes to a new segment. At
// start-up, open_sqlite_store stores the records of the segments a killed process left
// behind (those already stored are skipped) before anything else, then deletes them.
//
// A record: payload length (u32), FNV-1a 64 checksum of the payload (u64), payload (the
// MoveRecord's fields and the time it was made). A record cut short or damaged ends its
// segment: a kill can only cut the record being written, which was never acknowledged.
//
// Threading: append() and the live-game table of SqliteStore are guarded by mutex(); stored()
// and the rotation run on the writer thread, which never takes mutex(): it runs at a lower
// priority (SqliteOptions::background_nice), and an I/O thread waiting for a lock that a
// preempted low-priority thread holds would wait for every busy thread of normal priority
// first. The writer creates the next segment ahead of time and hands it over through atomics;
// the append that finds it there switches to it and hands the old one back the same way.
//
// A record whose commit failed (stored(false)) keeps its segment, and every later one, on
// disk until stored_later() says it was stored after all; otherwise the next start stores it.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "db/store.h"
#include "games/core/expected.h"

namespace arena::db {

struct JournaledMove {
  MoveRecord move;
  std::int64_t created_at_ms = 0;
};

// The payload bytes of one record, and back (nullopt: not a record this version wrote).
std::string encode_journaled_move(const JournaledMove& m);
std::optional<JournaledMove> decode_journaled_move(std::string_view payload);

// The records of game `game` in the journal of the database at `db_path`, in append order,
// read without its lock: what the process holding it has acknowledged and may not have stored
// yet (SqliteStore::game_detail in another process, such as `arena export`). A segment
// deleted meanwhile is skipped (its records were stored).
Expected<std::vector<JournaledMove>> peek_journal(const std::string& db_path, GameId game);

class MoveJournal {
 public:
  // Takes the journal of the database at `db_path`. Null (and no error) when another process
  // holds it. An error names the file when the directory cannot be written.
  static Expected<std::unique_ptr<MoveJournal>> open(const std::string& db_path,
                                                     std::uint64_t segment_limit = 4u << 20);
  // Deletes every segment when all its records were stored (after SqliteStore's last flush).
  ~MoveJournal();
  MoveJournal(const MoveJournal&) = delete;
  MoveJournal& operator=(const MoveJournal&) = delete;

  // The records earlier runs left, oldest first (before start()).
  Expected<std::vector<JournaledMove>> recover();
  // After the recovered records are committed: deletes their segments and opens a new one.
  Expected<void> start();

  std::mutex& mutex() { return mutex_; }
  // Under mutex(): appends one record. On an error (a full disk) nothing was appended.
  Expected<void> append(const JournaledMove& m);
  // Writer thread: the next record in append order is committed to the database (ok) or its
  // commit failed (then no segment from the one holding it on is deleted until stored_later
  // names it: the next start stores it). Returns the record's number (1, 2, ... in append
  // order).
  std::uint64_t stored(bool ok);
  // Writer thread: record `number`, which failed, is committed to the database now.
  void stored_later(std::uint64_t number);
  // Records that failed and are not stored yet.
  std::size_t unstored() const { return unstored_count_.load(); }

  // For tests and the benchmark.
  std::size_t segments();  // on disk now, including the one being written
  std::uint64_t appended() const { return appended_.load(); }
  const std::string& base() const { return base_; }

 private:
  MoveJournal(std::string base, int lock_fd, std::uint64_t segment_limit);
  std::string segment_path(std::uint64_t n) const;
  // Creates segment n, empty, and hands back its descriptor; changes nothing else.
  Expected<int> create_segment(std::uint64_t n) const;
  // Under mutex_: appends go to `fd`, segment n, from now on.
  void use_segment(int fd, std::uint64_t n);
  // Writer thread: takes a segment an append retired, deletes those whose records are all
  // stored, and creates the next segment when the current one is full.
  void tidy();
  void rotate();

  struct Retired {
    int fd = -1;
    std::string path;
    std::uint64_t last_record = 0;  // appended() when it was retired
  };

  std::string base_;  // "<db>-moves"
  int lock_fd_ = -1;
  std::uint64_t segment_limit_;
  std::vector<std::uint64_t> old_segments_;  // left by earlier runs, until start()

  std::mutex mutex_;
  int fd_ = -1;               // the segment being written (under mutex_)
  std::string path_;          // its path
  std::uint64_t offset_ = 0;  // its length (under mutex_)
  std::atomic<std::uint64_t> appended_{0};
  std::atomic<std::uint64_t> segment_bytes_{0};  // offset_, for the writer's rotation check

  // The hand-over between the writer and append() (see Threading). The writer publishes
  // next_path_ and then next_fd_ only while next_fd_ is -1 and retired_ready_ false; an append
  // takes next_fd_, fills handed_, raises retired_ready_ and only then sets next_fd_ to -1 (so
  // the writer never sees both down mid-hand-over); the writer moves handed_ to retired_ and
  // lowers retired_ready_.
  std::atomic<int> next_fd_{-1};
  std::string next_path_;
  std::uint64_t next_number_ = 0;  // writer thread (and start()): the next segment's number
  Retired handed_;
  std::atomic<bool> retired_ready_{false};

  // Writer thread only.
  std::uint64_t stored_ = 0;
  std::uint64_t rotate_at_;  // segment length at which stored() starts a new segment
  std::set<std::uint64_t> unstored_;  // records that failed and are not stored yet
  std::atomic<std::size_t> unstored_count_{0};
  std::deque<Retired> retired_;
  std::mutex retired_mutex_;  // segments() reads retired_ from other threads
};

}  // namespace arena::db
