// arena analyze: outcome determination and move invariance of heuristics (bots/lab/), for
// the four comparisons of the theory and for every heuristic of one game, over self-play
// games and the store's recorded games, next to each heuristic's rating in the store; for a GDL
// sheet (gdl:NAME), its goal heuristics along self-play games of a GDL player.

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "bots/client/roster.h"
#include "bots/eval/registry.h"
#include "bots/gdl/gdl_player.h"
#include "bots/lab/comparisons.h"
#include "bots/lab/game_lines.h"
#include "bots/lab/gdl_analysis.h"
#include "bots/lab/report.h"
#include "bots/search/agent_factory.h"
#include "cli/commands.h"
#include "cli/gdl_sheet_flags.h"
#include "cli/lab_record.h"
#include "db/sqlite_store.h"
#include "db/tournament_reader.h"
#include "games/catalog/catalog.h"
#include "games/catalog/game_types.h"
#include "games/gdl/library/library.h"

namespace arena::cli {
namespace {

struct AnalyzeFlags {
  std::string game;
  std::string heuristics;  // comma-separated; empty = all of the game's
  std::string player;      // self-play spec; empty = alphabeta depth 3 on the first heuristic
  std::string db;
  std::string svg_dir;
  std::string options;
  int games = 20;
  int opening_plies = 4;
  int max_plies = 300;
  std::uint64_t seed = 1;
  bool comparisons = false;
  bool json = false;
  GdlSheetFlags sheets;
};

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

struct StoreData {
  std::vector<std::pair<std::string, std::vector<std::string>>> games;  // start, moves
  std::vector<std::string> results;
  std::vector<db::RatingRow> ratings;
  // (player name, heuristic) of the bot versions a league registered (db::TournamentReader).
  std::vector<std::pair<std::string, std::string>> heuristics;
  // Games left out: those with a note, which the rules ended by their own fault (a GDL sheet's
  // bug, a reasoner's limit), so their result says nothing of the position.
  int noted = 0;
};

// What the source column adds for the games read_store left out.
std::string left_out(const StoreData& data) {
  if (data.noted == 0) return "";
  return " (" + std::to_string(data.noted) + " ended by a fault of the rules, left out)";
}

// The best rating among the leaderboard's players that `uses(row)` says search with `h`, or
// whose bot version an in-process league registered with `h` (under any name).
template <class Uses>
std::optional<double> best_rating(const std::string& h, const StoreData& store, Uses uses) {
  std::optional<double> best;
  for (const db::RatingRow& r : store.ratings) {
    const bool registered = std::find(store.heuristics.begin(), store.heuristics.end(),
                                      std::pair{r.name, h}) != store.heuristics.end();
    if (registered || uses(r)) best = std::max(best.value_or(r.rating), r.rating);
  }
  return best;
}

// The rating of the bot that uses heuristic `h`: the best rated one registered with it; else a
// leaderboard name equal to it or ending in it, or in the course's short form ("AB_Improved"
// for improved_score, "AB_Custom_2" for custom_score_2), the best rated such (the leaderboard
// comes best first).
std::optional<double> rating_for(const std::string& h, const StoreData& store) {
  if (auto registered = best_rating(h, store, [](const db::RatingRow&) { return false; }))
    return registered;
  std::string tag = lower(h);
  for (const char* suffix : {"_move_score", "_score"}) {
    const auto at = tag.find(suffix);
    if (at != std::string::npos) tag.erase(at, std::string(suffix).size());
  }
  auto ends_with = [](const std::string& s, const std::string& e) {
    return s.size() >= e.size() && s.compare(s.size() - e.size(), e.size(), e) == 0;
  };
  for (const db::RatingRow& r : store.ratings) {
    const std::string n = lower(r.name);
    if (n == lower(h) || ends_with(n, lower(h)) || ends_with(n, "_" + tag)) return r.rating;
  }
  return std::nullopt;
}

// The rating of a stored GDL player guided by goal heuristic `h`: one registered with it, or a
// GDL preset whose search `h` guides (bots/gdl/gdl_player.h's gdl_player_heuristic; GDL_Fuzzy
// for fuzzy_goal, also when it played through a server, which registers no version); the best
// rated if several. None for a heuristic no player searches with.
std::optional<double> gdl_rating_for(const std::string& h, const StoreData& store) {
  return best_rating(h, store, [&](const db::RatingRow& r) {
    const client::Preset* p = client::find_preset(r.name);
    return p && p->game == "gdl" && gdl::gdl_player_heuristic(p->spec) == h;
  });
}

Expected<StoreData> read_store(const std::string& path, const std::string& kind) {
  if (!std::filesystem::exists(path)) return make_error("no database at '" + path + "'");
  auto store = db::open_sqlite_store(path);
  if (!store) return make_error(store.error());
  StoreData data;
  db::GameFilter filter;
  filter.kind = kind;
  filter.limit = 0;
  auto list = (*store)->list_games(filter);
  if (!list) return make_error(list.error());
  for (const db::GameSummary& s : *list) {
    if (!s.note.empty()) {
      ++data.noted;
      continue;
    }
    auto detail = (*store)->game_detail(s.id);
    if (!detail) return make_error(detail.error());
    std::vector<std::string> moves;
    for (const db::MoveRecord& m : detail->moves) moves.push_back(m.move);
    data.games.emplace_back(detail->start_position, std::move(moves));
    data.results.push_back(s.result);
  }
  auto board = (*store)->leaderboard(kind);
  if (board) data.ratings = *board;
  auto reader = db::TournamentReader::open(path);
  if (!reader) return make_error(reader.error());
  auto heuristics = reader->bot_heuristics();
  if (!heuristics) return make_error(heuristics.error());
  data.heuristics = std::move(*heuristics);
  return data;
}

int emit(const AnalyzeFlags& f, const std::string& title, const std::string& prefix,
         const std::vector<lab::ReportRow>& rows) {
  std::cout << (f.json ? lab::report_json(title, rows) : lab::report_table(title, rows));
  if (f.svg_dir.empty()) return kExitOk;
  std::error_code ec;
  std::filesystem::create_directories(f.svg_dir, ec);
  for (const auto& [name, text] :
       {std::pair{prefix + "_move_invariance.svg", lab::move_invariance_svg(title, rows)},
        std::pair{prefix + "_outcome_determination.svg",
                  lab::outcome_determination_svg(title, rows)}}) {
    const std::string path = (std::filesystem::path(f.svg_dir) / name).string();
    std::ofstream out(path);
    out << text;
    if (!out) {
      std::cerr << "arena analyze: cannot write '" << path << "'\n";
      return kExitFailure;
    }
    std::cerr << "wrote " << path << "\n";
  }
  return kExitOk;
}

// --db FILE: the run's measures of game kind `kind` into the store there (db::LabRun), for
// /api/stats and the game's page; the printed table stays as it was. Without --db, nothing.
int record(const AnalyzeFlags& f, const std::string& kind, const std::string& player,
           const std::string& source, const std::vector<lab::ReportRow>& rows,
           std::vector<LabCount> counts) {
  if (f.db.empty()) return kExitOk;
  nlohmann::json parameters{{"player", player},
                            {"games", f.games},
                            {"opening_plies", f.opening_plies},
                            {"max_plies", f.max_plies},
                            {"seed", f.seed}};
  if (!f.options.empty()) parameters["options"] = f.options;
  auto id = record_lab_run(f.db, {kind, source, parameters.dump(), rows, std::move(counts)});
  if (!id) {
    std::cerr << "arena analyze: --db: " << id.error() << "\n";
    return kExitFailure;
  }
  std::cerr << "arena analyze: recorded the measures of " << rows.size() << " heuristics of "
            << kind << " in '" << f.db << "' (lab run " << *id << ")\n";
  return kExitOk;
}

int run_comparisons(const AnalyzeFlags& f) {
  lab::ComparisonOptions o;
  o.seed = f.seed;
  o.games = std::min(f.games, 40);
  std::vector<lab::ReportRow> rows;
  for (lab::Comparison& c : lab::four_comparisons(o))
    rows.push_back({c.name, c.positions, std::nullopt, c.invariance, c.outcome});
  return emit(f, "the four comparisons", "comparisons", rows);
}

// --heuristics split at its commas (empty names dropped).
std::vector<std::string> heuristic_names(const AnalyzeFlags& f) {
  std::vector<std::string> names;
  for (std::size_t b = 0, e; b <= f.heuristics.size(); b = e + 1) {
    e = std::min(f.heuristics.find(',', b), f.heuristics.size());
    if (e > b) names.push_back(f.heuristics.substr(b, e - b));
  }
  return names;
}

// The heuristics to measure: --heuristics (comma-separated names) or every one of G's. Empty
// (and the error printed) when a name is unknown or G has none.
template <class G>
bool chosen_heuristics(const AnalyzeFlags& f, std::vector<std::string>& names,
                       std::vector<eval::Heuristic<G>>& hs) {
  for (const auto& h : eval::list_heuristics<G>()) names.push_back(h.name);
  if (!f.heuristics.empty()) {
    names = heuristic_names(f);
  }
  for (const std::string& n : names) {
    auto h = eval::make_named_heuristic<G>(n, {});
    if (!h) {
      std::cerr << "arena analyze: --heuristics: " << h.error() << "\n";
      return false;
    }
    hs.push_back(std::move(*h));
  }
  if (hs.empty()) std::cerr << "arena analyze: no heuristics for " << G::kName << "\n";
  return !hs.empty();
}

// Adds the games stored in --db (if given) to `lines` and says so in `source`; their ratings
// go to `store`. False (and the error printed) when the file cannot be read.
template <class G>
bool add_stored_games(const AnalyzeFlags& f, std::vector<lab::GameLine<G>>& lines,
                      std::string& source, StoreData& store) {
  if (f.db.empty()) {
    std::cerr << "arena analyze: no --db given: the rating column is empty\n";
    return true;
  }
  if (!std::filesystem::exists(f.db)) {
    std::cerr << "arena analyze: no database at '" << f.db
              << "' (no league has been recorded there): the rating column is empty; the "
                 "measures go into a new store there\n";
    return true;
  }
  auto data = read_store(f.db, std::string(G::kName));
  if (!data) {
    std::cerr << "arena analyze: --db: " << data.error() << "\n";
    return false;
  }
  store = std::move(*data);
  int bad = 0;
  for (std::size_t i = 0; i < store.games.size(); ++i) {
    auto line = lab::replay<G>(store.games[i].first, store.games[i].second, store.results[i]);
    if (line)
      lines.push_back(std::move(*line));
    else
      ++bad;
  }
  source += " + " + std::to_string(store.games.size() - static_cast<std::size_t>(bad)) +
            " stored games" + (bad ? " (" + std::to_string(bad) + " unreadable)" : "") +
            left_out(store);
  if (store.ratings.empty())
    std::cerr << "arena analyze: the store has no " << G::kName
              << " ratings yet (no league has run): the rating column is empty\n";
  return true;
}

template <class G>
int run_game(const AnalyzeFlags& f, const GameOptions& game_options) {
  if constexpr (G::kNumPlayers != 2) {
    std::cerr << "arena analyze: " << G::kName
              << " is a puzzle; its measures are in the comparisons (--comparisons)\n";
    return kExitUsage;
  } else {
    auto start = G::create(game_options);
    if (!start) {
      std::cerr << "arena analyze: " << G::kName << ": " << start.error() << "\n";
      return kExitUsage;
    }
    std::vector<std::string> names;
    std::vector<eval::Heuristic<G>> hs;
    if (!chosen_heuristics(f, names, hs)) return kExitUsage;
    const std::string spec =
        f.player.empty() ? "alphabeta:eval=" + names.front() + ",depth=3" : f.player;
    auto agent = search::make_agent_from_spec<G>(spec);
    if (!agent) {
      std::cerr << "arena analyze: --player: " << agent.error() << "\n";
      return kExitUsage;
    }
    lab::SelfPlayOptions so{f.games, f.opening_plies, f.max_plies, f.seed};
    std::vector<lab::GameLine<G>> lines = lab::self_play(*start, **agent, so);
    std::string source = std::to_string(f.games) + " self-play games (" + spec + ")";
    StoreData store;
    if (!add_stored_games(f, lines, source, store)) return kExitFailure;
    std::vector<lab::ReportRow> rows;
    std::vector<LabCount> counts;
    for (std::size_t k = 0; k < hs.size(); ++k) {
      std::vector<lab::Trajectory> ts;
      for (const auto& line : lines) ts.push_back(lab::trajectory(line, hs[k]));
      rows.push_back({names[k], source, rating_for(names[k], store), lab::move_invariance(ts),
                      lab::outcome_determination(ts)});
      counts.push_back(lab_count(ts));
    }
    const std::string kind(G::kName);
    if (int status = emit(f, kind + " heuristics", kind, rows); status != kExitOk) return status;
    return record(f, kind, spec, source, rows, std::move(counts));
  }
}

// The games of sheet `kind` stored in --db (none without --db), as gdl_analysis reads them,
// and the sheet's ratings with the players' heuristics. False (and the error printed) when the
// file cannot be read.
bool stored_gdl_games(const AnalyzeFlags& f, const std::string& kind,
                      std::vector<lab::StoredGdlGame>& games, StoreData& ratings) {
  if (f.db.empty()) return true;
  if (!std::filesystem::exists(f.db)) {
    std::cerr << "arena analyze: no database at '" << f.db
              << "': no stored games; the measures go into a new store there\n";
    return true;
  }
  auto data = read_store(f.db, kind);
  if (!data) {
    std::cerr << "arena analyze: --db: " << data.error() << "\n";
    return false;
  }
  for (std::size_t i = 0; i < data->games.size(); ++i)
    games.push_back({data->games[i].first, data->games[i].second, data->results[i]});
  ratings.ratings = std::move(data->ratings);
  ratings.heuristics = std::move(data->heuristics);
  ratings.noted = data->noted;
  return true;
}

// A GDL sheet: its goal heuristics (bots/lab/gdl_analysis.h) along self-play games and the
// sheet's games stored in --db.
int run_gdl(const AnalyzeFlags& f) {
  if (!f.options.empty()) {
    std::cerr << "arena analyze: --options is not taken for a GDL sheet (sheets have none)\n";
    return kExitUsage;
  }
  auto sheet = gdl::find_gdl_sheet(std::string_view(f.game).substr(4));
  if (!sheet) {
    std::cerr << "arena analyze: " << sheet.error() << "\n";
    return kExitUsage;
  }
  const std::string kind = "gdl:" + sheet->name;  // as the server and leagues store it
  std::vector<lab::StoredGdlGame> stored;
  StoreData ratings;  // the ratings and heuristics only
  if (!stored_gdl_games(f, kind, stored, ratings)) return kExitFailure;
  lab::GdlAnalysisOptions o;
  if (!f.player.empty()) o.player = f.player;
  o.games = f.games;
  o.opening_steps = f.opening_plies;
  o.max_steps = f.max_plies;
  o.seed = f.seed;
  const std::vector<std::string> names = heuristic_names(f);
  auto measured = lab::gdl_self_play_trajectories(kind, names, o);
  if (!measured) {
    std::cerr << "arena analyze: " << measured.error() << "\n";
    return kExitFailure;
  }
  std::string source = std::to_string(f.games) + " self-play games (" + o.player + ")";
  if (!f.db.empty()) {
    auto read = lab::gdl_stored_trajectories(kind, names, stored);
    if (!read) {
      std::cerr << "arena analyze: --db: " << read.error() << "\n";
      return kExitFailure;
    }
    for (std::size_t k = 0; k < measured->size(); ++k)
      for (auto& t : read->heuristics[k].trajectories)
        (*measured)[k].trajectories.push_back(std::move(t));
    source += " + " + std::to_string(read->games) + " stored games" + left_out(ratings);
    if (read->unreadable > 0) {
      source += " (" + std::to_string(read->unreadable) + " unreadable)";
      std::cerr << "arena analyze: --db: " << read->unreadable
                << " stored games not read; the first: " << read->first_problem << "\n";
    }
  }
  std::vector<lab::ReportRow> rows;
  std::vector<LabCount> counts;
  for (const auto& m : *measured) {
    rows.push_back({m.name, source, gdl_rating_for(m.name, ratings),
                    lab::move_invariance(m.trajectories),
                    lab::outcome_determination(m.trajectories)});
    counts.push_back(lab_count(m.trajectories));
  }
  if (int status = emit(f, kind + " heuristics", sheet->name, rows); status != kExitOk)
    return status;
  return record(f, kind, o.player, source, rows, std::move(counts));
}

}  // namespace

void add_analyze(CLI::App& app, Action& action) {
  auto f = std::make_shared<AnalyzeFlags>();
  CLI::App* sub = app.add_subcommand(
      "analyze", "measure heuristics: outcome determination and move invariance");
  sub->add_option("--game,-g", f->game,
                  "a game of two or more players (or gdl:NAME): a table for its heuristics");
  sub->add_option(
      "--heuristics", f->heuristics,
      "comma-separated names (default: all; GDL: fuzzy_goal, fuzzy_goal_written, goal)");
  sub->add_option("--player", f->player,
                  "self-play spec (default alphabeta depth 3; GDL: a GDL player, default "
                  "uct:iterations=300)");
  sub->add_option("--games,-n", f->games,
                  "self-play games (default 20; the comparisons play at most 40)")
      ->check(CLI::Range(0, 100'000));
  sub->add_option("--opening-plies", f->opening_plies, "random plies before each game")
      ->check(CLI::Range(0, 100));
  sub->add_option("--max-plies", f->max_plies, "adjudicate a self-play game as a draw")
      ->check(CLI::Range(1, 100'000));
  sub->add_option("--db", f->db,
                  "SQLite store: its recorded games and ratings; the measures are recorded there");
  sub->add_option("--seed", f->seed, "seed of openings and scrambles");
  sub->add_option("--options", f->options, "game options, key=value,...");
  sub->add_flag("--comparisons", f->comparisons,
                "the four comparisons (the default without --game)");
  sub->add_flag("--json", f->json, "JSON instead of a table");
  sub->add_option("--svg", f->svg_dir, "also write one SVG chart per measure into this folder");
  add_gdl_sheet_flags(sub, f->sheets);
  sub->callback([f, sub, &action] {
    // The comparisons play their own positions: flags for one game's table would be ignored.
    std::string per_game;
    int given = 0;
    for (const char* flag :
         {"--heuristics", "--player", "--opening-plies", "--max-plies", "--db", "--options"})
      if (sub->count(flag) > 0) per_game += (given++ == 0 ? "" : ", ") + std::string(flag);
    if (given > 0) per_game += given == 1 ? " is" : " are";
    action = [f, per_game] {
      if (f->game.empty() && !per_game.empty()) {
        std::cerr << "arena analyze: " << per_game
                  << " for one game's table: add --game G (without it, the four comparisons "
                     "run on their own positions)\n";
        return kExitUsage;
      }
      int status = kExitOk;
      if (f->comparisons || f->game.empty()) status = run_comparisons(*f);
      if (f->game.empty() || status != kExitOk) return status;
      if (!apply_gdl_sheet_flags(f->sheets, "analyze")) return kExitUsage;
      if (is_gdl_game(f->game)) return run_gdl(*f);
      GameOptions game_options;
      const auto resolved = resolve_game(f->game, f->options, game_options);
      if (!resolved) {
        std::cerr << "arena analyze: --options: " << resolved.error() << "\n";
        return kExitUsage;
      }
      const std::string& name = *resolved;
      const bool found = visit_game_type(
          name, [&]<class G>(std::type_identity<G>) { status = run_game<G>(*f, game_options); });
      if (!found) {
        std::cerr << "arena analyze: unknown game '" << f->game
                  << "' (known: " << known_game_names() << ")\n";
        return kExitUsage;
      }
      return status;
    };
  });
}

}  // namespace arena::cli
