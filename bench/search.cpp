// bench_search, part 1: alpha-beta speed per game, as a ratio to the same game's perft speed
// from the same position measured in the same run (perft is plain move generation:
// make/unmake with no evaluation, so the ratio says what the search machinery and the
// heuristic cost), and the depth iterative deepening completes in one second.
//
// Part 2, search efficiency (issue 26 item 2): per game, a fixed set of positions (chess:
// Bratko-Kopec and the first Win At Chess positions; Othello: the first XOT openings; checkers
// and Isolation: fixed random openings) searched to a fixed depth by iterative deepening with
// every part on (AlphaBetaOptions{}), then with each part off in turn, and plain fixed-depth
// alpha-beta (AlphaBetaOptions::plain(), no ordering, no table) as the reference measured in
// the same run. Per row: nodes, time, nodes per second, the effective branching factor
// EBF = (N(D) / N(D-2))^(1/2) (N(D) / N(D-1) for a depth-2 row), where N(d) is the nodes
// summed over the positions that a search to depth d costs (for iterative deepening, all
// iterations to d), and the nodes as a multiple of what the all-on search costs to the same
// depth; for chess, how many positions the search plays a suite's best move in.
//
//   bench_search [--data DIR] [--part1-only | --part2-only] [--positions N] [--depth-change K]
//                [--game chess|othello|checkers|isolation]
//
// --data: where bratko_kopec.epd, wac.epd and xot_small.txt are (default tests/data, copies
// of ../shared/data); --positions: positions per game (default 24 for chess, 16 for the
// others); --depth-change: added to every game's depth (e.g. -1 for a quick run).
//
// Heuristic per game: the registry's first one for the game (bots/eval/registry.h), or, if
// the game has none yet, a hash-based stand-in (marked "(stand-in eval)").

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bots/eval/registry.h"
#include "bots/search/alphabeta.h"
#include "bots/search/search_rng.h"
#include "games/chess/chess.h"
#include "games/core/perft.h"
#include "games/core/random_opening.h"
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

// Part 2's depths: deep enough for the prunings to matter, bounded so that the whole bench
// takes a few minutes. The rows without any move ordering (and plain alpha-beta) explode
// (in chess, quiescence without MVV-LVA above all), so they are searched shallower and
// compared with the all-on search's cost to that same depth.
struct Depths {
  int depth;
  int slow_depth;
};
constexpr Depths kChessDepths{6, 2};
constexpr Depths kOthelloDepths{10, 8};
constexpr Depths kCheckersDepths{15, 12};
constexpr Depths kIsolationDepths{16, 12};

// --- part 2: search efficiency

template <class G>
eval::Heuristic<G> first_heuristic(std::string* name) {
  auto named = eval::make_named_heuristic<G>("", {});
  if (named) {
    *name = std::string(eval::list_heuristics<G>().front().name);
    return *named;
  }
  *name = "stand-in eval";
  return [](const G& p) { return static_cast<int>((p.hash() >> 7) % 201) - 100; };
}

struct Figures {
  std::uint64_t nodes = 0;       // N(D)
  std::uint64_t nodes_back = 0;  // N(D - span), span = ebf_span(D)
  double seconds = 0;
  int solved = -1;  // chess: positions where the best move was played
};

// A row: a name and the change from the all-on options; `plain` rows are the reference.
struct Row {
  std::string name;
  search::AlphaBetaOptions options;
  bool plain = false;
  int depth_back = 0;  // searched this much shallower than the suite (rows that explode)
};

std::string strip_check(std::string san) {
  while (!san.empty() && (san.back() == '+' || san.back() == '#')) san.pop_back();
  return san;
}

// Best moves of a chess suite position (empty for the other games).
template <class G>
bool plays_best(const G&, const typename G::Move&, const std::vector<std::string>&) {
  return false;
}
bool plays_best(const chess::Chess& g, const chess::Move& m, const std::vector<std::string>& bm) {
  const std::string san = strip_check(g.to_san(m));
  for (const auto& b : bm)
    if (strip_check(b) == san) return true;
  return false;
}

template <class G>
struct Suite {
  std::string label;
  std::vector<G> positions;
  std::vector<std::vector<std::string>> best;  // per position, chess only
  int depth = 0;
  int slow_depth = 0;  // the depth of the rows without ordering (plain alpha-beta included)
};

// The plies between the two depths the EBF is taken over: 2, or 1 for a depth-2 row.
int ebf_span(int depth) {
  return std::min(2, depth - 1);
}

template <class G>
Figures measure(const Suite<G>& suite, const eval::Heuristic<G>& h, const Row& row,
                std::vector<std::uint64_t>* all_on_nodes = nullptr) {
  Figures f;
  const int depth = suite.depth - row.depth_back;
  const int span = ebf_span(depth);
  if (!suite.best.empty()) f.solved = 0;
  if (all_on_nodes != nullptr) all_on_nodes->assign(static_cast<std::size_t>(depth) + 1, 0);
  for (std::size_t i = 0; i < suite.positions.size(); ++i) {
    const G& g = suite.positions[i];
    search::AlphaBeta<G, eval::Heuristic<G>> ab(h, row.options);
    const auto t = Clock::now();
    const auto r = ab.search(g, search::Limits::to_depth(depth));
    f.seconds += seconds_since(t);
    f.nodes += r.info.nodes;
    if (f.solved >= 0 && r.move && plays_best(g, *r.move, suite.best[i])) ++f.solved;
    // What a search to depth d costs: the nodes when iteration d completed, or all of them
    // when the search ended before (a proven win or loss).
    auto cost = [&](int d) {
      const std::uint64_t n = ab.nodes_at_depth(d);
      return n != 0 ? n : r.info.nodes;
    };
    if (row.plain) {
      // One search per depth: plain alpha-beta has no iterations to read N(d) from.
      search::AlphaBeta<G, eval::Heuristic<G>> shallow(h, row.options);
      f.nodes_back += shallow.search(g, search::Limits::to_depth(depth - span)).info.nodes;
    } else {
      f.nodes_back += cost(depth - span);
      if (all_on_nodes != nullptr)
        for (int d = 1; d <= depth; ++d) (*all_on_nodes)[static_cast<std::size_t>(d)] += cost(d);
    }
  }
  return f;
}

template <class G>
void bench_suite(const Suite<G>& suite) {
  std::string heuristic;
  const eval::Heuristic<G> h = first_heuristic<G>(&heuristic);
  const bool quiescence = HasNoisyMoves<G>;
  const bool null_move = search::HasNullMove<G>;
  search::AlphaBetaOptions all;
  all.quiescence = quiescence;
  auto without = [&](auto change) {
    search::AlphaBetaOptions o = all;
    change(o);
    return o;
  };
  std::vector<Row> rows = {
      {"all on (AlphaBetaOptions{})", all},
      {"- ordering (no sort at all)", without([](auto& o) { o.ordering = false; }), false,
       suite.depth - suite.slow_depth},
      {"- transposition table", without([](auto& o) { o.transposition = false; })},
      {"- killers and history", without([](auto& o) { o.killers = o.history = false; })},
      {"- aspiration windows", without([](auto& o) { o.aspiration = false; })},
  };
  if (null_move) rows.push_back({"- null move", without([](auto& o) { o.null_move = false; })});
  rows.push_back({"- PVS", without([](auto& o) { o.pvs = false; })});
  rows.push_back({"- LMR", without([](auto& o) { o.lmr = false; })});
  rows.push_back({"- PVS and LMR", without([](auto& o) { o.pvs = o.lmr = false; })});
  rows.push_back({"- all pruning (ID + TT + ordering only)",
                  without([](auto& o) { o.aspiration = o.pvs = o.null_move = o.lmr = false; })});
  search::AlphaBetaOptions plain = search::AlphaBetaOptions::plain();
  plain.quiescence = quiescence;
  rows.push_back({"reference: plain alpha-beta", plain, true, suite.depth - suite.slow_depth});

  std::printf("\n%s: %zu positions, depth %d, eval %s%s%s\n", suite.label.c_str(),
              suite.positions.size(), suite.depth, heuristic.c_str(),
              quiescence ? ", quiescence" : "",
              null_move ? "" : "; no null move (not sound in this game)");
  std::printf("| %-40s | %5s | %12s | %8s | %9s | %5s | %7s |%s\n", "search", "depth", "nodes",
              "time s", "knodes/s", "EBF", "x nodes", suite.best.empty() ? "" : " best move |");
  std::printf("|%s|%s|%s|%s|%s|%s|%s|%s\n", std::string(42, '-').c_str(), "-------",
              std::string(14, '-').c_str(), std::string(10, '-').c_str(),
              std::string(11, '-').c_str(), std::string(7, '-').c_str(),
              std::string(9, '-').c_str(), suite.best.empty() ? "" : "-----------|");
  std::fflush(stdout);
  std::vector<std::uint64_t> all_on;  // N(d) of the all-on row, for "x nodes" at any depth
  for (const Row& row : rows) {
    const Figures f = measure(suite, h, row, all_on.empty() ? &all_on : nullptr);
    const int depth = suite.depth - row.depth_back;
    const double ebf =
        f.nodes_back > 0
            ? std::pow(static_cast<double>(f.nodes) / static_cast<double>(f.nodes_back),
                       1.0 / ebf_span(depth))
            : 0.0;
    char solved[32] = "";
    if (f.solved >= 0)
      std::snprintf(solved, sizeof solved, " %4d/%-4zu |", f.solved, suite.positions.size());
    std::printf(
        "| %-40s | %5d | %12llu | %8.2f | %9.0f | %5.2f | %7.2f |%s\n", row.name.c_str(), depth,
        static_cast<unsigned long long>(f.nodes), f.seconds,
        f.seconds > 0 ? static_cast<double>(f.nodes) / f.seconds / 1000.0 : 0.0, ebf,
        static_cast<double>(f.nodes) / static_cast<double>(all_on[static_cast<std::size_t>(depth)]),
        solved);
    std::fflush(stdout);
  }
}

std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "bench_search: cannot read %s\n", path.c_str());
    std::exit(2);
  }
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') out.push_back(line);
  return out;
}

// The first `count` positions of an EPD file, with their best moves.
void read_epd(const std::string& path, int count, Suite<chess::Chess>& suite) {
  int n = 0;
  for (const std::string& line : read_lines(path)) {
    if (n >= count) break;
    const auto bm = line.find(" bm ");
    if (bm == std::string::npos) continue;
    auto g = chess::Chess::deserialize(line.substr(0, bm));
    if (!g) continue;
    std::istringstream moves(line.substr(bm + 4, line.find(';', bm) - bm - 4));
    std::vector<std::string> best;
    for (std::string m; moves >> m;) best.push_back(m);
    suite.positions.push_back(*g);
    suite.best.push_back(best);
    ++n;
  }
}

template <class G>
Suite<G> random_openings(const char* label, const G& start, int plies, int count, Depths d) {
  Suite<G> s{label, {}, {}, d.depth, d.slow_depth};
  for (int i = 0; i < count; ++i)
    s.positions.push_back(
        random_opening<G, search::SearchRng>(start, plies, 1000 + static_cast<std::uint64_t>(i)));
  return s;
}

struct Flags {
  std::string data = ARENA_DATA_DIR;
  bool part1 = true;
  bool part2 = true;
  int positions = 0;  // 0 = each game's default
  int depth_change = 0;
  std::string game;  // empty = every game
};

bool parse_flags(int argc, char** argv, Flags& f) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--data") {
      f.data = value();
    } else if (a == "--part1-only") {
      f.part2 = false;
    } else if (a == "--part2-only") {
      f.part1 = false;
    } else if (a == "--positions") {
      f.positions = std::atoi(value().c_str());
    } else if (a == "--game") {
      f.game = value();
    } else if (a == "--depth-change") {
      f.depth_change = std::atoi(value().c_str());
    } else {
      std::fprintf(
          stderr,
          "usage: bench_search [--data DIR] [--part1-only | --part2-only] "
          "[--positions N] [--depth-change K] [--game chess|othello|checkers|isolation]\n");
      return false;
    }
  }
  return true;
}

Depths changed(Depths d, int change) {
  return {std::max(3, d.depth + change), std::max(2, d.slow_depth + change)};
}

void part2(const Flags& f) {
  const int chess_count = f.positions > 0 ? f.positions : 24;
  const int count = f.positions > 0 ? f.positions : 16;
  auto wanted = [&](const char* game) { return f.game.empty() || f.game == game; };
  std::printf(
      "\nbench_search part 2: search efficiency, iterative deepening to a fixed depth with "
      "every part on, then each part off in turn; reference: plain alpha-beta\n");
  if (wanted("chess")) {
    const Depths d = changed(kChessDepths, f.depth_change);
    Suite<chess::Chess> bk{"chess, Bratko-Kopec", {}, {}, d.depth, d.slow_depth};
    read_epd(f.data + "/bratko_kopec.epd", chess_count, bk);
    bench_suite(bk);
    Suite<chess::Chess> wac{"chess, Win At Chess (first positions)", {}, {}, d.depth, d.slow_depth};
    read_epd(f.data + "/wac.epd", chess_count, wac);
    bench_suite(wac);
  }
  if (wanted("othello")) {
    const Depths d = changed(kOthelloDepths, f.depth_change);
    Suite<othello::Othello> xot{
        "othello, XOT openings (first positions)", {}, {}, d.depth, d.slow_depth};
    for (const std::string& line : read_lines(f.data + "/xot_small.txt")) {
      if (static_cast<int>(xot.positions.size()) >= count) break;
      auto g = othello::Othello::from_opening(line);
      if (g) xot.positions.push_back(*g);
    }
    bench_suite(xot);
  }
#if defined(ARENA_HAVE_CHECKERS)
  if (wanted("checkers"))
    bench_suite(random_openings("checkers, random 6-ply openings",
                                checkers::Checkers::create({}).value(), 6, count,
                                changed(kCheckersDepths, f.depth_change)));
#endif
  if (wanted("isolation"))
    bench_suite(random_openings("isolation 7x7, random 4-ply openings",
                                isolation::Isolation::create({}).value(), 4, count,
                                changed(kIsolationDepths, f.depth_change)));
}

void part1() {
  std::printf(
      "bench_search: alpha-beta (AlphaBetaOptions{}: iterative deepening, TT, ordering, "
      "aspiration, PVS, LMR, null move where sound; quiescence where the game has noisy "
      "moves)\n");
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
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  if (!parse_flags(argc, argv, flags)) return 2;
  if (flags.part1) part1();
  if (flags.part2) part2(flags);
  return 0;
}
