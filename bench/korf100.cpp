// bench_korf100: IDA* on Korf's 100 random 15-puzzle instances (tests/data/korf100.txt).
//
// Part 1, Manhattan: the tight IDA* loop (bots/search/sliding_puzzle_ida.h) on the first N
// instances; each node count is compared with the published one and nodes/s printed. The
// reference measured in the same run is the generic IDA* template (bots/search/idastar.h)
// through the Game interface, with Manhattan recomputed per node, on the same instances up to
// a node budget: the ratio of the two nodes/s is printed.
// Part 2, pattern databases: all 100 instances with the additive 6-6-3 databases (built or
// loaded from the cache first; that time is printed apart), optimal lengths checked, total
// time printed, and the ratio against the Manhattan time on the instances both ran.
//
// usage: bench_korf100 [--first N] [--skip-manhattan] [--skip-pdb] [--partition 6-6-3]
//                      [--cache-dir DIR] [--data FILE] [--reference-nodes N]

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "bots/eval/pattern_database.h"
#include "bots/eval/sliding_puzzle.h"
#include "bots/search/idastar.h"
#include "bots/search/sliding_puzzle_ida.h"
#include "games/puzzles/io/korf100_file.h"
#include "games/puzzles/sliding_puzzle.h"

namespace {

using arena::puzzles::SlidingPuzzle;

using Instance = arena::puzzles::KorfInstance;

struct Flags {
  int first = 100;
  bool manhattan = true;
  bool pdb = true;
  std::string partition = "6-6-3";
  std::string cache_dir = arena::eval::default_cache_dir();
  std::string data = std::string(ARENA_DATA_DIR) + "/korf100.txt";
  std::uint64_t reference_nodes = 30'000'000;
};

bool parse_flags(int argc, char** argv, Flags& f) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--first") {
      f.first = std::atoi(value().c_str());
    } else if (a == "--skip-manhattan") {
      f.manhattan = false;
    } else if (a == "--skip-pdb") {
      f.pdb = false;
    } else if (a == "--partition") {
      f.partition = value();
    } else if (a == "--cache-dir") {
      f.cache_dir = value();
    } else if (a == "--data") {
      f.data = value();
    } else if (a == "--reference-nodes") {
      f.reference_nodes = std::strtoull(value().c_str(), nullptr, 10);
    } else {
      std::fprintf(stderr, "bench_korf100: unknown flag '%s'\n", a.c_str());
      return false;
    }
  }
  return f.first >= 1 && f.first <= 100;
}

// Part 1. Returns the Manhattan seconds per instance id (0 if not run).
std::vector<double> run_manhattan(const std::vector<Instance>& all, const Flags& flags) {
  std::vector<double> seconds(101, 0.0);
  std::uint64_t nodes = 0, reference_nodes = 0;
  double time = 0, reference_time = 0, cpu_time = 0, reference_cpu = 0;
  int equal = 0, optimal = 0;
  std::printf("== IDA* + Manhattan, first %d instances ==\n", flags.first);
  for (int i = 0; i < flags.first; ++i) {
    const auto& k = all[i];
    const auto start = *SlidingPuzzle::deserialize(k.tiles);
    const std::clock_t c0 = std::clock();
    const auto r = arena::search::solve_sliding_manhattan(start);
    const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
    cpu_time += cpu;
    const bool same = r.nodes == k.published_nodes;
    equal += same;
    optimal += static_cast<int>(r.moves.size()) == k.optimal_length;
    nodes += r.nodes;
    time += r.seconds;
    seconds[k.id] = cpu;
    std::printf(
        "#%-3d len %2zu (opt %2d) nodes %12llu published %12llu %s %6.2f s wall %6.2f s "
        "cpu %.1f M/s (cpu)\n",
        k.id, r.moves.size(), k.optimal_length, static_cast<unsigned long long>(r.nodes),
        static_cast<unsigned long long>(k.published_nodes), same ? "=   " : "DIFF", r.seconds, cpu,
        static_cast<double>(r.nodes) / cpu / 1e6);
    if (reference_nodes < flags.reference_nodes) {  // the reference, up to its node budget
      const std::clock_t c1 = std::clock();
      const auto ref = arena::search::idastar(
          start, arena::eval::manhattan_distance,
          arena::search::PuzzleLimits{flags.reference_nodes - reference_nodes, 1000, {}});
      reference_cpu += static_cast<double>(std::clock() - c1) / CLOCKS_PER_SEC;
      reference_nodes += ref.nodes;
      reference_time += ref.seconds;
    }
    std::fflush(stdout);
  }
  // CPU time, not wall time, makes the rates: the machine is shared and wall time is noisy.
  const double nps = static_cast<double>(nodes) / cpu_time;
  const double reference_nps = static_cast<double>(reference_nodes) / reference_cpu;
  std::printf("node counts equal to published: %d/%d; optimal lengths: %d/%d\n", equal, flags.first,
              optimal, flags.first);
  std::printf(
      "total %llu nodes, %.2f s wall, %.2f s cpu = %.1f M nodes/s per cpu second "
      "(target >= 100)\n",
      static_cast<unsigned long long>(nodes), time, cpu_time, nps / 1e6);
  std::printf(
      "reference (generic IDA* template over the Game interface, same instances): %llu "
      "nodes, %.2f s cpu = %.1f M nodes/s; ratio tight/reference = %.1fx\n",
      static_cast<unsigned long long>(reference_nodes), reference_cpu, reference_nps / 1e6,
      nps / reference_nps);
  return seconds;
}

// Part 2.
bool run_pdb(const std::vector<Instance>& all, const Flags& flags,
             const std::vector<double>& manhattan_seconds) {
  std::printf("== IDA* + additive %s pattern databases, all 100 instances ==\n",
              flags.partition.c_str());
  const auto t0 = std::chrono::steady_clock::now();
  std::string how;
  auto pdb =
      arena::eval::AdditivePatternDatabase::load_or_build(flags.partition, flags.cache_dir, &how);
  if (!pdb) {
    std::fprintf(stderr, "bench_korf100: %s\n", pdb.error().c_str());
    return false;
  }
  std::printf("databases: %s (%.2f s)\n", how.c_str(),
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  std::uint64_t nodes = 0;
  double total = 0, cpu = 0, both_pdb = 0, both_md = 0;
  int optimal = 0;
  for (const auto& k : all) {
    const std::clock_t c0 = std::clock();
    const auto r = arena::search::solve_sliding_pdb(*SlidingPuzzle::deserialize(k.tiles), *pdb);
    const double instance_cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
    cpu += instance_cpu;
    optimal += r.solved && static_cast<int>(r.moves.size()) == k.optimal_length;
    nodes += r.nodes;
    total += r.seconds;
    if (manhattan_seconds[k.id] > 0) {
      both_pdb += instance_cpu;
      both_md += manhattan_seconds[k.id];
    }
  }
  std::printf(
      "optimal: %d/100; total %llu nodes, %.2f s wall, %.2f s cpu (target < 120 s, aim "
      "< 10 s), %.1f M nodes/s cpu\n",
      optimal, static_cast<unsigned long long>(nodes), total, cpu,
      static_cast<double>(nodes) / cpu / 1e6);
  if (both_pdb > 0)
    std::printf("same instances as part 1 (cpu): Manhattan %.2f s vs PDB %.2f s: speed-up %.1fx\n",
                both_md, both_pdb, both_md / both_pdb);
  return optimal == 100;
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  if (!parse_flags(argc, argv, flags)) {
    std::fprintf(stderr,
                 "usage: bench_korf100 [--first N (1-100)] [--skip-manhattan] [--skip-pdb] "
                 "[--partition 6-6-3|5-5-5] [--cache-dir DIR] [--data FILE] "
                 "[--reference-nodes N]\n");
    return 2;
  }
  const auto all = arena::puzzles::read_korf100(flags.data);
  if (all.size() != 100) {
    std::fprintf(stderr, "bench_korf100: expected 100 instances in %s, read %zu\n",
                 flags.data.c_str(), all.size());
    return 1;
  }
  std::vector<double> md_seconds(101, 0.0);
  if (flags.manhattan) md_seconds = run_manhattan(all, flags);
  if (flags.pdb && !run_pdb(all, flags, md_seconds)) return 1;
  return 0;
}
