// bench_gdl: the GDL reasoners on ggp-base's sheets against Arena's hand-written engines, in
// the same run, single thread: load + compile time, random playouts per second and states per
// second of the compiled network (its fast interface: bit states, move indices), the prover's
// states per second (StateMachine interface), and the native engine's random playouts per
// second where Arena has the game (ratio compiled / native printed).
//
// A playout starts at the initial state and plays uniformly random legal moves (one per role,
// every step) until terminal or kMaxSteps; a state is one joint move applied. The native engine
// plays the same way through the Game concept (generate_moves, make_move, outcome) from a copy
// of the start position. Each measurement runs for --seconds (default 2) of this thread's CPU
// time, which is also what the rates divide by: the machine is shared, and wall-clock time
// would count the time other processes held the core (load + compile times are printed both
// wall-clock and in this thread's CPU time). Compiling is bounded here by 20,000,000 ground
// rules and 300 s, not the library's defaults (3,000,000 and 25 s), so that chess.kif's time
// is measured rather than refused.
//
//   bench_gdl [--seconds S] [--sheets DIR] [game ...]   (games: tictactoe connect4 ...)
//
// tictactoe is ggp-base's ticTacToe.kif (tests/data/gdl), tictactoe-sheet the folder's
// tictactoe.kif (other rules: no blank cells as fluents); connect4 is ggp-base's connectFour.kif
// (8 x 6), connect4-7x6 the folder's conn4.kif (Arena's board; its perft 7 closes the run).

#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "games/checkers/checkers.h"
#include "games/chess/chess.h"
#include "games/core/rng.h"
#include "games/gdl/propnet/compiled.h"
#include "games/gdl/propnet/propnet.h"
#include "games/gdl/prover/prover.h"
#include "games/othello/othello.h"
#include "games/tictactoe/tictactoe.h"
#include "games/gdl/library/sheet_file.h"

namespace {

using Clock = std::chrono::steady_clock;
using arena::Rng;
namespace gdl = arena::gdl;

constexpr int kMaxSteps = 1000;

struct Rate {
  std::uint64_t playouts = 0, states = 0;
  std::uint64_t goalless = 0;  // playouts that ended where a role had no single goal value
  double seconds = 0;
  double playouts_per_s() const { return seconds > 0 ? static_cast<double>(playouts) / seconds : 0; }
  double states_per_s() const { return seconds > 0 ? static_cast<double>(states) / seconds : 0; }
};

double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double thread_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// Runs `playout` (which returns the states it visited) until `seconds` of CPU time passed.
Rate timed(double seconds, const std::function<std::uint64_t()>& playout) {
  Rate r;
  const double start = thread_seconds();
  do {
    for (int i = 0; i < 16; ++i) {
      r.states += playout();
      ++r.playouts;
    }
    r.seconds = thread_seconds() - start;
  } while (r.seconds < seconds);
  return r;
}

Rate compiled_rate(gdl::Propnet& net, double seconds, Rng& rng) {
  std::vector<std::uint32_t> joint(static_cast<std::size_t>(net.num_roles()));
  std::uint64_t goalless = 0;
  Rate rate = timed(seconds, [&] {
    net.reset();
    std::uint64_t states = 0;
    for (; states < kMaxSteps && !net.is_terminal(); ++states) {
      for (int r = 0; r < net.num_roles(); ++r) {
        auto legal = net.legal(r);
        if (legal.empty()) return states;
        joint[static_cast<std::size_t>(r)] = legal[rng.below(legal.size())];
      }
      net.play(joint);
    }
    // A playout cut at kMaxSteps has not ended: sheets may define goals only at the end.
    if (net.is_terminal()) {
      bool all = true;
      for (int r = 0; r < net.num_roles(); ++r) all = all && net.goal(r) >= 0;
      if (!all) ++goalless;
    }
    return states;
  });
  rate.goalless = goalless;
  return rate;
}

Rate prover_rate(gdl::StateMachine& m, double seconds, Rng& rng) {
  return timed(seconds, [&] {
    gdl::State s = m.initial_state();
    std::uint64_t states = 0;
    for (; states < kMaxSteps && !m.is_terminal(s); ++states) {
      gdl::JointMove j;
      for (std::size_t r = 0; r < m.roles().size(); ++r) {
        const auto moves = m.legal_moves(s, static_cast<int>(r));
        if (moves.empty()) return states;
        j.push_back(moves[rng.below(moves.size())]);
      }
      s = m.next_state(s, j);
    }
    return states;
  });
}

template <class G>
Rate native_rate(double seconds, Rng& rng) {
  auto start = G::create({});
  if (!start) return {};
  typename G::MoveList list;
  return timed(seconds, [&] {
    G g = *start;
    std::uint64_t states = 0;
    for (; states < kMaxSteps && !g.outcome().is_terminal(); ++states) {
      g.generate_moves(list);
      if (list.empty()) break;
      g.make_move(list[static_cast<std::size_t>(rng.below(list.size()))]);
    }
    return states;
  });
}

struct Game {
  const char* label;
  const char* sheet;
  std::function<Rate(double, Rng&)> native;  // empty: Arena has no engine for it
};

void bench_game(const Game& game, const std::string& dir, double seconds) {
  const std::string sheet = game.sheet;
  const std::string path = (sheet.front() == '/' ? sheet : dir + "/" + sheet) + ".kif";
  std::printf("%s (%s.kif)\n", game.label, game.sheet);
  const auto start = Clock::now();
  const double cpu_start = thread_seconds();
  auto read = gdl::read_description_file(path);
  if (!read) {
    std::printf("  not loaded: %s\n", read.error().c_str());
    return;
  }
  auto description = std::make_shared<const gdl::Description>(std::move(*read));
  auto pool = std::make_shared<gdl::TermPool>();
  auto machine = gdl::make_compiled(description, pool,
                                    gdl::GroundLimits{.max_rules = 20'000'000, .max_seconds = 300});
  const double load = since(start), load_cpu = thread_seconds() - cpu_start;
  Rng rng(20261125);
  std::optional<Rate> compiled;
  if (machine) {
    gdl::Propnet* net = gdl::compiled_network(**machine);
    std::printf("  load + compile %.3f s (%.3f CPU s): %zu gates, %zu edges, %zu fluents\n", load,
                load_cpu, net->num_components(), net->num_edges(), net->num_fluents());
    compiled = compiled_rate(*net, seconds, rng);
    std::printf("  compiled  %12.0f playouts/s %12.0f states/s\n", compiled->playouts_per_s(),
                compiled->states_per_s());
    if (compiled->goalless > 0)  // GDL asks for one goal value per role in every terminal state
      std::printf("  %llu of %llu playouts ended where a role has no single goal value: the sheet "
                  "leaves that ending without a result\n",
                  static_cast<unsigned long long>(compiled->goalless),
                  static_cast<unsigned long long>(compiled->playouts));
  } else {
    std::printf("  not compiled (%.3f s): %s\n", load, machine.error().c_str());
  }
  auto prover = gdl::make_prover(description, pool);
  const Rate p = prover_rate(*prover, seconds, rng);
  std::printf("  prover    %12.0f playouts/s %12.0f states/s\n", p.playouts_per_s(),
              p.states_per_s());
  if (!game.native) return;
  const Rate n = game.native(seconds, rng);
  std::printf("  native    %12.0f playouts/s %12.0f states/s\n", n.playouts_per_s(),
              n.states_per_s());
  if (compiled && n.playouts_per_s() > 0)
    std::printf("  ratio compiled/native playouts/s: %.3f\n",
                compiled->playouts_per_s() / n.playouts_per_s());
}

// perft over the fast interface (every joint move), for connect four's published counts.
std::uint64_t perft(gdl::Propnet& net, int depth) {
  if (depth == 0) return 1;
  if (net.is_terminal()) return 0;
  std::vector<std::uint64_t> bits;
  net.state_bits(bits);
  std::vector<std::uint32_t> joint(static_cast<std::size_t>(net.num_roles()), 0);
  std::vector<std::vector<std::uint32_t>> joints{{}};
  for (int r = 0; r < net.num_roles(); ++r) {
    std::vector<std::vector<std::uint32_t>> grown;
    for (std::uint32_t mv : net.legal(r))
      for (const auto& j : joints) {
        grown.push_back(j);
        grown.back().push_back(mv);
      }
    joints = std::move(grown);
  }
  std::uint64_t n = 0;
  for (const auto& j : joints) {
    net.set_state(bits);
    net.play(j);
    n += perft(net, depth - 1);
  }
  return n;
}

void bench_perft(const std::string& dir) {
  auto read = gdl::read_description_file(dir + "/conn4.kif");
  if (!read) return;
  auto machine = gdl::make_compiled(std::make_shared<const gdl::Description>(std::move(*read)));
  if (!machine) return;
  gdl::Propnet* net = gdl::compiled_network(**machine);
  net->reset();
  const double start = thread_seconds();
  const std::uint64_t n = perft(*net, 7);
  const double s = thread_seconds() - start;
  std::printf("connect four 7x6 (conn4.kif) perft 7: %llu (published 823,536) in %.3f s, %.0f nodes/s\n",
              static_cast<unsigned long long>(n), s, static_cast<double>(n) / s);
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 2.0;
  std::string dir = ARENA_GDL_SHEETS_DIR;
  std::vector<std::string> only;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
      char* end = nullptr;
      seconds = std::strtod(argv[++i], &end);
      if (end == argv[i] || *end != '\0' || !(seconds > 0 && seconds <= 3600)) {
        std::fprintf(stderr, "bench_gdl: --seconds wants a number in (0, 3600], not '%s'\n", argv[i]);
        return 2;
      }
    } else if (std::strcmp(argv[i], "--sheets") == 0 && i + 1 < argc) {
      dir = argv[++i];
    } else {
      only.emplace_back(argv[i]);
    }
  }
  const std::vector<Game> games = {
      {"tictactoe", ARENA_TEST_DATA_DIR "/gdl/ticTacToe", native_rate<arena::tictactoe::TicTacToe>},
      {"tictactoe-sheet", "tictactoe", native_rate<arena::tictactoe::TicTacToe>},
      {"connect4", "connectFour", {}},
      {"connect4-7x6", "conn4", {}},
      {"breakthrough", "breakthrough", {}},
      {"othello", "othello-comp2007", native_rate<arena::othello::Othello>},
      {"checkers", "checkers", native_rate<arena::checkers::Checkers>},
      {"chess", "chess", native_rate<arena::chess::Chess>},
  };
  for (const std::string& o : only) {
    bool known = false;
    for (const Game& g : games) known = known || o == g.label;
    if (!known) {
      std::fprintf(stderr, "bench_gdl: unknown game or flag '%s'\nusage: bench_gdl [--seconds S] "
                   "[--sheets DIR] [game ...]; games:", o.c_str());
      for (const Game& g : games) std::fprintf(stderr, " %s", g.label);
      std::fprintf(stderr, "\n");
      return 2;
    }
  }
  std::printf("bench_gdl: %.1f CPU s per measurement, rates per CPU second, single thread, "
              "sheets from %s\n", seconds, dir.c_str());
  for (const Game& g : games) {
    bool wanted = only.empty();
    for (const std::string& o : only) wanted = wanted || o == g.label;
    if (wanted) bench_game(g, dir, seconds);
  }
  if (only.empty()) bench_perft(dir);
  return 0;
}
