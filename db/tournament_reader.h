#pragma once
// Reads a tournament's state back from the SQLite store file: the tournament row, its pairings
// with the result of each pairing's game, and the search info of its moves. The Store interface
// (db/store.h) writes this state; these reads need the pairing ids and per-tournament joins it
// does not offer, so they use their own read-only connection (WAL lets them run beside the
// store's writer). Call Store::flush() first to see every queued write.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "db/sqlite_db.h"
#include "db/store.h"
#include "games/core/expected.h"

namespace arena::db {

struct TournamentInfo {
  std::int64_t id = 0;
  std::string name, kind, format, options, time_control;
  bool finished = false;
  std::string config{};  // the league config (JSON) it was made from; "" before schema 2
};

struct PairingRow {
  std::int64_t id = 0;
  int round = 0;
  db::PlayerId first = 0, second = 0;
  db::GameId game = 0;  // 0 = not started
  std::string result;   // "" while not started or live; "*" aborted
  std::uint64_t seed = 0;
  std::string note{};  // the game's note (GameEnd::note): the rules ended it by their own fault
};

// What a player's bot was in a tournament's games (a row of bot_versions).
struct PlayedVersion {
  std::string player;  // its name
  std::string search, parameters_hash;
};

struct PlayerMoveStats {
  db::PlayerId player = 0;
  int moves = 0;
  double depth_sum = 0, nodes_sum = 0, time_ms_sum = 0;
};

class TournamentReader {
 public:
  static Expected<TournamentReader> open(const std::string& db_path);

  Expected<std::vector<TournamentInfo>> tournaments();
  Expected<TournamentInfo> tournament(std::int64_t id);
  // The newest unfinished tournament called `name`, if any.
  Expected<std::optional<std::int64_t>> unfinished_named(const std::string& name);
  Expected<std::vector<PairingRow>> pairings(std::int64_t tournament);
  Expected<std::string> player_name(db::PlayerId id);
  // The distinct bot versions (Store::register_bot_version) of this tournament's finished games
  // (not live, not aborted), with their players' names: a player listed twice played with two
  // different specs or weights. Games stored without a version are left out.
  Expected<std::vector<PlayedVersion>> versions_played(std::int64_t tournament);
  // Each player's name with the heuristic a registered bot version of it searches with
  // (Store::register_bot_version), one pair per distinct heuristic; versions with none are left
  // out. Bots that connect to a server register none.
  Expected<std::vector<std::pair<std::string, std::string>>> bot_heuristics();
  // Per player, the search info of the moves it made in this tournament's games. Which seat
  // made each move row is stored with the row (schema 4); for a game with a row stored before
  // that, it comes from `row_seats(kind, start_position, moves)`, called once per such game with
  // its rows' moves in order: the seat of each row (0 first, 1 second), as many as it can tell;
  // rows past those it returns, or of another seat, are not counted.
  using RowSeats = std::function<std::vector<int>(const std::string& kind, const std::string& start,
                                                  const std::vector<std::string>& moves)>;
  Expected<std::vector<PlayerMoveStats>> move_stats(std::int64_t tournament,
                                                    const RowSeats& row_seats);

 private:
  explicit TournamentReader(db::Connection c) : db_(std::move(c)) {}
  db::Connection db_;
};

}  // namespace arena::db
