#pragma once
// The one place that chooses a puzzle's solver: which search (IDA*, A*, the dedicated
// sliding-tile IDA* loops, a GDL sheet's breadth- or best-first search) and which heuristic
// (Manhattan distance, the 15-puzzle's additive pattern databases, the cube's) solve a position.
// The bot client's solver specs (bots/client/search_player.h), `arena solve` (cli/cmd_solve.cpp)
// and the server's optimal lengths (optimal_puzzle_length, injected by `arena serve`: the
// server links no bots/ code) all call solve_puzzle.
//
//   sliding tiles  heuristic pdb: the 6-6-3 additive pattern databases (15-puzzle only), with
//                  IDA* the dedicated loop; manhattan with IDA*: the dedicated loop (same nodes
//                  as the template, ~10x faster); otherwise the IDA* or A* template on the
//                  named cost heuristic (misplaced, manhattan, linear_conflict)
//   Rubik's cube   the IDA* or A* template on the named cube heuristic (manhattan, corner_pdb)
//   gdl:NAME       a sheet of one role: breadth_first (bfs) or best_first search of its states

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bots/gdl/puzzle_search.h"
#include "bots/search/idastar.h"
#include "games/core/expected.h"

namespace arena::solver {

struct SolveRequest {
  std::string puzzle;    // a catalog name: sliding, 8-puzzle, 15-puzzle, 24-puzzle, rubik, gdl:NAME
  std::string position;  // the start as the game serializes it (a sheet's "": its initial state)
  std::string algo = "idastar";         // idastar or astar; a sheet's breadth_first, bfs, best_first
  std::string heuristic = "manhattan";  // the tiles' or the cube's (above); unused for a sheet
  // Where no pattern database fits (a sliding puzzle other than the 15-puzzle, the cube),
  // "pdb" means the best heuristic there is, Manhattan distance (a bot's solver spec), rather
  // than an error ("heuristic pdb is for the 15-puzzle only").
  bool pdb_or_manhattan = false;
  std::uint64_t max_nodes = 0;  // generated nodes (0: no limit); a sheet's are in `sheet`
  std::string cache_dir;        // pattern databases ("": eval::default_cache_dir())
  search::IdaProgress progress;  // IDA*: called as each iteration begins; may be empty
  // Told how the pattern databases were had (loaded, built) before the search starts.
  std::function<void(const std::string&)> on_pattern_databases;
  gdl::PuzzleSearchOptions sheet;  // a sheet's limits and progress (its algo comes from `algo`)
};

struct SolveResult {
  bool solved = false;             // false when a limit stopped the search first
  std::string start;               // the start as serialized
  std::vector<std::string> moves;  // start to goal, as the game writes its moves
  int length = 0;                  // moves.size()
  std::uint64_t nodes = 0;         // generated nodes (a sheet's: distinct states)
  double seconds = 0;
  std::optional<gdl::SheetPuzzleSolution> sheet;  // a sheet's whole answer
};

// Errors name a bad position, an unknown heuristic or puzzle, a search that is not the kind's
// (idastar for a sheet, a sheet's search for the tiles), or pattern databases that could not be
// had. An unsolved search is a result, not an error.
Expected<SolveResult> solve_puzzle(const SolveRequest& request);

// The optimal solution length of a puzzle position (IDA* with an admissible heuristic:
// Manhattan distance for the sliding tiles, its admissible cube form for the Rubik's cube;
// breadth-first search for a GDL sheet of one role, within 200,000 states and 1 s), or nullopt
// when `max_nodes` generated nodes did not settle it or the kind has no solver.
// For the server's puzzle_end (injected by `arena serve`).
std::optional<int> optimal_puzzle_length(std::string_view puzzle, std::string_view position,
                                         std::uint64_t max_nodes);

}  // namespace arena::solver
