// SqliteStore's reads: one read connection, guarded by read_mutex_. WAL lets them run while
// the writer commits; each read sees the last committed state when it starts.

#include <cstdlib>
#include <utility>

#include "db/rating_update.h"
#include "db/sha256.h"
#include "db/sqlite_store.h"

namespace arena::db {
namespace {

constexpr const char* kSummaryColumns =
    "SELECT g.id, g.kind, g.options, COALESCE(p1.name, ''), COALESCE(p2.name, ''), "
    "COALESCE(g.result, ''), COALESCE(g.reason, ''), g.time_control, g.started_at, "
    "COALESCE(g.ended_at, 0), (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id), "
    "g.start_position, COALESCE(g.final_position, ''), g.seed, "
    // game_seats (0003): the seats' names (unit-separated: names have no control characters)
    // and scores, in seat order.
    "(SELECT group_concat(name, char(31)) FROM (SELECT COALESCE(p.name, '') AS name "
    "FROM game_seats s LEFT JOIN players p ON p.id = s.player_id WHERE s.game_id = g.id "
    "ORDER BY s.seat)), "
    "(SELECT group_concat(score, ',') FROM (SELECT score FROM game_seats s "
    "WHERE s.game_id = g.id AND s.score IS NOT NULL ORDER BY s.seat)), "
    "COALESCE(g.note, ''), COALESCE(g.first_id, 0), COALESCE(g.second_id, 0) "
    "FROM games g LEFT JOIN players p1 ON p1.id = g.first_id "
    "LEFT JOIN players p2 ON p2.id = g.second_id ";

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> out(1);
  for (char c : text) {
    if (c == separator) out.emplace_back();
    else out.back().push_back(c);
  }
  return out;
}

GameSummary summary_from(const Statement& s) {
  GameSummary g;
  g.id = s.int64(0);
  g.kind = s.text(1);
  g.options = s.text(2);
  g.first_name = s.text(3);
  g.second_name = s.text(4);
  g.result = s.text(5);
  g.reason = s.text(6);
  g.time_control = s.text(7);
  g.started_at_ms = s.int64(8);
  g.ended_at_ms = s.int64(9);
  g.plies = s.int32(10);
  if (!s.is_null(14)) g.seat_names = split(s.text(14), '\x1f');
  if (!s.is_null(15))
    for (const auto& score : split(s.text(15), ',')) g.scores.push_back(std::atoi(score.c_str()));
  g.note = s.text(16);
  g.first_id = s.int64(17);
  g.second_id = s.int64(18);
  return g;
}

}  // namespace

Expected<PlayerRecord> SqliteStore::authenticate_token(const std::string& token) {
  const std::string hash = sha256_hex(token);
  std::lock_guard lock(read_mutex_);
  auto stmt = reader_.prepare("SELECT id, name, is_bot FROM players WHERE token_hash = ?1");
  if (!stmt) return Error{stmt.error()};
  stmt->bind(1, hash);
  auto row = stmt->step();
  if (!row) return Error{row.error()};
  // The token itself is a secret: the message does not repeat it.
  if (!*row) return make_error("unknown or revoked bot token");
  return PlayerRecord{stmt->int64(0), stmt->text(1), stmt->int32(2) != 0};
}

Expected<std::vector<GameSummary>> SqliteStore::list_games(const GameFilter& f) {
  settle();  // moves: the journal may hold some the writer has not stored yet
  std::lock_guard lock(read_mutex_);
  const std::string sql = std::string(kSummaryColumns) +
                          "WHERE (?1 = '' OR g.kind = ?1) AND (?2 = 0 OR g.first_id = ?2 OR "
                          "g.second_id = ?2 OR EXISTS (SELECT 1 FROM game_seats s WHERE "
                          "s.game_id = g.id AND s.player_id = ?2)) AND (?3 = 0 OR g.result IS NOT NULL) ORDER BY g.id " +
                          (f.oldest_first ? "ASC" : "DESC") + " LIMIT ?4 OFFSET ?5";
  auto stmt = reader_.prepare(sql);
  if (!stmt) return Error{stmt.error()};
  stmt->bind(1, f.kind).bind(2, f.player).bind(3, f.finished_only ? 1 : 0);
  stmt->bind(4, f.limit <= 0 ? std::int64_t{-1} : std::int64_t{f.limit});
  stmt->bind(5, f.offset < 0 ? 0 : f.offset);
  std::vector<GameSummary> out;
  for (;;) {
    auto row = stmt->step();
    if (!row) return Error{row.error()};
    if (!*row) return out;
    out.push_back(summary_from(*stmt));
  }
}

Expected<std::vector<MoveRecord>> SqliteStore::moves_of(GameId id) {
  auto stmt = reader_.prepare(
      "SELECT ply, move, time_used_ms, clock_left_ms, depth, nodes, score, pv, seat FROM moves "
      "WHERE game_id = ?1 ORDER BY ply");
  if (!stmt) return Error{stmt.error()};
  stmt->bind(1, id);
  std::vector<MoveRecord> moves;
  for (;;) {
    auto row = stmt->step();
    if (!row) return Error{row.error()};
    if (!*row) return moves;
    MoveRecord m;
    m.game = id;
    m.ply = stmt->int32(0);
    m.move = stmt->text(1);
    m.time_used_ms = stmt->int64(2);
    m.clock_left_ms = stmt->int64(3);
    m.depth = stmt->int32(4);
    m.nodes = stmt->int64(5);
    if (!stmt->is_null(6)) m.score = stmt->int32(6);
    m.pv = stmt->text(7);
    if (!stmt->is_null(8)) m.seat = stmt->int32(8);
    moves.push_back(std::move(m));
  }
}

namespace {

// Adds to a live game the journaled moves that follow its stored ones, in order. False when
// the first one that does not repeat a stored move leaves a gap: the writer stored the moves
// between, and deleted their segment, after the database was read.
bool add_journaled(GameDetail& d, const std::vector<JournaledMove>& journaled) {
  for (const JournaledMove& j : journaled) {
    const auto next = static_cast<int>(d.moves.size());
    if (j.move.ply < next) continue;
    if (j.move.ply > next) return false;
    d.moves.push_back(j.move);
  }
  d.summary.plies = static_cast<int>(d.moves.size());
  return true;
}

}  // namespace

Expected<GameDetail> SqliteStore::game_detail(GameId id) {
  settle();  // moves: the journal may hold some the writer has not stored yet
  auto d = read_detail(id);
  if (!d || journal_ || !d->summary.result.empty()) return d;
  // Another process (a server) may hold this file's journal: the moves it acknowledged last
  // may not be in the database yet (WriteQueue's `defer`), and `arena export` would lag behind
  // by them. A finished game never does: its end is stored after its moves.
  for (int attempt = 0; attempt < 3; ++attempt) {
    auto journaled = peek_journal(reader_.path(), id);
    if (!journaled) return d;  // the database's moves, as before
    if (add_journaled(*d, *journaled)) return d;
    d = read_detail(id);
    if (!d) return d;
  }
  return d;
}

Expected<GameDetail> SqliteStore::read_detail(GameId id) {
  std::lock_guard lock(read_mutex_);
  // One read transaction, so the game row and its moves come from the same snapshot.
  if (auto ok = reader_.exec("BEGIN"); !ok) return Error{ok.error()};
  auto finish = [&] { (void)reader_.exec("COMMIT"); };
  GameDetail d;
  {
    auto stmt = reader_.prepare(std::string(kSummaryColumns) + "WHERE g.id = ?1");
    if (!stmt) return finish(), Expected<GameDetail>(Error{stmt.error()});
    stmt->bind(1, id);
    auto row = stmt->step();
    if (!row) return finish(), Expected<GameDetail>(Error{row.error()});
    if (!*row) return finish(), Expected<GameDetail>(make_error("no game " + std::to_string(id)));
    d.summary = summary_from(*stmt);
    d.start_position = stmt->text(11);
    d.final_position = stmt->text(12);
    d.seed = static_cast<std::uint64_t>(stmt->int64(13));
  }
  auto moves = moves_of(id);
  finish();
  if (!moves) return Error{moves.error()};
  d.moves = std::move(*moves);
  return d;
}

Expected<std::vector<RatingRow>> SqliteStore::leaderboard(const std::string& kind) {
  return ratings(kind, RatingMethod::kGlicko2);
}

Expected<std::vector<RatingRow>> SqliteStore::ratings(const std::string& kind,
                                                      RatingMethod method) {
  std::lock_guard lock(read_mutex_);
  auto stmt = reader_.prepare(
      "SELECT r.player_id, p.name, p.is_bot, r.rating, r.deviation, r.games, r.wins, r.losses, "
      "r.draws FROM ratings r JOIN players p ON p.id = r.player_id "
      "WHERE r.kind = ?1 AND r.method = ?2 ORDER BY r.rating DESC, p.name");
  if (!stmt) return Error{stmt.error()};
  stmt->bind(1, kind).bind(2, std::string_view(method_name(method)));
  std::vector<RatingRow> out;
  for (;;) {
    auto row = stmt->step();
    if (!row) return Error{row.error()};
    if (!*row) return out;
    RatingRow r;
    r.player = stmt->int64(0);
    r.name = stmt->text(1);
    r.is_bot = stmt->int32(2) != 0;
    r.rating = stmt->real(3);
    r.deviation = method == RatingMethod::kElo ? 0.0 : stmt->real(4);
    r.games = stmt->int32(5);
    r.wins = stmt->int32(6);
    r.losses = stmt->int32(7);
    r.draws = stmt->int32(8);
    out.push_back(std::move(r));
  }
}

Expected<std::vector<GameDetail>> SqliteStore::unfinished_games() {
  settle();  // moves: the journal may hold some the writer has not stored yet
  std::vector<GameId> ids;
  {
    std::lock_guard lock(read_mutex_);
    auto stmt = reader_.prepare("SELECT id FROM games WHERE result IS NULL ORDER BY id");
    if (!stmt) return Error{stmt.error()};
    for (;;) {
      auto row = stmt->step();
      if (!row) return Error{row.error()};
      if (!*row) break;
      ids.push_back(stmt->int64(0));
    }
  }
  std::vector<GameDetail> out;
  for (GameId id : ids) {
    auto d = game_detail(id);
    if (!d) return Error{d.error()};
    out.push_back(std::move(*d));
  }
  return out;
}

Expected<std::vector<GameResultRow>> SqliteStore::game_results(const std::string& kind) {
  std::lock_guard lock(read_mutex_);
  auto stmt = reader_.prepare(
      "SELECT g.id, g.first_id, g.second_id, p1.name, p2.name, g.result FROM games g "
      "JOIN players p1 ON p1.id = g.first_id JOIN players p2 ON p2.id = g.second_id "
      "WHERE g.kind = ?1 AND g.result IN ('1-0', '0-1', '1/2-1/2') AND g.note IS NULL "
      "AND g.first_id != g.second_id ORDER BY g.id");
  if (!stmt) return Error{stmt.error()};
  stmt->bind(1, kind);
  std::vector<GameResultRow> out;
  for (;;) {
    auto row = stmt->step();
    if (!row) return Error{row.error()};
    if (!*row) return out;
    const std::string result = stmt->text(5);
    out.push_back({stmt->int64(0), stmt->int64(1), stmt->int64(2), stmt->text(3), stmt->text(4),
                   result == "1-0"   ? 1.0
                   : result == "0-1" ? 0.0
                                     : 0.5});
  }
}

Expected<std::vector<std::string>> SqliteStore::stored_kinds() {
  std::lock_guard lock(read_mutex_);
  auto stmt = reader_.prepare("SELECT DISTINCT kind FROM games ORDER BY kind");
  if (!stmt) return Error{stmt.error()};
  std::vector<std::string> out;
  for (;;) {
    auto row = stmt->step();
    if (!row) return Error{row.error()};
    if (!*row) return out;
    out.push_back(stmt->text(0));
  }
}

Expected<std::vector<Pairing>> SqliteStore::pairings(std::int64_t tournament) {
  std::lock_guard lock(read_mutex_);
  auto stmt = reader_.prepare(
      "SELECT p.round, p.first_id, COALESCE(p.second_id, 0), COALESCE(p.game_id, 0), p.id, "
      "COALESCE(g.result, '') FROM pairings p LEFT JOIN games g ON g.id = p.game_id "
      "WHERE p.tournament_id = ?1 ORDER BY p.id");
  if (!stmt) return Error{stmt.error()};
  stmt->bind(1, tournament);
  std::vector<Pairing> out;
  for (;;) {
    auto row = stmt->step();
    if (!row) return Error{row.error()};
    if (!*row) return out;
    out.push_back({tournament, stmt->int32(0), stmt->int64(1), stmt->int64(2), stmt->int64(3),
                   stmt->int64(4), stmt->text(5)});
  }
}

Expected<std::vector<TournamentRecord>> SqliteStore::unfinished_tournaments() {
  std::lock_guard lock(read_mutex_);
  auto stmt = reader_.prepare(
      "SELECT id, name, kind, format, config FROM tournaments WHERE finished_at IS NULL "
      "ORDER BY id");
  if (!stmt) return Error{stmt.error()};
  std::vector<TournamentRecord> out;
  for (;;) {
    auto row = stmt->step();
    if (!row) return Error{row.error()};
    if (!*row) return out;
    out.push_back(
        {stmt->int64(0), stmt->text(1), stmt->text(2), stmt->text(3), stmt->text(4), false});
  }
}

Expected<std::vector<PuzzleAttempt>> SqliteStore::puzzle_attempts(const std::string& kind) {
  std::lock_guard lock(read_mutex_);
  auto stmt = reader_.prepare(
      "SELECT player_id, kind, options, instance, solved, length, optimal_length, time_ms, "
      "solution, COALESCE(game_id, 0) FROM puzzle_attempts WHERE ?1 = '' OR kind = ?1 "
      "ORDER BY id");
  if (!stmt) return Error{stmt.error()};
  stmt->bind(1, kind);
  std::vector<PuzzleAttempt> out;
  for (;;) {
    auto row = stmt->step();
    if (!row) return Error{row.error()};
    if (!*row) return out;
    PuzzleAttempt a;
    a.player = stmt->int64(0);
    a.kind = stmt->text(1);
    a.options = stmt->text(2);
    a.instance = stmt->text(3);
    a.solved = stmt->int32(4) != 0;
    a.length = stmt->int32(5);
    if (!stmt->is_null(6)) a.optimal_length = stmt->int32(6);
    a.time_ms = stmt->int64(7);
    a.solution = stmt->text(8);
    a.game = stmt->int64(9);
    out.push_back(std::move(a));
  }
}

// The profile's and the charts' reads: rating history, one player, a bot's versions.

Expected<std::vector<RatingPoint>> SqliteStore::rating_history(const std::string& kind,
                                                               PlayerId player) {
  std::lock_guard lock(read_mutex_);
  auto stmt = reader_.prepare(
      "SELECT h.player_id, p.name, p.is_bot, h.game_id, h.rating_after, h.deviation_after, "
      "h.created_at FROM rating_history h JOIN players p ON p.id = h.player_id "
      "WHERE h.kind = ?1 AND h.method = ?2 AND (?3 = 0 OR h.player_id = ?3) ORDER BY h.id");
  if (!stmt) return Error{stmt.error()};
  stmt->bind(1, kind).bind(2, std::string_view(method_name(RatingMethod::kGlicko2)));
  stmt->bind(3, player);
  std::vector<RatingPoint> out;
  for (;;) {
    auto row = stmt->step();
    if (!row) return Error{row.error()};
    if (!*row) return out;
    out.push_back({stmt->int64(0), stmt->text(1), stmt->int32(2) != 0, stmt->int64(3),
                   stmt->real(4), stmt->real(5), stmt->int64(6)});
  }
}

Expected<PlayerRecord> SqliteStore::player_by_id(PlayerId id) {
  std::lock_guard lock(read_mutex_);
  auto stmt = reader_.prepare("SELECT id, name, is_bot FROM players WHERE id = ?1");
  if (!stmt) return Error{stmt.error()};
  stmt->bind(1, id);
  auto row = stmt->step();
  if (!row) return Error{row.error()};
  if (!*row) return make_error("no player " + std::to_string(id));
  return PlayerRecord{stmt->int64(0), stmt->text(1), stmt->int32(2) != 0};
}

Expected<std::optional<PlayerRecord>> SqliteStore::player_by_name(const std::string& name) {
  std::lock_guard lock(read_mutex_);
  // NOCASE folds ASCII letters only, as the server's name rules do.
  auto stmt = reader_.prepare(
      "SELECT id, name, is_bot FROM players WHERE name = ?1 COLLATE NOCASE ORDER BY id LIMIT 1");
  if (!stmt) return Error{stmt.error()};
  stmt->bind(1, name);
  auto row = stmt->step();
  if (!row) return Error{row.error()};
  if (!*row) return std::optional<PlayerRecord>{};
  return std::optional(PlayerRecord{stmt->int64(0), stmt->text(1), stmt->int32(2) != 0});
}

Expected<std::vector<BotVersionRow>> SqliteStore::bot_versions(PlayerId player) {
  std::lock_guard lock(read_mutex_);
  auto stmt = reader_.prepare(
      "SELECT v.id, v.search, v.heuristic, v.parameters, v.created_at, "
      "(SELECT COUNT(*) FROM games g WHERE g.first_version_id = v.id OR "
      "g.second_version_id = v.id) FROM bot_versions v WHERE v.player_id = ?1 ORDER BY v.id");
  if (!stmt) return Error{stmt.error()};
  stmt->bind(1, player);
  std::vector<BotVersionRow> out;
  for (;;) {
    auto row = stmt->step();
    if (!row) return Error{row.error()};
    if (!*row) return out;
    out.push_back({stmt->int64(0), stmt->text(1), stmt->text(2), stmt->text(3), stmt->int64(4),
                   stmt->int32(5)});
  }
}

}  // namespace arena::db
