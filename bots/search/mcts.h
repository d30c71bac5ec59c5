#pragma once
// Monte Carlo tree search with UCT: the baseline that needs no heuristic.
//
// Each iteration: Step 1, select children by UCB1 (mean result + c * sqrt(ln N / n)) down to
// a node not yet expanded; Step 2, expand it (all its children at once, into a node pool
// allocated once per search: no allocation per node); Step 3, play random moves to the end
// of the game or to the ply cap (a cap counts as a draw); Step 4, back the result up.
// Results are stored per node from the view of the player who made the move into the node.
//
// Limits: options.playouts, limits.nodes (counted in playouts too), movetime, stop; with
// none set, 10,000 playouts. When the pool is full, the tree stops growing and playouts go on.
// Reports: the most visited root move; score = 1000 * (2 * its mean result - 1), so +1000
// means it won every playout; depth = deepest tree ply; seldepth = deepest playout ply;
// nodes = positions visited (root + make_move calls); pv = the most visited line.
// Deterministic for a fixed seed and playout count.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "bots/search/clock.h"
#include "bots/search/limits.h"
#include "bots/search/search_info.h"
#include "bots/search/search_rng.h"
#include "games/core/game.h"

namespace arena::search {

struct MctsOptions {
  std::uint64_t playouts = 0;  // 0 = until another limit
  double exploration = 1.41421356;
  int max_playout_plies = 300;
  std::size_t pool_nodes = 1 << 18;
  std::uint64_t seed = 1;
};

template <Game G>
class Mcts {
 public:
  using Move = typename G::Move;
  explicit Mcts(MctsOptions options = {})
      : options_(options),
        rng_(options.seed),
        playout_moves_(static_cast<std::size_t>(std::max(options.max_playout_plies, 1))) {}

  SearchResult<Move> search(const G& root, const Limits& limits) {
    SearchClock clock(limits);
    pool_.clear();
    pool_.reserve(options_.pool_nodes);
    pool_.push_back(Node{});
    std::uint64_t budget = options_.playouts;
    if (limits.nodes != 0 && (budget == 0 || limits.nodes < budget)) budget = limits.nodes;
    if (budget == 0 && limits.movetime_ms == 0 && limits.stop == nullptr) budget = 10'000;
    nodes_ = 1;
    depth_ = seldepth_ = 0;
    G game = root;
    if (game.outcome().is_terminal()) return report(root, clock);
    for (std::uint64_t done = 0; budget == 0 || done < budget; ++done) {
      if (done > 0 && (done & 63) == 0 && clock.poll()) break;
      iterate(game);
      if (pool_[0].num_children == 0 && pool_[0].expanded) break;  // the root has no moves
    }
    return report(root, clock);
  }

 private:
  struct Node {
    Move move{};
    std::uint32_t first_child = 0;
    std::uint32_t num_children = 0;
    bool expanded = false;
    double visits = 0;
    double score = 0;  // sum of results for the player who moved into this node
  };

  void iterate(G& game) {
    path_.clear();
    path_.push_back(0);
    // Step 1. Selection.
    std::uint32_t node = 0;
    while (pool_[node].expanded && pool_[node].num_children > 0) {
      node = select_child(node);
      game.make_move(pool_[node].move);
      ++nodes_;
      path_.push_back(node);
    }
    // Step 2. Expansion.
    if (!pool_[node].expanded && !game.outcome().is_terminal()) expand(game, node);
    if (static_cast<int>(path_.size()) - 1 > depth_) depth_ = static_cast<int>(path_.size()) - 1;
    // Step 3. Simulation.
    const Outcome outcome = playout(game, static_cast<int>(path_.size()) - 1);
    // Step 4. Backpropagation, undoing the tree moves on the way.
    for (std::size_t i = path_.size(); i-- > 0;) {
      Node& n = pool_[path_[i]];
      n.visits += 1;
      if (i > 0) {
        game.unmake_move(n.move);
        n.score += result_for(outcome, game.side_to_move());  // the mover into n
      }
    }
  }

  std::uint32_t select_child(std::uint32_t parent) {
    const Node& p = pool_[parent];
    const double log_n = std::log(p.visits + 1);
    std::uint32_t best = p.first_child;
    double best_value = -1e300;
    for (std::uint32_t c = p.first_child; c < p.first_child + p.num_children; ++c) {
      const Node& n = pool_[c];
      if (n.visits == 0) return c;  // every child once before any twice
      const double value = n.score / n.visits + options_.exploration * std::sqrt(log_n / n.visits);
      if (value > best_value) {
        best_value = value;
        best = c;
      }
    }
    return best;
  }

  void expand(const G& game, std::uint32_t node) {
    typename G::MoveList list;
    game.generate_moves(list);
    if (pool_.size() + list.size() > options_.pool_nodes) return;  // the tree stops growing
    pool_[node].expanded = true;
    pool_[node].first_child = static_cast<std::uint32_t>(pool_.size());
    pool_[node].num_children = static_cast<std::uint32_t>(list.size());
    for (const Move& m : list) {
      Node child;
      child.move = m;
      pool_.push_back(child);
    }
  }

  Outcome playout(G& game, int tree_ply) {
    int plies = 0;
    Outcome outcome = game.outcome();
    typename G::MoveList list;
    while (!outcome.is_terminal() && plies < options_.max_playout_plies) {
      game.generate_moves(list);
      if (list.empty()) break;
      const Move m = list[rng_.below(list.size())];
      game.make_move(m);
      ++nodes_;
      playout_moves_[static_cast<std::size_t>(plies)] = m;
      ++plies;
      outcome = game.outcome();
    }
    if (tree_ply + plies > seldepth_) seldepth_ = tree_ply + plies;
    while (plies > 0) game.unmake_move(playout_moves_[static_cast<std::size_t>(--plies)]);
    if (!outcome.is_terminal()) return Outcome::draw(EndReason::kNone);
    return outcome;
  }

  static double result_for(Outcome outcome, Player p) {
    if (outcome.result == Result::kDraw || !outcome.is_terminal()) return 0.5;
    const bool first_wins = outcome.result == Result::kFirstWins;
    return first_wins == (p == Player::kFirst) ? 1.0 : 0.0;
  }

  std::uint32_t most_visited_child(std::uint32_t parent) const {
    const Node& p = pool_[parent];
    std::uint32_t best = p.first_child;
    for (std::uint32_t c = p.first_child; c < p.first_child + p.num_children; ++c)
      if (pool_[c].visits > pool_[best].visits) best = c;
    return best;
  }

  SearchResult<Move> report(const G& root, SearchClock& clock) {
    SearchResult<Move> result;
    result.info.nodes = nodes_;
    result.info.depth = depth_;
    result.info.seldepth = seldepth_;
    if (pool_[0].num_children > 0) {
      const std::uint32_t best = most_visited_child(0);
      result.move = pool_[best].move;
      const Node& b = pool_[best];
      const double mean = b.visits > 0 ? b.score / b.visits : 0.5;
      result.info.score = static_cast<int>(std::lround(1000.0 * (2.0 * mean - 1.0)));
      G game = root;
      for (std::uint32_t n = 0; pool_[n].num_children > 0 && pool_[n].visits > 0;) {
        n = most_visited_child(n);
        if (pool_[n].visits == 0) break;
        result.info.pv.push_back(game.move_to_string(pool_[n].move));
        game.make_move(pool_[n].move);
      }
    } else {
      // Not even the root was expanded (an empty budget): any legal move is still a move.
      typename G::MoveList list;
      root.generate_moves(list);
      if (!list.empty()) result.move = list[0];
    }
    result.info.time_ms = clock.elapsed_ms();
    return result;
  }

  MctsOptions options_;
  SearchRng rng_;
  std::vector<Node> pool_;
  std::vector<std::uint32_t> path_;
  std::vector<Move> playout_moves_;
  std::uint64_t nodes_ = 0;
  int depth_ = 0;
  int seldepth_ = 0;
};

}  // namespace arena::search
