#pragma once
// random_opening: the start of a fair game, `plies` random legal moves from a start position
// that never end the game. Leagues play both colours of a pair from it, matches and the lab
// vary their games with it. The same seed gives the same opening; a move that would end the
// game is taken back and the opening stops there, so every opening leaves a game to play.

#include <cstdint>
#include <string>
#include <vector>

#include "games/core/any_game.h"
#include "games/core/rng.h"

namespace arena {

// On a concrete game. `R` is the generator (its below(n) picks the move): games/core's Rng for
// leagues, search::SearchRng where a caller's published figures were measured with it. `moves`,
// if given, receives the moves played, as text.
template <class G, class R = Rng>
G random_opening(const G& start, int plies, std::uint64_t seed,
                 std::vector<std::string>* moves = nullptr) {
  R rng(seed);
  G g = start;
  typename G::MoveList list;
  for (int i = 0; i < plies && !g.outcome().is_terminal(); ++i) {
    g.generate_moves(list);
    if (list.empty()) break;
    const auto m = list[rng.below(list.size())];
    std::string text;
    if (moves) text = g.move_to_string(m);
    g.make_move(m);
    if (g.outcome().is_terminal()) {
      g.unmake_move(m);
      break;
    }
    if (moves) moves->push_back(std::move(text));
  }
  return g;
}

// The same through AnyGame (general games, which have no concrete type), in place, a turn at a
// time: each mover (AnyGame::movers(), several in a simultaneous GDL turn) plays a random legal
// move, drawn in the order of movers(). A turn-taking game makes the same moves as the concrete
// version with Rng where the legal moves are listed in the same order.
inline void random_opening(AnyGame& g, int plies, std::uint64_t seed) {
  Rng rng(seed);
  for (int i = 0; i < plies && !g.outcome().is_terminal(); ++i) {
    std::vector<std::string> turn;
    for (int seat : g.movers()) {
      const auto moves = g.legal_moves_of(seat);
      if (moves.empty()) return;
      turn.push_back(moves[rng.below(moves.size())]);
    }
    if (turn.empty() || !g.play_turn(turn)) break;
    if (g.outcome().is_terminal()) {
      g.undo();
      break;
    }
  }
}

}  // namespace arena
