#pragma once
// A match between two weight vectors of the same feature set, both played by the same
// fixed-depth alpha-beta (plus quiescence if asked): games in colour-swapped pairs from the
// same random opening (as `arena match` plays them), a game past `max_plies` adjudicated a
// draw. Used by `arena learn` to compare learned weights with the classical ones.

#include <cstdint>
#include <functional>
#include <vector>

#include "bots/lab/feature_set.h"
#include "bots/lab/learn.h"
#include "bots/search/alphabeta.h"

namespace arena::lab {

struct LinearMatchOptions {
  int games = 100;
  int depth = 2;
  bool quiescence = false;
  int opening_plies = 6;
  int max_plies = 200;
  std::uint64_t seed = 1;
};

struct MatchTally {
  int wins = 0, losses = 0, draws = 0;  // for A
};

// on_game(i, tally) is called after each game (for progress).
template <Game G>
MatchTally linear_match(const G& start, const FeatureSet<G>& fs, const std::vector<double>& a,
                        const std::vector<double>& b, const LinearMatchOptions& o,
                        const std::function<void(int, const MatchTally&)>& on_game = {}) {
  const search::AlphaBetaOptions ab{false, false, true, o.quiescence, 10};
  search::AlphaBeta<G, LinearEval<G>> search_a(LinearEval<G>{&fs, a}, ab);
  search::AlphaBeta<G, LinearEval<G>> search_b(LinearEval<G>{&fs, b}, ab);
  const search::Limits limits = search::Limits::to_depth(o.depth);
  MatchTally t;
  for (int i = 0; i < o.games; ++i) {
    const bool a_first = i % 2 == 0;
    G g = random_opening<G, search::SearchRng>(start, o.opening_plies,
                                 o.seed * 7'919ULL + static_cast<std::uint64_t>(i / 2));
    for (int ply = 0; ply < o.max_plies && !g.outcome().is_terminal(); ++ply) {
      const bool a_to_move = (g.side_to_move() == Player::kFirst) == a_first;
      const auto r = (a_to_move ? search_a : search_b).search(g, limits);
      if (!r.move) break;
      g.make_move(*r.move);
    }
    const Outcome end = g.outcome();
    if (!end.is_terminal() || end.result == Result::kDraw) {
      ++t.draws;
    } else if ((end.result == Result::kFirstWins) == a_first) {
      ++t.wins;
    } else {
      ++t.losses;
    }
    if (on_game) on_game(i + 1, t);
  }
  return t;
}

}  // namespace arena::lab
