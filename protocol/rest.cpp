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
  for (const auto& r : rows)
    out.push_back(Json{{"player", r.player},
                       {"name", r.name},
                       {"bot", r.bot},
                       {"rating", r.rating},
                       {"deviation", r.deviation},
                       {"games", r.games},
                       {"wins", r.wins},
                       {"losses", r.losses},
                       {"draws", r.draws}});
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

std::string encode_api(Json tournament, const std::optional<ApiDirectorStatus>& status) {
  if (status) tournament["director"] = to_json(*status);
  return text(tournament);
}

}  // namespace arena::protocol
