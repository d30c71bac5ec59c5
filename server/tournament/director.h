#pragma once
// TournamentDirector: the server runs tournaments. A tournament is created from a league config
// (POST /api/tournaments, or `arena league`, which posts it); its players are names, and the
// bots that log in with those names' tokens play its games: the director starts each game
// between two connected players, as many at once as the config's concurrency allows and never
// more at once for a name than that name has connections (so Docker replicas of one bot share
// its games). Each pair of games starts from the same fair start (fair_start.h) with colours
// swapped; the seed is stored with the game.
//
// Everything lives in the store: the config (as JSON) in the tournament's row, one pairing row
// per game, the pairing's game id once it starts. A server killed at any moment continues its
// tournaments when it starts again: finished games are kept, and a game that was in play is
// closed as aborted ("*", "interrupted") and its pairing played again from the same seed (not
// resumed like other games: a bot's clock would run while it reconnects).
//
// Rules per config: max_plies (then a draw, "adjudicated"); on_error "lose" (an illegal move or
// a flag fall loses) or "random-move" (research mode: a random legal move is played instead and
// recorded as "substituted: <why>"); a bot that crashes or disconnects runs out of time.
//
// Threading: create() and status() may be called from any thread; the scheduling runs on the
// director's strand (poke() posts it), so two ticks never overlap. A tick calls the store
// synchronously (pairings, the game's row, set_pairing_game), so the server gives the director
// an executor of its own (thread "arena-director"), never its I/O threads'.

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/strand.hpp>

#include "db/store.h"
#include "protocol/rest.h"
#include "server/tournament/tournament_host.h"
#include "tournament/config/league_config.h"

namespace arena::server {

class TournamentDirector : public std::enable_shared_from_this<TournamentDirector> {
 public:
  TournamentDirector(boost::asio::any_io_executor executor, db::Store& store);

  // Loads the store's unfinished tournaments that have a config. Call before attach().
  Expected<int> load();
  // Sets the hub's tournament hooks (call before the hub restores games) and starts scheduling.
  void attach(const std::shared_ptr<TournamentHost>& hub);
  // A new tournament from `config` (players are names), or the unfinished one of that name
  // (then `second` is true). Errors name the bad field.
  Expected<std::pair<std::int64_t, bool>> create(const tournament::LeagueConfig& config);
  // Schedules a look at every tournament (after a game ends, a player arrives, each second).
  void poke();
  // {"running": [game ids], "waiting_for": [names not connected]}, or nullopt if `id` is not
  // running here.
  std::optional<protocol::ApiDirectorStatus> status(std::int64_t id);

 private:
  struct Running {
    std::int64_t id = 0;
    tournament::LeagueConfig config;
    std::string kind;  // catalog name
    GameOptions options;
    std::vector<db::PlayerId> players;  // by config index
    std::map<db::PlayerId, int> index_of;
    std::vector<std::string> book;
    std::vector<db::GameId> live;  // this tournament's games in play (last tick)
  };

  Expected<Running> prepare(std::int64_t id, const tournament::LeagueConfig& config);
  Expected<void> schedule_start(Running& t);
  void tick();
  // One tournament, from its pairings read this tick: close games that are gone, start what may
  // start. False when it finished.
  bool advance(Running& t, std::vector<db::Pairing>& rows,
               const std::shared_ptr<TournamentHost>& hub,
               const std::map<db::PlayerId, int>& online, std::map<db::PlayerId, int>& busy);
  // Every pairing of `rows` is decided: the next Swiss round's pairings, or the tournament's
  // end (then false).
  bool next_round(Running& t, const std::vector<db::Pairing>& rows);
  // Starts the `pending` pairings whose players are free, up to the config's concurrency.
  void start_games(Running& t, const std::vector<db::Pairing>& rows,
                   const std::vector<std::size_t>& pending,
                   const std::shared_ptr<TournamentHost>& hub,
                   const std::map<db::PlayerId, int>& online, std::map<db::PlayerId, int>& busy);
  Expected<std::string> start_position(const Running& t, std::uint64_t seed) const;
  TournamentRules rules(const Running& t, std::uint64_t seed) const;

  boost::asio::strand<boost::asio::any_io_executor> strand_;
  db::Store& store_;
  std::weak_ptr<TournamentHost> hub_;
  std::mutex mutex_;
  std::map<std::int64_t, Running> running_;
  std::atomic<bool> tick_pending_{false};
};

}  // namespace arena::server
