// arena league: runs a tournament of bots to its end and prints the table.
//
//   default        starts `arena serve` and one `arena bot` per player as local processes (the
//                  topology of docker/compose.yml), creates the tournament on the server and
//                  follows it (league/server_league.h); a server that dies is started again and
//                  continues the tournament.
//   --server URL   a running server (and its bots): create the tournament there and follow it.
//   --in-process   the same agents played in this process, no network (league_runner.h).
//
// Everything (games, moves, tournament and pairings) is kept in the SQLite file, so running the
// same command again after an interruption (Ctrl-C, a kill) finishes the same tournament.

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/gdl_sheet_flags.h"
#include "db/sqlite_store.h"
#include "league/league_runner.h"
#include "league/server_league.h"
#include "tournament/report/report.h"

namespace arena::cli {
namespace {

std::atomic<bool> g_stop{false};

extern "C" void on_league_signal(int) {
  g_stop = true;
}

struct LeagueFlags {
  std::string config, preset, db = "arena.db", name, game, format, options;
  std::vector<std::string> players, challengers;
  int games_per_pairing = 0, concurrency = 0, rounds = 0, max_plies = 0, opening_plies = -1;
  std::int64_t movetime_ms = -1;
  bool quiet = false;
  bool in_process = false;
  std::string server, token, token_file;
  int port = 0;  // checked to 0-65535
  GdlSheetFlags sheets;
};

std::string duration(double s) {
  const long t = static_cast<long>(s + 0.5);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%ldh%02ldm%02lds", t / 3600, t / 60 % 60, t % 60);
  return buf;
}

void draw_progress(const league::LeagueProgress& p) {
  constexpr int kWidth = 30;
  const int filled = p.total > 0 ? kWidth * p.done / p.total : 0;
  const double rate = p.elapsed_s > 0 ? p.done_now / p.elapsed_s : 0;
  const std::string eta = rate > 0 ? duration((p.total - p.done) / rate) : "?";
  std::fprintf(stderr, "\r[%s%s] %d/%d games, %d running, %s elapsed, ~%s left   ",
               std::string(static_cast<std::size_t>(filled), '#').c_str(),
               std::string(static_cast<std::size_t>(kWidth - filled), '.').c_str(), p.done, p.total,
               p.running, duration(p.elapsed_s).c_str(), eta.c_str());
}

// The config from --config or --preset (or flags alone), then the flags over it.
Expected<tournament::LeagueConfig> build_config(const LeagueFlags& f) {
  tournament::LeagueConfig c;
  if (!f.config.empty() && !f.preset.empty()) return make_error("give --config or --preset");
  if (!f.config.empty() || !f.preset.empty()) {
    auto loaded = !f.config.empty() ? tournament::load_league_config(f.config)
                                    : tournament::league_preset(f.preset);
    if (!loaded) return loaded;
    c = *loaded;
  } else {
    // The flags as the config they stand for, each text a JSON string (a quote or backslash in
    // a name stays the name's; bytes that are not UTF-8 become U+FFFD).
    nlohmann::json json = {{"game", f.game},
                           {"format", f.format.empty() ? "round-robin" : f.format},
                           {"players", f.players},
                           {"challengers", f.challengers}};
    if (f.rounds > 0) json["rounds"] = f.rounds;
    auto parsed = tournament::parse_league_config(
        json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    if (!parsed) return parsed;
    c = *parsed;
  }
  if (!f.name.empty()) c.name = f.name;
  if (!f.options.empty()) c.options = f.options;
  if (f.games_per_pairing > 0) c.games_per_pairing = f.games_per_pairing;
  if (f.concurrency > 0) c.concurrency = f.concurrency;
  if (f.rounds > 0) c.rounds = f.rounds;
  if (f.max_plies > 0) c.max_plies = f.max_plies;
  if (f.opening_plies >= 0) c.opening_plies = f.opening_plies;
  if (f.movetime_ms >= 0) c.movetime_ms = f.movetime_ms;
  if (auto v = tournament::validate(c); !v) return make_error(v.error());
  return c;
}

// The final table from the server's JSON (remote leagues: the database is the server's).
void print_json_table(const nlohmann::json& state) {
  std::printf("%-4s %-20s %6s %5s %5s %5s %6s %14s\n", "rank", "bot", "games", "won", "lost",
              "drawn", "score", "BT Elo (95%)");
  for (const auto& r : state.value("standings", nlohmann::json::array())) {
    const std::string rating = r.contains("bt_elo") ? std::to_string(r.value("bt_elo", 0)) + " +-" +
                                                          std::to_string(r.value("bt_95", 0))
                                                    : "-";
    std::printf("%-4d %-20s %6d %5d %5d %5d %5.1f%% %14s\n", r.value("rank", 0),
                r.value("player", "").c_str(), r.value("games", 0), r.value("won", 0),
                r.value("lost", 0), r.value("drawn", 0), r.value("score", 0.0), rating.c_str());
  }
}

int print_tables(const LeagueFlags& f, const tournament::LeagueConfig& config,
                 std::int64_t tournament) {
  auto reader = db::TournamentReader::open(f.db);
  if (!reader) {
    std::cerr << "arena league: " << reader.error() << "\n";
    return kExitFailure;
  }
  auto analysis = tournament::load_analysis(*reader, tournament, config.sprt);
  if (!analysis) {
    std::cerr << "arena league: " << analysis.error() << "\n";
    return kExitFailure;
  }
  if (config.format == tournament::Format::kGauntlet) {
    std::vector<std::string> challengers, field;
    for (std::size_t i = 0; i < config.players.size(); ++i)
      (static_cast<int>(i) < config.num_challengers ? challengers : field)
          .push_back(config.players[i].name);
    tournament::print_gauntlet_table(std::cout, *analysis, challengers, field);
    std::cout << "\n";
  }
  tournament::print_report(std::cout, *analysis);
  return kExitOk;
}

int run_in_process(const LeagueFlags& f, const tournament::LeagueConfig& config) {
  auto store = db::open_sqlite_store(f.db);
  if (!store) {
    std::cerr << "arena league: " << store.error() << "\n";
    return kExitFailure;
  }
  league::ProgressFn progress;
  if (!f.quiet) progress = draw_progress;
  auto run = league::run_league(config, **store, f.db, progress, &g_stop);
  if (!f.quiet) std::fputs("\n", stderr);
  if (!run) {
    std::cerr << "arena league: " << run.error() << "\n";
    return kExitFailure;
  }
  if (g_stop) {
    std::cerr << "arena league: stopped; tournament " << run->tournament
              << " continues when you run the same command again\n";
    return kExitFailure;
  }
  std::cout << "tournament " << run->tournament << " '" << config.name << "' ("
            << tournament::to_string(config.format) << ", " << config.game
            << "): " << run->games_played << " games played in " << duration(run->wall_s)
            << (run->resumed ? " (resumed)" : "") << ", in process, database " << f.db << "\n\n";
  return print_tables(f, config, run->tournament);
}

int run(const LeagueFlags& f) {
  if (!apply_gdl_sheet_flags(f.sheets, "league")) return kExitUsage;
  auto config = build_config(f);
  if (!config) {
    std::cerr << "arena league: " << config.error() << "\n";
    return kExitUsage;
  }
  std::signal(SIGINT, on_league_signal);
  std::signal(SIGTERM, on_league_signal);
  if (f.in_process) return run_in_process(f, *config);
  league::ServerLeagueOptions o;
  o.server = f.server;
  o.token = f.token;
  std::string token_file = f.token_file;
  if (token_file.empty())
    if (const char* env = std::getenv("ARENA_TOKEN_FILE")) token_file = env;
  if (o.token.empty() && !token_file.empty()) {
    std::ifstream in(token_file);
    if (!(in >> o.token)) {
      std::cerr << "arena league: cannot read a token from " << token_file << "\n";
      return kExitUsage;
    }
  }
  if (!o.server.empty() && o.token.empty()) {
    std::cerr << "arena league: --server needs a bot token (--token, --token-file or "
                 "ARENA_TOKEN_FILE)\n";
    return kExitUsage;
  }
  o.db = f.db;
  o.sheet_args = gdl_sheet_args(f.sheets);
  o.port = static_cast<unsigned short>(f.port);
  o.stop = &g_stop;
  if (!f.quiet) o.progress = draw_progress;
  auto run = league::run_league_on_server(*config, o);
  if (!f.quiet) std::fputs("\n", stderr);
  if (!run) {
    std::cerr << "arena league: " << run.error() << "\n";
    return kExitFailure;
  }
  if (!run->finished) {
    std::cerr << "arena league: stopped; tournament " << run->tournament
              << " continues when you run the same command again\n";
    return kExitFailure;
  }
  std::cout << "tournament " << run->tournament << " '" << config->name << "' ("
            << tournament::to_string(config->format) << ", " << config->game
            << "): " << run->games_played << " games played in " << duration(run->wall_s)
            << (run->resumed ? " (resumed)" : "") << " by the server at " << run->url
            << (f.server.empty() ? " (started here)" : "");
  if (run->server_restarts > 0)
    std::cout << ", which was restarted " << run->server_restarts << " times";
  std::cout << (f.server.empty() ? ", database " + f.db : std::string()) << "\n\n";
  if (!f.server.empty()) {
    print_json_table(run->final_state);
    return kExitOk;
  }
  return print_tables(f, *config, run->tournament);
}

}  // namespace

void add_league(CLI::App& app, Action& action) {
  auto f = std::make_shared<LeagueFlags>();
  CLI::App* sub = app.add_subcommand("league", "run a tournament of bots and print the table");
  sub->add_option("--config", f->config, "league config (JSON, see leagues/*.json)");
  sub->add_option("--preset", f->preset, "a named league (aind-isolation)");
  sub->add_option("--db", f->db, "SQLite file for the games and the tournament state");
  sub->add_option("--name", f->name, "tournament name (an unfinished one of that name resumes)");
  sub->add_option("--game,-g", f->game, "game, when no --config or --preset");
  sub->add_option("--players", f->players, "presets or players, when no --config")->delimiter(',');
  sub->add_option("--challengers", f->challengers, "gauntlet challengers")->delimiter(',');
  sub->add_option("--format", f->format, "round-robin, gauntlet or swiss");
  sub->add_option("--options", f->options, "game options, key=value,...");
  sub->add_option("--games-per-pairing", f->games_per_pairing, "games per pairing")
      ->check(CLI::Range(1, 10000));
  sub->add_option("--concurrency,-j", f->concurrency, "games at once")->check(CLI::Range(1, 256));
  sub->add_option("--rounds", f->rounds, "Swiss rounds")->check(CLI::Range(1, 1000));
  sub->add_option("--movetime", f->movetime_ms, "ms per move for specs without a limit")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{86'400'000}));
  sub->add_option("--max-plies", f->max_plies, "adjudicate a draw after this many plies")
      ->check(CLI::Range(1, 100000));
  sub->add_option("--opening-plies", f->opening_plies, "random plies before each pair")
      ->check(CLI::Range(0, 200));
  sub->add_flag("--quiet,-q", f->quiet, "no progress bar");
  sub->add_flag("--in-process", f->in_process,
                "play the agents in this process (no server, no bot processes)");
  sub->add_option("--server", f->server,
                  "a running server (http://HOST:PORT): create the tournament there and follow it");
  sub->add_option("--token", f->token, "with --server: a bot token the server knows");
  sub->add_option("--token-file", f->token_file,
                  "with --server: a file holding the token (default: $ARENA_TOKEN_FILE)");
  sub->add_option("--port", f->port, "local server's port (default: a free one)")
      ->check(CLI::Range(0, 65535));
  add_gdl_sheet_flags(sub, f->sheets);
  sub->callback([f, &action] { action = [f] { return run(*f); }; });
}

}  // namespace arena::cli
