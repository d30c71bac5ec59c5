#pragma once
// SqliteStore: the embedded Store, one SQLite file in WAL mode.
//
// Connections: one writer connection owned by the WriteQueue's thread (every write, including
// the synchronous ones, goes through it: one writer, no lock contention between writers), and
// one read connection guarded by a mutex for the reads. WAL lets reads run while the writer
// commits.
//
// Durability: synchronous=NORMAL by default, FULL on request (`arena serve --synchronous full`).
// In WAL mode both make every commit atomic and the file never corrupt. NORMAL writes each
// commit to the log before the callback runs ("the move is durable") but does not fsync it:
// the move survives the server being killed (SIGKILL, a crash, an out-of-memory kill: the
// crash test's case) but the last commits may be lost if the whole machine loses power. FULL
// fsyncs the log at every commit, so a move survives a power cut too, at the price of a disk
// sync before every announcement (tens of milliseconds at the 99th percentile here: db/README.md).
// NORMAL is the default because a game server's likely failure is its own process; a league
// that must survive power loss picks FULL. Group commit (write_queue.h) pays one commit for
// every write waiting at that moment, and the WAL is copied into the database by a separate
// thread (checkpointer.h), never inside a commit. SqliteOptions::commit_window (`arena serve
// --commit-window-us`, off by default) makes the writer wait a little for more writes first.
//
// Moves, with NORMAL, take a shorter path (move_journal.h): the caller's thread appends the
// move to the move journal, a file beside the database, and the callback runs at once on that
// thread; the writer stores journaled moves in SQLite later, many per commit. A journaled
// move survives a kill exactly as a NORMAL commit does (it is in the kernel's page cache
// before the callback), and a restart stores whatever the journal holds before anything else.
// Reads first wait until every acknowledged move is stored, so a read never misses one. A
// store of another process on the same file (`arena export` while the server runs) has no
// journal of its own: its game_detail of a live game adds the moves the journal holds past
// the database's (peek_journal), so it does not lag the server by WriteQueue's `defer`.
//
// A journaled move whose insert fails (an I/O error, a full disk, anything the database
// refuses in its savepoint) was acknowledged all the same. It is logged on stderr with its game
// and ply, counted (failed_journaled_moves()), and counted in queue_length() (/metrics'
// arena_store_queue_length) until it is stored; its game's later moves cannot be stored before
// it and wait with it. The writer tries them again, in order, with the game's next move and
// with its end (before the result); the journal keeps their records (no segment from the
// first of them on is deleted) until they are stored, so the next start stores what is still
// missing, into the game even if it has finished since.
//
// Start-up checks: open_sqlite_store refuses, with a message naming the file, a file it
// cannot write (read-only file or file system, missing directory), a file system with less
// than min_free_bytes free, a file that is not a database, and a schema newer than this binary.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "db/checkpointer.h"
#include "db/move_journal.h"
#include "db/sqlite_db.h"
#include "db/store.h"
#include "db/write_queue.h"

namespace arena::db {

struct SqliteOptions {
  std::size_t max_batch = 512;  // writes per group commit at most
  // Group-commit window (WriteQueue): 0, the default, commits as soon as the writer is free.
  // A window holds writes that arrive close together for up to this long so that more share
  // a commit: less CPU and fewer commits per move, at up to this much more latency per move.
  std::chrono::microseconds commit_window{0};
  bool synchronous_full = false;                       // true: synchronous=FULL (see above)
  std::chrono::milliseconds checkpoint_interval{250};  // the checkpointer's period
  int wal_restart_frames = 16384;  // 64 MiB of 4 KiB pages: the log starts over (checkpointer.h)
  std::uint64_t min_free_bytes = 8 * 1024 * 1024;  // refuse to start below this
  // The move journal (move_journal.h): with synchronous=NORMAL a move is made durable by an
  // append to the journal on the caller's thread and stored in SQLite by the writer later,
  // at most journal_defer later (sooner when another write or a read comes). Off, or with
  // synchronous=FULL, every move waits for its own group commit as other writes do.
  bool move_journal = true;
  std::chrono::milliseconds journal_defer{20};
  std::uint64_t journal_segment_bytes = 4u << 20;  // a new segment after this many bytes
  // With the journal, no move waits for the writer or the checkpointer: their work can wait
  // for the I/O threads. Their threads run this many nice steps below the process
  // (write_queue.h), so that on busy CPUs the I/O threads run first; without the journal they
  // keep the process's priority.
  int background_nice = 10;
  // While a thread waits for the writer (a synchronous write, a read that stores the
  // journaled moves first), the writer runs at the process's priority (write_queue.h). False:
  // it keeps background_nice throughout (what bench_store_faults --phase inversion compares).
  bool boost_waited_writer = true;
};

// What open_sqlite_store hands the store when it journals moves.
struct JournalState {
  std::unique_ptr<MoveJournal> journal;
  // Unfinished games and the ply their next move must have: a move that fits goes through
  // the journal; any other goes through the writer, which checks it and reports the error.
  std::unordered_map<GameId, int> next_ply;
};

class SqliteStore final : public Store {
 public:
  SqliteStore(Connection reader, Connection writer, Connection checkpointer,
              const SqliteOptions& options, JournalState journal = {});
  ~SqliteStore() override;  // flushes every queued write

  Expected<PlayerRecord> find_or_create_player(const std::string& name, bool is_bot) override;
  Expected<GameId> create_game(const NewGame& game) override;
  void append_move(const MoveRecord& move, Done done) override;
  void finish_game(const GameEnd& end, Done done) override;
  Expected<std::string> create_bot_token(const std::string& bot_name) override;
  Expected<PlayerRecord> authenticate_token(const std::string& token) override;

  Expected<std::vector<GameSummary>> list_games(const GameFilter& filter) override;
  Expected<GameDetail> game_detail(GameId id) override;
  Expected<std::vector<RatingRow>> leaderboard(const std::string& kind) override;
  Expected<std::vector<GameDetail>> unfinished_games() override;

  std::size_t queue_length() const override;
  void flush() override;

  Expected<std::int64_t> register_bot_version(const BotVersion& version) override;
  Expected<std::int64_t> create_tournament(const NewTournament& tournament) override;
  Expected<std::int64_t> add_pairing(const Pairing& pairing) override;
  Expected<void> set_pairing_game(std::int64_t pairing_id, GameId game) override;
  Expected<void> finish_tournament(std::int64_t tournament) override;
  Expected<std::vector<Pairing>> pairings(std::int64_t tournament) override;
  void record_puzzle_attempt(const PuzzleAttempt& attempt, Done done) override;
  Expected<std::vector<RatingRow>> ratings(const std::string& kind, RatingMethod method) override;
  Expected<std::vector<GameResultRow>> game_results(const std::string& kind) override;
  Expected<std::vector<std::string>> stored_kinds() override;
  Expected<std::vector<PuzzleAttempt>> puzzle_attempts(const std::string& kind) override;
  Expected<std::vector<TournamentRecord>> unfinished_tournaments() override;
  void create_game_async(const NewGame& game, Created done) override;
  void find_or_create_player_async(const std::string& name, bool is_bot, Found found) override;
  void register_bot_version_async(const BotVersion& version, Registered done) override;
  void purge_guests_async(const GuestPurge& purge, Purged done) override;  // guest_purge.cpp
  Expected<std::vector<RatingPoint>> rating_history(const std::string& kind,
                                                    PlayerId player) override;
  Expected<PlayerRecord> player_by_id(PlayerId id) override;
  Expected<std::optional<PlayerRecord>> player_by_name(const std::string& name) override;
  Expected<std::vector<BotVersionRow>> bot_versions(PlayerId player) override;
  Expected<std::int64_t> record_lab_run(const LabRun& run) override;             // sqlite_lab.cpp
  Expected<std::vector<LabMeasuresRow>> lab_measures(const std::string& kind) override;

  // Group commits so far (tests check that queued writes are batched).
  std::size_t commits() const { return writer_.commits(); }
  // Journaled moves whose insert failed (each counted once), and those not stored yet.
  std::size_t failed_journaled_moves() const { return failed_journaled_moves_.load(); }
  std::size_t unstored_journaled_moves() const { return journal_ ? journal_->unstored() : 0; }
  // The writer's priority boosts while waited for (write_queue.h).
  std::size_t writer_boosts() const { return writer_.boosts(); }
  const Checkpointer& checkpointer() const { return checkpointer_; }
  // The move journal; null when it is off or another process holds it.
  MoveJournal* journal() { return journal_.get(); }
  // Checkpoints the writer ran in an idle moment so that the log could start over.
  std::size_t writer_checkpoints() const { return writer_checkpoints_; }
  // How long the longest of them held the writer up, and all of them together.
  std::chrono::microseconds longest_writer_checkpoint() const {
    return std::chrono::microseconds(longest_writer_checkpoint_us_.load());
  }
  std::chrono::microseconds writer_checkpoint_time() const {
    return std::chrono::microseconds(writer_checkpoint_us_.load());
  }

 private:
  Expected<std::vector<MoveRecord>> moves_of(GameId id);
  // A game and its moves as the database holds them (game_detail adds journaled ones).
  Expected<GameDetail> read_detail(GameId id);
  // Before a read: every move already acknowledged is stored (journaled ones may still wait).
  void settle();
  // A game the journal may take moves for, from its first ply.
  void track_game(GameId id);

  // Writer thread: a journaled move's job (its game's unstored moves first, then it), and its
  // result (see "A journaled move whose insert fails" above).
  Expected<void> store_journaled(Connection& c, const JournaledMove& j);
  void journaled_done(const JournaledMove& j, const Expected<void>& ok);
  // Writer thread: stores `game`'s unstored moves inside a savepoint of their own; whether
  // they are stored (false: none were, or there were none).
  bool retry_unstored(Connection& c, GameId game);
  // Writer thread: `game`'s unstored moves are committed.
  void mark_stored(GameId game);
  struct Unstored {
    JournaledMove record;
    std::uint64_t number = 0;  // in the journal (MoveJournal::stored)
  };

  std::mutex read_mutex_;
  Connection reader_;
  std::atomic<bool> restart_wanted_{false};  // checkpointer.h: the writer's part
  std::atomic<std::size_t> writer_checkpoints_{0};
  std::atomic<std::int64_t> longest_writer_checkpoint_us_{0}, writer_checkpoint_us_{0};
  // Before writer_: the writer's last callbacks report to it.
  std::unique_ptr<MoveJournal> journal_;
  std::unordered_map<GameId, int> next_ply_;  // under journal_->mutex()
  std::unordered_map<GameId, std::vector<Unstored>> unstored_;  // writer thread only
  std::atomic<std::size_t> failed_journaled_moves_{0};
  WriteQueue writer_;
  Checkpointer checkpointer_;  // destroyed first: its last checkpoint, then the writer stops
};

// Opens (creating if needed) and migrates the database at `path`, checks it can be written,
// and starts the writer thread. Errors name the path and the reason.
Expected<std::unique_ptr<SqliteStore>> open_sqlite_store(const std::string& path,
                                                         const SqliteOptions& options = {});

}  // namespace arena::db
