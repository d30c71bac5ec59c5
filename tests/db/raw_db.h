#pragma once
// A second, independent SQLite connection for tests: it sees only what is committed to the
// file, so it checks what the store claims is durable.

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace arena::test {

class RawDb {
 public:
  explicit RawDb(const std::string& path, bool read_only = false) {
    sqlite3_open_v2(path.c_str(), &db_, read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE,
                    nullptr);
  }
  ~RawDb() { sqlite3_close_v2(db_); }
  RawDb(const RawDb&) = delete;
  RawDb& operator=(const RawDb&) = delete;

  static constexpr const char* kNull = "NULL";  // how a NULL column reads as text

  // The first column of the first row as text; "" when there is no row, "ERROR: ..." on error.
  std::string text(const std::string& sql) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
      return "ERROR: " + std::string(sqlite3_errmsg(db_));
    std::string out;
    const int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
      const unsigned char* p = sqlite3_column_text(stmt, 0);
      out = p ? reinterpret_cast<const char*>(p) : kNull;
    } else if (rc != SQLITE_DONE) {
      out = "ERROR: " + std::string(sqlite3_errmsg(db_));
    }
    sqlite3_finalize(stmt);
    return out;
  }
  // Every row of `sql`, columns as text; an error fails the test and gives no rows.
  std::vector<std::vector<std::string>> rows(const std::string& sql) {
    std::vector<std::vector<std::string>> out;
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
      ADD_FAILURE() << sql << ": " << sqlite3_errmsg(db_);
      return out;
    }
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      std::vector<std::string> row;
      for (int i = 0; i < sqlite3_column_count(stmt); ++i) {
        const unsigned char* t = sqlite3_column_text(stmt, i);
        row.emplace_back(t ? reinterpret_cast<const char*>(t) : kNull);
      }
      out.push_back(std::move(row));
    }
    if (rc != SQLITE_DONE) ADD_FAILURE() << sql << ": " << sqlite3_errmsg(db_);
    sqlite3_finalize(stmt);
    return out;
  }
  std::int64_t integer(const std::string& sql) { return std::stoll(text(sql)); }
  bool exec(const std::string& sql) {
    return sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK;
  }

 private:
  sqlite3* db_ = nullptr;
};

}  // namespace arena::test
