// arena solve: an optimal solution of a sliding-tile puzzle or a Rubik's cube by A* or IDA*;
// a GDL sheet of one role by breadth-first search (the shortest solution) or by best-first
// search on its fuzzy goal heuristic (bots/gdl/puzzle_search.h).
//
//   arena solve --puzzle 15-puzzle --korf 12 --heuristic manhattan
//   arena solve --puzzle 8-puzzle --state "8 0 6 5 4 7 2 3 1" --algo astar
//   arena solve --puzzle rubik --state "<Reid's notation>" --heuristic corner_pdb
//   arena solve --puzzle gdl:eightPuzzle [--algo best_first] [--state "(cell 1 1 8) ..."]
//   arena solve --gdl my/lights.kif --puzzle gdl:lights
//
// Exit status: 0 solved; 1 a bad state, unknown heuristic, unsolvable instance, missing data
// file or a node limit reached; 2 bad flags.

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bots/gdl/puzzle_search.h"
#include "bots/search/idastar.h"
#include "bots/solver/puzzle_solver.h"
#include "cli/commands.h"
#include "cli/gdl_sheet_flags.h"
#include "games/puzzles/io/korf100_file.h"
#include "games/puzzles/sliding_puzzle.h"

namespace arena::cli {
namespace {

using puzzles::SlidingPuzzle;

struct SolveOptions {
  std::string puzzle;
  std::string state;
  std::string algo = "idastar";
  std::string heuristic = "manhattan";
  int korf = 0;
  std::string data;
  std::string cache_dir;
  std::uint64_t max_nodes = 0;
  double seconds = 0;  // a GDL sheet's search; 0: no limit
  bool algo_given = false, heuristic_given = false;
  GdlSheetFlags sheets;
};

int solve_fail(const std::string& message) {
  std::cerr << "arena solve: " << message << "\n";
  return kExitFailure;
}

// korf100.txt: --data DIR, else tests/data above the binary's directory or the current one.
std::string find_korf_file(const std::string& data_dir) {
  if (!data_dir.empty()) return data_dir + "/korf100.txt";
  std::vector<std::filesystem::path> starts{std::filesystem::current_path()};
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) starts.push_back(exe.parent_path());
  for (auto dir : starts) {
    for (int up = 0; up < 5 && !dir.empty(); ++up, dir = dir.parent_path()) {
      const auto candidate = dir / "tests" / "data" / "korf100.txt";
      if (std::filesystem::exists(candidate, ec)) return candidate.string();
      if (dir == dir.parent_path()) break;
    }
  }
  return "";
}

Expected<std::string> korf_instance(int n, const std::string& data_dir) {
  const std::string path = find_korf_file(data_dir);
  if (path.empty())
    return make_error(
        "cannot find tests/data/korf100.txt near the binary or the current "
        "directory; give its directory with --data");
  if (!std::ifstream(path)) return make_error("cannot read " + path);
  for (const auto& k : puzzles::read_korf100(path))
    if (k.id == n) return k.tiles;
  return make_error("instance " + std::to_string(n) + " not found in " + path);
}

void print_result(const solver::SolveResult& r, const SolveOptions& o) {
  std::string moves;
  for (const auto& m : r.moves) moves += (moves.empty() ? "" : " ") + m;
  std::printf(
      "start %s\nalgorithm %s, heuristic %s\nsolution %s\nlength %d\nnodes %llu\n"
      "time %.3f s\n",
      r.start.c_str(), o.algo.c_str(), o.heuristic.c_str(),
      moves.empty() ? "(none: already solved)" : moves.c_str(), r.length,
      static_cast<unsigned long long>(r.nodes), r.seconds);
}

// IDA*'s progress: a line on stderr as each iteration begins, when stderr is a terminal (a hard
// instance runs for minutes); the line is ended once the search returns.
class IterationLine {
 public:
  IterationLine() {
    if (::isatty(STDERR_FILENO) == 0) return;
    progress_ = [this](const search::IdaIteration& i) {
      std::fprintf(stderr, "\riteration %d, bound %d, nodes %llu, %.1f s   ", i.iteration, i.bound,
                   static_cast<unsigned long long>(i.nodes), i.seconds);
      printed_ = true;
    };
  }
  ~IterationLine() {
    if (printed_) std::fputs("\n", stderr);
  }
  IterationLine(const IterationLine&) = delete;
  IterationLine& operator=(const IterationLine&) = delete;
  const search::IdaProgress& progress() const { return progress_; }

 private:
  search::IdaProgress progress_;
  bool printed_ = false;
};

// The tiles or the cube from `start`, by the solver bots/solver chooses for --algo and
// --heuristic; prints the solution.
int run_solver(const SolveOptions& o, const std::string& start) {
  solver::SolveRequest request;
  request.puzzle = o.puzzle;
  request.position = start;
  request.algo = o.algo;
  request.heuristic = o.heuristic;
  request.max_nodes = o.max_nodes;
  request.cache_dir = o.cache_dir;
  request.on_pattern_databases = [](const std::string& how) {
    std::fprintf(stderr, "pattern databases: %s\n", how.c_str());
  };
  Expected<solver::SolveResult> r = make_error("");
  {
    IterationLine line;
    request.progress = line.progress();
    r = solver::solve_puzzle(request);
  }
  if (!r) return solve_fail(r.error());
  if (!r->solved) return solve_fail("no solution within the node limit");
  print_result(*r, o);
  return kExitOk;
}

int solve_sliding(const SolveOptions& o, int size) {
  std::string text = o.state;
  if (o.korf) {
    if (size != 0 && size != 4) return solve_fail("--korf instances are 15-puzzles");
    auto tiles = korf_instance(o.korf, o.data);
    if (!tiles) return solve_fail(tiles.error());
    text = *tiles;
  }
  if (text.empty()) return solve_fail("give the start with --state \"tiles in row order\" or --korf N");
  auto start = SlidingPuzzle::deserialize(text);
  if (!start) return solve_fail("bad state '" + text + "': " + start.error());
  if (size != 0 && start->size() != size)
    return solve_fail("state '" + text + "' has " + std::to_string(start->cells()) + " cells, not " +
                std::to_string(size * size));
  return run_solver(o, text);
}

int solve_rubik(const SolveOptions& o) {
  if (o.korf) return solve_fail("--korf instances are 15-puzzles, not cubes");
  if (o.state.empty()) return solve_fail("give the cube with --state in Reid's notation");
  return run_solver(o, o.state);
}

int solve_gdl(const SolveOptions& o) {
  if (o.korf) return solve_fail("--korf instances are 15-puzzles, not GDL sheets");
  auto algo = gdl::parse_puzzle_algo(o.algo_given ? o.algo : "breadth_first");
  if (!algo) return solve_fail(algo.error());
  if (o.heuristic_given && !(*algo == gdl::PuzzleAlgo::kBestFirst && o.heuristic == "fuzzy_goal"))
    return solve_fail("a GDL sheet's heuristic is fuzzy_goal, with --algo best_first");
  solver::SolveRequest request;
  request.puzzle = o.puzzle;
  request.position = o.state;
  request.algo = std::string(gdl::to_string(*algo));
  gdl::PuzzleSearchOptions& options = request.sheet;
  if (o.max_nodes > 0) options.max_states = o.max_nodes;
  if (o.seconds > 0)
    options.deadline = std::chrono::steady_clock::now() +
                       std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                           std::chrono::duration<double>(o.seconds));
  // A line on stderr each second while the search runs, when stderr is a terminal.
  bool progressed = false;
  if (::isatty(STDERR_FILENO) != 0)
    options.progress = [&progressed](const gdl::PuzzleSearchProgress& p) {
      std::fprintf(stderr, "\rstates %llu, expanded %llu, depth %d, %.0f s   ",
                   static_cast<unsigned long long>(p.states),
                   static_cast<unsigned long long>(p.expanded), p.depth, p.seconds);
      progressed = true;
    };
  auto solved = solver::solve_puzzle(request);
  if (progressed) std::fputs("\n", stderr);
  if (!solved) return solve_fail(solved.error());
  std::fputs(gdl::format_sheet_puzzle_solution(*solved->sheet, *algo).c_str(), stdout);
  return solved->solved ? kExitOk : kExitFailure;
}

}  // namespace

void add_solve(CLI::App& app, Action& action) {
  auto o = std::make_shared<SolveOptions>();
  CLI::App* sub = app.add_subcommand(
      "solve", "solve a puzzle optimally with A* or IDA*, or a GDL sheet of one role by search");
  sub->add_option("--puzzle", o->puzzle,
                  "sliding, 8-puzzle, 15-puzzle, 24-puzzle, rubik, or gdl:NAME (a sheet of one "
                  "role)")
      ->required();
  sub->add_option("--state", o->state,
                  "start: tiles in row order, 0 = blank (goal: blank first); the cube in "
                  "Reid's notation; a sheet's fluents in KIF (default: its initial state)");
  sub->add_option("--algo", o->algo,
                  "idastar (default) or astar; for a GDL sheet breadth_first (bfs, default) or "
                  "best_first")
      ->check(CLI::IsMember({"idastar", "astar", "breadth_first", "bfs", "best_first"}));
  sub->add_option("--heuristic", o->heuristic,
                  "sliding: misplaced, manhattan (default), linear_conflict, pdb (15-puzzle); "
                  "rubik: manhattan, corner_pdb; GDL best_first: fuzzy_goal");
  sub->add_option("--korf", o->korf, "Korf's 15-puzzle instance N (1-100)")
      ->check(CLI::Range(1, 100));
  sub->add_option("--data", o->data, "directory holding korf100.txt (default: tests/data)");
  sub->add_option("--cache-dir", o->cache_dir,
                  "pattern-database cache (default $ARENA_CACHE_DIR or ~/.cache/arena)");
  sub->add_option("--max-nodes", o->max_nodes,
                  "give up after this many nodes (0 = no limit); for a GDL sheet, distinct states "
                  "(0 = 1,000,000)");
  sub->add_option("--seconds", o->seconds,
                  "a GDL sheet's search gives up after this many seconds (0 = no limit)")
      ->check(CLI::Range(0.0, 1e6));
  add_gdl_sheet_flags(sub, o->sheets);
  sub->callback([o, sub, &action] {
    o->algo_given = sub->count("--algo") > 0;
    o->heuristic_given = sub->count("--heuristic") > 0;
    action = [o] {
      if (!apply_gdl_sheet_flags(o->sheets, "solve")) return kExitUsage;
      if (o->puzzle.starts_with("gdl:")) return solve_gdl(*o);
      if (gdl::parse_puzzle_algo(o->algo)) {  // a GDL search's name (bots/gdl/puzzle_search.h)
        std::cerr << "arena solve: --algo " << o->algo << " is for GDL sheets (gdl:NAME)\n";
        return kExitUsage;
      }
      if (o->puzzle == "rubik" || o->puzzle == "rubiks-cube") return solve_rubik(*o);
      if (o->puzzle == "sliding") return solve_sliding(*o, 0);
      if (o->puzzle == "8-puzzle") return solve_sliding(*o, 3);
      if (o->puzzle == "15-puzzle") return solve_sliding(*o, 4);
      if (o->puzzle == "24-puzzle") return solve_sliding(*o, 5);
      std::cerr << "arena solve: unknown puzzle '" << o->puzzle
                << "' (known: sliding, 8-puzzle, 15-puzzle, 24-puzzle, rubik, gdl:NAME)\n";
      return kExitUsage;
    };
  });
}

}  // namespace arena::cli
