#pragma once
// Presence: who is online, which the lobby shows and the game rooms and the tournament link
// use (to find a player's connections). The open connections of each logged-in player
// (a player may have several: tabs, replicas of one bot), and the guests: a guest's session
// token -> its player, its stored name ("guest:<hash>") -> the name it shows.
//
// Threading: called from any thread: the connections' strands (hello, close, challenges), the
// lobby timer's strand, match strands (a game's followers), the director's thread
// (online_counts) and the REST API's blocking threads. One mutex guards everything here; it is
// never held while calling a Match. Lock order: the hub's, then this one, then the Lobby's,
// then GameRooms' (add, remove and with_connections_of run their callback under this lock, and
// that callback may take the Lobby's or GameRooms' lock; neither ever calls back in here).

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "games/core/expected.h"
#include "protocol/messages.h"
#include "server/core/connection.h"

namespace arena::server {

class Presence {
 public:
  using Conns = std::vector<std::weak_ptr<Connection>>;

  // Lists `c` (its hello done, c->player set) under its player. `before_listed` runs first,
  // under the lock: what it sends reaches `c` before anything sent to the player's connections
  // once `c` is among them. Returns whether `c` is the player's only open connection.
  bool add(const std::shared_ptr<Connection>& c, const std::function<void()>& before_listed);
  // Unlists `c`. If it was its player's last connection, runs `last_left` under the lock (so
  // the player cannot log in again meanwhile) and returns true.
  bool remove(const std::shared_ptr<Connection>& c, const std::function<void()>& last_left);
  // Runs `f` under the lock with every listed connection of `players`: a connection listed
  // later is not in them, and `add` runs its `before_listed` after `f`.
  void with_connections_of(const std::vector<protocol::PlayerInfo>& players,
                           const std::function<void(const Conns&)>& f);

  void send_to_player(std::int64_t player_id, const Text& text);
  // A player online by name (the last one listed of that name), or nullopt.
  std::optional<protocol::PlayerInfo> find_by_name(const std::string& name);
  // Player `id` as its first open connection has it, or nullopt if it has none.
  std::optional<protocol::PlayerInfo> online(std::int64_t id);
  std::vector<protocol::PlayerInfo> online_players(std::size_t limit = SIZE_MAX);
  std::int64_t players_online();
  // How many open connections each logged-in player has now.
  std::map<std::int64_t, int> online_counts();
  // The lobby's round robin: up to `batch` open connections that have not seen `version`,
  // from the player after `cursor` around to it; each is marked as having seen it, and
  // `cursor` ends at the last one's player.
  std::vector<std::shared_ptr<Connection>> behind(std::uint64_t version, std::size_t batch,
                                                  std::int64_t& cursor);

  // The guest of a session token, if one said hello with it since the start.
  std::optional<protocol::PlayerInfo> guest(const std::string& token);
  void remember_guest(const std::string& token, const std::string& stored_name,
                      const protocol::PlayerInfo& player);
  // The bot version a player's hello last named (hello.engine, db::Store::register_bot_version),
  // recorded with the games it starts afterwards; 0 if none did since the start.
  void set_bot_version(std::int64_t player_id, std::int64_t version);
  std::int64_t bot_version(std::int64_t player_id);
  // The name to show for a stored name (see Hub::display_name).
  std::string display_name(const std::string& stored_name);
  // Guest `c` (on its strand) is shown as `name` from now on (set_name): its connection, its
  // session (a resume finds it so named) and its stored name. The error says why not: `name`
  // (compared with ASCII case folded) is another player's, online or a guest seen since the
  // start. Other open connections of the same guest keep the old name until they reconnect.
  Expected<void> rename_guest(const std::shared_ptr<Connection>& c, const std::string& name);
  // Forgets the guests of `player_ids` (their rows were purged: Store::purge_guests_async), unless
  // online; returns how many it forgot.
  std::size_t forget_guests(const std::vector<std::int64_t>& player_ids);
  // After the I/O threads stopped: forgets every connection.
  void clear();

 private:
  std::mutex mutex_;
  std::map<std::int64_t, Conns> player_conns_;
  std::map<std::string, protocol::PlayerInfo> guests_;  // session token -> guest
  std::map<std::string, std::string> guest_names_;      // stored name -> display name
  std::map<std::int64_t, std::int64_t> bot_versions_;   // player -> its hello's bot version
};

}  // namespace arena::server
