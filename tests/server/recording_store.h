#pragma once
// RecordingStore: a db::Store that forwards every call to another and records, for each
// synchronous call (the ones that wait for SQLite), the names of the threads that made it:
// tests check that the server's I/O threads ("arena-io") never do (db/store.h).

#include <pthread.h>

#include <map>
#include <mutex>
#include <set>
#include <string>

#include "db/store.h"

namespace arena::server::testing {

class RecordingStore final : public db::Store {
 public:
  explicit RecordingStore(db::Store& inner) : s_(inner) {}

  // The threads that called `method` so far (empty if none did).
  std::set<std::string> callers(const std::string& method) const {
    std::lock_guard lock(mutex_);
    auto it = callers_.find(method);
    return it == callers_.end() ? std::set<std::string>{} : it->second;
  }

  Expected<db::PlayerRecord> find_or_create_player(const std::string& n, bool bot) override {
    record("find_or_create_player");
    return s_.find_or_create_player(n, bot);
  }
  Expected<db::GameId> create_game(const db::NewGame& g) override {
    record("create_game");
    return s_.create_game(g);
  }
  Expected<std::string> create_bot_token(const std::string& n) override {
    record("create_bot_token");
    return s_.create_bot_token(n);
  }
  Expected<db::PlayerRecord> authenticate_token(const std::string& t) override {
    record("authenticate_token");
    return s_.authenticate_token(t);
  }
  Expected<std::vector<db::GameSummary>> list_games(const db::GameFilter& f) override {
    record("list_games");
    return s_.list_games(f);
  }
  Expected<db::GameDetail> game_detail(db::GameId id) override {
    record("game_detail");
    return s_.game_detail(id);
  }
  Expected<std::vector<db::RatingRow>> leaderboard(const std::string& k) override {
    record("leaderboard");
    return s_.leaderboard(k);
  }
  Expected<std::vector<db::GameDetail>> unfinished_games() override {
    record("unfinished_games");
    return s_.unfinished_games();
  }
  void flush() override {
    record("flush");
    s_.flush();
  }
  Expected<std::int64_t> register_bot_version(const db::BotVersion& v) override {
    record("register_bot_version");
    return s_.register_bot_version(v);
  }
  Expected<std::int64_t> create_tournament(const db::NewTournament& t) override {
    record("create_tournament");
    return s_.create_tournament(t);
  }
  Expected<std::int64_t> add_pairing(const db::Pairing& p) override {
    record("add_pairing");
    return s_.add_pairing(p);
  }
  Expected<void> set_pairing_game(std::int64_t p, db::GameId g) override {
    record("set_pairing_game");
    return s_.set_pairing_game(p, g);
  }
  Expected<void> finish_tournament(std::int64_t t) override {
    record("finish_tournament");
    return s_.finish_tournament(t);
  }
  Expected<std::vector<db::Pairing>> pairings(std::int64_t t) override {
    record("pairings");
    return s_.pairings(t);
  }
  Expected<std::vector<db::RatingRow>> ratings(const std::string& k,
                                               db::RatingMethod m) override {
    record("ratings");
    return s_.ratings(k, m);
  }
  Expected<std::vector<db::GameResultRow>> game_results(const std::string& k) override {
    record("game_results");
    return s_.game_results(k);
  }
  Expected<std::vector<std::string>> stored_kinds() override {
    record("stored_kinds");
    return s_.stored_kinds();
  }
  Expected<std::vector<db::PuzzleAttempt>> puzzle_attempts(const std::string& k) override {
    record("puzzle_attempts");
    return s_.puzzle_attempts(k);
  }
  Expected<std::vector<db::TournamentRecord>> unfinished_tournaments() override {
    record("unfinished_tournaments");
    return s_.unfinished_tournaments();
  }

  // Asynchronous: the caller does not wait.
  void append_move(const db::MoveRecord& m, db::Done d) override { s_.append_move(m, d); }
  void finish_game(const db::GameEnd& e, db::Done d) override { s_.finish_game(e, d); }
  void record_puzzle_attempt(const db::PuzzleAttempt& a, db::Done d) override {
    s_.record_puzzle_attempt(a, d);
  }
  void create_game_async(const db::NewGame& g, db::Created d) override {
    s_.create_game_async(g, d);
  }
  std::size_t queue_length() const override { return s_.queue_length(); }

 private:
  void record(const std::string& method) {
    char name[32] = {};
    pthread_getname_np(pthread_self(), name, sizeof name);
    std::lock_guard lock(mutex_);
    callers_[method].insert(name);
  }

  db::Store& s_;
  mutable std::mutex mutex_;
  std::map<std::string, std::set<std::string>> callers_;
};

}  // namespace arena::server::testing
