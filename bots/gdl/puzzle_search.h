#pragma once
// Solving a GDL puzzle (a sheet of one role): the moves from a state to a terminal state where
// the role's goal is 100, found by search over the sheet's reasoner.
//
//   breadth_first  every state one move further before any two moves further: the first
//                  solution found is a shortest one (moves counted), so its length is the
//                  puzzle's optimal length when the search is not stopped first;
//   best_first     greedy best-first search on the fuzzy goal heuristic of the sheet's own goal
//                  rules (bots/eval/gdl_fuzzy.h): the state whose role value (0..100) is
//                  highest is expanded first (ties: fewer moves, then the older). Blind to the
//                  path's length, so its solution may be longer than the shortest; what it buys
//                  is the states it need not reach, which `arena solve` prints beside BFS's.
//
// Both detect duplicates by the state (a state reached again is not expanded again) and never
// expand a terminal state: one short of the goal is a dead end (its goal value is kept as
// `best_goal`). Limits: distinct states stored (`max_states`) and a deadline; an unsolved result
// says which stopped it, or that no state reachable from the start solves it. A state the
// reasoner cannot answer about (the prover's limits: StateMachine::failure) stops the search
// with that reason.
//
// Not thread-safe: one search over a machine it does not own, on the caller's thread.

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bots/eval/gdl_fuzzy.h"
#include "games/core/expected.h"
#include "games/gdl/prover/state_machine.h"

namespace arena::gdl {

enum class PuzzleAlgo { kBreadthFirst, kBestFirst };
std::string_view to_string(PuzzleAlgo a);                       // "breadth_first", "best_first"
Expected<PuzzleAlgo> parse_puzzle_algo(std::string_view text);  // also "bfs"

// How far a search has come, for a progress line.
struct PuzzleSearchProgress {
  std::uint64_t states = 0;    // distinct states reached so far
  std::uint64_t expanded = 0;  // states whose moves were tried so far
  int depth = 0;               // moves from the start to the state expanded next
  double seconds = 0;
};

struct PuzzleSearchOptions {
  PuzzleAlgo algo = PuzzleAlgo::kBreadthFirst;
  std::uint64_t max_states = 1'000'000;  // distinct states stored, the start included
  std::optional<std::chrono::steady_clock::time_point> deadline;
  eval::FuzzyGoalParams fuzzy;  // best_first's heuristic
  // Called on the search's thread before an expansion once `progress_every` has passed since
  // the search began or since the last call (0: before every expansion); may be empty.
  std::function<void(const PuzzleSearchProgress&)> progress;
  std::chrono::milliseconds progress_every{1000};
};

struct PuzzleSearchResult {
  bool solved = false;
  std::vector<Move> moves;     // start to goal (empty: the start is solved, or not solved)
  std::uint64_t states = 0;    // distinct states reached, the start included
  std::uint64_t expanded = 0;  // states whose moves were tried
  int best_goal = -1;          // the highest goal of a terminal state reached; -1: none
  std::string stopped;         // why an unsolved search ended
  double seconds = 0;
};

// Errors: the machine's game has other than one role, the start is unanswerable, or the
// heuristic cannot be made (best_first).
Expected<PuzzleSearchResult> search_puzzle(StateMachine& machine, const State& start,
                                           const PuzzleSearchOptions& options);

// A sheet's puzzle, searched on a reasoner of its own (games/gdl/library/library.h).
struct SheetPuzzleSolution {
  PuzzleSearchResult search;
  std::string start;  // the start's fluents as KIF
  std::vector<std::string>
      moves;             // the solution as KIF, as puzzle_move and puzzle_solution take it
  std::string reasoner;  // "compiled" or "prover"
};
// `name` is the sheet ("gdl:NAME" or "NAME"), `position` the start's fluents as a GDL game's
// serialize() writes them (empty: the initial state). Errors name an unknown sheet, a bad
// position, or what search_puzzle refuses; an unsolved search is a result, not an error.
Expected<SheetPuzzleSolution> solve_sheet_puzzle(std::string_view name, std::string_view position,
                                                 const PuzzleSearchOptions& options);
// What `arena solve --puzzle gdl:NAME` prints: the start, the algorithm and reasoner, the
// solution and its length (the shortest, for a breadth-first search), the states reached and
// expanded, the time; or why no solution was found and the best goal reached.
std::string format_sheet_puzzle_solution(const SheetPuzzleSolution& s, PuzzleAlgo algo);

}  // namespace arena::gdl
