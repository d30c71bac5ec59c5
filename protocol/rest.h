#pragma once
// The REST API's replies (GET /api/..., POST /api/tournaments) as structs, and their JSON
// text. The server fills these and sends encode_api(...); the field names are the API's, as
// protocol/README.md lists them. Live games reuse the WebSocket protocol's GameSummary.
// Thread-safe: plain data and pure functions.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
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
  std::optional<std::string> san;  // chess: the move in SAN, as people read it
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
  // The first two seats' player ids (0: none), for links to their profiles; written when one
  // is known.
  std::vector<std::int64_t> player_ids{};
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

// GET /api/ratings/history?game=G[&player=ID]: one player's Glicko-2 rating after a rated game.
struct ApiRatingPoint {
  std::int64_t player = 0;
  std::string name;
  bool bot = false;
  std::string game;  // the game kind
  std::int64_t game_id = 0;
  double rating = 0, deviation = 0;
  std::int64_t at_ms = 0;
};

// GET /api/profile/ID: a player's ratings per game, their history, recent games, a bot's
// engine versions.
struct ApiProfile {
  std::int64_t id = 0;
  std::string name;
  bool bot = false;
  std::vector<ApiLeaderboardRow> ratings;  // `name` holds the game kind here
  std::vector<ApiRatingPoint> history;
  std::vector<ApiGame> recent;
  struct Version {
    std::int64_t id = 0;
    std::string search, heuristic, parameters;
    std::int64_t created_at_ms = 0;
    int games = 0;
  };
  std::vector<Version> versions;
};

// GET /api/stats?game=G: what the stored games of one kind say (the newest `sampled` of them).
struct ApiGameStats {
  std::string game;
  int games = 0, sampled = 0;
  int first_wins = 0, second_wins = 0, draws = 0, other = 0;  // other: aborted, many seats
  std::vector<int> lengths;  // plies of each game (all of them, not only the sampled)
  std::optional<double> mean_branching;  // legal moves per position, over replayed positions
  std::int64_t positions = 0;            // positions counted for it
  // Per player that sent scores with its moves: how its score foretold the end (outcome
  // determination by plies to the end) and how much it moved between its own moves (move
  // invariance: mean absolute change).
  struct Heuristic {
    std::string player, heuristic;  // heuristic: its latest bot version's, when stored
    std::vector<int> bucket_plies;  // upper bound of each bucket of plies to the end
    std::vector<double> agreement;  // per bucket: share of scores whose sign is the outcome's
    std::vector<int> samples;       // per bucket
    std::optional<double> mean_change;
    int scores = 0;
  };
  std::vector<Heuristic> heuristics;
  // The heuristic lab's stored measures (arena analyze --db; db::LabMeasuresRow): per
  // heuristic, its newest run's. Undefined measures are none (null in JSON).
  struct LabBucket {
    int min_plies = 0;
    std::optional<int> max_plies;  // none: no bound
    std::int64_t positions = 0;
    std::optional<double> sign_agreement, correlation;
  };
  struct LabHeuristic {
    std::string heuristic, source, parameters;  // parameters: JSON text as recorded
    std::int64_t run = 0, measured_at_ms = 0;
    int games = 0;
    std::int64_t positions = 0, moves = 0;
    // Move invariance's figures by name (spread, mean_change, ..., unchanged), in order.
    std::vector<std::pair<std::string, std::optional<double>>> move_invariance;
    std::optional<double> sign_agreement, correlation;  // over all positions
    std::vector<LabBucket> outcome;
  };
  std::vector<LabHeuristic> lab;
  std::string missing;  // what the store does not hold
};

// GET /api/tournaments/ID/games: one pairing and its game.
struct ApiTournamentGame {
  int round = 0;
  std::int64_t game_id = 0;  // 0: not played yet
  std::vector<std::string> players;
  std::vector<std::int64_t> player_ids;
  std::string result;
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
std::string encode_api(const std::vector<ApiRatingPoint>& history);
std::string encode_api(const ApiProfile& profile);
std::string encode_api(const ApiGameStats& stats);
std::string encode_api(const std::vector<ApiTournamentGame>& games);
// A tournament's stored report (tournament/report's JSON) with the director's status added.
std::string encode_api(nlohmann::json tournament, const std::optional<ApiDirectorStatus>& status);

}  // namespace arena::protocol
