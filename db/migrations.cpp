#include "db/migrations.h"

#include <string>

#include "db/migrations_sql.h"  // generated: kEmbeddedMigrations

namespace arena::db {

std::span<const Migration> known_migrations() {
  return kEmbeddedMigrations;
}

int schema_version() {
  return known_migrations().empty() ? 0 : known_migrations().back().version;
}

Expected<int> apply_migrations(Connection& connection) {
  auto found = connection.query_int("PRAGMA user_version");
  if (!found) return make_error("cannot read database " + connection.path() + ": " + found.error());
  const int before = static_cast<int>(*found);
  if (before > schema_version())
    return make_error("database " + connection.path() + " has schema version " +
                      std::to_string(before) + ", newer than this binary knows (" +
                      std::to_string(schema_version()) +
                      "); use a newer arena or another database file");
  for (const Migration& m : known_migrations()) {
    if (m.version <= before) continue;
    // BEGIN IMMEDIATE takes the write lock first, so two processes never migrate at once.
    if (auto ok = connection.exec("BEGIN IMMEDIATE"); !ok)
      return make_error("cannot write database " + connection.path() + ": " + ok.error());
    auto ok = connection.exec(std::string(m.sql));
    if (ok) ok = connection.exec("PRAGMA user_version = " + std::to_string(m.version));
    if (ok) ok = connection.exec("COMMIT");
    if (!ok) {
      (void)connection.exec("ROLLBACK");
      return make_error("cannot apply migration " + std::string(m.name) + " to database " +
                        connection.path() + ": " + ok.error());
    }
  }
  return before;
}

}  // namespace arena::db
