// bench_gdl_prover: the GDL prover's speed on random playouts (games/gdl/prover/prover.h). A state
// counts as one visit that asks every role's legal moves, the next state and terminal, as the
// issue's "states per second" does. Single thread. The target: >= 5,000 states/s on
// tic-tac-toe.
//
//   bench_gdl_prover [--seconds S] [SHEET.kif ...]   (default: tests/data/gdl/ticTacToe.kif)

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "games/gdl/prover/prover.h"
#include "games/gdl/library/sheet_file.h"

namespace {

using namespace arena::gdl;

void bench(const std::string& path, double seconds) {
  auto d = read_description_file(path);
  if (!d) {
    std::printf("%-40s refused: %s\n", path.c_str(), d.error().c_str());
    return;
  }
  auto machine = make_prover(std::make_shared<const Description>(std::move(*d)));
  std::mt19937 rng(1);
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  std::uint64_t states = 0, playouts = 0;
  double elapsed = 0;
  while (elapsed < seconds) {
    State s = machine->initial_state();
    for (int step = 0; step < 1000; ++step) {
      JointMove joint;
      const bool terminal = machine->is_terminal(s);
      for (std::size_t r = 0; r < machine->roles().size(); ++r) {
        auto moves = machine->legal_moves(s, static_cast<int>(r));
        if (moves.empty()) break;
        joint.push_back(moves[rng() % moves.size()]);
      }
      ++states;
      if (terminal || joint.size() != machine->roles().size()) break;
      s = machine->next_state(s, joint);
    }
    ++playouts;
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  }
  std::printf("%-40s %10.0f states/s %9.1f playouts/s\n", path.c_str(), static_cast<double>(states) / elapsed,
              static_cast<double>(playouts) / elapsed);
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 2.0;
  std::vector<std::string> sheets;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
      char* end = nullptr;
      seconds = std::strtod(argv[++i], &end);
      if (end == argv[i] || *end != '\0' || !(seconds > 0 && seconds <= 3600)) {
        std::fprintf(stderr, "bench_gdl_prover: --seconds wants a number in (0, 3600], not '%s'\n",
                     argv[i]);
        return 2;
      }
    } else if (argv[i][0] == '-') {
      std::fprintf(stderr, "bench_gdl_prover: unknown flag '%s'\n"
                   "usage: bench_gdl_prover [--seconds S] [SHEET.kif ...]\n", argv[i]);
      return 2;
    } else {
      sheets.emplace_back(argv[i]);
    }
  }
  if (sheets.empty()) sheets.push_back(std::string(ARENA_DATA_DIR) + "/gdl/ticTacToe.kif");
  for (const std::string& s : sheets) bench(s, seconds);
  return 0;
}
