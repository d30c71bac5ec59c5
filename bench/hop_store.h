#pragma once
// HopStore (bench_store's middle reference): a MemoryStore whose writes go through the same
// db::WriteQueue as the SqliteStore's (its own thread, group commit, callbacks from that
// thread), on an in-memory SQLite connection where BEGIN and COMMIT cost next to nothing. It
// separates what the store's thread hop costs a move's round trip from what SQLite's work
// costs: MemoryStore -> HopStore is the hop, HopStore -> SqliteStore is the file.

#include <sqlite3.h>

#include <functional>

#include "db/forwarding_store.h"
#include "db/sqlite_db.h"
#include "db/write_queue.h"
#include "db/memory_store.h"

namespace arena::bench {

class HopStore final : public db::ForwardingStore {
 public:
  static Expected<std::unique_ptr<HopStore>> open();
  explicit HopStore(db::Connection connection)
      : ForwardingStore(memory_), queue_(std::move(connection), 512) {}
  ~HopStore() override { queue_.flush(); }

  // The server's moves, game ends and game starts go through the queue; the rest (reads,
  // sign-ins, a guest's hello, record_puzzle_attempt) straight to the MemoryStore, as in the
  // server's MemoryStore runs.
  void append_move(const db::MoveRecord& move, db::Done done) override {
    hop([this, move](db::Done d) { memory_.append_move(move, std::move(d)); }, std::move(done));
  }
  void finish_game(const db::GameEnd& end, db::Done done) override {
    hop([this, end](db::Done d) { memory_.finish_game(end, std::move(d)); }, std::move(done));
  }
  void create_game_async(const db::NewGame& game, db::Created done) override {
    auto id = std::make_shared<Expected<db::GameId>>(db::GameId{0});
    queue_.post(
        [this, game, id](db::Connection&) -> Expected<void> {
          *id = memory_.create_game(game);
          if (!*id) return make_error(id->error());
          return {};
        },
        [id, done = std::move(done)](Expected<void>) { done(*id); });
  }
  std::size_t queue_length() const override { return queue_.size(); }
  void flush() override { queue_.flush(); }

 private:
  // Runs `write` (a MemoryStore write, which answers at once) on the queue's thread; `done`
  // gets its result from there, as the SqliteStore's callbacks come.
  void hop(std::function<void(db::Done)> write, db::Done done) {
    queue_.post(
        [write = std::move(write)](db::Connection&) {
          Expected<void> r;
          write([&r](Expected<void> ok) { r = std::move(ok); });
          return r;
        },
        std::move(done));
  }

  db::MemoryStore memory_;  // constructed after the base, which only keeps a reference
  db::WriteQueue queue_;        // last: its thread stops first
};

inline Expected<std::unique_ptr<HopStore>> HopStore::open() {
  auto c = db::Connection::open(":memory:",
                                SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX);
  if (!c) return make_error("hop store: " + c.error());
  return std::make_unique<HopStore>(std::move(*c));
}

}  // namespace arena::bench
