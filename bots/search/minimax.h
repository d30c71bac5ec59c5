#pragma once
// Fixed-depth minimax ("MM"), plain: no pruning, no table, no ordering. It visits every
// node to the given depth, which makes it the reference that alpha-beta is tested against
// and the agent the AI-course exercises start from. Written in negamax form: the value of a
// node is the maximum over its moves of minus the child's value.
//
// eval: a callable int(const G&) scoring a position for the side to move (heuristic.h).
// Reports: depth = the depth searched, nodes, score, pv, time. Limits: `depth` (>= 1) plus
// optional nodes/time/stop; if stopped, the move is the best among the root moves finished.

#include <optional>
#include <utility>

#include "bots/search/clock.h"
#include "bots/search/limits.h"
#include "bots/search/pv_table.h"
#include "bots/search/score.h"
#include "bots/search/search_info.h"
#include "games/core/game.h"

namespace arena::search {

template <Game G, class Eval>
class Minimax {
 public:
  using Move = typename G::Move;

  explicit Minimax(Eval eval) : eval_(std::move(eval)) {}

  SearchResult<Move> search(const G& root, const Limits& limits) {
    SearchClock clock(limits);
    clock_ = &clock;
    nodes_ = 1;
    seldepth_ = 0;
    G game = root;
    const int depth = limits.depth > 0 ? limits.depth : 1;
    SearchResult<Move> result;
    typename G::MoveList list;
    game.generate_moves(list);
    int best = -kScoreInfinite;
    for (const Move& m : list) {
      game.make_move(m);
      ++nodes_;
      const int score = -negamax(game, depth - 1, 1);
      game.unmake_move(m);
      if (clock.stopped() && result.move) break;
      if (score > best) {
        best = score;
        result.move = m;
        pv_.update(0, m);
      }
    }
    result.info.depth = depth;
    result.info.seldepth = seldepth_;
    result.info.nodes = nodes_;
    result.info.score = result.move ? best : eval_(root);
    if (result.move) result.info.pv = pv_to_strings(root, pv_.line(0));
    result.info.time_ms = clock.elapsed_ms();
    return result;
  }

 private:
  int negamax(G& game, int depth, int ply) {
    pv_.clear_ply(ply);
    if (ply > seldepth_) seldepth_ = ply;
    const Outcome outcome = game.outcome();
    if (outcome.is_terminal()) return terminal_score(outcome, game.side_to_move(), ply);
    if (depth <= 0 || ply >= kMaxPly - 1 || clock_->out_of_budget(nodes_)) return eval_(game);
    typename G::MoveList list;
    game.generate_moves(list);
    if (list.empty()) return eval_(game);
    int best = -kScoreInfinite;
    for (const Move& m : list) {
      game.make_move(m);
      ++nodes_;
      const int score = -negamax(game, depth - 1, ply + 1);
      game.unmake_move(m);
      if (score > best) {
        best = score;
        pv_.update(ply, m);
      }
    }
    return best;
  }

  Eval eval_;
  SearchClock* clock_ = nullptr;
  std::uint64_t nodes_ = 0;
  int seldepth_ = 0;
  PvTable<Move> pv_;
};

}  // namespace arena::search
