#include "bots/solver/puzzle_solver.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "bots/eval/pattern_database.h"
#include "bots/eval/rubiks_cube.h"
#include "bots/eval/sliding_puzzle.h"
#include "bots/search/astar.h"
#include "bots/search/sliding_puzzle_ida.h"
#include "games/catalog/catalog.h"
#include "games/puzzles/rubiks_cube.h"
#include "games/puzzles/sliding_puzzle.h"

namespace arena::solver {
namespace {

using puzzles::RubiksCube;
using puzzles::SlidingPuzzle;

template <class P>
std::vector<std::string> to_text(const P& start, const std::vector<typename P::Move>& moves) {
  std::vector<std::string> out;
  P p = start;
  for (const auto& m : moves) {
    out.push_back(p.move_to_string(m));
    p.make_move(m);
  }
  return out;
}

// What the IDA* or A* template found.
template <class P>
SolveResult from_solution(const P& start, const search::PuzzleSolution<P>& r) {
  SolveResult out;
  out.solved = r.solved;
  out.start = start.serialize();
  out.moves = to_text(start, r.moves);
  out.length = r.length;
  out.nodes = r.nodes;
  out.seconds = r.seconds;
  return out;
}

// What a dedicated sliding-tile IDA* loop found.
SolveResult from_sliding(const SlidingPuzzle& start, const search::SlidingSolveResult& r) {
  std::vector<SlidingPuzzle::Move> moves;
  for (auto d : r.moves) moves.push_back({d});
  SolveResult out;
  out.solved = r.solved;
  out.start = start.serialize();
  out.moves = to_text(start, moves);
  out.length = static_cast<int>(moves.size());
  out.nodes = r.nodes;
  out.seconds = r.seconds;
  return out;
}

template <class P, class H>
SolveResult run_template(const P& start, const H& h, const SolveRequest& request) {
  const search::PuzzleLimits limits{request.max_nodes, 1000, request.progress};
  return from_solution(start, request.algo == "astar" ? search::astar(start, h, limits)
                                                      : search::idastar(start, h, limits));
}

std::string cache_dir_of(const SolveRequest& request) {
  return request.cache_dir.empty() ? eval::default_cache_dir() : request.cache_dir;
}

Expected<SolveResult> solve_with_pdb(const SlidingPuzzle& start, const SolveRequest& request) {
  std::string how;
  auto pdb = eval::AdditivePatternDatabase::load_or_build("6-6-3", cache_dir_of(request), &how);
  if (!pdb) return make_error(pdb.error());
  if (request.on_pattern_databases) request.on_pattern_databases(how);
  if (request.algo == "idastar")
    return from_sliding(start,
                        search::solve_sliding_pdb(start, *pdb, request.max_nodes, request.progress));
  return run_template(start, *pdb, request);
}

Expected<SolveResult> solve_sliding(const SolveRequest& request) {
  auto start = SlidingPuzzle::deserialize(request.position);
  if (!start) return make_error("bad state '" + request.position + "': " + start.error());
  std::string h = request.heuristic;
  if (h == "pdb" && start->size() != 4) {
    if (!request.pdb_or_manhattan) return make_error("heuristic pdb is for the 15-puzzle only");
    h = "manhattan";
  }
  if (h == "pdb") return solve_with_pdb(*start, request);
  auto cost = eval::make_sliding_cost_heuristic(h);
  if (!cost) return make_error(cost.error());
  if (request.algo == "idastar" && h == "manhattan")  // the tight loop
    return from_sliding(
        *start, search::solve_sliding_manhattan(*start, request.max_nodes, request.progress));
  return run_template(*start, *cost, request);
}

Expected<SolveResult> solve_rubik(const SolveRequest& request) {
  auto start = RubiksCube::deserialize(request.position);
  if (!start) return make_error("bad state '" + request.position + "': " + start.error());
  const bool manhattan = request.pdb_or_manhattan && request.heuristic == "pdb";
  auto cost =
      eval::make_rubik_cost_heuristic(manhattan ? "manhattan" : request.heuristic,
                                      cache_dir_of(request));
  if (!cost) return make_error(cost.error());
  return run_template(*start, *cost, request);
}

Expected<SolveResult> solve_sheet(const SolveRequest& request) {
  auto algo = gdl::parse_puzzle_algo(request.algo);
  if (!algo)
    return make_error("no " + request.algo + " for '" + request.puzzle +
                      "': a GDL sheet is solved by breadth_first (bfs) or best_first");
  gdl::PuzzleSearchOptions options = request.sheet;
  options.algo = *algo;
  auto solved = gdl::solve_sheet_puzzle(request.puzzle, request.position, options);
  if (!solved) return make_error(solved.error());
  SolveResult out;
  out.solved = solved->search.solved;
  out.start = solved->start;
  out.moves = solved->moves;
  out.length = static_cast<int>(solved->moves.size());
  out.nodes = solved->search.states;
  out.seconds = solved->search.seconds;
  out.sheet = std::move(*solved);
  return out;
}

}  // namespace

Expected<SolveResult> solve_puzzle(const SolveRequest& request) {
  GameOptions ignored;
  const std::string name = resolve_game_name(request.puzzle, ignored);
  if (is_gdl_game(name)) return solve_sheet(request);
  if (name != "sliding" && name != "rubik")
    return make_error("no solver for '" + request.puzzle + "'");
  if (request.algo != "idastar" && request.algo != "astar")
    return make_error("solver " + request.algo + " is for GDL sheets (gdl:NAME); '" +
                      request.puzzle + "' takes idastar or astar");
  return name == "sliding" ? solve_sliding(request) : solve_rubik(request);
}

std::optional<int> optimal_puzzle_length(std::string_view puzzle, std::string_view position,
                                         std::uint64_t max_nodes) {
  GameOptions ignored;
  SolveRequest request;
  request.puzzle = resolve_game_name(puzzle, ignored);
  request.position = std::string(position);
  request.max_nodes = max_nodes;
  if (is_gdl_game(request.puzzle)) {
    // Breadth-first: the shortest solution. Bounded tighter than the tiles (a sheet's states
    // are lists of fluents, and the puzzle opens only once this answers).
    request.algo = "breadth_first";
    request.sheet.max_states = std::min<std::uint64_t>(max_nodes, 200'000);
    request.sheet.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  }
  auto solved = solve_puzzle(request);
  if (!solved || !solved->solved) return std::nullopt;
  return solved->length;
}

}  // namespace arena::solver
