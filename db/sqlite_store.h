#pragma once
// SqliteStore: the embedded Store, one SQLite file in WAL mode.
//
// Connections: one writer connection owned by the WriteQueue's thread (every write, including
// the synchronous ones, goes through it: one writer, no lock contention between writers), and
// one read connection guarded by a mutex for the reads. WAL lets reads run while the writer
// commits.
//
// Durability: synchronous=FULL. In WAL mode FULL fsyncs the log at every commit, so a callback
// ("the move is durable") means on disk even if the machine loses power right after; NORMAL
// would only survive a crash of the process (SIGKILL) and could lose the last commits on power
// loss, which would let a player see a move acknowledged that the restarted server never heard
// of. Group commit (write_queue.h) pays one fsync for every move waiting at that moment, which
// keeps throughput high under load. SqliteOptions::synchronous_full = false selects NORMAL, for
// measuring the trade-off only.
//
// Start-up checks: open_sqlite_store refuses, with a message naming the file, a file it
// cannot write (read-only file or file system, missing directory), a file system with less
// than min_free_bytes free, a file that is not a database, and a schema newer than this binary.

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>

#include "db/sqlite_db.h"
#include "db/store.h"
#include "db/write_queue.h"

namespace arena::db {

struct SqliteOptions {
  std::size_t max_batch = 512;                     // writes per group commit at most
  bool synchronous_full = true;                    // false: synchronous=NORMAL (measurement only)
  std::uint64_t min_free_bytes = 8 * 1024 * 1024;  // refuse to start below this
};

class SqliteStore final : public Store {
 public:
  SqliteStore(Connection reader, Connection writer, const SqliteOptions& options);
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

  // Group commits so far (tests check that queued writes are batched).
  std::size_t commits() const { return writer_.commits(); }

 private:
  Expected<std::vector<MoveRecord>> moves_of(GameId id);

  std::mutex read_mutex_;
  Connection reader_;
  WriteQueue writer_;
};

// Opens (creating if needed) and migrates the database at `path`, checks it can be written,
// and starts the writer thread. Errors name the path and the reason.
Expected<std::unique_ptr<SqliteStore>> open_sqlite_store(const std::string& path,
                                                         const SqliteOptions& options = {});

}  // namespace arena::db
