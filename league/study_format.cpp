// `arena study`'s report as a table, CSV and JSON (league/study.h).

#include <cmath>
#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

#include "games/core/join.h"
#include "league/study.h"

namespace arena::league {
namespace {

std::string format(const char* fmt, auto... args) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, fmt, args...);
  return buffer;
}

// A figure, or "-" when it is not a number.
std::string num(double v, const char* fmt = "%.3f") {
  return std::isfinite(v) ? format(fmt, v) : "-";
}

std::string pct(double v) {
  return std::isfinite(v) ? format("%.1f%%", 100 * v) : "-";
}

nlohmann::json value(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

std::string outcome_line(const SheetHeuristic& h) {
  std::string line;
  for (const lab::OutcomeBucket& b : h.outcome)
    line += "  " + b.label + ": " + num(b.correlation, "%.2f") + " (" + pct(b.sign_agreement) +
            ", " + std::to_string(b.positions) + ")";
  return line;
}

void sheet_table(std::ostringstream& out, const StudyReport& report, const SheetReport& s) {
  out << "gdl:" << s.sheet << "  tournament " << s.tournament << ", " << s.finished << "/"
      << s.scheduled << " games" << (s.finished < s.scheduled ? " (unfinished)" : "") << "\n";
  out << format("  %-24s %16s %7s %6s\n", "player", "Elo (95%)", "score", "games");
  for (std::size_t i = 0; i < s.players.size(); ++i) {
    const StudyPlayer& p = s.players[i];
    const std::string elo = std::isfinite(p.elo) ? format("%.0f +- %.0f", p.elo, p.half_width)
                                                 : std::string("-");
    out << format("  %-24s %16s %7s %6d%s\n", p.player.c_str(), elo.c_str(), pct(p.score).c_str(),
                  p.games, static_cast<int>(i) == s.best ? (s.separated ? "  best, separated" : "  best") : "");
  }
  if (!s.rating_error.empty()) out << "  no Elo: " << s.rating_error << "\n";
  if (s.tied) out << "  no best: the highest Elo is shared\n";
  const SheetMetrics& m = s.metrics;
  out << "  game: first role wins " << pct(m.first_win_rate) << ", draws " << pct(m.draw_rate)
      << ", " << num(m.mean_turns, "%.1f") << " turns, branching " << num(m.mean_branching, "%.1f")
      << "\n";
  if (!s.heuristic.error.empty()) {
    out << "  fuzzy_goal: not measured: " << s.heuristic.error << "\n";
  } else {
    out << "  fuzzy_goal outcome determination, r (sign agreement, positions) by plies to the end:"
        << "\n   " << outcome_line(s.heuristic) << "\n";
    const lab::InvarianceStats& v = s.heuristic.invariance;
    out << "  fuzzy_goal move invariance: mean |dh|/sd " << num(v.mean_norm, "%.2f") << ", p90 "
        << num(v.p90_norm, "%.2f") << ", unchanged " << pct(v.unchanged) << " of " << v.moves
        << " moves\n";
  }
  if (s.versus_games > 0)
    out << "  " << report.heuristic_player << " against " << report.baseline << ": "
        << pct(s.versus_score) << " of " << s.versus_games << " games\n";
  out << "\n";
}

void summary_table(std::ostringstream& out, const StudyReport& r) {
  int tied = 0;
  for (const SheetReport& s : r.sheets) tied += s.tied;
  out << "across " << r.sheets.size() << " sheets played (" << tied << " with a shared best):\n";
  out << format("  %-24s %5s %10s\n", "player", "best", "separated");
  for (std::size_t i = 0; i < r.players.size(); ++i)
    out << format("  %-24s %5d %10d\n", r.players[i].c_str(), r.best[i], r.separated[i]);
  const tournament::RankCorrelation& c = r.correlation;
  if (r.heuristic_player.empty() || r.baseline.empty()) {
    out << "  no correlation: the players need one guided by fuzzy_goal and a uct baseline "
           "(--versus)\n";
  } else {
    out << "  fuzzy_goal outcome determination (r, all positions) against " << r.heuristic_player
        << "'s score vs " << r.baseline << ": Spearman rho " << num(c.rho, "%.2f")
        << ", 95% [" << num(c.low, "%.2f") << ", " << num(c.high, "%.2f")
        << "] (Fisher z), " << c.n << " sheets\n";
  }
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}

}  // namespace

std::string format_study_table(const StudyReport& r) {
  std::ostringstream out;
  for (const SheetReport& s : r.sheets) sheet_table(out, r, s);
  summary_table(out, r);
  if (!r.unplayable.empty()) out << "\nsheets not played (" << r.unplayable.size() << "):\n";
  for (const UnplayableSheet& u : r.unplayable) out << "  gdl:" << u.sheet << ": " << u.reason << "\n";
  if (!r.pending.empty())
    out << "\nnot reached before the stop (" << r.pending.size() << "): " << join(r.pending, ", ")
        << "\n";
  if (r.stopped) out << "\nstopped: run the same command again to continue\n";
  return out.str();
}

std::string format_study_csv(const StudyReport& r) {
  std::ostringstream out;
  out << "sheet,tournament,games_finished,games_scheduled,player,elo,elo_95,score,games,best,"
         "separated,first_role_win_rate,draw_rate,mean_turns,mean_branching,od_all_r,"
         "od_all_sign_agreement,invariance_mean_norm,invariance_unchanged,versus_score,"
         "versus_games,not_played\n";
  for (const SheetReport& s : r.sheets) {
    lab::OutcomeBucket all{"all", 1, -1, 0, NAN, NAN};
    for (const auto& b : s.heuristic.outcome)
      if (b.label == "all") all = b;
    for (std::size_t i = 0; i < s.players.size(); ++i) {
      const StudyPlayer& p = s.players[i];
      const bool best = static_cast<int>(i) == s.best;
      out << csv_field("gdl:" + s.sheet) << "," << s.tournament << "," << s.finished << ","
          << s.scheduled << "," << csv_field(p.player) << "," << num(p.elo, "%.1f") << ","
          << num(p.half_width, "%.1f") << "," << num(p.score, "%.4f") << "," << p.games << ","
          << best << "," << (best && s.separated) << "," << num(s.metrics.first_win_rate, "%.4f")
          << "," << num(s.metrics.draw_rate, "%.4f") << "," << num(s.metrics.mean_turns, "%.2f")
          << "," << num(s.metrics.mean_branching, "%.2f") << "," << num(all.correlation, "%.4f")
          << "," << num(all.sign_agreement, "%.4f") << ","
          << num(s.heuristic.invariance.mean_norm, "%.4f") << ","
          << num(s.heuristic.invariance.unchanged, "%.4f") << ","
          << num(s.versus_games > 0 ? s.versus_score : NAN, "%.4f") << "," << s.versus_games
          << ",\n";
    }
  }
  for (const UnplayableSheet& u : r.unplayable)
    out << csv_field("gdl:" + u.sheet) << ",,,,,,,,,,,,,,,,,,,,," << csv_field(u.reason) << "\n";
  return out.str();
}

nlohmann::json sheet_json(const SheetReport& s) {
  nlohmann::json players = nlohmann::json::array(), outcome = nlohmann::json::array();
  for (std::size_t i = 0; i < s.players.size(); ++i) {
    const StudyPlayer& p = s.players[i];
    players.push_back({{"player", p.player}, {"elo", value(p.elo)}, {"elo_95", value(p.half_width)},
                       {"score", value(p.score)}, {"games", p.games}});
  }
  for (const lab::OutcomeBucket& b : s.heuristic.outcome)
    outcome.push_back({{"plies_left", b.label}, {"positions", b.positions},
                       {"sign_agreement", value(b.sign_agreement)}, {"r", value(b.correlation)}});
  const lab::InvarianceStats& v = s.heuristic.invariance;
  return {{"sheet", "gdl:" + s.sheet}, {"tournament", s.tournament},
          {"games_finished", s.finished}, {"games_scheduled", s.scheduled},
          {"players", players}, {"rating_error", s.rating_error},
          {"best", s.best >= 0 ? nlohmann::json(s.players[static_cast<std::size_t>(s.best)].player)
                               : nlohmann::json(nullptr)},
          {"separated", s.separated}, {"tied", s.tied},
          {"metrics", {{"games", s.metrics.games}, {"first_role_win_rate", value(s.metrics.first_win_rate)},
                       {"draw_rate", value(s.metrics.draw_rate)}, {"mean_turns", value(s.metrics.mean_turns)},
                       {"mean_branching", value(s.metrics.mean_branching)}}},
          {"fuzzy_goal", {{"error", s.heuristic.error}, {"games", s.heuristic.games},
                          {"outcome_determination", outcome},
                          {"move_invariance", {{"moves", v.moves}, {"mean_norm", value(v.mean_norm)},
                                               {"p90_norm", value(v.p90_norm)},
                                               {"unchanged", value(v.unchanged)}}}}},
          {"versus", {{"score", value(s.versus_games > 0 ? s.versus_score : NAN)},
                      {"games", s.versus_games}}}};
}

std::string format_study_json(const StudyReport& r) {
  nlohmann::json sheets = nlohmann::json::array(), unplayable = nlohmann::json::array(),
                 across = nlohmann::json::array();
  for (const SheetReport& s : r.sheets) sheets.push_back(sheet_json(s));
  for (const UnplayableSheet& u : r.unplayable)
    unplayable.push_back({{"sheet", "gdl:" + u.sheet}, {"reason", u.reason}});
  for (std::size_t i = 0; i < r.players.size(); ++i)
    across.push_back({{"player", r.players[i]}, {"best", r.best[i]}, {"separated", r.separated[i]}});
  const tournament::RankCorrelation& c = r.correlation;
  nlohmann::json out = {
      {"players", r.players}, {"sheets", sheets}, {"not_played", unplayable},
      {"pending", r.pending}, {"stopped", r.stopped}, {"games_played", r.games_played},
      {"across", {{"best", across},
                  {"correlation", {{"heuristic_player", r.heuristic_player},
                                   {"baseline", r.baseline},
                                   {"method", "Spearman rho, 95% interval by Fisher z (se sqrt(1.06/(n-3)))"},
                                   {"n", c.n}, {"rho", value(c.rho)}, {"low", value(c.low)},
                                   {"high", value(c.high)}}}}}};
  return out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace arena::league
