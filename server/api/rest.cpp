#include "server/api/rest.h"

#include <charconv>
#include <limits>
#include <map>
#include <type_traits>

#include "db/game_export.h"
#include "games/catalog/catalog.h"
#include "games/core/turn_rows.h"
#include "protocol/rest.h"
#include "server/match/board_layout.h"

namespace arena::server {

using protocol::encode_api;

namespace {

std::map<std::string, std::string> parse_query(std::string_view q) {
  std::map<std::string, std::string> out;
  while (!q.empty()) {
    auto amp = q.find('&');
    auto part = q.substr(0, amp);
    auto eq = part.find('=');
    if (eq != std::string_view::npos)
      out[std::string(part.substr(0, eq))] = std::string(part.substr(eq + 1));
    q = amp == std::string_view::npos ? std::string_view{} : q.substr(amp + 1);
  }
  return out;
}

std::optional<std::int64_t> to_int(std::string_view s) {
  std::int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || p != s.data() + s.size()) return std::nullopt;
  return v;
}

HttpReply json_reply(std::string body, int status = 200) {
  return {status, "application/json", std::move(body)};
}

HttpReply error_reply(int status, const std::string& message) {
  return json_reply(encode_api(protocol::ApiError{message}), status);
}

protocol::ApiGame api_game(Hub& hub, const db::GameSummary& s) {
  protocol::ApiGame g;
  g.id = s.id;
  g.game = s.kind;
  g.options = s.options;
  if (s.seat_names.size() > 2) {
    for (const auto& name : s.seat_names) g.players.push_back(hub.display_name(name));
  } else {
    g.players = {hub.display_name(s.first_name), hub.display_name(s.second_name)};
  }
  g.scores = s.scores;
  g.result = s.result;
  g.reason = s.reason;
  g.note = s.note;
  g.time_control = s.time_control;
  g.started_at_ms = s.started_at_ms;
  g.ended_at_ms = s.ended_at_ms;
  g.plies = s.plies;
  return g;
}

// A `game` query parameter that names no game this server can make (the catalog's, a GDL
// sheet's, or what its HubConfig adds) and matched nothing: a 400 naming it, not an empty list,
// so that a misspelt name is told apart from a game nobody played. A game that is no longer
// hosted but has rows still lists them.
std::optional<HttpReply> unknown_game(const Hub& hub, const std::string& kind) {
  if (kind.empty()) return std::nullopt;
  const auto& make = hub.config().make_game;
  if (is_gdl_game(kind) ? has_gdl_sheet(kind) : make && make(kind, {}).has_value())
    return std::nullopt;
  return error_reply(400, "unknown game '" + kind + "' (known: " + known_game_names() + ")");
}

HttpReply games(Hub& hub, const std::map<std::string, std::string>& q) {
  auto get = [&](const char* k) {
    auto it = q.find(k);
    return it == q.end() ? std::string{} : it->second;
  };
  const std::string status = get("status");
  if (!status.empty() && status != "live" && status != "finished")
    return error_reply(400, "status must be 'live' or 'finished'");
  // A number parameter, if given, must be a whole number in [lowest, highest]; an error
  // names the parameter, what it got and what it takes.
  std::string bad;
  auto number = [&](const char* name, std::int64_t lowest, std::int64_t highest, auto& into) {
    if (!bad.empty() || !q.contains(name)) return;
    const auto v = to_int(get(name));
    if (v && *v >= lowest && *v <= highest) {
      into = static_cast<std::remove_reference_t<decltype(into)>>(*v);
      return;
    }
    bad = std::string(name) + " must be a whole number from " + std::to_string(lowest) + " to " +
          std::to_string(highest) + ", not '" + get(name) + "'";
  };
  db::GameFilter f;
  f.kind = get("game");
  number("limit", 1, 500, f.limit);
  number("offset", 0, std::numeric_limits<int>::max(), f.offset);
  number("player", 1, std::numeric_limits<std::int64_t>::max(), f.player);
  if (!bad.empty()) return error_reply(400, bad);
  protocol::ApiGameList out;
  if (status != "finished") out.live = hub.live_games(f.kind);
  if (status != "live") {
    auto list = hub.store().list_games(f);
    if (!list) return error_reply(500, list.error());
    for (const auto& s : *list) out.stored.push_back(api_game(hub, s));
  }
  if (out.live.empty() && out.stored.empty())
    if (auto unknown = unknown_game(hub, f.kind)) return *unknown;
  return json_reply(encode_api(out));
}

// The stored rows replayed turn by turn with the rules library (games/core/turn_rows.h): each
// row's seat and turn, and the position after its turn, so that a replay can show every turn.
// Stops at a row that does not replay (which the server never stores, but an imported file
// might). Also the board of a GDL game, as game_start has it (server/match/board_layout.h).
RowReplay replay_detail(const Hub& hub, const db::GameDetail& d,
                        std::optional<protocol::BoardLayout>& board) {
  const HubConfig& config = hub.config();
  Expected<std::unique_ptr<AnyGame>> game = make_error("no start");
  if (!d.start_position.empty()) {
    game = config.load_game(d.summary.kind, d.start_position);
  } else if (auto options = parse_game_options(d.summary.options)) {
    game = config.make_game(d.summary.kind, *options);
  }
  if (!game) return {};
  board = detect_board_layout(**game);
  std::vector<std::string> rows;
  for (const auto& m : d.moves) rows.push_back(m.move);
  return replay_rows(**game, rows, /*positions=*/true);
}

protocol::ApiGame api_game_detail(Hub& hub, const db::GameDetail& d) {
  protocol::ApiGame g = api_game(hub, d.summary);
  protocol::ApiGameDetail& detail = g.detail.emplace();
  const RowReplay replay = replay_detail(hub, d, detail.board);
  for (const auto& m : d.moves) {
    protocol::ApiMove move{m.ply, m.move, m.time_used_ms, {}, {}, {}, {}, {}};
    if (m.seat >= 0) move.seat = m.seat;  // stored with the row (schema 4)
    if (detail.moves.size() < replay.rows.size()) {
      const ReplayedRow& r = replay.rows[detail.moves.size()];
      if (!move.seat) move.seat = r.seat;
      move.turn = r.turn;
      move.position = replay.positions[static_cast<std::size_t>(r.turn)];
    }
    if (m.clock_left_ms >= 0) move.clock_left_ms = m.clock_left_ms;
    // A score alone makes an info object of the score only.
    if (m.depth > 0 || m.nodes > 0 || m.score) {
      auto& info = move.info.emplace();
      if (m.depth > 0 || m.nodes > 0) info = {m.depth, m.nodes, m.pv, {}};
      info.score = m.score;
    }
    detail.moves.push_back(std::move(move));
  }
  detail.start_position = d.start_position;
  detail.final_position = d.final_position;
  return g;
}

// A stored game in its kind's standard format: PGN for chess and PDN for checkers (written by
// the same library as `arena export`), tagged plain text for the others.
HttpReply export_reply(const db::GameDetail& detail) {
  const auto& s = detail.summary;
  if (s.kind == "chess") {
    auto pgn = db::game_to_pgn(detail);
    if (!pgn) return error_reply(500, pgn.error());
    return {200, "application/vnd.chess-pgn; charset=utf-8", *pgn};
  }
  if (s.kind == "checkers") return {200, "text/plain; charset=utf-8", db::game_to_pdn(detail)};
  return {200, "text/plain; charset=utf-8", db::game_to_text(detail)};
}

HttpReply one_game(Hub& hub, std::string_view rest) {
  bool export_text = false;
  if (rest.ends_with("/export")) {
    export_text = true;
    rest.remove_suffix(7);
  }
  auto id = to_int(rest);
  if (!id) return error_reply(400, "'" + std::string(rest) + "' is not a game id");
  auto detail = hub.store().game_detail(*id);
  if (!detail) return error_reply(404, detail.error());
  if (!export_text) {
    protocol::ApiGame g = api_game_detail(hub, *detail);
    if (auto match = hub.find_match(*id)) g.live = match->summary().live;
    return json_reply(encode_api(g));
  }
  detail->summary.first_name = hub.display_name(detail->summary.first_name);
  detail->summary.second_name = hub.display_name(detail->summary.second_name);
  for (auto& name : detail->summary.seat_names) name = hub.display_name(name);
  return export_reply(*detail);
}

// /api/tournaments and /api/tournaments/ID (`rest` is what follows "/api/tournaments").
HttpReply tournaments(Hub& hub, std::string_view rest) {
  const auto& source = hub.config().tournaments;
  if (!source) return error_reply(404, "this server keeps no tournaments");
  std::optional<std::int64_t> id;
  if (!rest.empty()) {
    id = to_int(rest.substr(1));
    if (rest.size() < 2 || !id || *id <= 0)
      return error_reply(
          400, "tournament id '" + std::string(rest.substr(1)) + "' is not a positive number");
  }
  auto j = source(id);
  if (!j) return error_reply(j.error().starts_with("no tournament") ? 404 : 500, j.error());
  // A tournament the server is running: the games in play and the players it waits for.
  std::optional<protocol::ApiDirectorStatus> live;
  if (id && hub.tournament_hooks().status) live = hub.tournament_hooks().status(*id);
  return json_reply(encode_api(std::move(*j), live));
}

}  // namespace

std::optional<HttpReply> handle_api(Hub& hub, std::string_view target) {
  auto qpos = target.find('?');
  std::string_view path = target.substr(0, qpos);
  auto query =
      parse_query(qpos == std::string_view::npos ? std::string_view{} : target.substr(qpos + 1));
  if (path == "/healthz") return HttpReply{200, "text/plain", "ok\n"};
  if (path == "/metrics") {
    auto m = hub.metrics();
    std::string body = "arena_connections " + std::to_string(m.connections) +
                       "\narena_live_games " + std::to_string(m.live_games) + "\narena_puzzles " +
                       std::to_string(m.puzzles) + "\narena_moves_total " +
                       std::to_string(m.moves_total) + "\narena_moves_per_second " +
                       std::to_string(m.moves_per_second) + "\narena_store_queue_length " +
                       std::to_string(hub.store().queue_length()) + "\n";
    return HttpReply{200, "text/plain; version=0.0.4", body};
  }
  if (!path.starts_with("/api/")) return std::nullopt;
  if (path == "/api/games") return games(hub, query);
  if (path.starts_with("/api/games/")) return one_game(hub, path.substr(11));
  if (path == "/api/tournaments" || path.starts_with("/api/tournaments/"))
    return tournaments(hub, path.substr(16));
  if (path == "/api/players") return json_reply(encode_api(hub.online_players()));
  if (path == "/api/catalog") {
    std::vector<protocol::ApiCatalogEntry> out;
    for (const auto& g : game_catalog())
      out.push_back({g.name, g.title, g.num_players, g.options_help, false, ""});
    // Then the GDL sheets, "gdl:NAME", marked as such (players: their roles; 0 when unknown),
    // those the reader refuses with its reason (each sheet read once: `arena serve` reads them
    // at its start, on a blocking thread, as this handler runs).
    for (const auto& g : gdl_game_catalog(/*check_sheets=*/true))
      out.push_back({g.name, g.title, g.num_players, g.options_help, true, g.refused});
    return json_reply(encode_api(out));
  }
  if (path == "/api/leaderboard") {
    auto it = query.find("game");
    if (it == query.end() || it->second.empty())
      return error_reply(400, "missing query parameter 'game'");
    auto rows = hub.store().leaderboard(it->second);
    if (!rows) return error_reply(500, rows.error());
    if (rows->empty())
      if (auto unknown = unknown_game(hub, it->second)) return *unknown;
    std::vector<protocol::ApiLeaderboardRow> out;
    for (const auto& r : *rows)
      out.push_back({r.player, hub.display_name(r.name), r.is_bot, r.rating, r.deviation, r.games,
                     r.wins, r.losses, r.draws});
    return json_reply(encode_api(out));
  }
  return error_reply(404, "no API endpoint " + std::string(path));
}

std::optional<HttpReply> handle_api_post(Hub& hub, std::string_view target,
                                         std::string_view authorization, const std::string& body) {
  if (target != "/api/tournaments") return std::nullopt;
  const auto& create = hub.tournament_hooks().create;
  if (!create) return error_reply(404, "this server runs no tournaments");
  if (!authorization.starts_with("Bearer "))
    return error_reply(401, "creating a tournament needs a bot token (Authorization: Bearer)");
  if (auto who = hub.store().authenticate_token(std::string(authorization.substr(7))); !who)
    return error_reply(401, "unknown bot token");
  auto made = create(body);
  if (!made) return error_reply(400, made.error());
  return json_reply(encode_api(protocol::ApiCreated{made->first, made->second}),
                    made->second ? 200 : 201);
}

}  // namespace arena::server
