#pragma once
// TournamentHost: what the tournament director (director.h) uses of the hub, without the hub's
// header: it sets the hub's tournament hooks, asks who is connected and which games are live,
// and starts the games it pairs. Hub implements it (forwarding to Tournaments, Presence and
// GameRooms).
//
// Threading: set_tournament_hooks before clients connect; the rest on the director's thread.

#include <map>

#include "db/store.h"
#include "games/core/expected.h"
#include "server/tournament/tournaments.h"

namespace arena::server {

class TournamentHost {
 public:
  virtual ~TournamentHost() = default;
  // Set before the hub restores games and before clients connect.
  virtual void set_tournament_hooks(TournamentHooks hooks) = 0;
  // How many connections each logged-in player has now.
  virtual std::map<db::PlayerId, int> online_counts() = 0;
  virtual bool is_live(db::GameId id) = 0;
  // Starts a game between two players, whoever is connected (their connections follow it from
  // the start, as after an accepted challenge); the error names what was wrong.
  virtual Expected<db::GameId> start_tournament_game(const TournamentGame& game) = 0;
};

}  // namespace arena::server
