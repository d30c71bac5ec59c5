#pragma once
// RecordingStore: a db::Store that forwards every call to another and records, for each
// synchronous call (the ones that wait for SQLite), the names of the threads that made it:
// tests check that the server's I/O threads ("arena-io") never do (db/store.h).

#include <pthread.h>

#include <map>
#include <mutex>
#include <set>
#include <string>

#include "db/forwarding_store.h"

namespace arena::server::testing {

class RecordingStore final : public db::ForwardingStore {
 public:
  using ForwardingStore::ForwardingStore;

  // The threads that called `method` so far (empty if none did).
  std::set<std::string> callers(const std::string& method) const {
    std::lock_guard lock(mutex_);
    auto it = callers_.find(method);
    return it == callers_.end() ? std::set<std::string>{} : it->second;
  }

// Records the caller, then forwards: `name` is the method, `args` its arguments.
#define ARENA_RECORDED(ret, name, params, args) \
  ret name params override {                    \
    record(#name);                              \
    return ForwardingStore::name args;          \
  }
  ARENA_RECORDED(Expected<db::PlayerRecord>, find_or_create_player,
                 (const std::string& n, bool bot), (n, bot))
  ARENA_RECORDED(Expected<db::GameId>, create_game, (const db::NewGame& g), (g))
  ARENA_RECORDED(Expected<std::string>, create_bot_token, (const std::string& n), (n))
  ARENA_RECORDED(Expected<db::PlayerRecord>, authenticate_token, (const std::string& t), (t))
  ARENA_RECORDED(Expected<std::vector<db::GameSummary>>, list_games, (const db::GameFilter& f), (f))
  ARENA_RECORDED(Expected<db::GameDetail>, game_detail, (db::GameId id), (id))
  ARENA_RECORDED(Expected<std::vector<db::RatingRow>>, leaderboard, (const std::string& k), (k))
  ARENA_RECORDED(Expected<std::vector<db::GameDetail>>, unfinished_games, (), ())
  ARENA_RECORDED(void, flush, (), ())
  ARENA_RECORDED(Expected<std::int64_t>, register_bot_version, (const db::BotVersion& v), (v))
  ARENA_RECORDED(Expected<std::int64_t>, create_tournament, (const db::NewTournament& t), (t))
  ARENA_RECORDED(Expected<std::int64_t>, add_pairing, (const db::Pairing& p), (p))
  ARENA_RECORDED(Expected<void>, set_pairing_game, (std::int64_t p, db::GameId g), (p, g))
  ARENA_RECORDED(Expected<void>, finish_tournament, (std::int64_t t), (t))
  ARENA_RECORDED(Expected<std::vector<db::Pairing>>, pairings, (std::int64_t t), (t))
  ARENA_RECORDED(Expected<std::vector<db::RatingRow>>, ratings,
                 (const std::string& k, db::RatingMethod m), (k, m))
  ARENA_RECORDED(Expected<std::vector<db::GameResultRow>>, game_results, (const std::string& k),
                 (k))
  ARENA_RECORDED(Expected<std::vector<std::string>>, stored_kinds, (), ())
  ARENA_RECORDED(Expected<std::vector<db::PuzzleAttempt>>, puzzle_attempts, (const std::string& k),
                 (k))
  ARENA_RECORDED(Expected<std::vector<db::TournamentRecord>>, unfinished_tournaments, (), ())
#undef ARENA_RECORDED

 private:
  void record(const std::string& method) {
    char name[32] = {};
    pthread_getname_np(pthread_self(), name, sizeof name);
    std::lock_guard lock(mutex_);
    callers_[method].insert(name);
  }

  mutable std::mutex mutex_;
  std::map<std::string, std::set<std::string>> callers_;
};

}  // namespace arena::server::testing
