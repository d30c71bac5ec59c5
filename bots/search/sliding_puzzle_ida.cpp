#include "bots/search/sliding_puzzle_ida.h"

#include <array>
#include <chrono>
#include <cstdlib>
#include <limits>

namespace arena::search {
namespace {

using puzzles::Direction;
using puzzles::SlidingPuzzle;

constexpr int kInfinity = std::numeric_limits<int>::max();
constexpr int kMaxDepth = 256;

// Neighbour of each cell in each direction (U L R D), -1 at the edge.
template <int N>
constexpr std::array<std::array<std::int8_t, 4>, N * N> kNeighbour = [] {
  std::array<std::array<std::int8_t, 4>, N * N> t{};
  for (int c = 0; c < N * N; ++c) {
    t[c][0] = static_cast<std::int8_t>(c >= N ? c - N : -1);
    t[c][1] = static_cast<std::int8_t>(c % N > 0 ? c - 1 : -1);
    t[c][2] = static_cast<std::int8_t>(c % N < N - 1 ? c + 1 : -1);
    t[c][3] = static_cast<std::int8_t>(c < N * (N - 1) ? c + N : -1);
  }
  return t;
}();

// Manhattan distance of tile t on cell c (0 for the blank).
template <int N>
constexpr std::array<std::array<std::uint8_t, N * N>, N * N> kManhattan = [] {
  std::array<std::array<std::uint8_t, N * N>, N * N> t{};
  for (int tile = 1; tile < N * N; ++tile)
    for (int c = 0; c < N * N; ++c) {
      const int dr = tile / N - c / N, dc = tile % N - c % N;
      t[tile][c] = static_cast<std::uint8_t>((dr < 0 ? -dr : dr) + (dc < 0 ? -dc : dc));
    }
  return t;
}();

// The heuristic as a policy: Manhattan, or the sum of pattern databases.
template <int N>
struct ManhattanPolicy {
  int initial(const std::uint8_t* tiles) {
    int h = 0;
    for (int c = 0; c < N * N; ++c) h += kManhattan<N>[tiles[c]][c];
    return h;
  }
  // Tile `t` moves from `from` to `to`: the new h.
  int update(int h, int t, int from, int to) {
    return h - kManhattan<N>[t][from] + kManhattan<N>[t][to];
  }
  void undo(int, int, int) {}
};

struct PdbPolicy {
  const eval::AdditivePatternDatabase* pdb;
  std::array<std::uint32_t, 8> index{};
  std::array<std::int8_t, 16> part_of{};
  std::array<std::uint8_t, 16> shift_of{};
  std::array<const std::uint8_t*, 8> table{};

  int initial(const std::uint8_t* tiles) {
    part_of.fill(-1);
    const auto& parts = pdb->parts();
    for (std::size_t p = 0; p < parts.size(); ++p) {
      table[p] = parts[p].table();
      for (std::size_t i = 0; i < parts[p].tiles().size(); ++i) {
        part_of[parts[p].tiles()[i]] = static_cast<std::int8_t>(p);
        shift_of[parts[p].tiles()[i]] = static_cast<std::uint8_t>(4 * i);
      }
    }
    index.fill(0);
    for (int c = 0; c < 16; ++c)
      if (tiles[c] != 0)
        index[part_of[tiles[c]]] |= static_cast<std::uint32_t>(c) << shift_of[tiles[c]];
    int h = 0;
    for (std::size_t p = 0; p < parts.size(); ++p) h += table[p][index[p]];
    return h;
  }
  int update(int h, int t, int from, int to) {
    const int p = part_of[t];
    const std::uint32_t old_index = index[p];
    const std::uint32_t new_index = old_index - (static_cast<std::uint32_t>(from) << shift_of[t]) +
                                    (static_cast<std::uint32_t>(to) << shift_of[t]);
    index[p] = new_index;
    return h - table[p][old_index] + table[p][new_index];
  }
  void undo(int t, int from, int to) {  // tile t goes back from `to` to `from`
    const int p = part_of[t];
    index[p] = index[p] - (static_cast<std::uint32_t>(to) << shift_of[t]) +
               (static_cast<std::uint32_t>(from) << shift_of[t]);
  }
};

template <int N, class Policy>
class TileIda {
 public:
  TileIda(const SlidingPuzzle& start, Policy policy, std::uint64_t max_nodes,
          const IdaProgress& progress)
      : policy_(policy), max_nodes_(max_nodes), progress_(progress) {
    for (int c = 0; c < N * N; ++c) {
      tiles_[c] = static_cast<std::uint8_t>(start.tile_at(c));
      if (tiles_[c] == 0) blank_ = c;
    }
  }

  SlidingSolveResult run() {
    const auto t0 = std::chrono::steady_clock::now();
    SlidingSolveResult r;
    nodes_ = 1;
    int h = policy_.initial(tiles_.data());
    bool solved = h == 0 && is_goal();
    int bound = h;
    while (!solved && !stopped_ && bound < kMaxDepth) {
      ++r.iterations;
      if (progress_)
        progress_({r.iterations, bound, nodes_,
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()});
      next_bound_ = kInfinity;
      solved = dfs(blank_, 0, h, bound, -1);
      if (next_bound_ == kInfinity) break;
      bound = next_bound_;
    }
    r.solved = solved;
    if (solved)
      for (int i = 0; i < depth_; ++i) r.moves.push_back(static_cast<Direction>(path_[i]));
    r.nodes = nodes_;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
  }

 private:
  bool is_goal() const {
    for (int c = 0; c < N * N; ++c)
      if (tiles_[c] != c) return false;
    return true;
  }

  // Step: the blank at `blank`, cost g so far, estimate h; `prev` the direction that led
  // here (-1 at the root), whose opposite 3 - prev is not generated.
  bool dfs(int blank, int g, int h, int bound, int prev) {
    for (int d = 0; d < 4; ++d) {
      if (d == 3 - prev) continue;
      const int to = kNeighbour<N>[blank][d];
      if (to < 0) continue;
      ++nodes_;
      const int t = tiles_[to];
      const int nh = policy_.update(h, t, to, blank);
      const int f = g + 1 + nh;
      if (f > bound) {
        if (f < next_bound_) next_bound_ = f;
        policy_.undo(t, to, blank);
        continue;
      }
      path_[g] = static_cast<std::uint8_t>(d);
      tiles_[blank] = static_cast<std::uint8_t>(t);
      tiles_[to] = 0;
      if (nh == 0 && is_goal()) {
        depth_ = g + 1;
        return true;
      }
      if (max_nodes_ && nodes_ >= max_nodes_) stopped_ = true;
      if (!stopped_ && dfs(to, g + 1, nh, bound, d)) return true;
      tiles_[to] = static_cast<std::uint8_t>(t);
      tiles_[blank] = 0;
      policy_.undo(t, to, blank);
      if (stopped_) return false;
    }
    return false;
  }

  Policy policy_;
  std::array<std::uint8_t, N * N> tiles_{};
  std::array<std::uint8_t, kMaxDepth> path_{};
  int blank_ = 0;
  int depth_ = 0;
  int next_bound_ = kInfinity;
  std::uint64_t nodes_ = 0;
  std::uint64_t max_nodes_ = 0;
  const IdaProgress& progress_;
  bool stopped_ = false;
};

template <class Policy, int N>
SlidingSolveResult run_ida(const SlidingPuzzle& start, Policy policy, std::uint64_t max_nodes,
                           const IdaProgress& progress) {
  TileIda<N, Policy> ida(start, policy, max_nodes, progress);
  return ida.run();
}

}  // namespace

SlidingSolveResult solve_sliding_manhattan(const SlidingPuzzle& start, std::uint64_t max_nodes,
                                           const IdaProgress& progress) {
  switch (start.size()) {
    case 3:
      return run_ida<ManhattanPolicy<3>, 3>(start, {}, max_nodes, progress);
    case 4:
      return run_ida<ManhattanPolicy<4>, 4>(start, {}, max_nodes, progress);
    default:
      return run_ida<ManhattanPolicy<5>, 5>(start, {}, max_nodes, progress);
  }
}

SlidingSolveResult solve_sliding_pdb(const SlidingPuzzle& start,
                                     const eval::AdditivePatternDatabase& pdb,
                                     std::uint64_t max_nodes, const IdaProgress& progress) {
  if (start.size() != 4 || pdb.parts().empty()) return {};
  PdbPolicy policy{};
  policy.pdb = &pdb;
  return run_ida<PdbPolicy, 4>(start, policy, max_nodes, progress);
}

}  // namespace arena::search
