#include "server/api/rest.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <type_traits>

#include "db/game_export.h"
#include "games/catalog/catalog.h"
#include "games/catalog/notation.h"
#include "games/core/turn_rows.h"
#include "protocol/rest.h"
#include "server/api/bearer.h"
#include "server/api/url.h"
#include "server/match/board_layout.h"

namespace arena::server {

using protocol::encode_api;

namespace {

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

protocol::ApiGame api_game(HubQueries& hub, const db::GameSummary& s) {
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
  if (s.seat_names.size() <= 2) g.player_ids = {s.first_id, s.second_id};
  return g;
}

// A `game` query parameter that names no game this server can make (the catalog's, a GDL
// sheet's, or what its HubConfig adds) and matched nothing: a 400 naming it, not an empty list,
// so that a misspelt name is told apart from a game nobody played. A game that is no longer
// hosted but has rows still lists them.
std::optional<HttpReply> unknown_game(const HubQueries& hub, const std::string& kind) {
  if (kind.empty()) return std::nullopt;
  const auto& make = hub.config().make_game;
  if (is_gdl_game(kind) ? has_gdl_sheet(kind) : make && make(kind, {}).has_value())
    return std::nullopt;
  return error_reply(400, "unknown game '" + kind + "' (known: " + known_game_names() + ")");
}

HttpReply games(HubQueries& hub, const std::map<std::string, std::string>& q) {
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
RowReplay replay_detail(const HubQueries& hub, const db::GameDetail& d,
                        std::optional<protocol::BoardLayout>& board,
                        std::vector<std::string>& sans) {
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
  RowReplay replay = replay_rows(**game, rows, /*positions=*/true);
  sans = display_history(**game);  // chess: SAN of each move replayed (one a row)
  return replay;
}

protocol::ApiGame api_game_detail(HubQueries& hub, const db::GameDetail& d) {
  protocol::ApiGame g = api_game(hub, d.summary);
  protocol::ApiGameDetail& detail = g.detail.emplace();
  std::vector<std::string> sans;
  const RowReplay replay = replay_detail(hub, d, detail.board, sans);
  for (const auto& m : d.moves) {
    protocol::ApiMove move{m.ply, m.move, m.time_used_ms, {}, {}, {}, {}, {}, {}};
    if (detail.moves.size() < sans.size()) move.san = sans[detail.moves.size()];
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

HttpReply one_game(HubQueries& hub, std::string_view rest) {
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
HttpReply tournaments(HubQueries& hub, std::string_view rest) {
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
  if (id) live = hub.tournament_status(*id);
  return json_reply(encode_api(std::move(*j), live));
}

// --- The analysis pages' reads: rating history, profiles, per-game statistics, a tournament's
// games.

// A positive id (a path segment or a parameter); nullopt for anything else.
std::optional<std::int64_t> positive_id(std::string_view text) {
  auto id = to_int(text);
  if (!id || *id <= 0) return std::nullopt;
  return id;
}

protocol::ApiRatingPoint api_point(HubQueries& hub, const std::string& kind,
                                   const db::RatingPoint& p) {
  return {p.player, hub.display_name(p.name), p.is_bot, kind, p.game, p.rating, p.deviation,
          p.at_ms};
}

// /api/ratings/history?game=G[&player=ID]
HttpReply rating_history(HubQueries& hub, const std::map<std::string, std::string>& q) {
  auto game = q.find("game");
  if (game == q.end() || game->second.empty())
    return error_reply(400, "missing query parameter 'game'");
  std::int64_t player = 0;
  if (auto p = q.find("player"); p != q.end()) {
    auto id = positive_id(p->second);
    if (!id) return error_reply(400, "player must be a positive player id, not '" + p->second + "'");
    player = *id;
  }
  auto points = hub.store().rating_history(game->second, player);
  if (!points) return error_reply(500, points.error());
  if (points->empty())
    if (auto unknown = unknown_game(hub, game->second)) return *unknown;
  std::vector<protocol::ApiRatingPoint> out;
  for (const auto& p : *points) out.push_back(api_point(hub, game->second, p));
  return json_reply(encode_api(out));
}

// /api/profile/ID
HttpReply profile(HubQueries& hub, std::string_view rest) {
  auto id = positive_id(rest);
  if (!id) return error_reply(400, "'" + std::string(rest) + "' is not a player id");
  auto& store = hub.store();
  auto who = store.player_by_id(*id);
  if (!who) return error_reply(404, who.error());
  protocol::ApiProfile out;
  out.id = who->id;
  out.name = hub.display_name(who->name);
  out.bot = who->is_bot;
  auto kinds = store.stored_kinds();
  if (!kinds) return error_reply(500, kinds.error());
  for (const auto& kind : *kinds) {
    auto rows = store.leaderboard(kind);
    if (!rows) return error_reply(500, rows.error());
    for (const auto& r : *rows) {
      if (r.player != *id) continue;
      out.ratings.push_back({r.player, kind, r.is_bot, r.rating, r.deviation, r.games, r.wins,
                             r.losses, r.draws});
      auto points = store.rating_history(kind, *id);
      if (!points) return error_reply(500, points.error());
      for (const auto& p : *points) out.history.push_back(api_point(hub, kind, p));
    }
  }
  db::GameFilter f;
  f.player = *id;
  f.limit = 20;
  auto games = store.list_games(f);
  if (!games) return error_reply(500, games.error());
  for (const auto& g : *games) out.recent.push_back(api_game(hub, g));
  auto versions = store.bot_versions(*id);
  if (!versions) return error_reply(500, versions.error());
  for (const auto& v : *versions)
    out.versions.push_back({v.id, v.search, v.heuristic, v.parameters, v.created_at_ms, v.games});
  return json_reply(encode_api(out));
}

// Outcome determination's buckets of plies to the end (upper bounds; the last is open).
constexpr int kBuckets[] = {2, 4, 8, 16, 32, 64, 1 << 30};

// One player's scores in /api/stats: (plies to the end, agreement) samples per bucket and
// successive score changes.
struct ScoreTally {
  std::string name;
  std::int64_t id = 0;
  std::vector<int> agree, samples;
  double change_sum = 0;
  int changes = 0, scores = 0;
};

// Results and lengths of the finished games of `list` (an aborted game, "*", was not played).
void count_results(const std::vector<db::GameSummary>& list, protocol::ApiGameStats& out) {
  for (const auto& g : list) {
    if (g.result == "*") continue;
    ++out.games;
    out.lengths.push_back(g.plies);
    if (g.seat_names.size() > 2) ++out.other;
    else if (g.result == "1-0") ++out.first_wins;
    else if (g.result == "0-1") ++out.second_wins;
    else if (g.result == "1/2-1/2") ++out.draws;
    else ++out.other;
  }
}

// Replays stored game `d` of `kind` and adds the legal moves of each position where one seat
// moves and the game goes on to `branching_sum` (out.positions counts them). A game the rules
// cannot make adds nothing.
void add_branching(const HubConfig& config, const std::string& kind, const db::GameDetail& d,
                   double& branching_sum, protocol::ApiGameStats& out) {
  Expected<std::unique_ptr<AnyGame>> g = make_error("no start");
  if (!d.start_position.empty()) g = config.load_game(kind, d.start_position);
  else if (auto options = parse_game_options(d.summary.options))
    g = config.make_game(kind, *options);
  if (!g) return;
  std::vector<std::string> rows;
  for (const auto& m : d.moves) rows.push_back(m.move);
  AnyGame& game = **g;
  auto count_position = [&] {
    if (game.simultaneous() || game.outcome().is_terminal()) return;
    branching_sum += static_cast<double>(game.legal_moves().size());
    ++out.positions;
  };
  count_position();
  replay_rows(game, rows, false, count_position);
}

// The scores of stored game `d` (summary `s`), from the mover's side, against the seat's
// result, into each mover's tally (decisive two-seat games only).
void tally_scores(const db::GameSummary& s, const db::GameDetail& d,
                  std::map<std::string, ScoreTally>& tallies) {
  const int winner = s.result == "1-0" ? 0 : s.result == "0-1" ? 1 : -1;
  if (winner < 0 || s.seat_names.size() > 2) return;
  const int n = static_cast<int>(d.moves.size());
  std::optional<int> last[2];
  for (int i = 0; i < n; ++i) {
    const auto& m = d.moves[static_cast<std::size_t>(i)];
    if (!m.score) continue;
    const int seat = m.seat >= 0 ? m.seat : i % 2;
    if (seat > 1) continue;
    const std::string& name = seat == 0 ? s.first_name : s.second_name;
    ScoreTally& t = tallies[name];
    if (t.samples.empty()) {
      t.name = name;
      t.id = seat == 0 ? s.first_id : s.second_id;
      t.agree.assign(std::size(kBuckets), 0);
      t.samples.assign(std::size(kBuckets), 0);
    }
    ++t.scores;
    if (last[seat]) {
      t.change_sum += std::abs(*m.score - *last[seat]);
      ++t.changes;
    }
    last[seat] = *m.score;
    if (*m.score == 0) continue;  // says nothing about the outcome
    const int to_end = n - i;
    std::size_t b = 0;
    while (to_end > kBuckets[b]) ++b;
    ++t.samples[b];
    t.agree[b] += (*m.score > 0) == (seat == winner);
  }
}

// A player's row of /api/stats from its tally: the heuristic of its newest bot version, the
// agreement per bucket that has samples, the mean score change.
protocol::ApiGameStats::Heuristic heuristic_row(HubQueries& hub, const std::string& name,
                                                const ScoreTally& t) {
  protocol::ApiGameStats::Heuristic h;
  h.player = hub.display_name(name);
  if (t.id > 0)
    if (auto versions = hub.store().bot_versions(t.id); versions && !versions->empty())
      h.heuristic = versions->back().heuristic;
  h.scores = t.scores;
  for (std::size_t b = 0; b < t.samples.size(); ++b) {
    if (t.samples[b] == 0) continue;
    h.bucket_plies.push_back(kBuckets[b]);
    h.agreement.push_back(static_cast<double>(t.agree[b]) / t.samples[b]);
    h.samples.push_back(t.samples[b]);
  }
  if (t.changes > 0) h.mean_change = t.change_sum / t.changes;
  return h;
}

// One heuristic's stored lab measures as /api/stats serves them.
protocol::ApiGameStats::LabHeuristic lab_row(const db::LabMeasuresRow& row) {
  const db::LabMeasures& m = row.measures;
  protocol::ApiGameStats::LabHeuristic h;
  h.heuristic = m.heuristic;
  h.source = row.source;
  h.parameters = row.parameters;
  h.run = row.run;
  h.measured_at_ms = row.measured_at_ms;
  h.games = m.games;
  h.positions = m.positions;
  h.moves = m.moves;
  h.move_invariance = {{"spread", m.spread},           {"mean_change", m.mean_change},
                       {"median_change", m.median_change}, {"p90_change", m.p90_change},
                       {"max_change", m.max_change},   {"mean_norm", m.mean_norm},
                       {"median_norm", m.median_norm}, {"p90_norm", m.p90_norm},
                       {"max_norm", m.max_norm},       {"unchanged", m.unchanged}};
  h.sign_agreement = m.sign_agreement;
  h.correlation = m.correlation;
  for (const auto& b : m.outcome)
    h.outcome.push_back({b.min_plies, b.max_plies, b.positions, b.sign_agreement, b.correlation});
  return h;
}

// /api/stats?game=G: results and lengths of every stored finished game of G; branching factor
// and the bots' scores (outcome determination, move invariance) from the newest kSampled,
// replayed with the rules.
HttpReply game_stats(HubQueries& hub, const std::map<std::string, std::string>& q) {
  constexpr int kSampled = 200;
  auto game = q.find("game");
  if (game == q.end() || game->second.empty())
    return error_reply(400, "missing query parameter 'game'");
  const std::string& kind = game->second;
  db::GameFilter f;
  f.kind = kind;
  f.limit = 0;
  auto list = hub.store().list_games(f);
  if (!list) return error_reply(500, list.error());
  if (list->empty())
    if (auto unknown = unknown_game(hub, kind)) return *unknown;
  protocol::ApiGameStats out;
  out.game = kind;
  count_results(*list, out);
  std::map<std::string, ScoreTally> tallies;
  double branching_sum = 0;
  for (const auto& s : *list) {
    if (out.sampled >= kSampled) break;
    if (s.result == "*") continue;
    ++out.sampled;
    auto d = hub.store().game_detail(s.id);
    if (!d) continue;
    add_branching(hub.config(), kind, *d, branching_sum, out);
    tally_scores(s, *d, tallies);
  }
  if (out.positions > 0) out.mean_branching = branching_sum / static_cast<double>(out.positions);
  for (const auto& [name, t] : tallies) out.heuristics.push_back(heuristic_row(hub, name, t));
  auto lab = hub.store().lab_measures(kind);
  if (!lab) return error_reply(500, lab.error());
  for (const auto& row : *lab) out.lab.push_back(lab_row(row));
  if (out.lab.empty())
    out.missing = "The store holds no measures of the heuristic lab for " + kind +
                  ": arena analyze --game " + kind +
                  " --db FILE records them in the server's database FILE.";
  return json_reply(encode_api(out));
}

// /api/tournaments/ID/games: every pairing with its game (0 while unplayed) and result.
HttpReply tournament_games(HubQueries& hub, std::string_view id_text) {
  auto id = positive_id(id_text);
  if (!id)
    return error_reply(
        400, "tournament id '" + std::string(id_text) + "' is not a positive number");
  auto rows = hub.store().pairings(*id);
  if (!rows) return error_reply(500, rows.error());
  std::map<db::PlayerId, std::string> names;
  auto name_of = [&](db::PlayerId p) -> std::string {
    if (p == 0) return "";
    auto it = names.find(p);
    if (it != names.end()) return it->second;
    auto who = hub.store().player_by_id(p);
    return names[p] = who ? hub.display_name(who->name) : "";
  };
  std::vector<protocol::ApiTournamentGame> out;
  for (const auto& r : *rows)
    out.push_back({r.round, r.game, {name_of(r.first), name_of(r.second)}, {r.first, r.second},
                   r.result});
  return json_reply(encode_api(out));
}

}  // namespace

std::optional<HttpReply> handle_api(HubQueries& hub, std::string_view target) {
  // Each path segment and each query parameter's name and value is percent-decoded once,
  // strictly (server/api/url.h: '+' in a query is a space); a bad escape is a 400 naming it.
  const auto qpos = target.find('?');
  auto decoded_path = decode_path(target.substr(0, qpos));
  if (!decoded_path)
    return target.starts_with("/api/") ? std::optional(error_reply(400, decoded_path.error()))
                                       : std::nullopt;  // a static file's path: its own 400
  const std::string path_text = std::move(*decoded_path);
  std::string_view path = path_text;
  if (path != "/healthz" && path != "/metrics" && !path.starts_with("/api/")) return std::nullopt;
  auto decoded_query =
      decode_query(qpos == std::string_view::npos ? std::string_view{} : target.substr(qpos + 1));
  if (!decoded_query) return error_reply(400, decoded_query.error());
  const auto query = std::move(*decoded_query);
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
  if (path.starts_with("/api/tournaments/") && path.ends_with("/games"))
    return tournament_games(hub, path.substr(17, path.size() - 17 - 6));
  if (path == "/api/tournaments" || path.starts_with("/api/tournaments/"))
    return tournaments(hub, path.substr(16));
  if (path == "/api/ratings/history") return rating_history(hub, query);
  if (path.starts_with("/api/profile/")) return profile(hub, path.substr(13));
  if (path == "/api/stats") return game_stats(hub, query);
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

std::optional<HttpReply> handle_api_post(HubQueries& hub, std::string_view target,
                                         std::string_view authorization, const std::string& body) {
  if (target != "/api/tournaments") return std::nullopt;
  if (!hub.runs_tournaments()) return error_reply(404, "this server runs no tournaments");
  const auto token = bearer_token(authorization);  // the scheme in any case (RFC 9110)
  if (!token)
    return error_reply(401, "creating a tournament needs a bot token (Authorization: Bearer)");
  if (auto who = hub.store().authenticate_token(*token); !who)
    return error_reply(401, "unknown bot token");
  auto made = hub.create_tournament(body);
  if (!made) return error_reply(400, made.error());
  return json_reply(encode_api(protocol::ApiCreated{made->first, made->second}),
                    made->second ? 200 : 201);
}

}  // namespace arena::server
