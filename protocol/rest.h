#pragma once
// The REST API's replies (GET /api/..., POST /api/tournaments) as structs, and their JSON
// text. The server fills these and sends encode_api(...); the field names are the API's, as
// protocol/README.md lists them. Live games reuse the WebSocket protocol's GameSummary.
// Thread-safe: plain data and pure functions.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "protocol/messages.h"

namespace arena::protocol {

// {"error": message}: every REST error.
struct ApiError {
  std::string message;
};

// What the engine said about a stored move (when it said anything): depth, nodes and pv when
// it reported a search, the score when it gave one.
struct ApiMoveInfo {
  std::optional<int> depth;
  std::optional<std::int64_t> nodes;
  std::optional<std::string> pv;
  std::optional<int> score;
};

// One stored move of a game's detail; turn and position are there when the rows replay with
// the rules library, seat when the row stored it or the rows replay.
struct ApiMove {
  int ply = 0;
  std::string move;
  std::int64_t time_used_ms = 0;
  std::optional<int> seat, turn;
  std::optional<std::string> position;
  std::optional<std::int64_t> clock_left_ms;
  std::optional<ApiMoveInfo> info;
};

// The detail of one stored game (GET /api/games/ID), beyond its summary.
struct ApiGameDetail {
  std::string start_position, final_position;
  std::vector<ApiMove> moves;
  std::optional<BoardLayout> board;
};

// A stored game (GET /api/games and, with its detail, /api/games/ID).
struct ApiGame {
  std::int64_t id = 0;
  std::string game, options, time_control;
  std::vector<std::string> players;  // display names, one per seat
  std::vector<int> scores;           // empty: null
  std::string result, reason;
  std::string note;  // game_end's note, stored; empty: absent from the JSON
  std::int64_t started_at_ms = 0, ended_at_ms = 0, plies = 0;
  bool live = false;
  std::optional<ApiGameDetail> detail;
};

// GET /api/games: the live games (as the lobby lists them), then the stored ones.
struct ApiGameList {
  std::vector<GameSummary> live;
  std::vector<ApiGame> stored;
};

// GET /api/catalog: one game or GDL sheet.
struct ApiCatalogEntry {
  std::string name, title;
  int players = 0;
  std::string options_help;
  bool gdl = false;     // written only when true
  std::string refused;  // a GDL sheet the reader refuses: its reason; written only when set
};

// GET /api/leaderboard?game=G: one row.
struct ApiLeaderboardRow {
  std::int64_t player = 0;
  std::string name;
  bool bot = false;
  double rating = 0, deviation = 0;
  int games = 0, wins = 0, losses = 0, draws = 0;
};

// POST /api/tournaments: the tournament made (or the one with that name resumed).
struct ApiCreated {
  std::int64_t id = 0;
  bool resumed = false;
};

// A tournament the server is running (GET /api/tournaments/ID's "director").
struct ApiDirectorStatus {
  std::vector<std::int64_t> running;    // its games in play
  std::vector<std::string> waiting_for;  // its players not connected
};

nlohmann::json to_json(const ApiGame& g);
nlohmann::json to_json(const ApiDirectorStatus& s);

// The reply bodies: JSON indented by two spaces, invalid UTF-8 replaced.
std::string encode_api(const ApiError& e);
std::string encode_api(const ApiGame& g);
std::string encode_api(const ApiGameList& list);
std::string encode_api(const std::vector<ApiCatalogEntry>& catalog);
std::string encode_api(const std::vector<ApiLeaderboardRow>& rows);
std::string encode_api(const std::vector<PlayerInfo>& players);
std::string encode_api(const ApiCreated& created);
// A tournament's stored report (tournament/report's JSON) with the director's status added.
std::string encode_api(nlohmann::json tournament, const std::optional<ApiDirectorStatus>& status);

}  // namespace arena::protocol
