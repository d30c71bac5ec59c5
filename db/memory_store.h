#pragma once
// MemoryStore: a db::Store kept in memory, for tests and `arena serve --db :memory:`.
// Thread-safe (one mutex). Writes are "durable" at once; callbacks run on the caller's thread,
// which the Store contract allows (the server always posts back to its own strand).
// A test can make writes fail (fail_writes) or hold callbacks back (hold_callbacks/release).
//
// Memory: a stored move costs about 140 bytes of heap (more with a PV over 15 characters), a
// game of 60 plies about 8.4 KB (bench_store_faults --phase memory), so a server that kept
// every game would grow without bound. The store keeps the last `keep_finished_games` finished
// games (default 10000, about 80 MiB of 60-ply games); when one more finishes, the oldest
// finished one is dropped: its
// moves and details go, game_detail names the bound when it is asked for, and list_games,
// game_results and unfinished_games no longer see it. What it counted for stays: the
// leaderboard's (and ratings') wins, losses and draws, its kind in stored_kinds, and its
// result in its tournament's pairings. Unfinished games are never dropped; ids are never
// reused.
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <string>

#include "db/store.h"

namespace arena::db {

class MemoryStore final : public db::Store {
 public:
  static constexpr std::size_t kKeepEveryGame = 0;
  static constexpr std::size_t kDefaultKeptGames = 10000;
  // `keep_finished_games`: the finished games kept (kKeepEveryGame: all of them).
  explicit MemoryStore(std::size_t keep_finished_games = kDefaultKeptGames)
      : keep_(keep_finished_games) {}

  Expected<db::PlayerRecord> find_or_create_player(const std::string& name, bool is_bot) override;
  Expected<db::GameId> create_game(const db::NewGame& game) override;
  void append_move(const db::MoveRecord& move, db::Done done) override;
  void finish_game(const db::GameEnd& end, db::Done done) override;
  Expected<std::string> create_bot_token(const std::string& bot_name) override;
  Expected<db::PlayerRecord> authenticate_token(const std::string& token) override;
  Expected<std::vector<db::GameSummary>> list_games(const db::GameFilter& filter) override;
  Expected<db::GameDetail> game_detail(db::GameId id) override;
  Expected<std::vector<db::RatingRow>> leaderboard(const std::string& kind) override;
  Expected<std::vector<db::GameDetail>> unfinished_games() override;
  std::size_t queue_length() const override;
  void flush() override;
  Expected<std::int64_t> register_bot_version(const db::BotVersion& version) override;
  Expected<std::int64_t> create_tournament(const db::NewTournament& tournament) override;
  Expected<std::int64_t> add_pairing(const db::Pairing& pairing) override;
  Expected<void> set_pairing_game(std::int64_t pairing_id, db::GameId game) override;
  Expected<void> finish_tournament(std::int64_t tournament) override;
  Expected<std::vector<db::Pairing>> pairings(std::int64_t tournament) override;
  void record_puzzle_attempt(const db::PuzzleAttempt& attempt, db::Done done) override;
  Expected<std::vector<db::RatingRow>> ratings(const std::string& kind,
                                               db::RatingMethod method) override;
  Expected<std::vector<db::GameResultRow>> game_results(const std::string& kind) override;
  Expected<std::vector<std::string>> stored_kinds() override;
  Expected<std::vector<db::PuzzleAttempt>> puzzle_attempts(const std::string& kind) override;
  Expected<std::vector<db::TournamentRecord>> unfinished_tournaments() override;
  // At once (hold_callbacks holds moves and ends, not the start of a game).
  void create_game_async(const db::NewGame& game, db::Created done) override;
  // Like a move: held by hold_callbacks, failed by fail_writes.
  void find_or_create_player_async(const std::string& name, bool is_bot, db::Found found) override;
  void register_bot_version_async(const db::BotVersion& version, db::Registered done) override;
  // No ratings model here: no history (an empty list).
  Expected<std::vector<db::RatingPoint>> rating_history(const std::string& kind,
                                                        db::PlayerId player) override;
  Expected<db::PlayerRecord> player_by_id(db::PlayerId id) override;
  Expected<std::optional<db::PlayerRecord>> player_by_name(const std::string& name) override;
  Expected<std::vector<db::BotVersionRow>> bot_versions(db::PlayerId player) override;
  Expected<std::int64_t> record_lab_run(const db::LabRun& run) override;
  Expected<std::vector<db::LabMeasuresRow>> lab_measures(const std::string& kind) override;

  // Test controls.
  void fail_writes(bool fail);
  void hold_callbacks(bool hold);
  void release();  // runs the held callbacks in order
  // Finished games dropped so far (see Memory above).
  std::size_t dropped_games() const;

 private:
  void complete(db::Done done, std::unique_lock<std::mutex>& lock);
  std::string name_of(db::PlayerId id) const;
  // Under mutex_: adds a finished game's result to `rows` (the leaderboard's counts).
  void count_result(const db::GameDetail& g, db::PlayerId a, db::PlayerId b,
                    std::map<db::PlayerId, db::RatingRow>& rows) const;
  // Under mutex_: drops the oldest finished games beyond keep_.
  void drop_old_games();

  mutable std::mutex mutex_;
  std::vector<db::PlayerRecord> players_;
  std::map<std::string, db::PlayerId> tokens_;
  std::map<db::GameId, db::GameDetail> games_;
  std::map<db::GameId, std::pair<db::PlayerId, db::PlayerId>> seats_;
  std::size_t keep_;
  db::GameId next_id_ = 1;
  std::deque<db::GameId> finished_;  // kept finished games, in the order they finished
  std::size_t dropped_ = 0;
  // The dropped games' share of the leaderboard, per kind and player; their kinds.
  std::map<std::string, std::map<db::PlayerId, db::RatingRow>> dropped_counts_;
  std::set<std::string> kinds_;
  std::vector<db::BotVersion> bot_versions_;
  std::vector<std::int64_t> bot_version_at_;          // when each was registered (unix ms)
  std::map<std::int64_t, int> version_games_;         // games started per bot version
  std::vector<db::NewTournament> tournaments_;
  std::vector<bool> tournament_finished_;
  std::vector<db::Pairing> pairings_;
  std::vector<db::PuzzleAttempt> attempts_;
  std::vector<db::LabRun> lab_runs_;  // run i has id i + 1
  bool fail_ = false, hold_ = false;
  std::deque<std::pair<db::Done, bool>> held_;
};

}  // namespace arena::db
