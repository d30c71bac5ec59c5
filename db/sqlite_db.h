#pragma once
// Thin RAII wrappers over the SQLite C API for the store: a connection with a cache of prepared
// statements, and a statement with typed binds and columns. Errors come back as Expected values
// carrying SQLite's message. Not thread-safe: one owner thread per Connection.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "games/core/expected.h"

struct sqlite3;
struct sqlite3_stmt;

namespace arena::db {

class Statement {
 public:
  // `cached`: the statement belongs to the connection's cache and is only reset on destruction.
  Statement(sqlite3* db, sqlite3_stmt* stmt, bool cached);
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&&) = delete;
  Statement(const Statement&) = delete;
  ~Statement();

  // Binds are 1-based, as in SQL's ?1, ?2 ...
  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, int value) { return bind(index, std::int64_t{value}); }
  Statement& bind(int index, double value);
  Statement& bind(int index, std::string_view value);
  Statement& bind(int index, const std::optional<std::int64_t>& value);
  Statement& bind_null(int index);

  // True when a row is ready, false when done.
  Expected<bool> step();
  // Steps to the end (for statements that return no rows).
  Expected<void> run();

  // Columns are 0-based.
  std::int64_t int64(int column) const;
  int int32(int column) const;
  double real(int column) const;
  std::string text(int column) const;  // "" for NULL
  bool is_null(int column) const;

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_;
  bool cached_;
};

class Connection {
 public:
  // Opens `path` with sqlite3_open_v2 flags; the error names the path.
  static Expected<Connection> open(const std::string& path, int flags);
  Connection(Connection&& other) noexcept;
  Connection& operator=(Connection&&) = delete;
  Connection(const Connection&) = delete;
  ~Connection();

  // Runs one or more statements with no parameters.
  Expected<void> exec(const std::string& sql);
  // A statement from the cache (prepared on first use); reset when the Statement dies.
  Expected<Statement> prepare(const std::string& sql);
  // The first column of the first row of `sql` as an integer.
  Expected<std::int64_t> query_int(const std::string& sql);

  std::int64_t last_insert_rowid() const;
  std::string error_message() const;
  const std::string& path() const { return path_; }
  sqlite3* handle() const { return db_; }

 private:
  Connection(sqlite3* db, std::string path);

  sqlite3* db_;
  std::string path_;
  std::map<std::string, sqlite3_stmt*, std::less<>> cache_;
};

// Unix time in milliseconds, for the timestamps the store writes.
std::int64_t now_unix_ms();

}  // namespace arena::db
