#include "db/sqlite_db.h"

#include <sqlite3.h>

#include <chrono>
#include <cstring>
#include <utility>

namespace arena::db {

Statement::Statement(sqlite3* db, sqlite3_stmt* stmt, bool cached)
    : db_(db), stmt_(stmt), cached_(cached) {}

Statement::Statement(Statement&& other) noexcept
    : db_(other.db_), stmt_(std::exchange(other.stmt_, nullptr)), cached_(other.cached_) {}

Statement::~Statement() {
  if (!stmt_) return;
  if (cached_) {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  } else {
    sqlite3_finalize(stmt_);
  }
}

Statement& Statement::bind(int index, std::int64_t value) {
  sqlite3_bind_int64(stmt_, index, value);
  return *this;
}

Statement& Statement::bind(int index, double value) {
  sqlite3_bind_double(stmt_, index, value);
  return *this;
}

Statement& Statement::bind(int index, std::string_view value) {
  sqlite3_bind_text64(stmt_, index, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  return *this;
}

Statement& Statement::bind(int index, const std::optional<std::int64_t>& value) {
  return value ? bind(index, *value) : bind_null(index);
}

Statement& Statement::bind_null(int index) {
  sqlite3_bind_null(stmt_, index);
  return *this;
}

Expected<bool> Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  std::string why = sqlite3_errmsg(db_);
  if (const int err = sqlite3_system_errno(db_); err != 0 && (rc & 0xff) == SQLITE_IOERR)
    why += std::string(" (") + std::strerror(err) + ")";
  return make_error(why);
}

Expected<void> Statement::run() {
  for (;;) {
    auto row = step();
    if (!row) return Error{row.error()};
    if (!*row) return {};
  }
}

std::int64_t Statement::int64(int column) const {
  return sqlite3_column_int64(stmt_, column);
}

int Statement::int32(int column) const {
  return sqlite3_column_int(stmt_, column);
}

double Statement::real(int column) const {
  return sqlite3_column_double(stmt_, column);
}

std::string Statement::text(int column) const {
  const unsigned char* p = sqlite3_column_text(stmt_, column);
  if (!p) return {};
  return std::string(reinterpret_cast<const char*>(p),
                     static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)));
}

bool Statement::is_null(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

Connection::Connection(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}

Connection::Connection(Connection&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)),
      path_(std::move(other.path_)),
      cache_(std::move(other.cache_)) {
  other.cache_.clear();
}

Connection::~Connection() {
  for (auto& [sql, stmt] : cache_) sqlite3_finalize(stmt);
  if (db_) sqlite3_close_v2(db_);
}

Expected<Connection> Connection::open(const std::string& path, int flags) {
  // SQLite's memory statistics take a process-wide mutex on every allocation of every
  // connection (the writer's, the readers', the checkpointer's); nothing here reads them
  // (sqlite3_memory_used, a soft heap limit), and SQLite's own advice for speed is to turn them
  // off (db/README.md, "Measured"). Only before SQLite is first initialized: later the call
  // fails with SQLITE_MISUSE and changes nothing.
  static const bool statistics_off = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) == SQLITE_OK;
  (void)statistics_off;
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string why = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    if (db && sqlite3_system_errno(db) != 0)
      why += std::string(" (") + std::strerror(sqlite3_system_errno(db)) + ")";
    if (db) sqlite3_close_v2(db);
    return make_error("cannot open database " + path + ": " + why);
  }
  sqlite3_extended_result_codes(db, 1);
  return Connection(db, path);
}

Expected<void> Connection::exec(const std::string& sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    std::string why = message ? message : sqlite3_errmsg(db_);
    sqlite3_free(message);
    // The OS reason ("File too large", "No space left on device") tells the user what to fix.
    if (const int err = sqlite3_system_errno(db_); err != 0)
      why += std::string(" (") + std::strerror(err) + ")";
    return make_error(why);
  }
  return {};
}

Expected<Statement> Connection::prepare(const std::string& sql) {
  auto it = cache_.find(sql);
  if (it == cache_.end()) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v3(db_, sql.c_str(), static_cast<int>(sql.size()),
                           SQLITE_PREPARE_PERSISTENT, &stmt, nullptr) != SQLITE_OK)
      return make_error(error_message() + " in: " + sql);
    it = cache_.emplace(sql, stmt).first;
  }
  return Statement(db_, it->second, true);
}

Expected<std::int64_t> Connection::query_int(const std::string& sql) {
  auto stmt = prepare(sql);
  if (!stmt) return Error{stmt.error()};
  auto row = stmt->step();
  if (!row) return Error{row.error()};
  if (!*row) return make_error("no row from: " + sql);
  return stmt->int64(0);
}

std::int64_t Connection::last_insert_rowid() const {
  return sqlite3_last_insert_rowid(db_);
}

std::string Connection::error_message() const {
  std::string why = sqlite3_errmsg(db_);
  const int err = sqlite3_system_errno(db_);
  if (err != 0) why += std::string(" (") + std::strerror(err) + ")";
  return why;
}

std::int64_t now_unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace arena::db
