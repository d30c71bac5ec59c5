#include "db/memory_store.h"

#include <chrono>
#include <cmath>
#include <random>
#include <set>

namespace arena::db {
namespace {

std::int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// A queued write's answer: `done` gets `value`, or the error the store completes with.
template <class T>
db::Done answer(Expected<T> value, std::function<void(Expected<T>)> done) {
  return [value = std::move(value), done = std::move(done)](Expected<void> ok) {
    if (!ok) return done(Error{ok.error()});
    done(value);
  };
}

}  // namespace

Expected<db::PlayerRecord> MemoryStore::find_or_create_player(const std::string& name,
                                                              bool is_bot) {
  std::lock_guard lock(mutex_);
  for (const auto& p : players_)
    if (p.name == name) return p;
  players_.push_back({static_cast<db::PlayerId>(players_.size() + 1), name, is_bot});
  return players_.back();
}

std::string MemoryStore::name_of(db::PlayerId id) const {
  return id > 0 && id <= static_cast<db::PlayerId>(players_.size()) ? players_[id - 1].name : "";
}

Expected<db::GameId> MemoryStore::create_game(const db::NewGame& game) {
  std::lock_guard lock(mutex_);
  if (fail_) return make_error("memory store: writes are failing (test)");
  const db::GameId id = next_id_++;
  kinds_.insert(game.kind);
  db::GameDetail d;
  d.summary = {id, game.kind, game.options,      name_of(game.first), name_of(game.second),
               "", "",        game.time_control, unix_ms(),           0,
               0};
  d.start_position = game.start_position;
  d.seed = game.seed;
  for (auto player : game.seats) d.summary.seat_names.push_back(name_of(player));
  d.summary.first_id = game.first;
  d.summary.second_id = game.second;
  for (auto version : {game.first_version, game.second_version})
    if (version > 0) ++version_games_[version];
  games_[id] = d;
  seats_[id] = {game.first, game.second};
  return id;
}

void MemoryStore::create_game_async(const db::NewGame& game, db::Created done) {
  done(create_game(game));
}

void MemoryStore::find_or_create_player_async(const std::string& name, bool is_bot,
                                              db::Found found) {
  auto record = find_or_create_player(name, is_bot);
  std::unique_lock lock(mutex_);
  complete(answer(std::move(record), std::move(found)), lock);
}

void MemoryStore::register_bot_version_async(const db::BotVersion& version, db::Registered done) {
  auto id = register_bot_version(version);
  std::unique_lock lock(mutex_);
  complete(answer(std::move(id), std::move(done)), lock);
}

void MemoryStore::complete(db::Done done, std::unique_lock<std::mutex>& lock) {
  const bool failed = fail_;
  if (hold_) {
    held_.emplace_back(std::move(done), failed);
    return;
  }
  lock.unlock();
  if (failed)
    done(make_error("memory store: writes are failing (test)"));
  else
    done({});
}

void MemoryStore::append_move(const db::MoveRecord& move, db::Done done) {
  std::unique_lock lock(mutex_);
  auto it = games_.find(move.game);
  if (!fail_ && it != games_.end()) {
    it->second.moves.push_back(move);
    it->second.summary.plies = static_cast<int>(it->second.moves.size());
  }
  complete(std::move(done), lock);
}

void MemoryStore::finish_game(const db::GameEnd& end, db::Done done) {
  std::unique_lock lock(mutex_);
  auto it = games_.find(end.game);
  if (!fail_ && it != games_.end()) {
    it->second.summary.result = end.result;
    it->second.summary.reason = end.reason;
    it->second.summary.note = end.note;
    it->second.summary.ended_at_ms = unix_ms();
    it->second.final_position = end.final_position;
    it->second.summary.scores = end.scores;
    finished_.push_back(end.game);
    drop_old_games();
  }
  complete(std::move(done), lock);
}

Expected<std::string> MemoryStore::create_bot_token(const std::string& bot_name) {
  auto player = find_or_create_player(bot_name, true);
  if (!player) return make_error(player.error());
  std::random_device rd;
  std::string token = "arena_";
  for (int i = 0; i < 32; ++i) token += "0123456789abcdef"[rd() % 16];
  std::lock_guard lock(mutex_);
  tokens_[token] = player->id;
  return token;
}

Expected<db::PlayerRecord> MemoryStore::authenticate_token(const std::string& token) {
  std::lock_guard lock(mutex_);
  auto it = tokens_.find(token);
  if (it == tokens_.end()) return make_error("unknown token");
  return players_[it->second - 1];
}

Expected<std::vector<db::GameSummary>> MemoryStore::list_games(const db::GameFilter& filter) {
  std::lock_guard lock(mutex_);
  std::vector<db::GameSummary> out;
  int skipped = 0;
  for (auto it = games_.rbegin(); it != games_.rend(); ++it) {
    const auto& s = it->second.summary;
    if (!filter.kind.empty() && s.kind != filter.kind) continue;
    if (filter.finished_only && s.result.empty()) continue;
    const auto& seats = seats_[s.id];
    if (filter.player != 0 && seats.first != filter.player && seats.second != filter.player)
      continue;
    if (skipped++ < filter.offset) continue;
    if (filter.limit > 0 && static_cast<int>(out.size()) >= filter.limit) break;
    out.push_back(s);
  }
  return out;
}

Expected<db::GameDetail> MemoryStore::game_detail(db::GameId id) {
  std::lock_guard lock(mutex_);
  auto it = games_.find(id);
  if (it != games_.end()) return it->second;
  if (id >= 1 && id < next_id_)
    return make_error("game " + std::to_string(id) +
                      " is no longer kept: this in-memory store (--db :memory:) keeps the last " +
                      std::to_string(keep_) +
                      " finished games and drops older ones (a database file keeps every game)");
  return make_error("no game " + std::to_string(id));
}

std::size_t MemoryStore::dropped_games() const {
  std::lock_guard lock(mutex_);
  return dropped_;
}

void MemoryStore::count_result(const db::GameDetail& g, db::PlayerId a, db::PlayerId b,
                               std::map<db::PlayerId, db::RatingRow>& rows) const {
  // Aborted games and games with a note (the rules ended them by their own fault) are not rated.
  if (g.summary.result.empty() || g.summary.result == "*" || !g.summary.note.empty()) return;
  if (a == 0 || b == 0) return;
  for (auto p : {a, b}) {
    auto& r = rows[p];
    r.player = p;
    r.name = players_[p - 1].name;
    r.is_bot = players_[p - 1].is_bot;
    ++r.games;
  }
  if (g.summary.result == "1-0")
    ++rows[a].wins, ++rows[b].losses;
  else if (g.summary.result == "0-1")
    ++rows[b].wins, ++rows[a].losses;
  else
    ++rows[a].draws, ++rows[b].draws;
}

void MemoryStore::drop_old_games() {
  while (keep_ != kKeepEveryGame && finished_.size() > keep_) {
    const db::GameId id = finished_.front();
    finished_.pop_front();
    auto game = games_.find(id);
    if (game == games_.end()) continue;
    const auto [a, b] = seats_[id];
    count_result(game->second, a, b, dropped_counts_[game->second.summary.kind]);
    for (auto& pairing : pairings_)
      if (pairing.game == id) pairing.result = game->second.summary.result;
    games_.erase(game);
    seats_.erase(id);
    ++dropped_;
  }
}

Expected<std::vector<db::RatingRow>> MemoryStore::leaderboard(const std::string& kind) {
  // Counts only (no rating model here): wins, losses and draws of finished games of `kind`,
  // the dropped ones included.
  std::lock_guard lock(mutex_);
  std::map<db::PlayerId, db::RatingRow> rows;
  if (auto dropped = dropped_counts_.find(kind); dropped != dropped_counts_.end())
    rows = dropped->second;
  for (const auto& [id, g] : games_) {
    if (g.summary.kind != kind) continue;
    const auto [a, b] = seats_[id];
    count_result(g, a, b, rows);
  }
  std::vector<db::RatingRow> out;
  for (auto& [p, r] : rows) out.push_back(r);
  return out;
}

Expected<std::vector<db::GameDetail>> MemoryStore::unfinished_games() {
  std::lock_guard lock(mutex_);
  std::vector<db::GameDetail> out;
  for (const auto& [id, g] : games_)
    if (g.summary.result.empty()) out.push_back(g);
  return out;
}

std::size_t MemoryStore::queue_length() const {
  std::lock_guard lock(mutex_);
  return held_.size();
}

void MemoryStore::flush() {
  release();
}

void MemoryStore::fail_writes(bool fail) {
  std::lock_guard lock(mutex_);
  fail_ = fail;
}

void MemoryStore::hold_callbacks(bool hold) {
  std::lock_guard lock(mutex_);
  hold_ = hold;
}

void MemoryStore::release() {
  std::unique_lock lock(mutex_);
  auto held = std::move(held_);
  held_.clear();
  lock.unlock();
  for (auto& [done, failed] : held) {
    if (failed)
      done(make_error("memory store: writes are failing (test)"));
    else
      done({});
  }
}

}  // namespace arena::db

// Tournaments, bot versions and puzzle attempts: kept as plain lists (no ratings model here;
// ratings() returns the same counts as leaderboard()).
namespace arena::db {

Expected<std::int64_t> MemoryStore::register_bot_version(const db::BotVersion& version) {
  std::lock_guard lock(mutex_);
  for (std::size_t i = 0; i < bot_versions_.size(); ++i) {
    const auto& v = bot_versions_[i];
    if (v.player == version.player && v.search == version.search &&
        v.heuristic == version.heuristic && v.parameters == version.parameters)
      return static_cast<std::int64_t>(i + 1);
  }
  bot_versions_.push_back(version);
  bot_version_at_.push_back(unix_ms());
  return static_cast<std::int64_t>(bot_versions_.size());
}

Expected<std::int64_t> MemoryStore::create_tournament(const db::NewTournament& tournament) {
  std::lock_guard lock(mutex_);
  tournaments_.push_back(tournament);
  tournament_finished_.push_back(false);
  return static_cast<std::int64_t>(tournaments_.size());
}

Expected<std::int64_t> MemoryStore::add_pairing(const db::Pairing& pairing) {
  std::lock_guard lock(mutex_);
  pairings_.push_back(pairing);
  return static_cast<std::int64_t>(pairings_.size());
}

Expected<void> MemoryStore::set_pairing_game(std::int64_t pairing_id, db::GameId game) {
  std::lock_guard lock(mutex_);
  if (pairing_id < 1 || pairing_id > static_cast<std::int64_t>(pairings_.size()))
    return make_error("no pairing " + std::to_string(pairing_id));
  pairings_[pairing_id - 1].game = game;
  return {};
}

Expected<void> MemoryStore::finish_tournament(std::int64_t tournament) {
  std::lock_guard lock(mutex_);
  if (tournament < 1 || tournament > static_cast<std::int64_t>(tournaments_.size()))
    return make_error("no tournament " + std::to_string(tournament));
  tournament_finished_[static_cast<std::size_t>(tournament - 1)] = true;
  return {};
}

Expected<std::vector<db::TournamentRecord>> MemoryStore::unfinished_tournaments() {
  std::lock_guard lock(mutex_);
  std::vector<db::TournamentRecord> out;
  for (std::size_t i = 0; i < tournaments_.size(); ++i)
    if (!tournament_finished_[i]) {
      const auto& t = tournaments_[i];
      out.push_back({static_cast<std::int64_t>(i + 1), t.name, t.kind, t.format, t.config, false});
    }
  return out;
}

Expected<std::vector<db::Pairing>> MemoryStore::pairings(std::int64_t tournament) {
  std::lock_guard lock(mutex_);
  std::vector<db::Pairing> out;
  for (std::size_t i = 0; i < pairings_.size(); ++i) {
    if (pairings_[i].tournament != tournament) continue;
    db::Pairing p = pairings_[i];
    p.id = static_cast<std::int64_t>(i + 1);
    // A dropped game's result was copied into its pairing.
    if (auto g = games_.find(p.game); g != games_.end()) p.result = g->second.summary.result;
    out.push_back(std::move(p));
  }
  return out;
}

void MemoryStore::record_puzzle_attempt(const db::PuzzleAttempt& attempt, db::Done done) {
  std::unique_lock lock(mutex_);
  if (!fail_) attempts_.push_back(attempt);
  complete(std::move(done), lock);
}

Expected<std::vector<db::RatingRow>> MemoryStore::ratings(const std::string& kind,
                                                          db::RatingMethod) {
  return leaderboard(kind);
}

Expected<std::vector<db::GameResultRow>> MemoryStore::game_results(const std::string& kind) {
  std::lock_guard lock(mutex_);
  std::vector<db::GameResultRow> out;
  for (const auto& [id, g] : games_) {
    const auto& r = g.summary.result;
    if (g.summary.kind != kind || (r != "1-0" && r != "0-1" && r != "1/2-1/2") ||
        !g.summary.note.empty())
      continue;
    const auto [a, b] = seats_[id];
    out.push_back({id, a, b, name_of(a), name_of(b), r == "1-0" ? 1.0 : r == "0-1" ? 0.0 : 0.5});
  }
  return out;
}

Expected<std::vector<std::string>> MemoryStore::stored_kinds() {
  std::lock_guard lock(mutex_);
  return std::vector<std::string>(kinds_.begin(), kinds_.end());
}

Expected<std::vector<db::PuzzleAttempt>> MemoryStore::puzzle_attempts(const std::string& kind) {
  std::lock_guard lock(mutex_);
  std::vector<db::PuzzleAttempt> out;
  for (const auto& a : attempts_)
    if (kind.empty() || a.kind == kind) out.push_back(a);
  return out;
}

Expected<std::vector<db::RatingPoint>> MemoryStore::rating_history(const std::string&,
                                                                  db::PlayerId) {
  return std::vector<db::RatingPoint>{};
}

Expected<db::PlayerRecord> MemoryStore::player_by_id(db::PlayerId id) {
  std::lock_guard lock(mutex_);
  if (id < 1 || id > static_cast<db::PlayerId>(players_.size()))
    return make_error("no player " + std::to_string(id));
  return players_[static_cast<std::size_t>(id - 1)];
}

Expected<std::optional<db::PlayerRecord>> MemoryStore::player_by_name(const std::string& name) {
  const auto fold = [](std::string s) {
    for (char& ch : s)
      if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
    return s;
  };
  const std::string key = fold(name);
  std::lock_guard lock(mutex_);
  for (const auto& p : players_)
    if (fold(p.name) == key) return std::optional(p);
  return std::optional<db::PlayerRecord>{};
}

Expected<std::vector<db::BotVersionRow>> MemoryStore::bot_versions(db::PlayerId player) {
  std::lock_guard lock(mutex_);
  std::vector<db::BotVersionRow> out;
  for (std::size_t i = 0; i < bot_versions_.size(); ++i) {
    const auto& v = bot_versions_[i];
    if (v.player != player) continue;
    const auto id = static_cast<std::int64_t>(i + 1);
    const auto games = version_games_.find(id);
    out.push_back({id, v.search, v.heuristic, v.parameters, bot_version_at_[i],
                   games == version_games_.end() ? 0 : games->second});
  }
  return out;
}

namespace {

// An undefined measure is none, as SQLite stores a NaN as NULL.
void drop_nan(std::optional<double>& x) {
  if (x && !std::isfinite(*x)) x.reset();
}

void drop_nans(db::LabMeasures& m) {
  for (auto* x : {&m.spread, &m.mean_change, &m.median_change, &m.p90_change, &m.max_change,
                  &m.mean_norm, &m.median_norm, &m.p90_norm, &m.max_norm, &m.unchanged,
                  &m.sign_agreement, &m.correlation})
    drop_nan(*x);
  for (auto& b : m.outcome) {
    drop_nan(b.sign_agreement);
    drop_nan(b.correlation);
  }
}

}  // namespace

Expected<std::int64_t> MemoryStore::record_lab_run(const db::LabRun& run) {
  if (auto ok = db::check_lab_run(run); !ok) return Error{ok.error()};
  std::lock_guard lock(mutex_);
  if (fail_) return make_error("memory store: writes are failing (test)");
  db::LabRun kept = run;
  if (kept.measured_at_ms == 0) kept.measured_at_ms = unix_ms();
  for (auto& m : kept.heuristics) drop_nans(m);
  lab_runs_.push_back(std::move(kept));
  return static_cast<std::int64_t>(lab_runs_.size());
}

Expected<std::vector<db::LabMeasuresRow>> MemoryStore::lab_measures(const std::string& kind) {
  std::lock_guard lock(mutex_);
  std::map<std::string, db::LabMeasuresRow> newest;  // by heuristic name
  for (std::size_t i = 0; i < lab_runs_.size(); ++i) {
    const db::LabRun& r = lab_runs_[i];
    if (r.kind != kind) continue;
    for (const auto& m : r.heuristics)
      newest[m.heuristic] = {static_cast<std::int64_t>(i + 1), r.kind, r.measured_at_ms, r.source,
                             r.parameters, m};
  }
  std::vector<db::LabMeasuresRow> out;
  for (auto& [name, row] : newest) out.push_back(std::move(row));
  return out;
}

}  // namespace arena::db
