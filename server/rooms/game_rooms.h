#pragma once
// GameRooms: the live games. Each room is a Match (server/match/match.h: the game, its clocks,
// players and event history) with its followers: the players' connections from the start and
// the spectators and resumers since. GameRooms starts rooms (an accepted seek or challenge, a
// tournament's pairing, the store's unfinished games after a restart: game_rooms_restore.cpp),
// routes moves and actions to them, fans their events out to the followers (it is their
// MatchObserver), and keeps a finished room for the reconnect grace period.
//
// Threading: any thread. The connections' strands call the on_* routes, match strands the
// MatchObserver callbacks, the director's thread and the REST API's blocking threads the
// queries, the server's sweep timer sweep(). One mutex guards the maps; it is the innermost
// lock (Presence's may be held while taking it), and it is never held while calling a Match
// or sending (both only post).

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <boost/asio/any_io_executor.hpp>

#include "db/store.h"
#include "server/core/connection.h"
#include "server/core/hub_config.h"
#include "server/match/match.h"
#include "server/presence/presence.h"

namespace arena::server {

// The rules of a tournament game (set by the tournament director, server/tournament/director.h).
struct TournamentRules {
  int max_plies = 0;  // > 0: adjudicated a draw after this many plies
  bool illegal_move_loses = true;
  bool substitute_on_error = false;  // research mode: a random move instead of a loss
  std::uint64_t seed = 0;
};

// Finished games kept in memory (for late resumes and resends) at most, and for at most the
// reconnect grace period; after that only the store (the REST API) has them.
inline constexpr std::size_t kFinishedKept = 2000;

class GameRooms final : public MatchObserver, public std::enable_shared_from_this<GameRooms> {
 public:
  GameRooms(boost::asio::any_io_executor executor, HubConfig config, db::Store& store,
            std::shared_ptr<const TimeSource> time, std::shared_ptr<Presence> presence);

  // Called when a game begins or ends (the lobby lists live games), and when a game's end is
  // durable (the tournament link). Set once, before any game starts.
  void set_listeners(std::function<void()> changed, std::function<void(db::GameId)> finished);

  // `players` in seat order (the seeker or challenger first), after an accepted offer: the
  // game's row is recorded through the store's queue, then the room begins. An error goes to c.
  void start_match(const std::vector<protocol::PlayerInfo>& players, const std::string& game,
                   const std::string& options, const std::string& time_control,
                   const std::shared_ptr<Connection>& c, std::string_view ref);
  std::shared_ptr<Match> make_match(std::int64_t id, std::vector<protocol::PlayerInfo> players,
                                    std::unique_ptr<AnyGame> game, const std::string& options,
                                    const TimeControl& tc,
                                    const std::optional<TournamentRules>& rules = std::nullopt);
  // Registers a new match as live, subscribes its players' connections, and starts it.
  void begin_match(const std::shared_ptr<Match>& match);
  // Reloads the store's unfinished games of two or more seats, except those `replays_game`
  // names (a running tournament plays them again); returns how many. Before clients connect.
  int restore_unfinished(const std::function<bool(db::GameId)>& replays_game);

  void on_move(const std::shared_ptr<Connection>& c, protocol::MoveRequest m);
  void on_action(const std::shared_ptr<Connection>& c, const protocol::GameAction& m);
  // watch (a spectator) or resume (as_player: a seat's player): the history since `since`,
  // then every later event.
  void on_watch(const std::shared_ptr<Connection>& c, std::int64_t game_id, std::int64_t since,
                bool as_player);
  void on_unwatch(const std::shared_ptr<Connection>& c, const protocol::Unwatch& m);

  // The live games where player `id` has a seat, with that seat.
  std::vector<std::pair<std::shared_ptr<Match>, int>> seats_of(std::int64_t player_id);
  std::shared_ptr<Match> find_match(std::int64_t game_id);
  // Before a state goes out: each player of the game following it measures the turn's round
  // trip (Connection::probe_turn; lag compensation).
  void probe_players(std::int64_t game_id);
  // At most `limit` (the lobby lists a few; the REST API all).
  std::vector<protocol::GameSummary> live_games(const std::string& kind,
                                                std::size_t limit = SIZE_MAX);
  std::size_t live_count();
  bool is_live(db::GameId id);
  std::uint64_t moves_total() const { return moves_total_.load(); }
  double moves_per_second();
  // Measures moves per second since the last sweep and drops the finished games older than
  // the reconnect grace period (called every second by the server, or by tests).
  void sweep(std::int64_t now_ms);
  // After the I/O threads have stopped: drops every match and follower.
  void release();

  void on_match_event(std::int64_t game_id, const Text& event) override;
  // Counts the turn's moves (moves_total) and sends its state: to a mover's connection of
  // protocol version 3 with the move's client_id (its acknowledgement), to one of version 1 or
  // 2 after a move_ack, to every other follower as it is.
  void on_turn_event(std::int64_t game_id, const Text& state, const std::vector<MoveAck>& acks,
                     std::size_t moves) override;
  void on_match_finished(std::int64_t game_id) override;

 private:
  using Conns = Presence::Conns;
  // The match `game_id` and the seat of `c`'s player, or an error sent to c.
  std::pair<std::shared_ptr<Match>, int> seat_of(const std::shared_ptr<Connection>& c,
                                                 std::int64_t game_id, std::string_view ref);
  // The open connections that follow game `game_id`, or nullopt if it is not in memory.
  std::optional<std::vector<std::shared_ptr<Connection>>> followers(std::int64_t game_id);
  // One stored unfinished game as a match replayed up to its last move, or null if it is not
  // resumed (stderr says why when its moves do not replay).
  std::shared_ptr<Match> restore(const db::GameDetail& detail, std::int64_t restart_ms);

  boost::asio::any_io_executor executor_;
  HubConfig config_;
  db::Store& store_;
  std::shared_ptr<const TimeSource> time_;
  std::shared_ptr<Presence> presence_;
  std::function<void()> changed_;
  std::function<void(db::GameId)> finished_listener_;

  std::mutex mutex_;
  std::map<std::int64_t, std::shared_ptr<Match>> matches_;  // live, and recently finished
  std::set<std::int64_t> live_;
  std::deque<std::pair<std::int64_t, std::int64_t>> finished_;  // (when, game id), oldest first
  std::map<std::int64_t, Conns> watchers_;
  std::atomic<std::uint64_t> moves_total_{0};  // moves recorded; outside mutex_ (on_turn_event)
  std::uint64_t moves_at_last_sweep_ = 0;
  std::int64_t last_sweep_ms_ = -1;
  double moves_per_second_ = 0;
};

}  // namespace arena::server
