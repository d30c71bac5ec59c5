#pragma once
// The two baselines: a uniformly random legal move, and greedy one-ply search (the move
// whose resulting position the heuristic likes best; a win ends the choice at once).
// Reports: nodes, score (greedy: the chosen child's value; random: 0), depth 1, pv, time.

#include <cstdint>
#include <utility>

#include "bots/search/clock.h"
#include "bots/search/limits.h"
#include "bots/search/score.h"
#include "bots/search/search_info.h"
#include "bots/search/search_rng.h"
#include "games/core/game.h"

namespace arena::search {

template <Game G>
class RandomMover {
 public:
  using Move = typename G::Move;
  explicit RandomMover(std::uint64_t seed) : rng_(seed) {}

  SearchResult<Move> search(const G& game, const Limits& limits) {
    SearchClock clock(limits);
    SearchResult<Move> result;
    typename G::MoveList list;
    game.generate_moves(list);
    result.info.nodes = 1;
    if (list.empty()) return result;
    result.move = list[rng_.below(list.size())];
    result.info.depth = 1;
    result.info.pv = {game.move_to_string(*result.move)};
    result.info.time_ms = clock.elapsed_ms();
    return result;
  }

 private:
  SearchRng rng_;
};

template <Game G, class Eval>
class Greedy {
 public:
  using Move = typename G::Move;
  explicit Greedy(Eval eval) : eval_(std::move(eval)) {}

  SearchResult<Move> search(const G& root, const Limits& limits) {
    SearchClock clock(limits);
    SearchResult<Move> result;
    G game = root;
    typename G::MoveList list;
    game.generate_moves(list);
    result.info.nodes = 1;
    int best = -kScoreInfinite;
    for (const Move& m : list) {
      game.make_move(m);
      ++result.info.nodes;
      const Outcome outcome = game.outcome();
      const int score =
          outcome.is_terminal() ? -terminal_score(outcome, game.side_to_move(), 1) : -eval_(game);
      game.unmake_move(m);
      if (score > best) {
        best = score;
        result.move = m;
      }
    }
    if (result.move) {
      result.info.depth = result.info.seldepth = 1;
      result.info.score = best;
      result.info.pv = {root.move_to_string(*result.move)};
    }
    result.info.time_ms = clock.elapsed_ms();
    return result;
  }

 private:
  Eval eval_;
};

}  // namespace arena::search
