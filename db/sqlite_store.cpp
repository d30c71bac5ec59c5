// SqliteStore: opening, the start-up checks, and every write (through the WriteQueue).

#include "db/sqlite_store.h"

#include <sqlite3.h>
#include <sys/statvfs.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <utility>

#include "db/migrations.h"
#include "db/rating_update.h"
#include "db/sha256.h"
#include "games/core/seat_scores.h"

namespace arena::db {
namespace {

Expected<void> check_free_space(const std::string& path, std::uint64_t min_free) {
  std::filesystem::path dir = std::filesystem::absolute(path).parent_path();
  struct statvfs fs {};
  if (statvfs(dir.c_str(), &fs) != 0) return {};  // the open itself reports a missing directory
  const std::uint64_t free_bytes = static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize;
  if (free_bytes < min_free)
    return make_error("cannot write database " + path + ": only " + std::to_string(free_bytes) +
                      " bytes free on its file system (at least " + std::to_string(min_free) +
                      " needed)");
  return {};
}

Expected<void> enable_wal(Connection& c) {
  auto mode = c.prepare("PRAGMA journal_mode = WAL");
  if (!mode) return make_error("cannot open database " + c.path() + ": " + mode.error());
  auto row = mode->step();
  if (!row) return make_error("cannot write database " + c.path() + ": " + row.error());
  if (!*row || mode->text(0) != "wal")
    return make_error("cannot use database " + c.path() + ": WAL mode is not available there");
  return {};
}

// The writer's connection: WAL, the chosen synchronous level, the schema, and a probe write
// so that a file that cannot be written fails here rather than at the first move.
Expected<Connection> open_writer(const std::string& path, const SqliteOptions& options) {
  auto c = Connection::open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX |
                                      SQLITE_OPEN_EXRESCODE);
  if (!c) return Error{c.error()};
  // SQLite silently falls back to read-only when the file is not writable.
  if (sqlite3_db_readonly(c->handle(), "main") == 1)
    return make_error("cannot write database " + path +
                      ": the file is read-only (check its permissions and its file system)");
  if (auto ok = c->exec("PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON"); !ok)
    return make_error("cannot open database " + path + ": " + ok.error());
  if (auto wal = enable_wal(*c); !wal) return Error{wal.error()};
  // No checkpoint inside a commit: the Checkpointer does them on its own connection.
  const std::string sync = options.synchronous_full ? "FULL" : "NORMAL";
  if (auto ok = c->exec("PRAGMA synchronous = " + sync +
                        "; PRAGMA wal_autocheckpoint = 0; PRAGMA journal_size_limit = 67108864");
      !ok)
    return make_error("cannot open database " + path + ": " + ok.error());
  if (auto migrated = apply_migrations(*c); !migrated) return Error{migrated.error()};
  const std::string probe =
      "BEGIN IMMEDIATE; INSERT INTO store_meta (id, created_at, last_opened_at) VALUES (1, " +
      std::to_string(now_unix_ms()) + ", " + std::to_string(now_unix_ms()) +
      ") ON CONFLICT (id) DO UPDATE SET last_opened_at = excluded.last_opened_at; COMMIT";
  if (auto ok = c->exec(probe); !ok) {
    (void)c->exec("ROLLBACK");
    return make_error("cannot write database " + path + ": " + ok.error());
  }
  return c;
}

std::string random_token() {
  std::random_device device;
  constexpr char kHex[] = "0123456789abcdef";
  std::string token;
  for (int i = 0; i < 8; ++i) {
    std::uint32_t word = device();
    for (int j = 0; j < 8; ++j, word >>= 4) token.push_back(kHex[word & 0xf]);
  }
  return token;  // 256 random bits as 64 hex characters
}

std::optional<std::int64_t> optional_id(std::int64_t id) {
  return id == 0 ? std::nullopt : std::optional<std::int64_t>(id);
}

// The first player's score for a stored result, or nothing when it is not rated.
std::optional<double> first_score(const std::string& result) {
  if (result == "1-0") return 1.0;
  if (result == "0-1") return 0.0;
  if (result == "1/2-1/2") return 0.5;
  return std::nullopt;
}

// `into_finished`: also into a finished game (an acknowledged move whose insert failed before
// its game's end was stored: SqliteStore's retries and the start's replay).
Expected<void> insert_move(Connection& c, const MoveRecord& m, std::int64_t created_at_ms,
                           bool into_finished = false);
Expected<void> finish(Connection& c, const GameEnd& end);

// The next ply each unfinished game expects, into `out`.
Expected<void> load_live_games(Connection& c, std::unordered_map<GameId, int>& out) {
  auto stmt = c.prepare(
      "SELECT g.id, (SELECT COALESCE(MAX(m.ply) + 1, 0) FROM moves m WHERE m.game_id = g.id) "
      "FROM games g WHERE g.result IS NULL");
  if (!stmt) return Error{stmt.error()};
  for (;;) {
    auto row = stmt->step();
    if (!row) return Error{row.error()};
    if (!*row) return {};
    out[stmt->int64(0)] = stmt->int32(1);
  }
}

// Stores the moves a killed run left in the journal, in one transaction. Moves already stored
// are skipped; a move that no longer fits its game (the game is gone or finished, or an
// earlier move is missing) cannot be stored and is reported. Any other failure stops the start.
Expected<void> replay_journal(Connection& c, const std::vector<JournaledMove>& moves,
                              const std::string& journal) {
  if (moves.empty()) return {};
  if (auto ok = c.exec("BEGIN IMMEDIATE"); !ok)
    return make_error("cannot store the move journal " + journal + ": " + ok.error());
  std::size_t stored = 0, already = 0, misfits = 0, late = 0;
  Expected<void> failed;
  for (const JournaledMove& j : moves) {
    bool exists = false, open = false;
    std::int64_t next = 0;
    {
      // Scoped: insert_move prepares the same cached statement.
      auto state = c.prepare(
          "SELECT result, (SELECT COALESCE(MAX(ply) + 1, 0) FROM moves WHERE game_id = ?1) "
          "FROM games WHERE id = ?1");
      if (!state) {
        failed = Error{state.error()};
        break;
      }
      state->bind(1, j.move.game);
      auto row = state->step();
      if (!row) {
        failed = Error{row.error()};
        break;
      }
      exists = *row;
      open = exists && state->is_null(0);
      next = exists ? state->int64(1) : 0;
    }
    if (exists && j.move.ply < next) {
      ++already;
      continue;
    }
    // A move of a finished game that fits (the next ply) was acknowledged and failed to be
    // stored before the game ended (the live run logged it): it belongs to the game.
    if (!exists || j.move.ply != next) {
      ++misfits;
      continue;
    }
    if (failed = insert_move(c, j.move, j.created_at_ms, /*into_finished=*/!open); !failed) break;
    ++stored;
    late += !open;
  }
  if (failed) failed = c.exec("COMMIT");
  if (!failed) {
    (void)c.exec("ROLLBACK");
    return make_error("cannot store the move journal " + journal + ": " + failed.error());
  }
  std::fprintf(stderr,
               "arena store: the last run did not stop cleanly; journaled moves stored now: %zu, "
               "already stored: %zu\n",
               stored, already);
  if (late > 0)
    std::fprintf(stderr,
                 "arena store: of those, %zu went into games that had ended: moves acknowledged "
                 "whose insert had failed\n",
                 late);
  if (misfits > 0)
    std::fprintf(stderr,
                 "arena store: journaled moves that did not fit their game (unknown or finished "
                 "game, or an earlier move missing), not stored: %zu\n",
                 misfits);
  return {};
}

// Posts `fill` (a job that also sets a T) to the writer; `done` gets the T once it is durable.
template <class T, class Fill>
void post_for_result(WriteQueue& writer, Fill fill, std::function<void(Expected<T>)> done) {
  auto out = std::make_shared<T>();
  writer.post([fill = std::move(fill), out](Connection& c) { return fill(c, *out); },
              [out, done = std::move(done)](Expected<void> ok) {
                if (!ok) return done(Error{ok.error()});
                done(std::move(*out));
              });
}

}  // namespace

Expected<std::unique_ptr<SqliteStore>> open_sqlite_store(const std::string& path,
                                                         const SqliteOptions& options) {
  if (auto ok = check_free_space(path, options.min_free_bytes); !ok) return Error{ok.error()};
  auto writer = open_writer(path, options);
  if (!writer) return Error{writer.error()};
  JournalState journal;
  if (options.move_journal && !options.synchronous_full) {
    auto opened = MoveJournal::open(path, options.journal_segment_bytes);
    if (!opened) return Error{opened.error()};
    journal.journal = std::move(*opened);
  }
  if (journal.journal) {
    // Before anything else: moves a killed run acknowledged, then a fresh segment.
    auto left = journal.journal->recover();
    if (!left) return Error{left.error()};
    if (auto ok = replay_journal(*writer, *left, journal.journal->base()); !ok)
      return Error{ok.error()};
    if (auto ok = journal.journal->start(); !ok) return Error{ok.error()};
    if (auto live = load_live_games(*writer, journal.next_ply); !live)
      return make_error("cannot open database " + path + ": " + live.error());
  }
  auto reader = Connection::open(path, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX);
  if (!reader) return Error{reader.error()};
  if (auto ok = reader->exec("PRAGMA busy_timeout = 5000"); !ok)
    return make_error("cannot open database " + path + ": " + ok.error());
  auto checkpointer =
      Connection::open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE);
  if (!checkpointer) return Error{checkpointer.error()};
  return std::make_unique<SqliteStore>(std::move(*reader), std::move(*writer),
                                       std::move(*checkpointer), options, std::move(journal));
}

SqliteStore::SqliteStore(Connection reader, Connection writer, Connection checkpointer,
                         const SqliteOptions& options, JournalState journal)
    : reader_(std::move(reader)),
      journal_(std::move(journal.journal)),
      next_ply_(std::move(journal.next_ply)),
      writer_(
          std::move(writer), options.max_batch,
          [this](Connection& c) {
            const auto start = std::chrono::steady_clock::now();
            if (!writer_checkpoint(c, restart_wanted_)) return;
            const std::int64_t us = std::chrono::duration_cast<std::chrono::microseconds>(
                                        std::chrono::steady_clock::now() - start)
                                        .count();
            ++writer_checkpoints_;
            writer_checkpoint_us_ += us;
            // Only this thread writes it: load and store need no compare-and-swap.
            if (us > longest_writer_checkpoint_us_.load()) longest_writer_checkpoint_us_.store(us);
          },
          options.commit_window, options.journal_defer, journal_ ? options.background_nice : 0,
          options.boost_waited_writer),
      checkpointer_(std::move(checkpointer), options.checkpoint_interval,
                    options.wal_restart_frames, restart_wanted_,
                    journal_ ? options.background_nice : 0) {}

SqliteStore::~SqliteStore() {
  writer_.flush();
}

std::size_t SqliteStore::queue_length() const {
  // Acknowledged moves whose insert failed are journaled moves not stored in SQLite yet.
  return writer_.size() + unstored_journaled_moves();
}

void SqliteStore::flush() {
  writer_.flush();
}

void SqliteStore::settle() {
  if (journal_) writer_.flush();
}

void SqliteStore::track_game(GameId id) {
  if (!journal_) return;
  std::lock_guard lock(journal_->mutex());
  next_ply_[id] = 0;
}

namespace {

// The player called `name`, created if new.
Expected<void> upsert_player(Connection& c, const std::string& name, bool is_bot,
                             PlayerRecord& out) {
  auto insert = c.prepare(
      "INSERT INTO players (name, is_bot, created_at) VALUES (?1, ?2, ?3) "
      "ON CONFLICT (name) DO NOTHING");
  if (!insert) return Error{insert.error()};
  insert->bind(1, name).bind(2, is_bot ? 1 : 0).bind(3, now_unix_ms());
  if (auto r = insert->run(); !r) return r;
  auto select = c.prepare("SELECT id, name, is_bot FROM players WHERE name = ?1");
  if (!select) return Error{select.error()};
  select->bind(1, name);
  auto row = select->step();
  if (!row) return Error{row.error()};
  out = {select->int64(0), select->text(1), select->int32(2) != 0};
  return {};
}

}  // namespace

Expected<PlayerRecord> SqliteStore::find_or_create_player(const std::string& name, bool is_bot) {
  if (auto ok = check_player_name(name); !ok) return Error{ok.error()};
  PlayerRecord out;
  auto ok = writer_.run([&](Connection& c) { return upsert_player(c, name, is_bot, out); });
  if (!ok) return Error{ok.error()};
  return out;
}

void SqliteStore::find_or_create_player_async(const std::string& name, bool is_bot, Found found) {
  if (auto ok = check_player_name(name); !ok) return found(Error{ok.error()});
  post_for_result<PlayerRecord>(
      writer_,
      [name, is_bot](Connection& c, PlayerRecord& out) {
        return upsert_player(c, name, is_bot, out);
      },
      std::move(found));
}

namespace {

Expected<void> insert_game(Connection& c, const NewGame& game, GameId& id) {
  if (game.kind.empty()) return make_error("a game needs a kind (the catalog name)");
  auto stmt = c.prepare(
      "INSERT INTO games (kind, options, start_position, first_id, second_id, "
      "first_version_id, second_version_id, time_control, seed, tournament_id, started_at) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
  if (!stmt) return Error{stmt.error()};
  stmt->bind(1, game.kind).bind(2, game.options).bind(3, game.start_position);
  stmt->bind(4, optional_id(game.first)).bind(5, optional_id(game.second));
  stmt->bind(6, optional_id(game.first_version)).bind(7, optional_id(game.second_version));
  stmt->bind(8, game.time_control.empty() ? std::string("none") : game.time_control);
  stmt->bind(9, static_cast<std::int64_t>(game.seed)).bind(10, game.tournament_id);
  stmt->bind(11, now_unix_ms());
  if (auto r = stmt->run(); !r)
    return make_error("cannot create the game (unknown player, version or tournament?): " +
                      r.error());
  id = c.last_insert_rowid();
  for (std::size_t seat = 0; seat < game.seats.size(); ++seat) {
    auto row = c.prepare("INSERT INTO game_seats (game_id, seat, player_id) VALUES (?1, ?2, ?3)");
    if (!row) return Error{row.error()};
    row->bind(1, id).bind(2, static_cast<std::int64_t>(seat)).bind(3, optional_id(game.seats[seat]));
    if (auto r = row->run(); !r)
      return make_error("cannot record seat " + std::to_string(seat) + " of the game: " + r.error());
  }
  return {};
}

// A game of more than two seats names every seat, its first two being first and second.
Expected<void> check_seats(const NewGame& game) {
  if (game.seats.empty()) return {};
  if (game.seats.size() < 3 || game.seats.size() > 6)
    return make_error("a game lists 3 to 6 seats, not " + std::to_string(game.seats.size()));
  if (game.seats[0] != game.first || game.seats[1] != game.second)
    return make_error("seats 0 and 1 must be the game's first and second players");
  return {};
}

}  // namespace

Expected<GameId> SqliteStore::create_game(const NewGame& game) {
  if (auto ok = check_seats(game); !ok) return Error{ok.error()};
  GameId id = 0;
  auto ok = writer_.run([&](Connection& c) { return insert_game(c, game, id); });
  if (!ok) return Error{ok.error()};
  track_game(id);
  return id;
}

void SqliteStore::create_game_async(const NewGame& game, Created done) {
  if (auto ok = check_seats(game); !ok) return done(Error{ok.error()});
  post_for_result<GameId>(
      writer_, [game](Connection& c, GameId& id) { return insert_game(c, game, id); },
      [this, done = std::move(done)](Expected<GameId> id) {
        if (id) track_game(*id);
        done(std::move(id));
      });
}

void SqliteStore::append_move(const MoveRecord& move, Done done) {
  if (journal_) {
    std::unique_lock lock(journal_->mutex());
    auto game = next_ply_.find(move.game);
    if (game != next_ply_.end() && game->second == move.ply) {
      JournaledMove record{move, now_unix_ms()};
      if (auto ok = journal_->append(record); !ok) {
        lock.unlock();
        if (done) done(Error{ok.error()});  // not recorded: the server takes the move back
        return;
      }
      ++game->second;
      // Posted under the journal's lock, so the writer stores records in journal order.
      auto shared = std::make_shared<const JournaledMove>(std::move(record));
      writer_.post_deferred([this, shared](Connection& c) { return store_journaled(c, *shared); },
                            [this, shared](Expected<void> ok) { journaled_done(*shared, ok); });
      lock.unlock();
      if (done) done({});  // durable: in the journal
      return;
    }
  }
  // Not a move the journal can vouch for (an unknown or finished game, a ply out of turn):
  // the writer checks it and reports why it is refused.
  writer_.post([move](Connection& c) { return insert_move(c, move, now_unix_ms()); },
               std::move(done));
}

void SqliteStore::finish_game(const GameEnd& end, Done done) {
  if (!journal_) {
    writer_.post([end](Connection& c) { return finish(c, end); }, std::move(done));
    return;
  }
  {
    std::lock_guard lock(journal_->mutex());
    next_ply_.erase(end.game);  // no move after the end
  }
  // Its moves that failed to be stored go in first, if they can now.
  auto retried = std::make_shared<bool>(false);
  writer_.post(
      [this, end, retried](Connection& c) {
        *retried = retry_unstored(c, end.game);
        return finish(c, end);
      },
      [this, game = end.game, retried, done = std::move(done)](Expected<void> ok) {
        if (ok && *retried) mark_stored(game);
        if (done) done(std::move(ok));
      });
}

namespace {

// A journaled move again: nothing to do if its ply is stored already (an earlier job of the
// same batch stored it).
Expected<void> insert_unless_stored(Connection& c, const JournaledMove& j) {
  {
    auto stored = c.prepare("SELECT 1 FROM moves WHERE game_id = ?1 AND ply = ?2");
    if (!stored) return Error{stored.error()};
    stored->bind(1, j.move.game).bind(2, j.move.ply);
    auto row = stored->step();
    if (!row) return Error{row.error()};
    if (*row) return {};
  }
  return insert_move(c, j.move, j.created_at_ms, /*into_finished=*/true);
}

}  // namespace

Expected<void> SqliteStore::store_journaled(Connection& c, const JournaledMove& j) {
  if (auto earlier = unstored_.find(j.move.game); earlier != unstored_.end())
    for (const Unstored& u : earlier->second)
      if (auto ok = insert_unless_stored(c, u.record); !ok)
        return make_error("its game's move at ply " + std::to_string(u.record.move.ply) +
                          " is not stored yet: " + ok.error());
  return insert_move(c, j.move, j.created_at_ms);
}

void SqliteStore::journaled_done(const JournaledMove& j, const Expected<void>& ok) {
  const std::uint64_t number = journal_->stored(ok.has_value());
  if (ok) {
    mark_stored(j.move.game);  // its game's earlier failures went in with it
    return;
  }
  ++failed_journaled_moves_;
  std::fprintf(stderr,
               "arena store: game %lld ply %d: an acknowledged move could not be stored in "
               "SQLite: %s; it stays in the move journal %s, is tried again with its game's "
               "next write, and the next start stores it if it is still missing\n",
               static_cast<long long>(j.move.game), j.move.ply, ok.error().c_str(),
               journal_->base().c_str());
  unstored_[j.move.game].push_back({j, number});
}

bool SqliteStore::retry_unstored(Connection& c, GameId game) {
  auto it = unstored_.find(game);
  if (it == unstored_.end() || !c.exec("SAVEPOINT retry")) return false;
  for (const Unstored& u : it->second)
    if (!insert_unless_stored(c, u.record)) {
      (void)c.exec("ROLLBACK TO retry");
      (void)c.exec("RELEASE retry");
      return false;
    }
  return static_cast<bool>(c.exec("RELEASE retry"));
}

void SqliteStore::mark_stored(GameId game) {
  auto it = unstored_.find(game);
  if (it == unstored_.end()) return;
  for (const Unstored& u : it->second) journal_->stored_later(u.number);
  std::fprintf(stderr,
               "arena store: game %lld: %zu acknowledged moves that had failed (plies %d to %d) "
               "are stored now\n",
               static_cast<long long>(game), it->second.size(), it->second.front().record.move.ply,
               it->second.back().record.move.ply);
  unstored_.erase(it);
}

Expected<std::string> SqliteStore::create_bot_token(const std::string& bot_name) {
  if (auto ok = check_player_name(bot_name); !ok) return Error{ok.error()};
  const std::string token = random_token();
  const std::string hash = sha256_hex(token);
  auto ok = writer_.run([&](Connection& c) -> Expected<void> {
    auto human = c.prepare("SELECT 1 FROM players WHERE name = ?1 AND is_bot = 0");
    if (!human) return Error{human.error()};
    human->bind(1, bot_name);
    auto row = human->step();
    if (!row) return Error{row.error()};
    if (*row) return make_error("'" + bot_name + "' is a human player, not a bot");
    // One token per bot: a new token replaces (revokes) the previous one.
    auto stmt = c.prepare(
        "INSERT INTO players (name, is_bot, token_hash, created_at) VALUES (?1, 1, ?2, ?3) "
        "ON CONFLICT (name) DO UPDATE SET token_hash = excluded.token_hash");
    if (!stmt) return Error{stmt.error()};
    stmt->bind(1, bot_name).bind(2, hash).bind(3, now_unix_ms());
    return stmt->run();
  });
  if (!ok) return Error{ok.error()};
  return token;
}

namespace {

// The id of version `v`, inserted the first time.
Expected<void> upsert_bot_version(Connection& c, const BotVersion& v, std::int64_t& id) {
  auto insert = c.prepare(
      "INSERT INTO bot_versions (player_id, search, heuristic, parameters, parameters_hash, "
      "created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT DO NOTHING");
  if (!insert) return Error{insert.error()};
  const std::string hash = sha256_hex(v.parameters);
  insert->bind(1, v.player).bind(2, v.search).bind(3, v.heuristic).bind(4, v.parameters);
  insert->bind(5, hash).bind(6, now_unix_ms());
  if (auto r = insert->run(); !r)
    return make_error("cannot register a version of player " + std::to_string(v.player) + ": " +
                      r.error());
  auto select = c.prepare(
      "SELECT id FROM bot_versions WHERE player_id = ?1 AND search = ?2 AND heuristic = ?3 "
      "AND parameters_hash = ?4");
  if (!select) return Error{select.error()};
  select->bind(1, v.player).bind(2, v.search).bind(3, v.heuristic).bind(4, hash);
  auto row = select->step();
  if (!row) return Error{row.error()};
  id = select->int64(0);
  return {};
}

}  // namespace

Expected<std::int64_t> SqliteStore::register_bot_version(const BotVersion& v) {
  std::int64_t id = 0;
  auto ok = writer_.run([&](Connection& c) { return upsert_bot_version(c, v, id); });
  if (!ok) return Error{ok.error()};
  return id;
}

void SqliteStore::register_bot_version_async(const BotVersion& v, Registered done) {
  post_for_result<std::int64_t>(
      writer_, [v](Connection& c, std::int64_t& id) { return upsert_bot_version(c, v, id); },
      std::move(done));
}

Expected<std::int64_t> SqliteStore::create_tournament(const NewTournament& t) {
  if (t.name.empty() || t.kind.empty()) return make_error("a tournament needs a name and a kind");
  std::int64_t id = 0;
  auto ok = writer_.run([&](Connection& c) -> Expected<void> {
    auto stmt = c.prepare(
        "INSERT INTO tournaments (name, kind, format, options, time_control, created_at, config) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    if (!stmt) return Error{stmt.error()};
    stmt->bind(1, t.name).bind(2, t.kind).bind(3, t.format).bind(4, t.options);
    stmt->bind(5, t.time_control.empty() ? std::string("none") : t.time_control);
    stmt->bind(6, now_unix_ms()).bind(7, t.config);
    if (auto r = stmt->run(); !r) return r;
    id = c.last_insert_rowid();
    return {};
  });
  if (!ok) return Error{ok.error()};
  return id;
}

Expected<std::int64_t> SqliteStore::add_pairing(const Pairing& p) {
  std::int64_t id = 0;
  auto ok = writer_.run([&](Connection& c) -> Expected<void> {
    auto stmt = c.prepare(
        "INSERT INTO pairings (tournament_id, round, first_id, second_id, game_id, created_at) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    if (!stmt) return Error{stmt.error()};
    stmt->bind(1, p.tournament).bind(2, p.round).bind(3, p.first);
    stmt->bind(4, optional_id(p.second)).bind(5, optional_id(p.game)).bind(6, now_unix_ms());
    if (auto r = stmt->run(); !r)
      return make_error("cannot add a pairing to tournament " + std::to_string(p.tournament) +
                        ": " + r.error());
    id = c.last_insert_rowid();
    return {};
  });
  if (!ok) return Error{ok.error()};
  return id;
}

Expected<void> SqliteStore::set_pairing_game(std::int64_t pairing_id, GameId game) {
  return writer_.run([&](Connection& c) -> Expected<void> {
    auto stmt = c.prepare("UPDATE pairings SET game_id = ?2 WHERE id = ?1");
    if (!stmt) return Error{stmt.error()};
    stmt->bind(1, pairing_id).bind(2, game);
    if (auto r = stmt->run(); !r) return r;
    if (sqlite3_changes(c.handle()) == 0)
      return make_error("no pairing " + std::to_string(pairing_id));
    return {};
  });
}

Expected<void> SqliteStore::finish_tournament(std::int64_t tournament) {
  return writer_.run([&](Connection& c) -> Expected<void> {
    auto stmt = c.prepare("UPDATE tournaments SET finished_at = ?2 WHERE id = ?1");
    if (!stmt) return Error{stmt.error()};
    stmt->bind(1, tournament).bind(2, now_unix_ms());
    if (auto r = stmt->run(); !r) return r;
    if (sqlite3_changes(c.handle()) == 0)
      return make_error("no tournament " + std::to_string(tournament));
    return {};
  });
}

void SqliteStore::record_puzzle_attempt(const PuzzleAttempt& a, Done done) {
  writer_.post(
      [a](Connection& c) -> Expected<void> {
        auto stmt = c.prepare(
            "INSERT INTO puzzle_attempts (player_id, kind, options, instance, solved, length, "
            "optimal_length, time_ms, solution, game_id, created_at) "
            "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
        if (!stmt) return Error{stmt.error()};
        stmt->bind(1, a.player).bind(2, a.kind).bind(3, a.options).bind(4, a.instance);
        stmt->bind(5, a.solved ? 1 : 0).bind(6, a.length);
        if (a.optimal_length) stmt->bind(7, *a.optimal_length);
        stmt->bind(8, a.time_ms).bind(9, a.solution).bind(10, optional_id(a.game));
        stmt->bind(11, now_unix_ms());
        if (auto r = stmt->run(); !r)
          return make_error("cannot record a puzzle attempt of player " + std::to_string(a.player) +
                            ": " + r.error());
        return {};
      },
      std::move(done));
}

namespace {

Expected<void> insert_move(Connection& c, const MoveRecord& m, std::int64_t created_at_ms,
                           bool into_finished) {
  const std::string game = "game " + std::to_string(m.game);
  auto state = c.prepare(
      "SELECT result, (SELECT COALESCE(MAX(ply) + 1, 0) FROM moves WHERE game_id = ?1) "
      "FROM games WHERE id = ?1");
  if (!state) return Error{state.error()};
  state->bind(1, m.game);
  auto row = state->step();
  if (!row) return Error{row.error()};
  if (!*row) return make_error(game + " does not exist");
  if (!state->is_null(0) && !into_finished)
    return make_error(game + " is already finished (" + state->text(0) + "); no move is stored");
  // Plies are contiguous: a move is stored only after every earlier one.
  if (state->int64(1) != m.ply)
    return make_error(game + " expects ply " + std::to_string(state->int64(1)) + ", not " +
                      std::to_string(m.ply));
  auto stmt = c.prepare(
      "INSERT INTO moves (game_id, ply, move, time_used_ms, clock_left_ms, depth, nodes, score, "
      "pv, created_at, seat) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
  if (!stmt) return Error{stmt.error()};
  stmt->bind(1, m.game).bind(2, m.ply).bind(3, m.move).bind(4, m.time_used_ms);
  stmt->bind(5, m.clock_left_ms).bind(6, m.depth).bind(7, m.nodes);
  if (m.score) stmt->bind(8, *m.score);
  stmt->bind(9, m.pv).bind(10, created_at_ms);
  if (m.seat >= 0) stmt->bind(11, m.seat);
  return stmt->run();
}

// "100-0-50": three to six scores 0..100 joined by '-' (the result of a game of that many seats).
bool is_scores_result(const std::string& result) {
  const auto scores = scores_of_result(result);
  return scores && scores->size() <= 6;
}

Expected<void> check_scores(const GameEnd& end) {
  if (end.scores.size() > 6)
    return make_error("game " + std::to_string(end.game) + ": more than 6 scores");
  for (std::size_t seat = 0; seat < end.scores.size(); ++seat)
    if (end.scores[seat] < 0 || end.scores[seat] > 100)
      return make_error("game " + std::to_string(end.game) + ": score " +
                        std::to_string(end.scores[seat]) + " of seat " + std::to_string(seat) +
                        " is not in 0..100");
  return {};
}

// Each seat's score into game_seats (a row made for a two-seat game's seat names its player).
Expected<void> store_scores(Connection& c, const GameEnd& end, PlayerId first, PlayerId second) {
  for (std::size_t seat = 0; seat < end.scores.size(); ++seat) {
    const int score = end.scores[seat];
    auto stmt = c.prepare(
        "INSERT INTO game_seats (game_id, seat, player_id, score) VALUES (?1, ?2, ?3, ?4) "
        "ON CONFLICT (game_id, seat) DO UPDATE SET score = excluded.score");
    if (!stmt) return Error{stmt.error()};
    const PlayerId player = seat == 0 ? first : seat == 1 ? second : 0;
    stmt->bind(1, end.game).bind(2, static_cast<std::int64_t>(seat));
    stmt->bind(3, optional_id(player)).bind(4, score);
    if (auto r = stmt->run(); !r) return r;
  }
  return {};
}

Expected<void> finish(Connection& c, const GameEnd& end) {
  const std::string game = "game " + std::to_string(end.game);
  if (end.result != "1-0" && end.result != "0-1" && end.result != "1/2-1/2" && end.result != "*" &&
      end.result != "solved" && end.result != "unsolved" && !is_scores_result(end.result))
    return make_error(game + ": result '" + end.result +
                      "' is not one of 1-0, 0-1, 1/2-1/2, *, solved, unsolved, or 3 to 6 scores "
                      "joined by '-'");
  if (auto ok = check_scores(end); !ok) return ok;
  auto select = c.prepare("SELECT kind, first_id, second_id, result FROM games WHERE id = ?1");
  if (!select) return Error{select.error()};
  select->bind(1, end.game);
  auto row = select->step();
  if (!row) return Error{row.error()};
  if (!*row) return make_error(game + " does not exist");
  if (!select->is_null(3))
    return make_error(game + " is already finished (" + select->text(3) + ")");
  const std::string kind = select->text(0);
  const PlayerId first = select->int64(1);
  const PlayerId second = select->int64(2);
  auto update = c.prepare(
      "UPDATE games SET result = ?2, reason = ?3, final_position = ?4, ended_at = ?5, "
      "note = NULLIF(?6, '') WHERE id = ?1");
  if (!update) return Error{update.error()};
  update->bind(1, end.game).bind(2, end.result).bind(3, end.reason);
  update->bind(4, end.final_position).bind(5, now_unix_ms()).bind(6, end.note);
  if (auto r = update->run(); !r) return r;
  if (auto r = store_scores(c, end, first, second); !r) return r;
  // Games of more than two seats are not rated (their result is a list of scores), nor a game
  // the rules ended by their own fault (a note).
  const auto score = first_score(end.result);
  if (!score || first == 0 || second == 0 || first == second || !end.note.empty()) return {};
  return apply_rating_updates(c, end.game, kind, first, second, *score);
}

}  // namespace

Expected<void> check_player_name(const std::string& name) {
  if (name.empty() || name.size() > 64)
    return make_error("player name '" + name + "' must be 1 to 64 characters");
  for (char ch : name)
    if (static_cast<unsigned char>(ch) < 0x20)
      return make_error("player name '" + name + "' contains a control character");
  return {};
}

}  // namespace arena::db
