// arena bot: one bot on a server. A preset from the roster, an explicit search, a UCI
// engine, or a puzzle solver; it accepts challenges (and, with --accept-seeks, lobby seeks)
// for its game, seeks games itself with --seek N, plays several at once, and reconnects.
//
//   arena bot --server ws://127.0.0.1:8080 --token T --preset AB_Improved --seek 10
//   arena bot --game chess --search id --eval piece_square --movetime 200 --accept-seeks
//   arena bot --uci /usr/games/stockfish --uci-option Threads=1 --seek 1
//   arena bot --list-presets
//
// Exit status: 0 the games asked for are over (or stopped by a signal); 1 a bad preset, spec
// or engine, or a token the server refuses; 2 bad flags. Connection failures are printed as
// they change, and the bot keeps trying.

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "bots/client/bot_runner.h"
#include "bots/client/roster.h"
#include "bots/client/search_player.h"
#include "bots/ggp/ggp_seat.h"
#include "bots/uci/uci_player.h"
#include "cli/commands.h"
#include "cli/gdl_sheet_flags.h"
#include "games/catalog/catalog.h"

namespace arena::cli {
namespace {

struct BotOptions {
  std::string server = "ws://127.0.0.1:8080/ws";
  std::string token, name = "bot";
  std::string preset, game, search, eval, weights, options;
  int depth = 0;
  std::int64_t movetime = 0;
  std::uint64_t nodes = 0;
  std::string uci;
  std::vector<std::string> uci_options;
  std::string ggp;  // a GGP player's URL
  GdlSheetFlags sheets;
  std::string ack_log;
  int seek = 0, games = 0, parallel = 4, threads = 2, puzzles = 0, scramble = -1;
  std::string time_control = "none";
  bool accept_seeks = false, list_presets = false;
};

std::atomic<bool> g_interrupted{false};
extern "C" void on_bot_signal(int) {
  g_interrupted = true;
}

int list_presets() {
  std::string game;
  for (const client::Preset& p : client::presets()) {
    if (p.game != game) std::printf("%s%s:\n", game.empty() ? "" : "\n", p.game.c_str());
    game = p.game;
    std::printf("  %-26s %s\n  %-26s   spec: %s\n", p.name.c_str(), p.description.c_str(), "",
                p.spec.c_str());
  }
  return kExitOk;
}

// The search spec from --search/--eval/--depth/--movetime/--nodes/--weights.
std::string build_spec(const BotOptions& o, std::string base) {
  std::vector<std::string> items;
  if (!o.eval.empty()) items.push_back("eval=" + o.eval);
  if (o.depth > 0) items.push_back("depth=" + std::to_string(o.depth));
  if (o.movetime > 0) items.push_back("movetime=" + std::to_string(o.movetime));
  if (o.nodes > 0) items.push_back("nodes=" + std::to_string(o.nodes));
  if (!o.weights.empty()) items.push_back("weights=" + o.weights);
  bool has_items = base.find(':') != std::string::npos;
  for (const auto& item : items) {
    base += (has_items ? "," : ":") + item;
    has_items = true;
  }
  return base;
}

int bot_fail(const std::string& message) {
  std::cerr << "arena bot: " << message << "\n";
  return kExitFailure;
}

// Who plays: a UCI engine, an external GGP player, a puzzle solver or a search (a preset's or
// --search's). Sets `game` (a preset names its game) and `spec` (the search's, else empty).
Expected<void> choose_players(const BotOptions& o, client::BotRunOptions& run, std::string& game,
                              std::string& spec) {
  if (!o.uci.empty()) {
    if (!game.empty() && game != "chess")
      return make_error("--uci plays chess, not '" + game + "'");
    game = "chess";
    uci::UciOptions options;
    for (const auto& text : o.uci_options) {
      auto parsed = uci::parse_uci_option(text);
      if (!parsed) return make_error(parsed.error());
      options.push_back(*parsed);
    }
    // Start the engine once now, so a bad path or option fails here and not mid-game.
    if (auto probe = uci::UciEngine::start(o.uci, options); !probe)
      return make_error(probe.error());
    run.players = uci::uci_player_factory(o.uci, options);
    return {};
  }
  if (!o.ggp.empty()) {
    // An external GGP player plays the GDL games (bots/ggp/ggp_seat.h); leagues seat it so.
    if (!game.starts_with("gdl:")) return make_error("--ggp plays GDL games: add --game gdl:NAME");
    ggp::GgpSeatOptions options;
    options.log = [](const std::string& line) { std::cerr << line << std::endl; };
    run.players = ggp::ggp_seat_factory(o.ggp, options);
    return {};
  }
  if (!o.preset.empty()) {
    const client::Preset* p = client::find_preset(o.preset);
    if (!p) return make_error("unknown preset '" + o.preset + "' (see arena bot --list-presets)");
    // A GDL preset ("gdl") plays every gdl:NAME game; --game names the one it seeks.
    const bool gdl_game = p->game == "gdl" && is_gdl_game(game);
    if (!game.empty() && game != p->game && !gdl_game)
      return make_error("preset " + p->name + " plays " + p->game + ", not " + game);
    if (!gdl_game) game = p->game;
    spec = build_spec(o, p->spec);
  } else {
    if (game.empty())
      return make_error("give --preset NAME, or --game G with --search S, or --uci PATH");
    spec = build_spec(o, o.search.empty() ? "id" : o.search);
  }
  if (client::is_puzzle_spec(spec)) {
    auto solver = client::make_puzzle_solver(spec);
    if (!solver) return make_error(solver.error());
    // Known now, not at the first puzzle: a solver that cannot take this kind of puzzle.
    const bool sheet = game.starts_with("gdl:");
    if (sheet == spec.starts_with("idastar"))
      return make_error(sheet ? "a GDL sheet's puzzle is solved by --search bfs or best_first"
                              : "--search " + spec + " solves GDL sheets (gdl:NAME); '" + game +
                                    "' takes idastar");
    run.solver = *solver;
    if (run.config.puzzles == 0) run.config.puzzles = 1;
  } else {
    if (auto check = client::make_search_player(game, spec); !check)
      return make_error(check.error());
    run.players = client::search_player_factory(spec);
  }
  return {};
}

// Plays until the bot is done (bounded runs), interrupted or refused by the server, saying each
// new connection error once. True when the server refused it.
bool play_until_done(client::BotRunner& bot, bool bounded) {
  std::string reported;  // the connection's last error, said once each time it changes
  while (!g_interrupted && !(bounded && bot.session().wait_done(200))) {
    if (!bounded) std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const client::WsConnection& connection = bot.connection();
    if (std::string error = connection.last_error(); error != reported) {
      reported = error;
      if (!connection.refused()) std::cerr << "arena bot: " << error << " (trying again)\n";
    }
    if (connection.refused()) return true;
  }
  return false;
}

int run_bot(const BotOptions& o) {
  if (o.list_presets) return list_presets();
  if (!apply_gdl_sheet_flags(o.sheets, "bot")) return kExitFailure;
  client::BotRunOptions run;
  run.url = o.server;
  // ARENA_TOKEN keeps the token off the command line (arena league starts its bots so).
  const char* env_token = std::getenv("ARENA_TOKEN");
  run.token = o.token.empty() && env_token != nullptr ? env_token : o.token;
  run.search_threads = o.threads;
  client::BotConfig& c = run.config;
  c.name = o.name;
  c.seek_options = o.options;
  c.puzzle_options = o.options;
  c.time_control = o.time_control;
  c.seek_games = o.seek;
  c.max_games = o.games;
  c.accept_seeks = o.accept_seeks;
  c.max_parallel = o.parallel;
  c.puzzles = o.puzzles;
  c.ack_log = o.ack_log;
  std::string game = o.game, spec;
  if (auto chosen = choose_players(o, run, game, spec); !chosen) return bot_fail(chosen.error());
  // A GDL sheet's puzzle starts from its initial state unless told otherwise.
  c.scramble = o.scramble >= 0 ? o.scramble : game.starts_with("gdl:") ? 0 : 20;
  if (game == "gdl" && c.seek_games > 0)
    return bot_fail("a GDL preset seeks one sheet: add --game gdl:NAME");
  c.games = {game};
  // What it plays with, named in its hello: the server records it as the bot's version.
  protocol::Engine engine = !spec.empty()    ? client::engine_of(game, spec)
                            : !o.uci.empty() ? protocol::Engine{"uci:" + o.uci, "", ""}
                                             : protocol::Engine{"ggp:" + o.ggp, "", ""};
  if (engine.search.size() <= protocol::kMaxEngineSearchBytes &&
      engine.heuristic.size() <= protocol::kMaxEngineHeuristicBytes)
    c.engine = std::move(engine);
  else
    std::cerr << "arena bot: the spec is too long to name in the hello; the server records no "
                 "bot version for it\n";
  const bool bounded = c.seek_games > 0 || c.max_games > 0 || c.puzzles > 0;
  auto bot = client::BotRunner::start(std::move(run));
  if (!bot) return bot_fail(bot.error());
  std::signal(SIGINT, on_bot_signal);
  std::signal(SIGTERM, on_bot_signal);
  std::cerr << "arena bot: " << o.name << " playing " << game << " with "
            << (!spec.empty()   ? spec
                : o.ggp.empty() ? o.uci
                                : "the GGP player at " + o.ggp)
            << " on " << o.server << "\n";
  const bool refused = play_until_done(**bot, bounded);
  (*bot)->stop();
  if (refused) {
    std::cerr << "arena bot: " << (*bot)->connection().last_error() << "\n";
    return kExitFailure;
  }
  const client::BotStats s = (*bot)->session().stats();
  std::printf(
      "games %d: %d won, %d lost, %d drawn, %d aborted; lost on time %d; moves %d; "
      "connections %d; puzzles solved %d, failed %d\n",
      s.games_finished, s.wins, s.losses, s.draws, s.aborted, s.lost_on_time, s.moves_sent,
      s.connections, s.puzzles_solved, s.puzzles_failed);
  if (!s.last_error.empty()) std::fprintf(stderr, "last error: %s\n", s.last_error.c_str());
  return kExitOk;
}

}  // namespace

void add_bot(CLI::App& app, Action& action) {
  auto o = std::make_shared<BotOptions>();
  CLI::App* sub =
      app.add_subcommand("bot", "run a bot on a server (presets, searches, UCI engines)");
  sub->add_option("--server", o->server, "ws://HOST:PORT[/ws]")->capture_default_str();
  sub->add_option(
      "--token", o->token,
      "bot token (arena token create NAME; or the ARENA_TOKEN variable); none: a guest");
  sub->add_option("--name", o->name, "guest display name (without a token)")->capture_default_str();
  sub->add_option("--preset", o->preset, "a roster preset (see --list-presets)");
  sub->add_option("--game", o->game, "catalog game (with --search)");
  sub->add_option("--search", o->search,
                  "search: random, greedy, minimax, alphabeta, id, mcts, bestfirst, or a full "
                  "spec like alphabeta:eval=custom_score_2,depth=5");
  sub->add_option("--eval", o->eval, "heuristic name (arena eval lists them)");
  sub->add_option("--depth", o->depth, "fixed depth")->check(CLI::Range(1, 64));
  sub->add_option("--movetime", o->movetime,
                  "at most this many ms per move (the clock may lower it)");
  sub->add_option("--nodes", o->nodes, "node limit per move");
  sub->add_option("--weights", o->weights, "weights file for the heuristic");
  sub->add_option("--options", o->options, "game options of its seeks / puzzles (size=7)");
  sub->add_option("--seek", o->seek, "start this many games by seeking, then exit");
  sub->add_option("--games", o->games, "exit after this many games (0: run until stopped)");
  sub->add_option("--time-control", o->time_control,
                  "of its seeks: none, fischer:BASE+INC, movetime:MS")
      ->capture_default_str();
  sub->add_flag("--accept-seeks", o->accept_seeks, "take other players' seeks for its game");
  sub->add_option("--parallel", o->parallel, "games at once")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  sub->add_option("--threads", o->threads, "search threads")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  sub->add_option("--puzzles", o->puzzles, "puzzle sessions to solve (solver presets)");
  sub->add_option("--scramble", o->scramble,
                  "random moves that scramble each puzzle (default 20; 0 for a GDL sheet)")
      ->check(CLI::Range(0, 1000));
  sub->add_option("--uci", o->uci, "play chess with this UCI engine");
  sub->add_option("--uci-option", o->uci_options, "NAME=VALUE, sent as setoption (repeatable)");
  sub->add_option("--ggp", o->ggp, "play gdl:NAME games with the GGP player at this URL");
  add_gdl_sheet_flags(sub, o->sheets);
  sub->add_option("--ack-log", o->ack_log,
                  "append each acknowledged move to this file: GAME_ID, CLIENT_ID, MOVE (tab-separated)");
  sub->add_flag("--list-presets", o->list_presets, "print the roster of presets and exit");
  sub->callback([o, &action] { action = [o] { return run_bot(*o); }; });
}

}  // namespace arena::cli
