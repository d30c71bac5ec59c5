#pragma once
// ForwardingStore: a Store that passes every call to another Store. The base of decorators
// that change a few calls and keep the rest: bench_store's HopStore (its writes through a
// writer thread) and the tests' RecordingStore (which threads call what).

#include "db/store.h"

namespace arena::db {

class ForwardingStore : public Store {
 public:
  // `inner` must outlive this store (it may be a member of a derived class: it is not used
  // before the first call).
  explicit ForwardingStore(Store& inner) : inner_(inner) {}

  Expected<PlayerRecord> find_or_create_player(const std::string& name, bool is_bot) override {
    return inner_.find_or_create_player(name, is_bot);
  }
  Expected<GameId> create_game(const NewGame& game) override { return inner_.create_game(game); }
  void append_move(const MoveRecord& move, Done done) override {
    inner_.append_move(move, std::move(done));
  }
  void finish_game(const GameEnd& end, Done done) override {
    inner_.finish_game(end, std::move(done));
  }
  Expected<std::string> create_bot_token(const std::string& bot_name) override {
    return inner_.create_bot_token(bot_name);
  }
  Expected<PlayerRecord> authenticate_token(const std::string& token) override {
    return inner_.authenticate_token(token);
  }
  Expected<std::vector<GameSummary>> list_games(const GameFilter& filter) override {
    return inner_.list_games(filter);
  }
  Expected<GameDetail> game_detail(GameId id) override { return inner_.game_detail(id); }
  Expected<std::vector<RatingRow>> leaderboard(const std::string& kind) override {
    return inner_.leaderboard(kind);
  }
  Expected<std::vector<GameDetail>> unfinished_games() override {
    return inner_.unfinished_games();
  }
  std::size_t queue_length() const override { return inner_.queue_length(); }
  void flush() override { inner_.flush(); }
  void purge_guests_async(const GuestPurge& purge, Purged done) override {
    inner_.purge_guests_async(purge, std::move(done));
  }
  Expected<std::int64_t> register_bot_version(const BotVersion& version) override {
    return inner_.register_bot_version(version);
  }
  Expected<std::int64_t> create_tournament(const NewTournament& tournament) override {
    return inner_.create_tournament(tournament);
  }
  Expected<std::int64_t> add_pairing(const Pairing& pairing) override {
    return inner_.add_pairing(pairing);
  }
  Expected<void> set_pairing_game(std::int64_t pairing_id, GameId game) override {
    return inner_.set_pairing_game(pairing_id, game);
  }
  Expected<void> finish_tournament(std::int64_t tournament) override {
    return inner_.finish_tournament(tournament);
  }
  Expected<std::vector<Pairing>> pairings(std::int64_t tournament) override {
    return inner_.pairings(tournament);
  }
  void record_puzzle_attempt(const PuzzleAttempt& attempt, Done done) override {
    inner_.record_puzzle_attempt(attempt, std::move(done));
  }
  Expected<std::vector<RatingRow>> ratings(const std::string& kind, RatingMethod method) override {
    return inner_.ratings(kind, method);
  }
  Expected<std::vector<GameResultRow>> game_results(const std::string& kind) override {
    return inner_.game_results(kind);
  }
  Expected<std::vector<std::string>> stored_kinds() override { return inner_.stored_kinds(); }
  Expected<std::vector<PuzzleAttempt>> puzzle_attempts(const std::string& kind) override {
    return inner_.puzzle_attempts(kind);
  }
  Expected<std::vector<TournamentRecord>> unfinished_tournaments() override {
    return inner_.unfinished_tournaments();
  }
  void create_game_async(const NewGame& game, Created done) override {
    inner_.create_game_async(game, std::move(done));
  }
  void find_or_create_player_async(const std::string& name, bool is_bot, Found found) override {
    inner_.find_or_create_player_async(name, is_bot, std::move(found));
  }
  void register_bot_version_async(const BotVersion& version, Registered done) override {
    inner_.register_bot_version_async(version, std::move(done));
  }

  Expected<std::vector<RatingPoint>> rating_history(const std::string& kind,
                                                    PlayerId player) override {
    return inner_.rating_history(kind, player);
  }
  Expected<PlayerRecord> player_by_id(PlayerId id) override { return inner_.player_by_id(id); }
  Expected<std::optional<PlayerRecord>> player_by_name(const std::string& name) override {
    return inner_.player_by_name(name);
  }
  Expected<std::vector<BotVersionRow>> bot_versions(PlayerId player) override {
    return inner_.bot_versions(player);
  }
  Expected<std::int64_t> record_lab_run(const LabRun& run) override {
    return inner_.record_lab_run(run);
  }
  Expected<std::vector<LabMeasuresRow>> lab_measures(const std::string& kind) override {
    return inner_.lab_measures(kind);
  }

 protected:
  Store& inner_;
};

}  // namespace arena::db
