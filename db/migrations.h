#pragma once
// The schema as numbered migrations (db/migrations/NNNN_name.sql), embedded into the binary at
// build time (CMake writes them into a generated header), so a binary never reads the source
// tree. PRAGMA user_version records the last one applied.

#include <span>
#include <string_view>

#include "db/sqlite_db.h"
#include "games/core/expected.h"

namespace arena::db {

struct Migration {
  int version = 0;  // NNNN of the file name; versions are 1, 2, 3 ... without gaps
  std::string_view name;
  std::string_view sql;
};

// Every migration this binary knows, in order.
std::span<const Migration> known_migrations();

// The newest schema version this binary knows.
int schema_version();

// Brings the database to schema_version(): each missing migration runs in its own transaction
// together with its user_version bump. A database newer than this binary is refused, naming
// both versions. Returns the version found before migrating.
Expected<int> apply_migrations(Connection& connection);

}  // namespace arena::db
