#pragma once
// HubQueries: what the REST API (server/api) and the transport (server/net) read of the hub,
// without the hub's header: the configuration, the store, the live games and who is online,
// the hub's figures, and the tournament director's create and status. Hub implements it.
//
// Threading: every call may come from any thread (the REST API runs on the server's blocking
// threads); each reads the owners' state under their own locks.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "db/store.h"
#include "games/core/expected.h"
#include "protocol/messages.h"
#include "protocol/rest.h"
#include "server/core/hub_config.h"
#include "server/match/match.h"

namespace arena::server {

struct HubMetrics {
  std::size_t connections = 0, live_games = 0, puzzles = 0;
  std::uint64_t moves_total = 0;
  double moves_per_second = 0;  // over the last sweep interval (about a second)
  // The longest round trip measured on an open connection (Connection::measured_lag_ms), ms;
  // -1 when none is measured.
  std::int64_t max_lag_ms = -1;
};

class HubQueries {
 public:
  virtual ~HubQueries() = default;

  virtual const HubConfig& config() const = 0;
  virtual db::Store& store() = 0;
  // The live game `game_id`, or nullptr (finished past the reconnect grace, or never live).
  virtual std::shared_ptr<Match> find_match(std::int64_t game_id) = 0;
  // Every live game of `kind` ("" for all kinds).
  virtual std::vector<protocol::GameSummary> live_games(const std::string& kind) = 0;
  // Every player online now.
  virtual std::vector<protocol::PlayerInfo> online_players() = 0;
  virtual HubMetrics metrics() = 0;
  // The name to show for a name the store has: a guest is stored as "guest:<hash of the
  // session>", shown as the display name it last gave (or "guest" if it has not been seen
  // since the start); other names are shown as stored.
  virtual std::string display_name(const std::string& stored_name) = 0;

  // Whether a tournament director runs here (POST /api/tournaments creates through it).
  virtual bool runs_tournaments() const = 0;
  // A new tournament from a league config as JSON: its id and whether an unfinished one of
  // that name was resumed, or an error naming the problem. Only where runs_tournaments().
  virtual Expected<std::pair<std::int64_t, bool>> create_tournament(const std::string& json) = 0;
  // The live state of running tournament `id` (games in play, players awaited), or nullopt
  // when the director runs no tournament of that id (or there is no director).
  virtual std::optional<protocol::ApiDirectorStatus> tournament_status(std::int64_t id) = 0;
};

}  // namespace arena::server
