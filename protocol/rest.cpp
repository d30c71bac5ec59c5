#include "protocol/rest.h"

#include <utility>

#include "protocol/codec.h"
#include "protocol/server_codec.h"

namespace arena::protocol {
namespace {

std::string text(const Json& j) { return j.dump(2, ' ', false, Json::error_handler_t::replace); }

Json to_json(const ApiMove& m) {
  Json j{{"ply", m.ply}, {"move", m.move}, {"time_used_ms", m.time_used_ms}};
  if (m.seat) j["seat"] = *m.seat;
  if (m.turn) j["turn"] = *m.turn;
  if (m.position) j["position"] = *m.position;
  if (m.clock_left_ms) j["clock_left_ms"] = *m.clock_left_ms;
  if (m.san) j["san"] = *m.san;
  if (m.info) {
    Json info = Json::object();
    if (m.info->depth) info["depth"] = *m.info->depth;
    if (m.info->nodes) info["nodes"] = *m.info->nodes;
    if (m.info->pv) info["pv"] = *m.info->pv;
    if (m.info->score) info["score"] = *m.info->score;
    j["info"] = std::move(info);
  }
  return j;
}

Json to_json(const ApiRatingPoint& p) {
  return Json{{"player", p.player}, {"name", p.name},       {"bot", p.bot},
              {"game", p.game},     {"game_id", p.game_id}, {"rating", p.rating},
              {"deviation", p.deviation}, {"at_ms", p.at_ms}};
}

Json to_json(const ApiLeaderboardRow& r) {
  return Json{{"player", r.player}, {"name", r.name},   {"bot", r.bot},
              {"rating", r.rating}, {"deviation", r.deviation}, {"games", r.games},
              {"wins", r.wins},     {"losses", r.losses}, {"draws", r.draws}};
}

Json optional_number(const std::optional<double>& x) { return x ? Json(*x) : Json(nullptr); }

}  // namespace

Json to_json(const ApiGame& g) {
  Json j{{"id", g.id},
         {"game", g.game},
         {"options", g.options},
         {"players", g.players},
         {"scores", g.scores.empty() ? Json(nullptr) : Json(g.scores)},
         {"result", g.result},
         {"reason", g.reason},
         {"time_control", g.time_control},
         {"started_at_ms", g.started_at_ms},
         {"ended_at_ms", g.ended_at_ms},
         {"plies", g.plies},
         {"live", g.live}};
  if (!g.note.empty()) j["note"] = g.note;
  for (auto id : g.player_ids)
    if (id != 0) {
      j["player_ids"] = g.player_ids;
      break;
    }
  if (g.detail) {
    Json moves = Json::array();
    for (const auto& m : g.detail->moves) moves.push_back(to_json(m));
    j["start_position"] = g.detail->start_position;
    j["final_position"] = g.detail->final_position;
    j["moves"] = std::move(moves);
    j["board"] = g.detail->board ? to_json(*g.detail->board) : Json(nullptr);
  }
  return j;
}

Json to_json(const ApiDirectorStatus& s) {
  return Json{{"running", s.running}, {"waiting_for", s.waiting_for}};
}

std::string encode_api(const ApiError& e) { return text(Json{{"error", e.message}}); }

std::string encode_api(const ApiGame& g) { return text(to_json(g)); }

std::string encode_api(const ApiGameList& list) {
  Json out = Json::array();
  for (const auto& g : list.live) out.push_back(to_json(g));
  for (const auto& g : list.stored) out.push_back(to_json(g));
  return text(out);
}

std::string encode_api(const std::vector<ApiCatalogEntry>& catalog) {
  Json out = Json::array();
  for (const auto& g : catalog) {
    Json j{{"name", g.name},
           {"title", g.title},
           {"players", g.players},
           {"options_help", g.options_help}};
    if (g.gdl) j["gdl"] = true;
    if (!g.refused.empty()) j["refused"] = g.refused;
    out.push_back(std::move(j));
  }
  return text(out);
}

std::string encode_api(const std::vector<ApiLeaderboardRow>& rows) {
  Json out = Json::array();
  for (const auto& r : rows) out.push_back(to_json(r));
  return text(out);
}

std::string encode_api(const std::vector<PlayerInfo>& players) {
  Json out = Json::array();
  for (const auto& p : players) out.push_back(to_json(p));
  return text(out);
}

std::string encode_api(const ApiCreated& created) {
  return text(Json{{"id", created.id}, {"resumed", created.resumed}});
}

std::string encode_api(const std::vector<ApiRatingPoint>& history) {
  Json out = Json::array();
  for (const auto& p : history) out.push_back(to_json(p));
  return text(out);
}

std::string encode_api(const ApiProfile& profile) {
  Json ratings = Json::array(), history = Json::array(), recent = Json::array(),
       versions = Json::array();
  for (const auto& r : profile.ratings) {
    Json row = to_json(r);
    row.erase("name");
    row.erase("player");
    row.erase("bot");
    row["game"] = r.name;
    ratings.push_back(std::move(row));
  }
  for (const auto& p : profile.history) history.push_back(to_json(p));
  for (const auto& g : profile.recent) recent.push_back(to_json(g));
  for (const auto& v : profile.versions)
    versions.push_back(Json{{"id", v.id},
                            {"search", v.search},
                            {"heuristic", v.heuristic},
                            {"parameters", v.parameters},
                            {"created_at_ms", v.created_at_ms},
                            {"games", v.games}});
  return text(Json{{"id", profile.id},
                   {"name", profile.name},
                   {"bot", profile.bot},
                   {"ratings", std::move(ratings)},
                   {"history", std::move(history)},
                   {"recent", std::move(recent)},
                   {"versions", std::move(versions)}});
}

namespace {

// The parameters as recorded: a JSON value when they parse as one, else the text.
Json parameters_json(const std::string& text) {
  Json parsed = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  return parsed.is_discarded() ? Json(text) : parsed;
}

Json lab_json(const std::vector<ApiGameStats::LabHeuristic>& lab) {
  Json out = Json::array();
  for (const auto& h : lab) {
    Json invariance = Json::object();
    for (const auto& [name, value] : h.move_invariance) invariance[name] = optional_number(value);
    Json buckets = Json::array();
    for (const auto& b : h.outcome)
      buckets.push_back(Json{{"min_plies", b.min_plies},
                             {"max_plies", b.max_plies ? Json(*b.max_plies) : Json(nullptr)},
                             {"positions", b.positions},
                             {"sign_agreement", optional_number(b.sign_agreement)},
                             {"correlation", optional_number(b.correlation)}});
    out.push_back(Json{{"heuristic", h.heuristic},
                       {"run", h.run},
                       {"measured_at_ms", h.measured_at_ms},
                       {"source", h.source},
                       {"parameters", parameters_json(h.parameters)},
                       {"games", h.games},
                       {"positions", h.positions},
                       {"moves", h.moves},
                       {"move_invariance", std::move(invariance)},
                       {"outcome_determination", Json{{"sign_agreement", optional_number(h.sign_agreement)},
                                                      {"correlation", optional_number(h.correlation)},
                                                      {"buckets", std::move(buckets)}}}});
  }
  return out;
}

}  // namespace

std::string encode_api(const ApiGameStats& stats) {
  Json heuristics = Json::array();
  for (const auto& h : stats.heuristics) {
    Json buckets = Json::array();
    for (std::size_t i = 0; i < h.bucket_plies.size(); ++i)
      buckets.push_back(Json{{"plies_to_end", h.bucket_plies[i]},
                             {"agreement", h.agreement[i]},
                             {"samples", h.samples[i]}});
    heuristics.push_back(Json{{"player", h.player},
                              {"heuristic", h.heuristic},
                              {"scores", h.scores},
                              {"outcome_determination", std::move(buckets)},
                              {"move_invariance", optional_number(h.mean_change)}});
  }
  Json j{{"game", stats.game},
         {"games", stats.games},
         {"sampled", stats.sampled},
         {"first_wins", stats.first_wins},
         {"second_wins", stats.second_wins},
         {"draws", stats.draws},
         {"other", stats.other},
         {"lengths", stats.lengths},
         {"mean_branching", optional_number(stats.mean_branching)},
         {"positions", stats.positions},
         {"heuristics", std::move(heuristics)}};
  j["lab"] = lab_json(stats.lab);
  if (!stats.missing.empty()) j["missing"] = stats.missing;
  return text(j);
}

std::string encode_api(const std::vector<ApiTournamentGame>& games) {
  Json out = Json::array();
  for (const auto& g : games)
    out.push_back(Json{{"round", g.round},
                       {"game_id", g.game_id},
                       {"players", g.players},
                       {"player_ids", g.player_ids},
                       {"result", g.result}});
  return text(out);
}

std::string encode_api(Json tournament, const std::optional<ApiDirectorStatus>& status) {
  if (status) tournament["director"] = to_json(*status);
  return text(tournament);
}

}  // namespace arena::protocol
