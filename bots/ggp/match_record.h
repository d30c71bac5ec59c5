#pragma once
// A played match written as ggp-base's match JSON (the record its GameServer and Tiltyard
// keep): matchId, startTime, startClock, playClock, gameRoleNames, playerNamesFromHost, moves
// (per step, one KIF move per role), states (the initial state and the state after each step,
// each the set of its fluents in KIF), stateTimes, errors (per step and role, "" for a move
// of the player's own), goalValues, isCompleted, isAborted. Arena adds moveSeconds (per step
// and role, the seconds each answer took) and reasoner; readers of ggp-base's format ignore
// fields they do not know.

#include <string>

#include "bots/ggp/game_manager.h"

namespace arena::ggp {

// `players`: the players' URLs in role order (playerNamesFromHost).
std::string match_record_json(const MatchResult& result, const std::vector<std::string>& players);

}  // namespace arena::ggp
