#pragma once
// The fuzzy goal heuristic of a machine's rules, built once per process. Grounding a large
// sheet takes seconds (up to ground.h's time limit when it refuses), and a player that starts
// a new game of the same machine, or many players over one shared machine (a ladder, a bot's
// games of one sheet), would otherwise ground it again at every start.

#include <chrono>
#include <memory>
#include <optional>

#include "bots/eval/gdl_fuzzy.h"
#include "games/gdl/prover/state_machine.h"

namespace arena::eval {

// FuzzyGoalHeuristic::from_description(machine's description, machine's pool, params), built at
// the first call for that description, pool and params and then shared: every later call
// returns the same heuristic, or the same error, without grounding again. The heuristic is
// read-only; evaluate with a copy of it (its scratch is then the copy's own). An entry goes
// when its description or pool does. Thread-safe; callers asking for one entry at once wait
// for one build.
//
// With a `deadline` (a player on GGP's start clock) the answer comes by then: the grounding is
// given only the time left, and a caller that finds a build under way waits for it only until
// the deadline. A build cut short by a deadline is not kept, so a later caller with more time
// builds it again; either way the error says the heuristic was not built in time.
Expected<std::shared_ptr<const FuzzyGoalHeuristic>> shared_fuzzy_goal_heuristic(
    const gdl::StateMachine& machine, const FuzzyGoalParams& params,
    std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt);

}  // namespace arena::eval
