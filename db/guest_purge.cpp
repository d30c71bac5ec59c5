// The guest purge (Store::purge_guests_async): every guest login made a player row that stayed
// forever (issue 53: a login storm of 950 logins a second left a row per login). A guest who
// never played leaves nothing behind worth its row: the server purges such rows some time
// after their creation (`arena serve --guest-ttl`). A guest who comes back later with its
// session is recreated under the same stored name (the hash of its token) with a new id.
#include <algorithm>
#include <memory>
#include <vector>

#include "db/sqlite_store.h"

namespace arena::db {

void Store::purge_guests_async(const GuestPurge&, Purged done) {
  done(make_error("this store does not purge guests"));
}

namespace {

// Writer thread: the candidates (guests old enough that no game names in its first two seats:
// both through an index), then a delete each. A guest another table still refers to (a seat of
// a game of more seats, a puzzle attempt) is refused by its foreign key and kept.
Expected<void> purge(Connection& c, const Store::GuestPurge& p, std::vector<PlayerId>& deleted) {
  auto select = c.prepare(
      "SELECT id FROM players AS p WHERE is_bot = 0 AND token_hash IS NULL "
      "AND name LIKE 'guest:%' AND created_at < ?1 "
      "AND NOT EXISTS (SELECT 1 FROM games WHERE first_id = p.id) "
      "AND NOT EXISTS (SELECT 1 FROM games WHERE second_id = p.id) "
      "ORDER BY id LIMIT ?2");
  if (!select) return Error{select.error()};
  select->bind(1, p.created_before_ms).bind(2, std::int64_t{p.max_rows} + std::int64_t(p.keep.size()));
  std::vector<PlayerId> candidates;
  while (true) {
    auto row = select->step();
    if (!row) return Error{row.error()};
    if (!*row) break;
    candidates.push_back(select->int64(0));
  }
  for (const PlayerId id : candidates) {
    if (static_cast<int>(deleted.size()) >= p.max_rows) break;
    if (std::find(p.keep.begin(), p.keep.end(), id) != p.keep.end()) continue;
    auto del = c.prepare("DELETE FROM players WHERE id = ?1");
    if (!del) return Error{del.error()};
    del->bind(1, id);
    if (del->run()) deleted.push_back(id);  // a foreign key refused it: the guest stays
  }
  return {};
}

}  // namespace

void SqliteStore::purge_guests_async(const GuestPurge& p, Purged done) {
  auto deleted = std::make_shared<std::vector<PlayerId>>();
  writer_.post([p, deleted](Connection& c) { return purge(c, p, *deleted); },
               [deleted, done = std::move(done)](Expected<void> ok) {
                 if (!ok) return done(Error{ok.error()});
                 done(std::move(*deleted));
               });
}

}  // namespace arena::db
