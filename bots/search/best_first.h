#pragma once
// Best-first heuristic search after Harris ("The heuristic search and the game of chess",
// 1975): an explicit game tree grown one tip at a time, steered by two separate functions.
//
//   h  the evaluation: how good the position is for the side to move (heuristic.h);
//   d  the search heuristic: a signed estimate of the pending tactics for the side to move
//      (captures, checks, threats, promotions it can carry out, minus those against it).
//      |d| near zero means the position is quiet: h can be trusted there.
//
// Each node keeps two backed-up negamax values: value_h (from the tips' h alone) and value_f
// (from f = h + d at the tips, the value once the pending tactics are played out). Step:
//   1. Follow the best-f pointers from the root (each node's child with the best -value_f)
//      to a tip. Because f includes d, lines with pending gains look better than their h
//      and are searched first; a line that leaves a piece en prise looks worse until a
//      deeper expansion shows the threat is empty.
//   2. Expand the tip: every child is made, evaluated with h and d (terminal children get
//      their exact score and count as quiet), and unmade.
//   3. Back the values up along the path.
// When the best-f line is settled (its tip terminal, or quiet (|d| <= quiet_margin) and at
// least min_depth plies deep), the best-h line is followed instead, so that the move h will
// pick is checked for tactics too. The search ends when the root is quiet, that is, when
// both lines are settled; or when time, nodes, the node pool or the stop flag run out. The
// move is chosen by h alone: the root child with the best backed-up -value_h.
//
// The tree lives in a pool allocated once per search (options.pool_nodes), so there is no
// allocation per node. Reports: depth = length of the best-f line, seldepth = deepest tip
// expanded, nodes = positions evaluated, score = root value_h, pv = the best-h line.

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <utility>
#include <vector>

#include "bots/search/clock.h"
#include "bots/search/limits.h"
#include "bots/search/score.h"
#include "bots/search/search_info.h"
#include "games/core/game.h"

namespace arena::search {

struct BestFirstOptions {
  int quiet_margin = 0;  // |d| at or below this is quiet
  int min_depth = 2;     // the best-f line must be at least this deep to end the search
  std::size_t pool_nodes = 1 << 18;
};

// The search heuristic for games without one: nothing is pending, every tip is quiet, and
// best-first becomes a best-first minimax to min_depth.
struct NoTactics {
  template <class G>
  int operator()(const G&) const {
    return 0;
  }
};

template <Game G, class Eval, class Tactics = NoTactics>
class BestFirst {
 public:
  using Move = typename G::Move;

  BestFirst(Eval eval, Tactics tactics = {}, BestFirstOptions options = {})
      : eval_(std::move(eval)), tactics_(std::move(tactics)), options_(options) {}

  SearchResult<Move> search(const G& root, const Limits& limits) {
    SearchClock clock(limits);
    pool_.clear();
    pool_.reserve(options_.pool_nodes);
    G game = root;
    pool_.push_back(leaf_node(game, Move{}, 0));
    nodes_ = 1;
    seldepth_ = 0;
    while (!pool_[0].terminal) {
      // Step 1. Down the best-f line to a tip; if that line is settled, down the best-h
      // line, so that the move h picks has been checked for tactics too.
      int ply = descend(game, /*by_f=*/true);
      if (settled(ply)) {
        for (std::size_t i = path_.size(); i-- > 0;) game.unmake_move(pool_[path_[i]].move);
        ply = descend(game, /*by_f=*/false);
      }
      const std::uint32_t tip = path_.empty() ? 0 : path_.back();
      // Step 2. Expand it, unless the root is quiet or the budget is spent.
      const bool expanded = !settled(ply) && !clock.out_of_budget(nodes_) && expand(game, tip, ply);
      for (std::size_t i = path_.size(); i-- > 0;) game.unmake_move(pool_[path_[i]].move);
      if (!expanded) break;
      if (ply + 1 > seldepth_) seldepth_ = ply + 1;
      // Step 3. Back up along the path, deepest first.
      for (std::size_t i = path_.size(); i-- > 0;) back_up(path_[i]);
      back_up(0);
    }
    return report(root, clock);
  }

 private:
  struct Node {
    Move move{};
    std::uint32_t first_child = 0;
    std::uint32_t num_children = 0;
    int d = 0;
    int value_h = 0;  // for the side to move at this node
    int value_f = 0;
    bool terminal = false;
  };

  // Plays the best line (by f or by h) from the root to a tip; path_ holds its nodes.
  int descend(G& game, bool by_f) {
    path_.clear();
    std::uint32_t node = 0;
    while (pool_[node].num_children > 0) {
      node = best_child(node, by_f);
      game.make_move(pool_[node].move);
      path_.push_back(node);
    }
    return static_cast<int>(path_.size());
  }

  // A line is settled when its tip is terminal, or quiet and at least min_depth deep.
  bool settled(int ply) const {
    const Node& tip = pool_[path_.empty() ? 0 : path_.back()];
    return tip.terminal || (std::abs(tip.d) <= options_.quiet_margin && ply >= options_.min_depth);
  }

  Node leaf_node(const G& game, const Move& m, int ply) {
    Node n;
    n.move = m;
    const Outcome outcome = game.outcome();
    if (outcome.is_terminal()) {
      n.terminal = true;
      n.value_h = n.value_f = terminal_score(outcome, game.side_to_move(), ply);
      return n;
    }
    n.value_h = eval_(game);
    n.d = tactics_(game);
    n.value_f = n.value_h + n.d;
    return n;
  }

  bool expand(G& game, std::uint32_t node, int ply) {
    typename G::MoveList list;
    game.generate_moves(list);
    if (list.empty() || pool_.size() + list.size() > options_.pool_nodes) return false;
    const auto first = static_cast<std::uint32_t>(pool_.size());
    for (const Move& m : list) {
      game.make_move(m);
      ++nodes_;
      pool_.push_back(leaf_node(game, m, ply + 1));
      game.unmake_move(m);
    }
    pool_[node].first_child = first;
    pool_[node].num_children = static_cast<std::uint32_t>(list.size());
    back_up(node);
    return true;
  }

  void back_up(std::uint32_t node) {
    Node& n = pool_[node];
    if (n.num_children == 0) return;
    n.value_h = n.value_f = -kScoreInfinite;
    for (std::uint32_t c = n.first_child; c < n.first_child + n.num_children; ++c) {
      n.value_h = std::max(n.value_h, -pool_[c].value_h);
      n.value_f = std::max(n.value_f, -pool_[c].value_f);
    }
  }

  std::uint32_t best_child(std::uint32_t node, bool by_f) const {
    const Node& n = pool_[node];
    std::uint32_t best = n.first_child;
    for (std::uint32_t c = n.first_child; c < n.first_child + n.num_children; ++c) {
      const int v = by_f ? -pool_[c].value_f : -pool_[c].value_h;
      const int b = by_f ? -pool_[best].value_f : -pool_[best].value_h;
      if (v > b) best = c;
    }
    return best;
  }

  SearchResult<Move> report(const G& root, SearchClock& clock) {
    SearchResult<Move> result;
    result.info.nodes = nodes_;
    result.info.seldepth = seldepth_;
    result.info.score = pool_[0].value_h;
    for (std::uint32_t n = 0; pool_[n].num_children > 0; ++result.info.depth)
      n = best_child(n, /*by_f=*/true);
    if (pool_[0].num_children > 0) {
      result.move = pool_[best_child(0, /*by_f=*/false)].move;
      G game = root;
      for (std::uint32_t n = 0; pool_[n].num_children > 0;) {
        n = best_child(n, /*by_f=*/false);
        result.info.pv.push_back(game.move_to_string(pool_[n].move));
        game.make_move(pool_[n].move);
      }
    } else if (!pool_[0].terminal) {
      typename G::MoveList list;  // stopped before the root was expanded
      root.generate_moves(list);
      if (!list.empty()) result.move = list[0];
    }
    result.info.time_ms = clock.elapsed_ms();
    return result;
  }

  Eval eval_;
  Tactics tactics_;
  BestFirstOptions options_;
  std::vector<Node> pool_;
  std::vector<std::uint32_t> path_;
  std::uint64_t nodes_ = 0;
  int seldepth_ = 0;
};

}  // namespace arena::search
