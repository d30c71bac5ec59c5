#pragma once
// Heuristics of any GDL game measured as bots/lab/measures.h measures the catalog's: along
// self-play games of a GDL player (bots/gdl/local_match.h) or games recorded in a store (a
// league's), each state seen through each heuristic from the first role's point of view.
//
//   fuzzy_goal          the fuzzy goal heuristic of the sheet's goal rules, Arena's reading
//                       (goal levels read under terminal; bots/eval/gdl_fuzzy.h)
//   fuzzy_goal_written  the same with the goal rules evaluated as written
//   goal                the goal rules themselves, read in states that are not terminal (a
//                       role with no value there, or more than one, counts 0): the baseline a
//                       player has before it derives anything
//
// h(s) = value(first role) - the mean value of the other roles, in goal points (0..100 each).
// The true value v is the sign of the same difference of the final goals (+1, 0, -1); a game
// stopped by the step limit counts 0. plies_left counts the steps still played. A game with one
// role has no opponent to measure against and is refused.

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bots/lab/measures.h"
#include "games/core/expected.h"

namespace arena::lab {

struct GdlAnalysisOptions {
  std::string player = "uct:iterations=300";  // a GDL player spec (bots/gdl/gdl_player.h)
  int games = 20;
  int opening_steps = 4;  // random joint moves before each game, from seed + game
  int max_steps = 300;
  std::chrono::milliseconds movetime{1000};  // the player's time per move, at most
  std::uint64_t seed = 1;
};

// The heuristics above, in that order.
std::vector<std::string> gdl_heuristic_names();

struct GdlHeuristicTrajectories {
  std::string name;
  std::vector<Trajectory> trajectories;  // one per game
};

// Plays the games once and measures each of `heuristics` (names above; empty: all) on them.
// Errors: an unknown sheet or heuristic name, a bad player spec, a game of one role, a match
// that fails (bots/gdl/local_match.h's errors).
Expected<std::vector<GdlHeuristicTrajectories>> gdl_self_play_trajectories(
    std::string_view game, std::vector<std::string> heuristics, const GdlAnalysisOptions& options);

// A GDL game recorded in a store (kind gdl:NAME): its start position and move rows (one per
// mover of each turn, games/core/turn_rows.h), and its result: "1-0", "0-1", "1/2-1/2", the seats'
// scores joined by '-' for more roles ("100-0-50"); anything else ("*", aborted) counts 0.
struct StoredGdlGame {
  std::string start;
  std::vector<std::string> moves;
  std::string result;
};

struct GdlStoredTrajectories {
  std::vector<GdlHeuristicTrajectories> heuristics;  // one trajectory per game read
  int games = 0;                                     // read to their end
  int unreadable = 0;         // a start or a turn the sheet does not take (another version)
  std::string first_problem;  // what the first unreadable game had, for a message
};

// The same measures along recorded games, replayed through the sheet: the true value is the
// stored result's (a forfeit counts as the result says, not as the goals of its last state).
// Errors: an unknown sheet or heuristic name, a game of one role.
Expected<GdlStoredTrajectories> gdl_stored_trajectories(std::string_view game,
                                                        std::vector<std::string> heuristics,
                                                        const std::vector<StoredGdlGame>& games);

}  // namespace arena::lab
