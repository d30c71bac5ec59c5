#pragma once
// HopStore (bench_store's middle reference): a MemoryStore whose writes go through the same
// db::WriteQueue as the SqliteStore's (its own thread, group commit, callbacks from that
// thread), on an in-memory SQLite connection where BEGIN and COMMIT cost next to nothing. It
// separates what the store's thread hop costs a move's round trip from what SQLite's work
// costs: MemoryStore -> HopStore is the hop, HopStore -> SqliteStore is the file.

#include <sqlite3.h>

#include "db/sqlite_db.h"
#include "db/write_queue.h"
#include "server/memory_store.h"

namespace arena::bench {

class HopStore final : public db::Store {
 public:
  static Expected<std::unique_ptr<HopStore>> open();
  explicit HopStore(db::Connection connection) : queue_(std::move(connection), 512) {}
  ~HopStore() override { queue_.flush(); }

  void append_move(const db::MoveRecord& move, db::Done done) override {
    queue_.post(
        [this, move](db::Connection&) {
          Expected<void> r;
          memory_.append_move(move, [&r](Expected<void> ok) { r = std::move(ok); });
          return r;
        },
        std::move(done));
  }
  void finish_game(const db::GameEnd& end, db::Done done) override {
    queue_.post(
        [this, end](db::Connection&) {
          Expected<void> r;
          memory_.finish_game(end, [&r](Expected<void> ok) { r = std::move(ok); });
          return r;
        },
        std::move(done));
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
  void record_puzzle_attempt(const db::PuzzleAttempt& attempt, db::Done done) override {
    memory_.record_puzzle_attempt(attempt, std::move(done));
  }
  std::size_t queue_length() const override { return queue_.size(); }
  void flush() override { queue_.flush(); }

  // The rest: straight to the MemoryStore, as in the server's MemoryStore runs.
  Expected<db::PlayerRecord> find_or_create_player(const std::string& n, bool bot) override {
    return memory_.find_or_create_player(n, bot);
  }
  Expected<db::GameId> create_game(const db::NewGame& g) override {
    return memory_.create_game(g);
  }
  Expected<std::string> create_bot_token(const std::string& n) override {
    return memory_.create_bot_token(n);
  }
  Expected<db::PlayerRecord> authenticate_token(const std::string& t) override {
    return memory_.authenticate_token(t);
  }
  Expected<std::vector<db::GameSummary>> list_games(const db::GameFilter& f) override {
    return memory_.list_games(f);
  }
  Expected<db::GameDetail> game_detail(db::GameId id) override { return memory_.game_detail(id); }
  Expected<std::vector<db::RatingRow>> leaderboard(const std::string& k) override {
    return memory_.leaderboard(k);
  }
  Expected<std::vector<db::GameDetail>> unfinished_games() override {
    return memory_.unfinished_games();
  }
  Expected<std::int64_t> register_bot_version(const db::BotVersion& v) override {
    return memory_.register_bot_version(v);
  }
  Expected<std::int64_t> create_tournament(const db::NewTournament& t) override {
    return memory_.create_tournament(t);
  }
  Expected<std::int64_t> add_pairing(const db::Pairing& p) override {
    return memory_.add_pairing(p);
  }
  Expected<void> set_pairing_game(std::int64_t p, db::GameId g) override {
    return memory_.set_pairing_game(p, g);
  }
  Expected<void> finish_tournament(std::int64_t t) override {
    return memory_.finish_tournament(t);
  }
  Expected<std::vector<db::Pairing>> pairings(std::int64_t t) override {
    return memory_.pairings(t);
  }
  Expected<std::vector<db::RatingRow>> ratings(const std::string& k,
                                               db::RatingMethod m) override {
    return memory_.ratings(k, m);
  }
  Expected<std::vector<db::GameResultRow>> game_results(const std::string& k) override {
    return memory_.game_results(k);
  }
  Expected<std::vector<std::string>> stored_kinds() override { return memory_.stored_kinds(); }
  Expected<std::vector<db::PuzzleAttempt>> puzzle_attempts(const std::string& k) override {
    return memory_.puzzle_attempts(k);
  }
  Expected<std::vector<db::TournamentRecord>> unfinished_tournaments() override {
    return memory_.unfinished_tournaments();
  }

 private:
  server::MemoryStore memory_;
  db::WriteQueue queue_;  // last: its thread stops first
};

inline Expected<std::unique_ptr<HopStore>> HopStore::open() {
  auto c = db::Connection::open(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                                                SQLITE_OPEN_NOMUTEX);
  if (!c) return make_error("hop store: " + c.error());
  return std::make_unique<HopStore>(std::move(*c));
}

}  // namespace arena::bench
