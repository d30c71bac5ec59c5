#include "db/tournament_reader.h"

#include <algorithm>
#include <map>

#include <sqlite3.h>

namespace arena::db {

Expected<TournamentReader> TournamentReader::open(const std::string& db_path) {
  auto c = db::Connection::open(db_path, SQLITE_OPEN_READONLY);
  if (!c) return make_error(c.error());
  TournamentReader r(std::move(*c));
  // A missing table means the file is not an arena store.
  if (auto n = r.db_.query_int("SELECT COUNT(*) FROM tournaments"); !n)
    return make_error(db_path + " is not an arena database: " + n.error());
  return r;
}

namespace {

TournamentInfo info_of(const db::Statement& s) {
  return {s.int64(0), s.text(1), s.text(2), s.text(3), s.text(4), s.text(5), !s.is_null(6),
          s.text(7)};
}

// `expression` when `table` has `column`, else `missing`. The reader opens a file read-only and
// does not migrate it, so a file of an older schema lacks the later columns (moves.seat came
// with schema 4, games.note with 5) and is read without them.
std::string column_or(db::Connection& c, const std::string& table, const std::string& column,
                      const std::string& expression, const std::string& missing) {
  auto n = c.query_int("SELECT COUNT(*) FROM pragma_table_info('" + table + "') WHERE name = '" +
                       column + "'");
  return n && *n > 0 ? expression : missing;
}

// The columns info_of reads (the config, from schema 2 on, "" in older files).
std::string info_columns(db::Connection& c) {
  return "SELECT id, name, kind, format, options, time_control, finished_at, " +
         column_or(c, "tournaments", "config", "COALESCE(config, '')", "''") + " FROM tournaments ";
}

}  // namespace

Expected<std::vector<TournamentInfo>> TournamentReader::tournaments() {
  auto s = db_.prepare(info_columns(db_) + "ORDER BY id");
  if (!s) return make_error(s.error());
  std::vector<TournamentInfo> out;
  for (;;) {
    auto row = s->step();
    if (!row) return make_error(row.error());
    if (!*row) return out;
    out.push_back(info_of(*s));
  }
}

Expected<TournamentInfo> TournamentReader::tournament(std::int64_t id) {
  auto s = db_.prepare(info_columns(db_) + "WHERE id = ?1");
  if (!s) return make_error(s.error());
  s->bind(1, id);
  auto row = s->step();
  if (!row) return make_error(row.error());
  if (!*row) return make_error("no tournament " + std::to_string(id));
  return info_of(*s);
}

Expected<std::optional<std::int64_t>> TournamentReader::unfinished_named(const std::string& name) {
  auto s = db_.prepare(
      "SELECT id FROM tournaments WHERE name = ?1 AND finished_at IS NULL ORDER BY id DESC");
  if (!s) return make_error(s.error());
  s->bind(1, std::string_view(name));
  auto row = s->step();
  if (!row) return make_error(row.error());
  if (!*row) return std::optional<std::int64_t>{};
  return std::optional<std::int64_t>{s->int64(0)};
}

Expected<std::vector<PlayedVersion>> TournamentReader::versions_played(std::int64_t tournament) {
  auto s = db_.prepare(
      "SELECT DISTINCT p.name, v.search, v.parameters_hash FROM games g "
      "JOIN bot_versions v ON v.id = g.first_version_id OR v.id = g.second_version_id "
      "JOIN players p ON p.id = v.player_id WHERE g.tournament_id = ?1 "
      "AND g.result IS NOT NULL AND g.result != '*' ORDER BY 1, 2, 3");
  if (!s) return make_error(s.error());
  s->bind(1, tournament);
  std::vector<PlayedVersion> out;
  for (;;) {
    auto row = s->step();
    if (!row) return make_error(row.error());
    if (!*row) return out;
    out.push_back({s->text(0), s->text(1), s->text(2)});
  }
}

Expected<std::vector<PairingRow>> TournamentReader::pairings(std::int64_t tournament) {
  auto s = db_.prepare(
      "SELECT p.id, p.round, p.first_id, COALESCE(p.second_id, 0), COALESCE(p.game_id, 0), "
      "COALESCE(g.result, ''), COALESCE(g.seed, 0), " +
      column_or(db_, "games", "note", "COALESCE(g.note, '')", "''") +
      " FROM pairings p LEFT JOIN games g ON g.id = p.game_id WHERE p.tournament_id = ?1 "
      "ORDER BY p.id");
  if (!s) return make_error(s.error());
  s->bind(1, tournament);
  std::vector<PairingRow> out;
  for (;;) {
    auto row = s->step();
    if (!row) return make_error(row.error());
    if (!*row) return out;
    out.push_back({s->int64(0), s->int32(1), s->int64(2), s->int64(3), s->int64(4), s->text(5),
                   static_cast<std::uint64_t>(s->int64(6)), s->text(7)});
  }
}

Expected<std::string> TournamentReader::player_name(db::PlayerId id) {
  auto s = db_.prepare("SELECT name FROM players WHERE id = ?1");
  if (!s) return make_error(s.error());
  s->bind(1, id);
  auto row = s->step();
  if (!row) return make_error(row.error());
  if (!*row) return make_error("no player " + std::to_string(id));
  return s->text(0);
}

Expected<std::vector<std::pair<std::string, std::string>>> TournamentReader::bot_heuristics() {
  auto s = db_.prepare(
      "SELECT DISTINCT p.name, v.heuristic FROM bot_versions v "
      "JOIN players p ON p.id = v.player_id WHERE v.heuristic <> '' ORDER BY p.name, v.heuristic");
  if (!s) return make_error(s.error());
  std::vector<std::pair<std::string, std::string>> out;
  for (;;) {
    auto row = s->step();
    if (!row) return make_error(row.error());
    if (!*row) return out;
    out.emplace_back(s->text(0), s->text(1));
  }
}

Expected<std::vector<PlayerMoveStats>> TournamentReader::move_stats(std::int64_t tournament,
                                                                    const RowSeats& row_seats) {
  auto s = db_.prepare(
      "SELECT g.id, g.kind, g.start_position, g.first_id, g.second_id, m.move, m.depth, "
      "m.nodes, m.time_used_ms, " +
      column_or(db_, "moves", "seat", "COALESCE(m.seat, -1)", "-1") +
      " FROM games g JOIN moves m ON m.game_id = g.id "
      "WHERE g.tournament_id = ?1 ORDER BY g.id, m.ply");
  if (!s) return make_error(s.error());
  s->bind(1, tournament);
  struct Row {
    int depth = 0;
    std::int64_t nodes = 0, time_ms = 0;
    int seat = -1;  // stored with the row; -1: stored before schema 4
  };
  struct Game {
    std::string kind, start;
    db::PlayerId seats[2] = {0, 0};
    std::vector<std::string> moves;
    std::vector<Row> rows;
  };
  std::map<db::PlayerId, PlayerMoveStats> stats;
  auto count = [&](const Game& g) {
    if (g.rows.empty()) return;
    std::vector<int> seats;
    for (const Row& r : g.rows) seats.push_back(r.seat);
    if (std::find(seats.begin(), seats.end(), -1) != seats.end())
      seats = row_seats(g.kind, g.start, g.moves);
    for (std::size_t i = 0; i < seats.size() && i < g.rows.size(); ++i) {
      if (seats[i] != 0 && seats[i] != 1) continue;
      const db::PlayerId who = g.seats[seats[i]];
      PlayerMoveStats& p = stats[who];
      p.player = who;
      ++p.moves;
      p.depth_sum += g.rows[i].depth;
      p.nodes_sum += static_cast<double>(g.rows[i].nodes);
      p.time_ms_sum += static_cast<double>(g.rows[i].time_ms);
    }
  };
  Game game;
  std::int64_t game_id = 0;
  for (;;) {
    auto row = s->step();
    if (!row) return make_error(row.error());
    if (!*row) break;
    if (s->int64(0) != game_id) {
      count(game);
      game_id = s->int64(0);
      game = Game{s->text(1), s->text(2), {s->int64(3), s->int64(4)}, {}, {}};
    }
    game.moves.push_back(s->text(5));
    game.rows.push_back({s->int32(6), s->int64(7), s->int64(8), s->int32(9)});
  }
  count(game);
  std::vector<PlayerMoveStats> out;
  for (const auto& [id, p] : stats) out.push_back(p);
  return out;
}

}  // namespace arena::db
