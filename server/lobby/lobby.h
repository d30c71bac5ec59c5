#pragma once
// Lobby: seeks and challenges (an accepted one starts a game in GameRooms), and the lobby
// snapshot every client is kept up to date with: the seeks, who is online (Presence,
// server/presence/presence.h) and the live games.
//
// A seek for a game of N > 2 seats stays open until N - 1 others joined (accept); a joiner
// leaves by cancel_seek or by closing its last connection. Seeks expire after
// HubConfig::seek_ttl_ms, challenges after challenge_ttl_ms (sweep).
//
// The snapshot is coalesced: a change only marks the lobby changed; every lobby_interval_ms the
// latest snapshot goes to the next kLobbyConnectionsPerInterval connections (round robin) that
// have not seen it, so a busy server spreads its lobby over time instead of sending a thousand
// snapshots at once (bursts that would hold every move up behind them); players and live games
// are listed up to kLobbyListCap each.
//
// Threading: the on_* routes run on the calling connection's strand (a GDL game's first making
// on the blocking workers: make_elsewhere_first), changed() on any thread
// (a game beginning or ending: a match strand), the snapshot rounds on the lobby timer's own
// strand, sweep() on the server's sweep timer. One mutex guards the offers and the round's
// state; Presence's lock may be held while taking it (player_left), GameRooms' is never held
// by anyone taking it, and it is never held while sending (send only posts).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>

#include "server/core/connection.h"
#include "server/core/hub_config.h"
#include "server/presence/presence.h"
#include "server/rooms/game_rooms.h"

namespace arena::server {

inline constexpr std::int64_t kLobbyConnectionsPerInterval = 50;
inline constexpr std::size_t kLobbyListCap = 20;

class Lobby : public std::enable_shared_from_this<Lobby> {
 public:
  Lobby(boost::asio::any_io_executor executor, HubConfig config,
        std::shared_ptr<const TimeSource> time, std::shared_ptr<Presence> presence,
        std::shared_ptr<GameRooms> rooms);

  void on_seek(const std::shared_ptr<Connection>& c, const protocol::Seek& m);
  void on_cancel(const std::shared_ptr<Connection>& c, const protocol::CancelSeek& m);
  void on_challenge(const std::shared_ptr<Connection>& c, const protocol::Challenge& m);
  void on_accept(const std::shared_ptr<Connection>& c, const protocol::Accept& m);
  void on_decline(const std::shared_ptr<Connection>& c, const protocol::Decline& m);
  // A player's last connection closed (under Presence's lock): its seeks go, and it leaves
  // the seeks it joined.
  void player_left(std::int64_t player_id);

  // The lobby changed: a new snapshot goes out over the next rounds.
  void changed();
  // The lobby now (what a client gets after its welcome).
  Text snapshot();
  // Drops expired seeks and challenges; a seek gone changes the lobby.
  void sweep(std::int64_t now_ms);
  // Shutting down: no more rounds. With cancel_timer, the armed round is cancelled too.
  void stop(bool cancel_timer);
  // Where a game that may take long to make is made first (the server's blocking workers);
  // unset (the tests' hubs), every game is made inline.
  void use_blocking_executor(boost::asio::any_io_executor blocking);
  // Where a sheet compiles after its first game (the server's low-priority compile thread);
  // unset, the blocking workers.
  void use_compile_executor(boost::asio::any_io_executor compile);

 private:
  struct SeekRecord {
    std::int64_t id = 0;
    protocol::PlayerInfo owner;
    std::string game, options, time_control;
    std::int64_t created_ms = 0;
    int seats = 2;
    std::vector<protocol::PlayerInfo> joined{};
  };
  struct ChallengeRecord {
    std::int64_t id = 0;
    protocol::PlayerInfo from, to;
    std::string game, options, time_control;
    std::int64_t created_ms = 0;
  };

  // Validates game, options and time control; on failure sends the error and returns 0, else
  // the game's number of seats (2 to protocol::kMaxSeats).
  int check_offer(const std::shared_ptr<Connection>& c, const std::string& game,
                  const std::string& options, const std::string& time_control,
                  std::string_view ref);
  // A seek or challenge of a GDL game not made before: the sheet's first load can take a
  // second and its compile over 20 s, which on an I/O thread would hold up every connection it
  // serves. It is made on the blocking workers (on the sheet's prover: defer_game_compile)
  // while the connection's reading waits (its later messages keep their order); then `then`
  // runs on the connection's strand and finds it made, and the sheet compiles for the games
  // after on the compile executor (not the blocking workers: a compile there would make the
  // next sheet's first game, and HTTP requests, wait for it). False: make it here (call
  // `then`'s work directly).
  bool make_elsewhere_first(const std::shared_ptr<Connection>& c, const std::string& game,
                            const std::string& options, std::function<void()> then);
  // The offers once their game can be made at once.
  void seek(const std::shared_ptr<Connection>& c, const protocol::Seek& m);
  void challenge(const std::shared_ptr<Connection>& c, const protocol::Challenge& m);
  // An accept of a seek of more than two seats: joins it, and starts the game once full.
  void join_seek(const std::shared_ptr<Connection>& c, std::int64_t seek_id);
  // Arms the lobby timer for the next round (with mutex_ held, pending_ set).
  void arm_timer();
  // On the lobby timer's strand: one round of the round robin.
  void tick();

  boost::asio::any_io_executor executor_;
  HubConfig config_;
  std::shared_ptr<const TimeSource> time_;
  std::shared_ptr<Presence> presence_;
  std::shared_ptr<GameRooms> rooms_;
  boost::asio::steady_timer timer_;
  std::optional<boost::asio::any_io_executor> blocking_;
  std::optional<boost::asio::any_io_executor> compile_;  // use_compile_executor's

  std::mutex mutex_;
  std::map<std::int64_t, SeekRecord> seeks_;
  std::map<std::int64_t, ChallengeRecord> challenges_;
  std::int64_t next_offer_id_ = 1;
  std::set<std::string> made_elsewhere_;  // GDL games make_elsewhere_first made (canonical names)
  bool pending_ = false;       // the lobby timer is armed
  std::uint64_t version_ = 1;  // one more at every change of the lobby
  bool stopped_ = false;
  // Only on the lobby timer's strand: the player id the last round ended at, and the snapshot
  // of the lobby at built_version_.
  std::int64_t cursor_ = 0;
  Text cache_;
  std::uint64_t built_version_ = 0;
};

}  // namespace arena::server
