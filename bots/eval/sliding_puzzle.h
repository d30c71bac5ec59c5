#pragma once
// Heuristics for the sliding-tile puzzles (bots/eval), named as in the literature.
//
// Distance estimates (moves to the goal; all admissible except the fuzzy goal count):
//   misplaced_tiles     tiles (not the blank) off their goal cell
//   manhattan_distance  sum over tiles of |row - goal row| + |col - goal col|
//   linear_conflict     Manhattan + 2 per tile that must leave its goal row/column to let
//                       another pass (Hansson, Mayer & Yung 1992): for each line, the tiles
//                       whose goal is in that line minus the longest subsequence already in
//                       goal order
// fuzzy_goal_count: the goal formula AND over tiles of "tile t is on its goal cell" in fuzzy
//   logic: an atom is tau when true, 1 - tau when false; conjunction is the product; with a
//   threshold theta (Schiffel & Thielscher's Fluxplayer), a conjunction whose two operands are
//   both above 0.5 is at least theta: T'(a, b) = max(a*b, theta) if min(a, b) > 0.5, else a*b.
//   A solved 15-puzzle scores tau^15 = 0.205891 (tau 0.9) without the threshold, 0.6 with 0.6.
//
// The Heuristic<SlidingPuzzle> scores (heuristic.h: higher is better for the side to move)
// are -estimate for the distance heuristics and round(1e5 * value) for fuzzy_goal_count.
// Parameters: fuzzy_goal_count takes tau (default 0.9) and theta (default none).

#include <functional>
#include <optional>
#include <string_view>
#include <type_traits>
#include <vector>

#include "bots/eval/heuristic.h"
#include "games/puzzles/sliding_puzzle.h"

namespace arena::eval {

int misplaced_tiles(const puzzles::SlidingPuzzle& p);
int manhattan_distance(const puzzles::SlidingPuzzle& p);
int linear_conflict(const puzzles::SlidingPuzzle& p);
double fuzzy_goal_count(const puzzles::SlidingPuzzle& p, double tau = 0.9,
                        std::optional<double> theta = std::nullopt);

// An admissible estimate of the moves left, for A* and IDA*.
using SlidingCostHeuristic = std::function<int(const puzzles::SlidingPuzzle&)>;

// "misplaced", "manhattan", "linear_conflict" (also the heuristics_for names); "pdb" is
// made by make_sliding_pdb_heuristic (bots/eval/pattern_database.h).
Expected<SlidingCostHeuristic> make_sliding_cost_heuristic(std::string_view name);

std::vector<HeuristicInfo> heuristics_for(std::type_identity<puzzles::SlidingPuzzle>);
Expected<Heuristic<puzzles::SlidingPuzzle>> make_heuristic(
    std::type_identity<puzzles::SlidingPuzzle>, std::string_view name, const GameOptions& params);

}  // namespace arena::eval
