#pragma once
// `arena league` through a server: the tournament is created on the server (POST
// /api/tournaments), the server's tournament director plays it with the bots logged in under
// the players' names, and this process follows it until it is finished.
//
//   local (no server URL): starts `arena serve` on a free loopback port with the league's
//     database and one `arena bot` per player (its preset, or its search spec), each with a
//     fresh token for the player's name; a server or bot that dies is started again (the
//     server continues the tournament from the store, the bots reconnect); at the end the bots
//     and the server are stopped. Logs go to DB.logs/. Run again, it continues the unfinished
//     tournament of the config's name only with the bots that played it (resume_check.h).
//   remote (a server URL and a token): only creates (or resumes) and follows; the bots are the
//     server's business (docker/compose.yml).

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "games/core/expected.h"
#include "tournament/config/league_config.h"
#include "league/league_runner.h"

namespace arena::league {

struct ServerLeagueOptions {
  std::string server;  // http://HOST:PORT or ws://HOST:PORT/ws; empty: start one here
  std::string token;   // remote: a bot token the server knows
  std::string db = "arena.db";
  unsigned short port = 0;  // local server's port; 0: a free one
  // The `arena` executable started for the local server and bots; empty: this process's own.
  std::string arena_binary;
  // Flags given to the local server and to every bot, after their own: the GDL sheets of the
  // league's game when it is not in the project's folder ("--gdl-dir", DIR, "--gdl", FILE).
  std::vector<std::string> sheet_args;
  ProgressFn progress;
  const std::atomic<bool>* stop = nullptr;
};

struct ServerLeagueRun {
  std::int64_t tournament = 0;
  bool resumed = false;
  bool finished = false;
  int games_played = 0;  // in this run
  int server_restarts = 0;
  std::string url;  // the server's
  double wall_s = 0;
  nlohmann::json final_state;  // GET /api/tournaments/ID at the end
};

Expected<ServerLeagueRun> run_league_on_server(const tournament::LeagueConfig& config,
                                               const ServerLeagueOptions& options);

}  // namespace arena::league
