#pragma once
// IDA* (Korf 1985) over any single-agent puzzle, with any admissible heuristic.
// Also defines what A* (bots/search/astar.h) shares with it: the SearchablePuzzle concept and
// the PuzzleSolution report.
//
// Node counting follows Korf's published IDA* tables (tests/data/korf100.txt), so that IDA*
// with Manhattan distance reproduces them exactly on the 15-puzzle:
//   - the root counts once; every child generated counts, also those cut off by the bound;
//   - the move that returns to the parent's parent is never generated (checked by hash, so it
//     holds for any puzzle), and the children come in the game's generation order;
//   - the first bound is h(start); the next is the smallest f that exceeded the bound;
//   - the last iteration stops at the first goal generated.
// Header-only template: no virtual call and no allocation per node. Not thread-safe per call
// (the puzzle is copied and mutated); separate calls may run on separate threads.

#include <chrono>
#include <concepts>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "bots/search/ida_iteration.h"

namespace arena::search {

template <class P>
concept SearchablePuzzle = requires(P p, const P& cp, typename P::Move m,
                                    typename P::MoveList& list) {
  cp.generate_moves(list);
  p.make_move(m);
  p.unmake_move(m);
  { cp.outcome().is_terminal() } -> std::convertible_to<bool>;
  { cp.hash() } -> std::convertible_to<std::uint64_t>;
};

template <class P>
struct PuzzleSolution {
  bool solved = false;                  // false when a limit stopped the search first
  std::vector<typename P::Move> moves;  // start to goal
  int length = 0;                       // moves.size(), the cost of the solution
  std::uint64_t nodes = 0;              // generated nodes (the convention above)
  std::uint64_t expanded = 0;           // nodes whose children were generated
  int iterations = 0;                   // IDA* iterations (A*: 0)
  double seconds = 0.0;
};

struct PuzzleLimits {
  std::uint64_t max_nodes = 0;  // 0 = no limit
  int max_length = 1000;        // give up beyond this bound / depth
  IdaProgress progress;         // IDA*: called as each iteration begins (A*: not called)
};

namespace detail {

template <class P, class H>
class IdaStar {
 public:
  IdaStar(P start, H& h, PuzzleLimits limits) : p_(std::move(start)), h_(h), limits_(limits) {}

  PuzzleSolution<P> run() {
    const auto t0 = std::chrono::steady_clock::now();
    result_.nodes = 1;  // the root
    if (p_.outcome().is_terminal()) {
      result_.solved = true;
    } else {
      int bound = h_(p_);
      path_hashes_.push_back(p_.hash());
      while (bound <= limits_.max_length && !stopped_) {
        ++result_.iterations;
        if (limits_.progress)
          limits_.progress(
              {result_.iterations, bound, result_.nodes,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()});
        next_bound_ = kInfinity;
        if (dfs(0, bound)) {
          result_.solved = true;
          break;
        }
        if (next_bound_ == kInfinity) break;  // the whole space was searched
        bound = next_bound_;
      }
    }
    if (!result_.solved) result_.moves.clear();  // a stopped search leaves a partial path
    result_.length = static_cast<int>(result_.moves.size());
    result_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return result_;
  }

 private:
  static constexpr int kInfinity = std::numeric_limits<int>::max();

  // Depth-first search below the current node at cost g; true when a goal was reached (the
  // path to it is then in result_.moves).
  bool dfs(int g, int bound) {
    typename P::MoveList list;
    p_.generate_moves(list);
    ++result_.expanded;
    const std::size_t depth = path_hashes_.size();
    const bool has_grandparent = depth >= 2;
    const std::uint64_t grandparent = has_grandparent ? path_hashes_[depth - 2] : 0;
    for (const auto& m : list) {
      p_.make_move(m);
      const std::uint64_t hash = p_.hash();
      if (has_grandparent && hash == grandparent) {
        p_.unmake_move(m);
        continue;
      }
      ++result_.nodes;
      if (limits_.max_nodes && result_.nodes >= limits_.max_nodes) stopped_ = true;
      const int f = g + 1 + h_(p_);
      if (f > bound || stopped_) {
        if (f > bound && f < next_bound_) next_bound_ = f;
        p_.unmake_move(m);
        if (stopped_) return false;
        continue;
      }
      result_.moves.push_back(m);
      if (p_.outcome().is_terminal()) return true;
      path_hashes_.push_back(hash);
      if (dfs(g + 1, bound)) return true;
      path_hashes_.pop_back();
      result_.moves.pop_back();
      p_.unmake_move(m);
      if (stopped_) return false;
    }
    return false;
  }

  P p_;
  H& h_;
  PuzzleLimits limits_;
  PuzzleSolution<P> result_;
  std::vector<std::uint64_t> path_hashes_;
  int next_bound_ = kInfinity;
  bool stopped_ = false;
};

}  // namespace detail

// Solves `start` optimally if `h` (a callable int(const P&)) is admissible. h must be 0 at
// the goal (a goal is recognised by outcome().is_terminal()).
template <SearchablePuzzle P, class H>
PuzzleSolution<P> idastar(const P& start, H&& h, PuzzleLimits limits = {}) {
  detail::IdaStar<P, std::remove_reference_t<H>> search(start, h, limits);
  return search.run();
}

}  // namespace arena::search
