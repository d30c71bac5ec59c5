#include "league/server_league.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>
#include <vector>

#include "bots/client/http_request.h"
#include "bots/client/search_player.h"
#include "db/sqlite_store.h"
#include "db/tournament_reader.h"
#include "league/child_process.h"
#include "league/league_presets.h"
#include "league/resume_check.h"

namespace arena::league {
namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

constexpr int kMaxRestarts = 20;  // of the server, and of each bot

std::string tail(const std::string& path, std::size_t bytes = 600) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  const std::string text = s.str();
  return text.size() > bytes ? text.substr(text.size() - bytes) : text;
}

Expected<json> get_json(const std::string& url, const std::string& target) {
  auto r = client::http_request(url, "GET", target);
  if (!r) return make_error(r.error());
  if (r->status != 200)
    return make_error("GET " + target + ": HTTP " + std::to_string(r->status) + " " + r->body);
  json j = json::parse(r->body, nullptr, false);
  if (j.is_discarded()) return make_error("GET " + target + ": not JSON");
  return j;
}

bool healthy(const std::string& url) {
  auto r = client::http_request(url, "GET", "/healthz", "", "", std::chrono::seconds(2));
  return r && r->status == 200;
}

// The processes of a local league: the server and a bot per player, restarted when they die.
struct Local {
  std::string self;  // the arena executable
  std::string db, logs, url;
  unsigned short port = 0;
  std::vector<std::string> sheet_args;
  ChildProcess server;
  struct Bot {
    std::vector<std::string> argv;
    std::string token, log;
    ChildProcess process;
    int restarts = 0;
  };
  std::vector<Bot> bots;
  int server_restarts = 0;

  std::vector<std::string> server_argv() const {
    std::vector<std::string> argv{
        self,   "serve", "--host",    "127.0.0.1", "--port", std::to_string(port),
        "--db", db,      "--threads", "2"};
    argv.insert(argv.end(), sheet_args.begin(), sheet_args.end());
    return argv;
  }

  Expected<void> start_server() {
    auto p = ChildProcess::spawn(server_argv(), logs + "/server.log");
    if (!p) return make_error(p.error());
    server = std::move(*p);
    const auto deadline = Clock::now() + std::chrono::seconds(60);
    while (Clock::now() < deadline) {
      if (healthy(url)) return {};
      if (auto code = server.poll())
        return make_error("the server exited (" + std::to_string(*code) +
                          ") at its start: " + tail(logs + "/server.log"));
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return make_error("the server did not answer /healthz within 60 s: " +
                      tail(logs + "/server.log"));
  }

  Expected<void> start_bot(Bot& b) {
    auto p = ChildProcess::spawn(b.argv, b.log, {{"ARENA_TOKEN", b.token}});
    if (!p) return make_error(p.error());
    b.process = std::move(*p);
    return {};
  }

  // Restarts what died; an error when something keeps dying.
  Expected<void> keep_alive() {
    if (auto code = server.poll()) {
      if (++server_restarts > kMaxRestarts)
        return make_error("the server keeps exiting: " + tail(logs + "/server.log"));
      std::fprintf(stderr,
                   "\narena league: the server exited (%d); starting it again, the "
                   "tournament continues\n",
                   *code);
      if (auto r = start_server(); !r) return r;
    }
    for (auto& b : bots)
      if (auto code = b.process.poll()) {
        if (++b.restarts > kMaxRestarts)
          return make_error("bot " + b.argv.back() + " keeps exiting: " + tail(b.log));
        std::fprintf(stderr, "\narena league: a bot exited (%d, log %s); starting it again\n",
                     *code, b.log.c_str());
        if (auto r = start_bot(b); !r) return r;
      }
    return {};
  }

  void stop_all() {
    for (auto& b : bots) b.process.terminate(std::chrono::seconds(10));
    server.terminate(std::chrono::seconds(30));
  }
};

// Tokens for every player (the server stores only their hashes), created before the server
// starts so that it is the only writer of the file while it runs.
Expected<std::vector<std::string>> make_tokens(const tournament::LeagueConfig& config,
                                               const std::string& db) {
  auto store = db::open_sqlite_store(db);
  if (!store) return make_error(store.error());
  std::vector<std::string> tokens;
  for (const auto& e : config.players) {
    auto t = (*store)->create_bot_token(e.name);
    if (!t) return make_error("token for '" + e.name + "': " + t.error());
    tokens.push_back(*t);
  }
  (*store)->flush();
  return tokens;
}

// Run again, the league continues its unfinished tournament of the same name on the server:
// only with the bots that played its finished games (league/resume_check.h). Each bot names its
// engine in its hello as `arena bot` does (client::engine_of), which the server records.
Expected<void> check_resume(const tournament::LeagueConfig& config, const std::string& db) {
  auto reader = db::TournamentReader::open(db);
  if (!reader) return make_error(reader.error());
  auto existing = reader->unfinished_named(config.name);
  if (!existing) return make_error(existing.error());
  if (!*existing) return {};
  std::vector<PlayerBot> bots;
  for (const auto& e : config.players) {
    // A GGP seat ("ggp:URL") too: its search is the spec and it has no parameters.
    const protocol::Engine engine = client::engine_of(config.game, e.spec);
    bots.push_back({e.name, engine.search, engine.parameters});
  }
  return check_resumed_players(*reader, **existing, config.name, bots);
}

Expected<ServerLeagueRun> follow(const tournament::LeagueConfig& config,
                                 const ServerLeagueOptions& o, const std::string& url,
                                 const std::string& token, Local* local) {
  const auto started = Clock::now();
  auto created = client::http_request(url, "POST", "/api/tournaments",
                                      tournament::to_json_text(config), token);
  if (!created) return make_error(created.error());
  json reply = json::parse(created->body, nullptr, false);
  if (created->status != 200 && created->status != 201)
    return make_error("the server refused the tournament: " +
                      (reply.is_object() && reply.contains("error")
                           ? reply["error"].get<std::string>()
                           : "HTTP " + std::to_string(created->status)));
  ServerLeagueRun run;
  run.tournament = reply.value("id", std::int64_t{0});
  run.resumed = reply.value("resumed", false);
  run.url = url;
  const std::string target = "/api/tournaments/" + std::to_string(run.tournament);
  int played_at_start = -1;
  for (;;) {
    if (local != nullptr)
      if (auto alive = local->keep_alive(); !alive) return make_error(alive.error());
    auto state = get_json(url, target);
    if (state) {
      const int played = state->value("games_played", 0);
      if (played_at_start < 0) played_at_start = played;
      run.games_played = played - played_at_start;
      run.final_state = *state;
      if (o.progress) {
        LeagueProgress p;
        p.done = played;
        p.running = state->value("games_live", 0);
        p.total = state->value("games_total", 0);
        p.done_now = run.games_played;
        p.elapsed_s = std::chrono::duration<double>(Clock::now() - started).count();
        o.progress(p);
      }
      if (state->value("status", "") == "finished") {
        run.finished = true;
        break;
      }
    } else if (local == nullptr && !healthy(url)) {
      std::fprintf(stderr, "\narena league: %s does not answer; waiting for it\n", url.c_str());
    }
    if (o.stop != nullptr && o.stop->load()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  run.wall_s = std::chrono::duration<double>(Clock::now() - started).count();
  return run;
}

}  // namespace

Expected<ServerLeagueRun> run_league_on_server(const tournament::LeagueConfig& given,
                                               const ServerLeagueOptions& o) {
  if (auto v = tournament::validate(given); !v) return make_error(v.error());
  if (!o.server.empty()) {
    if (o.token.empty())
      return make_error("--server needs a bot token (--token, --token-file or ARENA_TOKEN_FILE)");
    return follow(given, o, o.server, o.token, nullptr);
  }
  tournament::LeagueConfig config = given;
  if (auto r = resolve_entrants(config); !r) return make_error(r.error());
  auto tokens = make_tokens(config, o.db);
  if (!tokens) return make_error(tokens.error());
  if (auto same = check_resume(config, o.db); !same) return make_error(same.error());
  Local local;
  local.self = o.arena_binary.empty() ? self_executable() : o.arena_binary;
  local.db = o.db;
  local.sheet_args = o.sheet_args;
  local.logs = o.db + ".logs";
  std::error_code ec;
  std::filesystem::create_directories(local.logs, ec);
  if (ec) return make_error("cannot create " + local.logs + ": " + ec.message());
  if (o.port != 0) {
    local.port = o.port;
  } else {
    auto port = free_loopback_port();
    if (!port) return make_error(port.error());
    local.port = *port;
  }
  local.url = "http://127.0.0.1:" + std::to_string(local.port);
  if (auto r = local.start_server(); !r) return make_error(r.error());
  const std::string ws = "ws://127.0.0.1:" + std::to_string(local.port) + "/ws";
  for (std::size_t i = 0; i < config.players.size(); ++i) {
    const auto& e = config.players[i];
    Local::Bot b;
    b.argv = {local.self, "bot", "--server", ws, "--threads", "1"};
    if (!e.preset.empty()) {
      b.argv.insert(b.argv.end(), {"--preset", e.preset});
    } else if (e.spec.starts_with("ggp:")) {  // a GGP player by URL (bots/ggp/ggp_seat.h)
      b.argv.insert(b.argv.end(), {"--game", config.game, "--ggp", e.spec.substr(4)});
    } else {
      b.argv.insert(b.argv.end(), {"--game", config.game, "--search", e.spec});
    }
    b.argv.insert(b.argv.end(), {"--name", e.name});
    b.argv.insert(b.argv.end(), o.sheet_args.begin(), o.sheet_args.end());
    b.token = (*tokens)[i];
    b.log = local.logs + "/bot-" + std::to_string(i) + ".log";
    local.bots.push_back(std::move(b));
  }
  for (auto& b : local.bots)
    if (auto r = local.start_bot(b); !r) {
      local.stop_all();
      return make_error(r.error());
    }
  auto run = follow(config, o, local.url, tokens->front(), &local);
  if (run) run->server_restarts = local.server_restarts;
  local.stop_all();
  return run;
}

}  // namespace arena::league
