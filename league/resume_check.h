#pragma once
// A league run again continues its unfinished tournament (league_runner.h, server_league.h);
// it goes on only with the bots that played that tournament's finished games, so that one
// table never mixes two versions of a player (a search spec or a weights file edited between
// the runs).

#include <cstdint>
#include <string>
#include <vector>

#include "db/tournament_reader.h"
#include "games/core/expected.h"

namespace arena::league {

// A player's bot as it would play now, in the terms Store::register_bot_version records: its
// search spec and its parameters (a weights file's text).
struct PlayerBot {
  std::string name;
  std::string search, parameters;
};

// Refuses, naming the player and what changed, when one of `now` played finished games of
// `tournament` and none of them as the bot it is now. Players that have not played yet pass.
Expected<void> check_resumed_players(db::TournamentReader& reader, std::int64_t tournament,
                                     const std::string& league, const std::vector<PlayerBot>& now);

}  // namespace arena::league
