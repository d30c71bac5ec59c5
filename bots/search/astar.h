#pragma once
// A* (Hart, Nilsson & Raphael 1968) over any single-agent puzzle, with any admissible
// heuristic. Uses SearchablePuzzle and PuzzleSolution from bots/search/idastar.h.
//
// Duplicate detection is by the puzzle's 64-bit Zobrist hash (a collision would merge two
// states; at 2^-64 per pair this is accepted, as in every transposition table). Ties in f are
// broken towards larger g (deeper nodes), which finds the goal sooner.
// Counts: `expanded` = nodes taken from the open list and expanded; `nodes` = children
// generated (plus the root). Memory grows with the nodes stored: use limits.max_nodes.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <queue>
#include <unordered_map>
#include <vector>

#include "bots/search/idastar.h"

namespace arena::search {

template <SearchablePuzzle P, class H>
PuzzleSolution<P> astar(const P& start, H&& h, PuzzleLimits limits = {}) {
  const auto t0 = std::chrono::steady_clock::now();
  struct Node {
    P state;
    int g;
    std::int64_t parent;  // index into nodes, -1 for the root
    typename P::Move move;
  };
  struct Entry {
    int f;
    int g;
    std::int64_t node;
    bool operator<(const Entry& o) const { return f != o.f ? f > o.f : g < o.g; }
  };
  PuzzleSolution<P> result;
  std::vector<Node> nodes;
  std::priority_queue<Entry> open;
  std::unordered_map<std::uint64_t, int> best_g;  // hash -> smallest g seen

  nodes.push_back({start, 0, -1, typename P::Move{}});
  open.push({h(start), 0, 0});
  best_g[start.hash()] = 0;
  result.nodes = 1;
  typename P::MoveList list;
  while (!open.empty()) {
    const Entry e = open.top();
    open.pop();
    if (nodes[e.node].g != e.g || best_g[nodes[e.node].state.hash()] < e.g) continue;  // stale
    if (nodes[e.node].state.outcome().is_terminal()) {
      for (std::int64_t i = e.node; nodes[i].parent >= 0; i = nodes[i].parent)
        result.moves.push_back(nodes[i].move);
      std::reverse(result.moves.begin(), result.moves.end());
      result.solved = true;
      break;
    }
    if (limits.max_nodes && result.nodes >= limits.max_nodes) break;
    ++result.expanded;
    P state = nodes[e.node].state;
    state.generate_moves(list);
    for (const auto& m : list) {
      state.make_move(m);
      const int g = e.g + 1;
      auto [it, inserted] = best_g.try_emplace(state.hash(), g);
      if (inserted || g < it->second) {
        it->second = g;
        ++result.nodes;
        nodes.push_back({state, g, e.node, m});
        open.push({g + h(state), g, static_cast<std::int64_t>(nodes.size() - 1)});
      }
      state.unmake_move(m);
    }
  }
  result.length = static_cast<int>(result.moves.size());
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

}  // namespace arena::search
