// `arena study`'s figures from the store: one sheet's (report_sheet) and the study's across
// sheets (summarise_study). league/study.h says what each figure is.

#include <algorithm>
#include <cmath>
#include <limits>

#include "bots/lab/gdl_analysis.h"
#include "db/tournament_reader.h"
#include "games/core/turn_rows.h"
#include "games/gdl/library/library.h"
#include "league/study.h"
#include "tournament/report/stored_analysis.h"

namespace arena::league {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool finished(const db::PairingRow& row) {
  return !row.result.empty() && row.result != "*";
}

// The joint moves of the game's state: the product over roles of their legal moves (a role
// that waits, whose noop GdlGame does not list, counts one).
double joint_moves(const AnyGame& game) {
  double product = 1;
  for (int r = 0; r < game.num_players(); ++r)
    product *= std::max<double>(1, static_cast<double>(game.legal_moves_of(r).size()));
  return product;
}

// First-role wins, draws, turns and branching of the stored games, replayed through the sheet.
Expected<SheetMetrics> sheet_metrics(const std::string& sheet,
                                     const std::vector<lab::StoredGdlGame>& games) {
  SheetMetrics m;
  if (games.empty()) return m;
  auto context = gdl::shared_gdl_context(sheet);
  if (!context) return make_error(context.error());
  double turns = 0, branching = 0;
  int states = 0, first_wins = 0, draws = 0;
  for (const lab::StoredGdlGame& g : games) {
    auto game = gdl::GdlGame::load(*context, g.start);
    if (!game) return make_error("a stored start position: " + game.error());
    AnyGame& board = **game;
    std::vector<double> seen{joint_moves(board)};
    const RowReplay played = replay_rows(board, g.moves, false, [&] {
      if (!board.outcome().is_terminal()) seen.push_back(joint_moves(board));
    });
    if (!played.error.empty()) return make_error("a stored game: " + played.error);
    const std::size_t n_turns = played.rows.empty() ? 0 : played.rows.back().turn + 1u;
    seen.resize(std::min(seen.size(), n_turns));  // the states a turn was played in
    for (double b : seen) branching += b;
    states += static_cast<int>(seen.size());
    turns += static_cast<double>(n_turns);
    first_wins += g.result == "1-0";
    draws += g.result == "1/2-1/2";
  }
  const double n = static_cast<double>(games.size());
  m.games = static_cast<int>(games.size());
  m.first_win_rate = first_wins / n;
  m.draw_rate = draws / n;
  m.mean_turns = turns / n;
  m.mean_branching = states > 0 ? branching / states : kNaN;
  return m;
}

SheetHeuristic sheet_heuristic(const std::string& sheet,
                               const std::vector<lab::StoredGdlGame>& games) {
  SheetHeuristic h;
  auto read = lab::gdl_stored_trajectories(sheet, {"fuzzy_goal"}, games);
  if (!read) {
    h.error = read.error();
    return h;
  }
  h.games = read->games;
  const auto& trajectories = read->heuristics.front().trajectories;
  h.outcome = lab::outcome_determination(trajectories);
  h.invariance = lab::move_invariance(trajectories);
  return h;
}

// The players' Elo, scores and the versus score from the tournament's analysis.
void fill_players(SheetReport& r, const tournament::Analysis& a, const StudyConfig& c) {
  const auto [h, b] = study_versus(c);
  auto index = [&](const std::string& name) {
    for (std::size_t i = 0; i < a.names.size(); ++i)
      if (a.names[i] == name) return static_cast<int>(i);
    return -1;
  };
  r.rating_error = a.rating_error;
  for (const std::string& p : c.players) {
    StudyPlayer out{p, kNaN, kNaN, 0, 0};
    const int i = index(p);
    for (const auto& s : a.standings)
      if (s.player == i) out.games = s.games, out.score = s.score();
    if (i >= 0 && static_cast<std::size_t>(i) < a.ratings.size())
      out.elo = a.ratings[static_cast<std::size_t>(i)],
      out.half_width = a.half_widths[static_cast<std::size_t>(i)];
    r.players.push_back(out);
  }
  const int hi = index(h), bi = index(b);
  if (hi >= 0 && bi >= 0) {
    const auto& cell = a.crosstable[static_cast<std::size_t>(hi)][static_cast<std::size_t>(bi)];
    r.versus_games = cell.games();
    r.versus_score = cell.games() > 0 ? cell.points() / cell.games() : kNaN;
  }
}

}  // namespace

void find_best(SheetReport& r) {
  int best = -1, second = -1;
  for (int i = 0; i < static_cast<int>(r.players.size()); ++i) {
    if (std::isnan(r.players[static_cast<std::size_t>(i)].elo)) continue;
    const double e = r.players[static_cast<std::size_t>(i)].elo;
    if (best < 0 || e > r.players[static_cast<std::size_t>(best)].elo) {
      second = best;
      best = i;
    } else if (second < 0 || e > r.players[static_cast<std::size_t>(second)].elo) {
      second = i;
    }
  }
  if (r.finished == 0 || best < 0) return;
  // Equal records fit to equal Elo up to the fit's rounding: within half an Elo is a tie.
  if (second >= 0 && r.players[static_cast<std::size_t>(best)].elo -
                             r.players[static_cast<std::size_t>(second)].elo < 0.5) {
    r.tied = true;  // no best: which of the equals is listed first is no result
    return;
  }
  r.best = best;
  if (second < 0) return;
  const StudyPlayer& top = r.players[static_cast<std::size_t>(best)];
  const StudyPlayer& next = r.players[static_cast<std::size_t>(second)];
  r.separated = top.elo - top.half_width > next.elo + next.half_width;
}

double study_outcome_determination(const SheetHeuristic& h) {
  for (const lab::OutcomeBucket& b : h.outcome)
    if (b.label == "all") return b.correlation;
  return kNaN;
}

Expected<SheetReport> report_sheet(const StudyConfig& c, db::Store& store,
                                   const std::string& db_path, const std::string& sheet,
                                   std::int64_t tournament) {
  store.flush();
  auto reader = db::TournamentReader::open(db_path);
  if (!reader) return make_error(reader.error());
  auto rows = reader->pairings(tournament);
  if (!rows) return make_error(rows.error());
  SheetReport r;
  r.sheet = sheet;
  r.tournament = tournament;
  r.scheduled = static_cast<int>(rows->size());
  std::vector<lab::StoredGdlGame> games;
  for (const db::PairingRow& row : *rows) {
    if (!finished(row)) continue;
    auto detail = store.game_detail(row.game);
    if (!detail) return make_error(detail.error());
    lab::StoredGdlGame g{detail->start_position, {}, row.result};
    for (const db::MoveRecord& m : detail->moves) g.moves.push_back(m.move);
    games.push_back(std::move(g));
  }
  r.finished = static_cast<int>(games.size());
  auto analysis = tournament::load_analysis(*reader, tournament);
  if (!analysis) return make_error(analysis.error());
  fill_players(r, *analysis, c);
  auto metrics = sheet_metrics(sheet, games);
  if (!metrics) return make_error("gdl:" + sheet + ": " + metrics.error());
  r.metrics = *metrics;
  r.heuristic = sheet_heuristic(sheet, games);
  find_best(r);
  return r;
}

void summarise_study(StudyReport& report) {
  report.best.assign(report.players.size(), 0);
  report.separated.assign(report.players.size(), 0);
  std::vector<double> od, score;
  for (const SheetReport& s : report.sheets) {
    if (s.best >= 0) {
      ++report.best[static_cast<std::size_t>(s.best)];
      report.separated[static_cast<std::size_t>(s.best)] += s.separated;
    }
    double all = kNaN;
    if (s.heuristic.error.empty() && s.heuristic.games > 0)
      all = study_outcome_determination(s.heuristic);
    od.push_back(all);
    score.push_back(s.versus_games > 0 ? s.versus_score : kNaN);
  }
  report.correlation = tournament::spearman(od, score);
}

}  // namespace arena::league
