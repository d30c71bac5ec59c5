// bench_search: alpha-beta speed per game, as a ratio to the same game's perft speed from the
// same position measured in the same run (perft is plain move generation: make/unmake with no
// evaluation, so the ratio says what the search machinery and the heuristic cost), and the
// depth iterative deepening completes in one second.
//
// Heuristic per game: the registry's first one for the game (bots/eval/registry.h), or, if
// the game has none yet, a hash-based stand-in (marked "(stand-in eval)").

#include <chrono>
#include <cstdio>
#include <string>

#include "bots/eval/registry.h"
#include "bots/search/alphabeta.h"
#include "games/chess/chess.h"
#include "games/core/perft.h"
#include "games/isolation/isolation.h"
#include "games/othello/othello.h"
#if defined(ARENA_HAVE_CHECKERS)
#include "games/checkers/checkers.h"
#endif

namespace {

using namespace arena;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Perft nodes per second, deepening until one run takes at least 0.3 s.
template <class G>
double perft_nps(G g) {
  for (int depth = 1; depth < 20; ++depth) {
    const auto t = Clock::now();
    const std::uint64_t n = perft(g, depth);
    const double s = seconds_since(t);
    if (s >= 0.3) return static_cast<double>(n) / s;
  }
  return 0;
}

template <class G>
void bench_game(const char* label, const G& g, int fixed_depth) {
  auto named = eval::make_named_heuristic<G>("", {});
  const bool stand_in = !named;
  eval::Heuristic<G> h = named ? *named : eval::Heuristic<G>([](const G& p) {
    return static_cast<int>((p.hash() >> 7) % 201) - 100;
  });
  const double reference = perft_nps(g);

  search::AlphaBetaOptions options;
  options.quiescence = HasNoisyMoves<G>;
  search::AlphaBeta<G, eval::Heuristic<G>> fixed(h, options);
  const auto r = fixed.search(g, search::Limits::to_depth(fixed_depth));
  search::AlphaBeta<G, eval::Heuristic<G>> timed(h, options);
  const auto one_second = timed.search(g, search::Limits::for_time(1000));
  // Speed from the one-second run: the short fixed-depth run is dominated by clearing tables.
  const double nps =
      static_cast<double>(one_second.info.nodes) / (one_second.info.time_ms / 1000.0);

  std::printf(
      "%-10s %-16s depth %2d: %9llu nodes %7.0f ms %10.0f nodes/s | perft %11.0f nodes/s"
      " | ratio %.3f | 1 s: depth %d (seldepth %d, %llu nodes)%s\n",
      label, named ? std::string(eval::list_heuristics<G>().front().name).c_str() : "-",
      fixed_depth, static_cast<unsigned long long>(r.info.nodes), r.info.time_ms, nps, reference,
      reference > 0 ? nps / reference : 0.0, one_second.info.depth, one_second.info.seldepth,
      static_cast<unsigned long long>(one_second.info.nodes), stand_in ? " (stand-in eval)" : "");
  std::fflush(stdout);
}

}  // namespace

int main() {
  std::printf(
      "bench_search: alpha-beta (iterative deepening, TT, ordering; quiescence where the "
      "game has noisy moves)\n");
  bench_game("isolation", isolation::Isolation::create({}).value(), 8);
  bench_game("othello", othello::Othello::create({}).value(), 8);
#if defined(ARENA_HAVE_CHECKERS)
  bench_game("checkers", checkers::Checkers::create({}).value(), 10);
#endif
  bench_game("chess", chess::Chess::create({}).value(), 6);
  bench_game(
      "kiwipete",
      chess::Chess::deserialize("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -")
          .value(),
      5);
  return 0;
}
