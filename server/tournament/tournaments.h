#pragma once
// Tournaments: the hub's link to the tournament director (director.h). It holds the hooks the
// director sets (which stored games it replays, who to tell when a game ends or a player
// arrives, the REST API's create and status) and starts the games the director pairs between
// connected players, as an accepted challenge's would begin (no seek, no challenge).
//
// Threading: the hooks are set once before clients connect and only read after. start_game,
// online_counts and is_live run on the director's thread; the notifications on the threads
// where games end (match strands) and players arrive (connection strands). No lock of its own:
// it takes Presence's, then GameRooms', one at a time.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "db/store.h"
#include "protocol/rest.h"
#include "server/core/hub_config.h"
#include "server/presence/presence.h"
#include "server/rooms/game_rooms.h"

namespace arena::server {

// A game the director asks the hub to start, between two connected players.
struct TournamentGame {
  std::int64_t tournament = 0;
  db::PlayerId first = 0, second = 0;
  std::string kind, options, start_position, time_control;
  std::uint64_t seed = 0;
  TournamentRules rules;
};

// How the hub reaches the tournament director without depending on it. Every hook may be empty.
struct TournamentHooks {
  // Whether an unfinished stored game belongs to a running tournament, which then plays its
  // pairing again from the same start instead of resuming it after a restart (a bot's clock
  // would run while it reconnects).
  std::function<bool(db::GameId)> replays_game;
  std::function<void(db::GameId)> game_finished;  // a live game ended (its end is durable)
  std::function<void()> player_arrived;           // someone logged in
  // POST /api/tournaments: the league config as JSON in, the tournament's id (and whether an
  // unfinished one of that name was resumed) or an error naming the problem out.
  std::function<Expected<std::pair<std::int64_t, bool>>(const std::string& json)> create;
  // Live state of a running tournament for /api/tournaments/ID: running games, players awaited.
  std::function<std::optional<protocol::ApiDirectorStatus>(std::int64_t id)> status;
};

class Tournaments {
 public:
  Tournaments(HubConfig config, db::Store& store, std::shared_ptr<Presence> presence,
              std::shared_ptr<GameRooms> rooms);

  void set_hooks(TournamentHooks hooks) { hooks_ = std::move(hooks); }
  const TournamentHooks& hooks() const { return hooks_; }

  // Starts a game between two players, whoever is connected (their connections follow it from
  // the start, as after an accepted challenge); the error names what was wrong.
  Expected<db::GameId> start_game(const TournamentGame& game);
  // Whether a running tournament plays stored game `id` again instead of resuming it.
  bool replays_game(db::GameId id) const { return hooks_.replays_game && hooks_.replays_game(id); }
  void game_finished(db::GameId id) const {
    if (hooks_.game_finished) hooks_.game_finished(id);
  }
  void player_arrived() const {
    if (hooks_.player_arrived) hooks_.player_arrived();
  }

 private:
  HubConfig config_;
  db::Store& store_;
  std::shared_ptr<Presence> presence_;
  std::shared_ptr<GameRooms> rooms_;
  TournamentHooks hooks_;
};

}  // namespace arena::server
