// bench_perft: our perft against reference engines on the same positions in the same run.
//
// Chess: against Debian's Stockfish (`go perft`, which also counts the last ply in bulk),
// printing nodes per second and the ratio ours / Stockfish. Stockfish runs as a child process
// over pipes; its start-up (network loading) is excluded by waiting for "readyok" before the
// clock starts. Set STOCKFISH=/path to use another binary.
//
// Othello perft 11 against Edax and checkers perft 11 against DarkHorse, both built from the
// sources in ../shared/refs by its build.sh into <build>/bench/refs on the first run (about
// 20 s; again when build.sh is newer than the binaries). ARENA_REFS=/path names another
// sources folder; without one the references are skipped and said so. Edax times its last
// ply in user CPU time (getrusage), so Arena's Othello perft is timed the same way; DarkHorse
// and Arena's checkers perft are timed on the wall clock. The ratio printed is the
// reference's time / Arena's time (above 1: Arena is faster). Arena's figure is the games'
// own perft (fast_perft: copy-make, last ply counted without a list); the Game-interface
// perft (arena::perft: generate_moves, make_move, unmake_move) is printed beside it. Every
// count is checked against tests/data/*_perft.txt and against the reference's own count.
//
// A portable build also builds bench_perft_v3, the Othello and checkers part compiled with
// -march=x86-64-v3, and runs it after its own figures when the CPU has AVX2 and BMI2, so one
// run prints both builds (ARENA_NATIVE_X86_64_V3=ON makes the whole build x86-64-v3 instead).
//
// The machine is shared and noisy, so each side runs kRepeats times, interleaved, and the
// fastest run of each is compared.

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "games/core/perft.h"
#ifndef ARENA_PERFT_GAMES_ONLY
#include "games/chess/chess.h"
#endif
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

void print(const char* label, const Timed& t) {
  std::printf("  %-10s %14llu nodes  %8.3f s  %8.1f Mnodes/s\n", label,
              static_cast<unsigned long long>(t.nodes), t.seconds, t.nps() / 1e6);
}

#ifndef ARENA_PERFT_GAMES_ONLY
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
#endif  // ARENA_PERFT_GAMES_ONLY

double user_cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec) / 1e6;
}

enum class Timing { kWall, kUserCpu };

template <class F>
Timed time_call(Timing timing, F&& count) {
  const auto start = Clock::now();
  const double cpu_start = user_cpu_seconds();
  Timed t;
  t.nodes = count();
  t.seconds = timing == Timing::kWall ? std::chrono::duration<double>(Clock::now() - start).count()
                                      : user_cpu_seconds() - cpu_start;
  return t;
}

void keep_fastest(std::optional<Timed>& best, const std::optional<Timed>& run) {
  if (run && (!best || run->seconds < best->seconds)) best = run;
}

// The second column of tests/data/<game>_perft.txt at `depth`: the leaf count Arena's perft
// convention gives (Othello: passes are plies, early game overs are leaves; checkers:
// duplicate king captures merged, dctl's column when there are two).
std::optional<std::uint64_t> published(const std::string& file, int depth, int column) {
  std::ifstream in(std::string(ARENA_DATA_DIR) + "/" + file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    int d = 0;
    if (!(fields >> d) || d != depth) continue;
    std::string value;
    for (int c = 0; c < column && (fields >> value); ++c) {
    }
    if (value.empty() || value == "-") return std::nullopt;
    return std::strtoull(value.c_str(), nullptr, 10);
  }
  return std::nullopt;
}

// The reference engines, built once into the build tree.
struct Refs {
  std::string edax;
  std::string darkhorse;
  std::string dir;  // where they were built (Edax runs there: it reads edax.ini from its cwd)
};

std::optional<Refs> build_refs() {
  const char* env = std::getenv("ARENA_REFS");
  const std::filesystem::path src =
      std::filesystem::path(env ? env : ARENA_REFS_DIR).lexically_normal();
  const std::filesystem::path script = src / "build.sh";
  std::error_code ec;
  if (!std::filesystem::exists(script, ec)) {
    std::printf("reference engines: %s not found; Edax and DarkHorse are skipped\n",
                script.c_str());
    return std::nullopt;
  }
  const std::filesystem::path out = ARENA_REFS_BUILD_DIR;
  Refs refs{(out / "edax-bin").string(), (out / "darkhorse-perft").string(), out.string()};
  const auto fresh = [&](const std::string& bin) {
    return std::filesystem::exists(bin, ec) && std::filesystem::last_write_time(bin, ec) >=
                                                   std::filesystem::last_write_time(script, ec);
  };
  if (!fresh(refs.edax) || !fresh(refs.darkhorse)) {
    std::printf("reference engines: building them with %s into %s ...\n", script.c_str(),
                out.c_str());
    std::fflush(stdout);
    std::filesystem::create_directories(out, ec);
    const std::string command = "bash '" + script.string() + "' '" + out.string() + "' > '" +
                                (out / "build.log").string() + "' 2>&1";
    if (std::system(command.c_str()) != 0 || !fresh(refs.edax) || !fresh(refs.darkhorse)) {
      std::printf("reference engines: the build failed (see %s); skipped\n",
                  (out / "build.log").c_str());
      return std::nullopt;
    }
  }
  return refs;
}

std::vector<std::string> run_lines(const std::string& command) {
  std::vector<std::string> lines;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return lines;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe)) lines.emplace_back(buffer);
  pclose(pipe);
  return lines;
}

// Edax's "-count perft N" prints one row per ply, "N, moves, passes, wins, draws, losses,
// mobility, time, speed", time as [h:]m:ss.sss of user CPU time. Its moves include passes;
// positions whose game ended at ply N are counted in wins, draws and losses, not in moves.
// It exits through a crash after printing (freeing evaluation weights -count never loaded),
// so stdout is made line-buffered to keep the rows.
struct EdaxRun {
  Timed timed;              // nodes = moves (incl. passes) at ply N
  std::uint64_t ended = 0;  // wins + draws + losses at ply N
};

std::optional<EdaxRun> edax_perft(const Refs& refs, int depth) {
  const auto lines = run_lines("cd '" + refs.dir + "' && stdbuf -oL '" + refs.edax +
                               "' -count perft " + std::to_string(depth) + " 2>/dev/null");
  for (const auto& line : lines) {
    std::vector<std::string> fields;
    std::stringstream in(line);
    std::string field;
    while (std::getline(in, field, ',')) fields.push_back(field);
    if (fields.size() < 9 || std::atoi(fields[0].c_str()) != depth ||
        fields[0].find_first_not_of(" 0123456789") != std::string::npos) {
      continue;
    }
    EdaxRun run;
    run.timed.nodes = std::strtoull(fields[1].c_str(), nullptr, 10);
    run.ended = std::strtoull(fields[3].c_str(), nullptr, 10) +
                std::strtoull(fields[4].c_str(), nullptr, 10) +
                std::strtoull(fields[5].c_str(), nullptr, 10);
    double seconds = 0;
    std::stringstream time(fields[7]);
    std::string part;
    while (std::getline(time, part, ':')) seconds = seconds * 60 + std::atof(part.c_str());
    run.timed.seconds = seconds;
    return run;
  }
  return std::nullopt;
}

// DarkHorse's perft prints "NODES SECONDS s" (wall clock around its perft call).
std::optional<Timed> darkhorse_perft(const Refs& refs, int depth) {
  for (const auto& line : run_lines("'" + refs.darkhorse + "' " + std::to_string(depth))) {
    std::istringstream in(line);
    Timed t;
    if (in >> t.nodes >> t.seconds) return t;
  }
  return std::nullopt;
}

const char* build_name() {
#if defined(__AVX2__) && defined(__BMI2__)
  return "x86-64-v3";
#else
  return "portable";
#endif
}

void print_ratio(const char* reference, const Timed& ours, const Timed& generic,
                 const Timed& theirs) {
  std::printf(
      "  ratio %s time / arena time: %.2fx (target >= 1.0x, %s build); / arena-if time: "
      "%.2fx\n",
      reference, theirs.seconds / ours.seconds, build_name(), theirs.seconds / generic.seconds);
}

#ifdef ARENA_HAVE_OTHELLO
int bench_othello(const std::optional<Refs>& refs) {
  using arena::othello::Othello;
  constexpr int kDepth = 11;
  std::printf("othello start depth %d, %s build (best of %d, user CPU time as Edax measures)\n",
              kDepth, build_name(), kRepeats);
  const Othello start = *Othello::create({});
  std::optional<Timed> ours;
  std::optional<Timed> generic;  // arena::perft through the Game interface
  std::optional<EdaxRun> edax;
  for (int run = 0; run < kRepeats; ++run) {
    keep_fastest(ours, time_call(Timing::kUserCpu,
                                 [&] { return arena::othello::fast_perft(start, kDepth); }));
    keep_fastest(generic, time_call(Timing::kUserCpu, [&] {
                   Othello game = start;
                   return arena::perft(game, kDepth);
                 }));
    if (!refs) continue;
    const auto theirs = edax_perft(*refs, kDepth);
    if (theirs && (!edax || theirs->timed.seconds < edax->timed.seconds)) edax = theirs;
  }
  print("arena", *ours);
  print("arena-if", *generic);
  std::printf(
      "  (arena: othello::fast_perft; arena-if: arena::perft through the Game interface)\n");
  int status = 0;
  const auto expected = published("othello_perft.txt", kDepth, 1);
  if (!expected || ours->nodes != *expected || generic->nodes != *expected) {
    std::printf("  NODE COUNTS DIFFER from tests/data/othello_perft.txt\n");
    status = 1;
  }
  if (!refs) return status;
  if (!edax) {
    std::printf("  edax       gave no result (%s)\n", refs->edax.c_str());
    return 1;
  }
  print("edax", edax->timed);
  // Arena counts a game over before the last ply as a leaf; Edax counts it nowhere, and
  // counts a game ending at the last ply apart from the moves.
  const auto full_depth = published("othello_perft.txt", kDepth, 2);
  if (full_depth && edax->timed.nodes + edax->ended != *full_depth) {
    std::printf("  EDAX'S COUNT DIFFERS: %llu moves + %llu ended games, expected %llu\n",
                static_cast<unsigned long long>(edax->timed.nodes),
                static_cast<unsigned long long>(edax->ended),
                static_cast<unsigned long long>(*full_depth));
    status = 1;
  }
  print_ratio("edax", *ours, *generic, edax->timed);
  return status;
}
#endif

#ifdef ARENA_HAVE_CHECKERS
int bench_checkers(const std::optional<Refs>& refs) {
  using arena::checkers::Checkers;
  constexpr int kDepth = 11;
  std::printf("checkers start depth %d, %s build (best of %d, wall clock as DarkHorse measures)\n",
              kDepth, build_name(), kRepeats);
  const Checkers start = *Checkers::create({});
  std::optional<Timed> ours;
  std::optional<Timed> generic;  // arena::perft through the Game interface
  std::optional<Timed> darkhorse;
  for (int run = 0; run < kRepeats; ++run) {
    keep_fastest(
        ours, time_call(Timing::kWall, [&] { return arena::checkers::fast_perft(start, kDepth); }));
    keep_fastest(generic, time_call(Timing::kWall, [&] {
                   Checkers game = start;
                   return arena::perft(game, kDepth);
                 }));
    if (refs) keep_fastest(darkhorse, darkhorse_perft(*refs, kDepth));
  }
  print("arena", *ours);
  print("arena-if", *generic);
  std::printf(
      "  (arena: checkers::fast_perft; arena-if: arena::perft through the Game interface)\n");
  int status = 0;
  const auto expected = published("checkers_perft.txt", kDepth, 2);
  if (!expected || ours->nodes != *expected || generic->nodes != *expected) {
    std::printf("  NODE COUNTS DIFFER from tests/data/checkers_perft.txt\n");
    status = 1;
  }
  if (!refs) return status;
  if (!darkhorse) {
    std::printf("  darkhorse  gave no result (%s)\n", refs->darkhorse.c_str());
    return 1;
  }
  print("darkhorse", *darkhorse);
  if (darkhorse->nodes != ours->nodes) {
    std::printf("  NODE COUNTS DIFFER from DarkHorse's\n");
    status = 1;
  }
  print_ratio("darkhorse", *ours, *generic, *darkhorse);
  return status;
}
#endif

// Runs bench_perft_v3 (beside this binary) when this build is portable and the CPU can run
// x86-64-v3 code.
int run_v3_sibling() {
#if defined(ARENA_PERFT_V3_SIBLING) && defined(__x86_64__)
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("bmi2")) {
    std::printf("x86-64-v3 build: this CPU lacks AVX2 or BMI2; not run\n");
    return 0;
  }
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  const auto sibling = self.parent_path() / "bench_perft_v3";
  if (ec || !std::filesystem::exists(sibling, ec)) {
    std::printf("x86-64-v3 build: %s not built; not run\n", sibling.c_str());
    return 0;
  }
  std::fflush(stdout);
  return std::system(("'" + sibling.string() + "'").c_str()) == 0 ? 0 : 1;
#else
  return 0;
#endif
}

}  // namespace

int main() {
  std::signal(SIGPIPE, SIG_IGN);  // a missing or crashed engine must not kill the benchmark
  int status = 0;
#ifndef ARENA_PERFT_GAMES_ONLY
  const char* env = std::getenv("STOCKFISH");
  const char* stockfish = env ? env : "/usr/games/stockfish";
  status |= bench_chess(stockfish);
#endif
#if defined(ARENA_HAVE_OTHELLO) || defined(ARENA_HAVE_CHECKERS)
  const auto refs = build_refs();
#endif
#ifdef ARENA_HAVE_OTHELLO
  status |= bench_othello(refs);
#endif
#ifdef ARENA_HAVE_CHECKERS
  status |= bench_checkers(refs);
#endif
  status |= run_v3_sibling();
  return status;
}
