// bench_perft: our perft against Debian's Stockfish (`go perft`, which also counts the last
// ply in bulk) on the same positions in the same run, printing nodes per second and the ratio
// ours / Stockfish. Othello and checkers perft speeds are printed when those games are built.
//
// Stockfish runs as a child process over pipes; its start-up (network loading) is excluded by
// waiting for "readyok" before the clock starts. Set STOCKFISH=/path to use another binary.
// The machine is shared and noisy, so each side runs kRepeats times, interleaved, and the
// fastest run of each is compared.

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include "games/chess/chess.h"
#include "games/core/perft.h"
#ifdef ARENA_HAVE_OTHELLO
#include "games/othello/othello.h"
#endif
#ifdef ARENA_HAVE_CHECKERS
#include "games/checkers/checkers.h"
#endif

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kRepeats = 3;

struct Timed {
  std::uint64_t nodes = 0;
  double seconds = 0;
  double nps() const { return seconds > 0 ? static_cast<double>(nodes) / seconds : 0; }
};

template <class G>
std::optional<Timed> time_perft(const std::string& position, int depth) {
  auto game = position.empty() ? G::create({}) : G::deserialize(position);
  if (!game) {
    std::fprintf(stderr, "bench_perft: %s\n", game.error().c_str());
    return std::nullopt;
  }
  const auto start = Clock::now();
  Timed t;
  t.nodes = arena::perft(*game, depth);
  t.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return t;
}

// A Stockfish child process with its stdin and stdout as pipes.
class Engine {
 public:
  explicit Engine(const char* path) {
    int to_child[2];
    int from_child[2];
    if (pipe(to_child) != 0 || pipe(from_child) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(to_child[0], STDIN_FILENO);
      dup2(from_child[1], STDOUT_FILENO);
      close(to_child[1]);
      close(from_child[0]);
      execl(path, path, static_cast<char*>(nullptr));
      _exit(127);
    }
    close(to_child[0]);
    close(from_child[1]);
    in_ = fdopen(to_child[1], "w");
    out_ = fdopen(from_child[0], "r");
  }
  ~Engine() {
    if (in_) {
      send("quit");
      std::fclose(in_);
    }
    if (out_) std::fclose(out_);
    if (pid_ > 0) waitpid(pid_, nullptr, 0);
  }
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  bool ok() const { return pid_ > 0 && in_ && out_; }
  void send(const std::string& line) {
    std::fprintf(in_, "%s\n", line.c_str());
    std::fflush(in_);
  }
  // Reads lines until one starts with `prefix`; returns it, or nullopt at end of output.
  std::optional<std::string> wait_for(const std::string& prefix) {
    char buffer[4096];
    while (std::fgets(buffer, sizeof buffer, out_)) {
      const std::string line(buffer);
      if (line.rfind(prefix, 0) == 0) return line;
    }
    return std::nullopt;
  }

 private:
  pid_t pid_ = -1;
  FILE* in_ = nullptr;
  FILE* out_ = nullptr;
};

std::optional<Timed> stockfish_perft(const char* path, const std::string& fen, int depth) {
  Engine engine(path);
  if (!engine.ok()) return std::nullopt;
  engine.send("uci");
  if (!engine.wait_for("uciok")) return std::nullopt;
  engine.send("position fen " + fen);
  engine.send("isready");
  if (!engine.wait_for("readyok")) return std::nullopt;
  const auto start = Clock::now();
  engine.send("go perft " + std::to_string(depth));
  const auto line = engine.wait_for("Nodes searched:");
  if (!line) return std::nullopt;
  Timed t;
  t.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  t.nodes = std::strtoull(line->c_str() + std::string("Nodes searched:").size(), nullptr, 10);
  return t;
}

void print(const char* label, const Timed& t) {
  std::printf("  %-10s %14llu nodes  %8.3f s  %8.1f Mnodes/s\n", label,
              static_cast<unsigned long long>(t.nodes), t.seconds, t.nps() / 1e6);
}

int bench_chess(const char* stockfish) {
  struct Case {
    const char* name;
    std::string fen;
    int depth;
  };
  const Case cases[] = {
      {"startpos", std::string(arena::chess::Chess::kStartFen), 6},
      {"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5},
  };
  int status = 0;
  for (const auto& c : cases) {
    std::printf("chess %s depth %d (best of %d)\n", c.name, c.depth, kRepeats);
    std::optional<Timed> ours;
    std::optional<Timed> theirs;
    for (int run = 0; run < kRepeats; ++run) {
      const auto mine = time_perft<arena::chess::Chess>(c.fen, c.depth);
      if (!mine) return 1;
      if (!ours || mine->seconds < ours->seconds) ours = mine;
      const auto sf = stockfish_perft(stockfish, c.fen, c.depth);
      if (sf && (!theirs || sf->seconds < theirs->seconds)) theirs = sf;
    }
    print("arena", *ours);
    if (!theirs) {
      std::printf("  stockfish  not available at %s (apt-get install -y stockfish)\n", stockfish);
      status = 1;
      continue;
    }
    print("stockfish", *theirs);
    if (theirs->nodes != ours->nodes) {
      std::printf("  NODE COUNTS DIFFER\n");
      status = 1;
    }
    std::printf("  ratio arena/stockfish nodes/s: %.2f\n", ours->nps() / theirs->nps());
  }
  return status;
}

template <class G>
void bench_game(const char* name, int depth) {
  const auto t = time_perft<G>("", depth);
  if (!t) return;
  std::printf("%s start depth %d\n", name, depth);
  print("arena", *t);
}

}  // namespace

int main() {
  const char* env = std::getenv("STOCKFISH");
  const char* stockfish = env ? env : "/usr/games/stockfish";
  std::signal(SIGPIPE, SIG_IGN);  // a missing or crashed engine must not kill the benchmark
  const int status = bench_chess(stockfish);
#ifdef ARENA_HAVE_OTHELLO
  bench_game<arena::othello::Othello>("othello", 11);
#endif
#ifdef ARENA_HAVE_CHECKERS
  bench_game<arena::checkers::Checkers>("checkers", 11);
#endif
  return status;
}
