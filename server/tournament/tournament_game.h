#pragma once
// A tournament's game as the tournament director (director.h) asks the hub to start it, and the
// rules the game's room (server/rooms/game_rooms.h) plays it by. Plain values.

#include <cstdint>
#include <string>

#include "db/store.h"

namespace arena::server {

// The rules of a tournament game (set by the tournament director).
struct TournamentRules {
  int max_plies = 0;  // > 0: adjudicated a draw after this many plies
  bool illegal_move_loses = true;
  bool substitute_on_error = false;  // research mode: a random move instead of a loss
  std::uint64_t seed = 0;
};

struct TournamentGame {
  std::int64_t tournament = 0;
  db::PlayerId first = 0, second = 0;
  std::string kind, options, start_position, time_control;
  std::uint64_t seed = 0;
  TournamentRules rules;
};

}  // namespace arena::server
