#pragma once
// Hub: the server's front desk. It owns the connection bookkeeping (the open connections, the
// hello that logs one in, the rate limit) and routes every decoded client message, through one
// dispatch table, to the owner of its concern:
//   Lobby           server/lobby/lobby.h              seeks, challenges, lobby snapshots
//   GameRooms       server/rooms/game_rooms.h         the live games, their followers, restore
//   PuzzleSessions  server/puzzles/puzzle_sessions.h  single-player puzzles
//   Tournaments     server/tournament/tournaments.h   the tournament director's link
// and they share Presence (server/presence/presence.h: who is online, the guests' names).
// The layers that call it see it through narrow interfaces declared below it: the transport
// hands it client events (server/core/client_events.h), the REST API and the transport read it
// (server/core/hub_queries.h), the tournament director drives it
// (server/tournament/tournament_host.h). Those calls, the server's sweep and shutdown forward
// to the owners.
//
// Threading: on_open/on_message/on_close are called on the calling connection's strand (any
// I/O thread; the listener gives each socket its own strand). The hub's mutex guards only the
// set of open connections. Each owner has its own mutex, never held while calling a Match or
// sending (both only post); where two are held at once the order is the hub's, Presence's, the
// Lobby's, GameRooms' (the owners' headers say where), so no cycle can form.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <boost/asio/any_io_executor.hpp>

#include "db/store.h"
#include "games/core/any_game.h"
#include "protocol/codec.h"
#include "server/core/client_events.h"
#include "server/core/connection.h"
#include "server/core/hub_config.h"
#include "server/core/hub_queries.h"
#include "server/lobby/lobby.h"
#include "server/match/match.h"
#include "server/presence/presence.h"
#include "server/puzzles/puzzle_sessions.h"
#include "server/rooms/game_rooms.h"
#include "server/tournament/tournament_host.h"
#include "server/tournament/tournaments.h"

namespace arena::server {

class Hub final : public ClientEvents,
                  public HubQueries,
                  public TournamentHost,
                  public std::enable_shared_from_this<Hub> {
 public:
  Hub(boost::asio::any_io_executor executor, HubConfig config, db::Store& store,
      std::shared_ptr<const TimeSource> time);

  // Where work that may take long runs instead of an I/O thread: the puzzle solver
  // (HubConfig::optimal_length) and the first making of a GDL game for a seek or challenge
  // (Lobby). Call before clients connect; until then, the hub's executor (puzzles) or inline
  // (the lobby).
  void use_blocking_executor(boost::asio::any_io_executor blocking);
  // Where work for later that nobody waits for runs: a GDL sheet's compile after its first game
  // (Lobby). Unset, it runs on the blocking executor.
  void use_compile_executor(boost::asio::any_io_executor compile);

  // ClientEvents. A binary frame is rate-limited like any message.
  void on_open(const std::shared_ptr<Connection>& c) override;
  void on_message(const std::shared_ptr<Connection>& c, std::string_view text) override;
  void on_binary_message(const std::shared_ptr<Connection>& c) override;
  void on_close(const std::shared_ptr<Connection>& c) override;

  // Reloads the store's unfinished games of two or more seats as live matches (after a restart);
  // returns how many. Call once, before clients connect.
  int restore_unfinished();
  // Drops expired seeks and challenges, finished games past the reconnect grace, and idle or
  // long-finished puzzles (called every second by the server, or by tests).
  void sweep();
  // Closes every connection with "going away"; matches keep their durable state.
  void shutdown();
  // Closes the sockets of the connections still open after shutdown() (no handshake).
  void close_remaining();
  // After the I/O threads have stopped: drops every connection, match and timer the hub
  // holds, so that sessions (which hold the hub) and the hub are freed. Nothing runs after.
  void release();

  // HubQueries: for the REST API, the transport and tests.
  const HubConfig& config() const override { return config_; }
  db::Store& store() override { return store_; }
  std::shared_ptr<Match> find_match(std::int64_t game_id) override {
    return rooms_->find_match(game_id);
  }
  std::vector<protocol::GameSummary> live_games(const std::string& kind) override {
    return rooms_->live_games(kind, SIZE_MAX);
  }
  std::vector<protocol::PlayerInfo> online_players() override {
    return presence_->online_players(SIZE_MAX);
  }
  HubMetrics metrics() override;
  std::string display_name(const std::string& stored_name) override {
    return presence_->display_name(stored_name);
  }
  bool runs_tournaments() const override { return static_cast<bool>(tournaments_->hooks().create); }
  Expected<std::pair<std::int64_t, bool>> create_tournament(const std::string& json) override;
  std::optional<protocol::ApiDirectorStatus> tournament_status(std::int64_t id) override;

  // TournamentHost. Set the hooks before restore_unfinished() and before clients connect.
  void set_tournament_hooks(TournamentHooks hooks) override {
    tournaments_->set_hooks(std::move(hooks));
  }
  std::map<db::PlayerId, int> online_counts() override { return presence_->online_counts(); }
  bool is_live(db::GameId id) override { return rooms_->is_live(id); }
  Expected<db::GameId> start_tournament_game(const TournamentGame& game) override {
    return tournaments_->start_game(game);
  }

  // Guest rows deleted by the purge since the start (HubConfig::guest_ttl_ms).
  std::uint64_t guests_purged() const { return guests_purged_.load(); }
  // Starts a guest purge now if none is running (sweep() does every guest_purge_interval_ms).
  void purge_guests();

 private:
  void dispatch(const std::shared_ptr<Connection>& c, protocol::ClientMessage message);
  void on_hello(const std::shared_ptr<Connection>& c, const protocol::Hello& m);
  // A guest chooses its name (set_name): name_set, or an error saying why not.
  void on_set_name(const std::shared_ptr<Connection>& c, const protocol::SetName& m);
  // A new guest's hello, once the store has its player (on the connection's strand).
  void guest_found(const std::shared_ptr<Connection>& c, const std::string& token,
                   const std::string& name, const Expected<db::PlayerRecord>& record);
  // A hello that named its engine: records it as the player's bot version, then welcomes.
  void register_engine(const std::shared_ptr<Connection>& c, const protocol::PlayerInfo& player,
                       const std::string& token);
  // The end of a hello: registers the connection under `player` and sends the welcome.
  void welcome(const std::shared_ptr<Connection>& c, const protocol::PlayerInfo& player,
               const std::string& token);
  // Counts a message against the connection's rate; over it, says so (naming `ref`, the
  // message's type) and returns false: the message is dropped.
  bool within_rate(const std::shared_ptr<Connection>& c, const std::string& ref);
  // Takes one new guest from `address`'s bucket (HubConfig::guest_logins_per_minute); 0 if
  // it may go on, else the ms until it may.
  std::int64_t new_guest_wait_ms(const std::string& address);
  std::set<std::shared_ptr<Connection>> open_connections();

  HubConfig config_;
  db::Store& store_;
  std::optional<boost::asio::any_io_executor> blocking_;  // use_blocking_executor's
  std::shared_ptr<const TimeSource> time_;
  std::shared_ptr<Presence> presence_;
  std::shared_ptr<GameRooms> rooms_;
  std::shared_ptr<Lobby> lobby_;
  std::shared_ptr<PuzzleSessions> puzzles_;
  std::shared_ptr<Tournaments> tournaments_;

  std::mutex mutex_;
  std::set<std::shared_ptr<Connection>> connections_;

  // New guests per address: a token bucket each (tokens, when last filled), under guest_mutex_.
  struct GuestBucket {
    double tokens = 0;
    std::int64_t at_ms = 0;
  };
  std::mutex guest_mutex_;
  std::map<std::string, GuestBucket> guest_buckets_;
  std::atomic<std::int64_t> last_purge_ms_{0};
  std::atomic<bool> purging_{false}, purge_unsupported_{false};
  std::atomic<std::uint64_t> guests_purged_{0};
};

}  // namespace arena::server
