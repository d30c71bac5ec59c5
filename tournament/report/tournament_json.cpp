#include "tournament/report/tournament_json.h"

#include <cmath>

#include "tournament/report/stored_analysis.h"
#include "db/tournament_reader.h"

namespace arena::tournament {
namespace {

using Json = nlohmann::json;

double round1(double x) {
  return std::round(x * 10.0) / 10.0;
}

// Rows of objects, so that a generic table can show them: rank, player, results, rating.
Json standings_json(const Analysis& a) {
  Json rows = Json::array();
  int rank = 0;
  for (const auto& s : a.standings) {
    const auto p = static_cast<std::size_t>(s.player);
    Json row{{"rank", ++rank},     {"player", a.names[p]},
             {"games", s.games},   {"won", s.wins},
             {"lost", s.losses},   {"drawn", s.draws},
             {"points", s.points}, {"score", round1(100.0 * s.score())}};
    if (p < a.ratings.size()) {
      row["bt_elo"] = std::lround(a.ratings[p]);
      row["bt_95"] = std::lround(a.half_widths[p]);
    }
    if (p < a.search.size() && a.search[p].moves > 0) {
      const double n = a.search[p].moves;
      row["avg_depth"] = round1(a.search[p].depth_sum / n);
      row["avg_nodes"] = std::lround(a.search[p].nodes_sum / n);
      row["avg_ms"] = round1(a.search[p].time_ms_sum / n);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

// One row per player: its points / games against each opponent it met.
Json crosstable_json(const Analysis& a) {
  Json rows = Json::array();
  for (std::size_t r = 0; r < a.names.size(); ++r) {
    Json row{{"player", a.names[r]}};
    for (std::size_t c = 0; c < a.names.size(); ++c) {
      const HeadToHead& h = a.crosstable[r][c];
      row[a.names[c]] = r == c           ? "x"
                        : h.games() == 0 ? ""
                                         : [&] {
                                             std::string points = std::to_string(h.points());
                                             points.erase(points.find_last_not_of('0') + 1);
                                             if (points.back() == '.') points.pop_back();
                                             return points + "/" + std::to_string(h.games());
                                           }();
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

Expected<Json> one(db::TournamentReader& reader, const db::TournamentInfo& t) {
  Json j{{"id", t.id},
         {"name", t.name},
         {"game", t.kind},
         {"format", t.format},
         {"options", t.options},
         {"time_control", t.time_control},
         {"status", t.finished ? "finished" : "running"}};
  auto rows = reader.pairings(t.id);
  if (!rows) return make_error(rows.error());
  int played = 0, live = 0;
  for (const auto& r : *rows) {
    played += !r.result.empty() && r.result != "*";
    live += r.game != 0 && r.result.empty();
  }
  j["games_played"] = played;
  j["games_live"] = live;
  j["games_total"] = rows->size();
  // The SPRT its config asks for (a config that no longer reads: none).
  std::optional<LeagueConfig::Sprt> sprt;
  if (!t.config.empty())
    if (auto config = parse_league_config(t.config)) sprt = config->sprt;
  auto analysis = load_analysis(reader, t.id, sprt);
  if (!analysis) return make_error(analysis.error());
  j["standings"] = standings_json(*analysis);
  j["crosstable"] = crosstable_json(*analysis);
  if (!analysis->rating_error.empty()) j["rating_error"] = analysis->rating_error;
  if (analysis->sprt && sprt) {
    const auto& r = *analysis->sprt;
    j["sprt"] = Json{{"challenger", sprt->challenger},
                     {"baseline", sprt->baseline},
                     {"elo0", sprt->config.elo0},
                     {"elo1", sprt->config.elo1},
                     {"alpha", sprt->config.alpha},
                     {"beta", sprt->config.beta},
                     {"llr", r.llr},
                     {"lower", r.lower},
                     {"upper", r.upper},
                     {"verdict", r.verdict == SprtVerdict::kAcceptH1   ? "accept_h1"
                                 : r.verdict == SprtVerdict::kAcceptH0 ? "accept_h0"
                                                                       : "continue"}};
  }
  if (analysis->noted_games > 0) {
    j["noted_games"] = analysis->noted_games;
    j["first_note"] = analysis->first_note;
  }
  return j;
}

}  // namespace

Expected<Json> tournaments_json(const std::string& db_path, std::optional<std::int64_t> id) {
  auto reader = db::TournamentReader::open(db_path);
  if (!reader) return make_error(reader.error());
  if (id) {
    auto info = reader->tournament(*id);
    if (!info) return make_error(info.error());
    return one(*reader, *info);
  }
  auto all = reader->tournaments();
  if (!all) return make_error(all.error());
  Json out = Json::array();
  for (auto it = all->rbegin(); it != all->rend(); ++it) {
    auto j = one(*reader, *it);
    if (!j) return make_error(j.error());
    out.push_back(std::move(*j));
  }
  return out;
}

}  // namespace arena::tournament
