// arena study: the GDL players in a round robin on every sheet of a folder (or the --gdl files),
// at one movetime with the roles swapped, recorded in SQLite as one tournament per sheet; per
// sheet each player's Elo, the game's metrics and the fuzzy goal heuristic's lab measures, and
// across sheets who is best and whether the heuristic's outcome determination predicts its
// player's score against UCT (league/study.h). Running it again continues it.
//
//   arena study --gdl games/gdl/sheets/tictactoe.kif --gdl games/gdl/sheets/connectFour.kif
//       --players random,uct,fuzzy --movetime 50 --minutes 5 --db study.db

#include <atomic>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "bots/gdl/gdl_player.h"
#include "cli/commands.h"
#include "cli/gdl_sheet_flags.h"
#include "db/sqlite_store.h"
#include "league/study.h"

namespace arena::cli {
namespace {

std::atomic<bool> g_study_stop{false};

extern "C" void on_study_signal(int) { g_study_stop = true; }

struct StudyFlags {
  league::StudyConfig config;
  GdlSheetFlags sheets;
  std::string db = "arena.db", format = "table", csv, json;
  std::vector<std::string> versus;
  double minutes = 0;
  bool quiet = false;
};

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (out) return true;
  std::cerr << "arena study: cannot write '" << path << "'\n";
  return false;
}

// The flags that need more than CLI11's checks; false (and the error printed) on a bad one.
bool finish_config(StudyFlags& f) {
  auto& c = f.config;
  if (!apply_gdl_sheet_flags(f.sheets, "study")) return false;
  for (const std::string& file : f.sheets.files)
    c.sheets.push_back(std::filesystem::path(file).stem().string());
  if (c.players.empty())
    for (const auto& [spec, help] : gdl::gdl_player_specs()) c.players.push_back(spec);
  if (f.versus.size() == 2) {
    c.heuristic_player = f.versus[0];
    c.baseline = f.versus[1];
  } else if (!f.versus.empty()) {
    std::cerr << "arena study: --versus takes two players, HEURISTIC,BASELINE\n";
    return false;
  }
  if (auto ok = league::check_study(c); !ok) {
    std::cerr << "arena study: " << ok.error() << "\n";
    return false;
  }
  return true;
}

int run(StudyFlags& f) {
  if (!finish_config(f)) return kExitUsage;
  auto store = db::open_sqlite_store(f.db);
  if (!store) {
    std::cerr << "arena study: " << store.error() << "\n";
    return kExitFailure;
  }
  std::signal(SIGINT, on_study_signal);
  std::signal(SIGTERM, on_study_signal);
  std::optional<std::chrono::steady_clock::time_point> deadline;
  if (f.minutes > 0)
    deadline = std::chrono::steady_clock::now() +
               std::chrono::milliseconds(static_cast<std::int64_t>(f.minutes * 60'000));
  league::StudyProgress progress;
  if (!f.quiet) progress = [](const std::string& line) { std::cerr << line << "\n"; };
  auto report = league::run_study(f.config, **store, f.db, progress, &g_study_stop, deadline);
  if (!report) {
    std::cerr << "arena study: " << report.error() << "\n";
    return kExitFailure;
  }
  if (f.format == "csv")
    std::cout << league::format_study_csv(*report);
  else if (f.format == "json")
    std::cout << league::format_study_json(*report);
  else
    std::cout << league::format_study_table(*report);
  if (!f.csv.empty() && !write_file(f.csv, league::format_study_csv(*report))) return kExitFailure;
  if (!f.json.empty() && !write_file(f.json, league::format_study_json(*report)))
    return kExitFailure;
  if (!f.quiet)
    std::cerr << "arena study: " << report->games_played << " games played in this run, "
              << static_cast<int>(report->wall_s) << " s, database " << f.db << "\n";
  return kExitOk;
}

}  // namespace

void add_study(CLI::App& app, Action& action) {
  auto f = std::make_shared<StudyFlags>();
  auto& c = f->config;
  CLI::App* sub = app.add_subcommand(
      "study", "GDL players in a round robin on many sheets: Elo, game metrics, heuristic measures");
  sub->footer(
      "Every sheet of --gdl-dir (default games/gdl/sheets), or only the --gdl files, is played "
      "as one tournament in --db (arena tournament list shows them). Sheets that cannot be "
      "played (not two roles, unreadable, refused by the reasoner) are listed with the reason. "
      "Run the same command again to continue a stopped study; finished games are not replayed.");
  sub->add_option("--players", c.players,
                  "GDL player specs or presets, comma-separated (default: every GDL player spec: "
                  "random,uct,fuzzy,...)")
      ->delimiter(',');
  sub->add_option("--db", f->db, "SQLite file of the games and tournaments (default arena.db)");
  sub->add_option("--movetime", c.movetime_ms, "ms a move (default 100)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{3'600'000}));
  sub->add_option("--games-per-pair", c.games_per_pair,
                  "games each pair plays in each role order (default 1)")
      ->check(CLI::Range(1, 10000));
  sub->add_option("--max-turns", c.max_turns, "a game longer than this is a draw (default 200)")
      ->check(CLI::Range(1, 100000));
  sub->add_option("--minutes", f->minutes,
                  "start no game after this long; the next run continues (default: no limit)")
      ->check(CLI::Range(0.0, 100000.0));
  sub->add_option("--jobs,-j", c.jobs, "games played at once (default 1)")->check(CLI::Range(1, 64));
  sub->add_option("--seed", c.seed, "seed of the players (default 1)");
  sub->add_option("--versus", f->versus,
                  "HEURISTIC,BASELINE: the players of the correlation (default: the fuzzy "
                  "player and uct)")
      ->delimiter(',');
  sub->add_option("--format", f->format, "table, csv or json (default table)")
      ->check(CLI::IsMember({"table", "csv", "json"}));
  sub->add_option("--csv", f->csv, "also write the CSV to this file");
  sub->add_option("--json", f->json, "also write the JSON to this file");
  sub->add_flag("--quiet,-q", f->quiet, "no progress lines on stderr");
  add_gdl_sheet_flags(sub, f->sheets);
  sub->callback([f, &action] { action = [f] { return run(*f); }; });
}

}  // namespace arena::cli
