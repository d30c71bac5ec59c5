#pragma once
// Store: the narrow interface through which the server records games, moves, players and
// ratings. SqliteStore (db/sqlite_store.h) is the embedded default; the interface is small
// enough that a PostgreSQL implementation could replace it.
//
// Threading: every method may be called from any thread. Writes are queued to the store's
// own writer thread; the ones that take a callback call it on the writer thread once the
// write is durable (the server posts back to its own strand). Reads are synchronous and use
// their own connection: call them off the I/O threads or accept a short wait.
//
// (This is the first sketch; the store's author owns and may extend it.)

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "games/core/expected.h"

namespace arena::db {

using GameId = std::int64_t;
using PlayerId = std::int64_t;

struct PlayerRecord {
  PlayerId id = 0;
  std::string name;
  bool is_bot = false;
};

struct NewGame {
  std::string kind;            // catalog name
  std::string options;         // key=value,...
  std::string start_position;  // serialized
  PlayerId first = 0;          // 0 for none (puzzles have one player)
  PlayerId second = 0;
  std::string time_control;    // e.g. "fischer:60000+1000", "movetime:150", "none"
  std::uint64_t seed = 0;
  std::optional<std::int64_t> tournament_id;
};

struct MoveRecord {
  GameId game = 0;
  int ply = 0;  // 0-based
  std::string move;
  std::int64_t time_used_ms = 0;
  std::int64_t clock_left_ms = -1;  // -1 = no clock
  // Search info a bot sent with the move (empty/0 if none).
  int depth = 0;
  std::int64_t nodes = 0;
  std::optional<int> score;
  std::string pv;
};

struct GameEnd {
  GameId game = 0;
  std::string result;  // "1-0", "0-1", "1/2-1/2", "*" (aborted) or "solved"
  std::string reason;  // "checkmate", "timeout", "resignation", ...
  std::string final_position;
};

using Done = std::function<void(Expected<void>)>;

struct GameFilter {
  std::string kind;        // empty = any
  PlayerId player = 0;     // 0 = any
  bool finished_only = true;
  int limit = 50;
  int offset = 0;
};

struct GameSummary {
  GameId id = 0;
  std::string kind;
  std::string options;
  std::string first_name, second_name;
  std::string result, reason;
  std::string time_control;
  std::int64_t started_at_ms = 0, ended_at_ms = 0;  // unix ms; 0 = not yet
  int plies = 0;
};

struct GameDetail {
  GameSummary summary;
  std::string start_position;
  std::string final_position;
  std::uint64_t seed = 0;
  std::vector<MoveRecord> moves;
};

struct RatingRow {
  PlayerId player = 0;
  std::string name;
  bool is_bot = false;
  double rating = 1500, deviation = 350;  // deviation: Glicko-2 RD (0 for plain Elo)
  int games = 0, wins = 0, losses = 0, draws = 0;
};

class Store {
 public:
  virtual ~Store() = default;

  virtual Expected<PlayerRecord> find_or_create_player(const std::string& name, bool is_bot) = 0;
  virtual Expected<GameId> create_game(const NewGame& game) = 0;
  // Durable when `done` is called; the server announces the move only then.
  virtual void append_move(const MoveRecord& move, Done done) = 0;
  // The result and the rating updates commit in one transaction.
  virtual void finish_game(const GameEnd& end, Done done) = 0;
  // Bots' tokens: the store keeps only a hash. Returns the new token, to be shown once.
  virtual Expected<std::string> create_bot_token(const std::string& bot_name) = 0;
  // The bot a token belongs to, or an error (unknown token).
  virtual Expected<PlayerRecord> authenticate_token(const std::string& token) = 0;

  // Reads (for the REST API, the web page, restarts); they use their own connection.
  virtual Expected<std::vector<GameSummary>> list_games(const GameFilter& filter) = 0;
  virtual Expected<GameDetail> game_detail(GameId id) = 0;
  virtual Expected<std::vector<RatingRow>> leaderboard(const std::string& kind) = 0;
  // Games with no result yet (after a crash or a shutdown), to resume or end by policy.
  virtual Expected<std::vector<GameDetail>> unfinished_games() = 0;

  // Number of writes queued and not yet durable (for /metrics).
  virtual std::size_t queue_length() const = 0;
  // Blocks until every queued write is durable.
  virtual void flush() = 0;
};

}  // namespace arena::db
