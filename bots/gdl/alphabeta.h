#pragma once
// Iterative deepening alpha-beta for GDL games of two roles taking turns, with a heuristic at
// the leaves (the fuzzy goal heuristic for the `fuzzy-ab` player, bots/gdl/gdl_player.h).
//
// In a state, the role to move is the one with more than one legal move (the other's single
// move is its noop); when neither has a choice, the first role's single move is searched as
// the one move of that turn. A state where both roles choose (simultaneous moves) is not
// searched: choose() says so and the caller plays otherwise.
//
// Scores are for the searching role `me` against the other role `them`: a terminal state
// scores 2 * (goal(me) - goal(them)) (-200..200), a leaf at the depth limit
// h(me) - h(them) with h in 0..100 (-100..100), so a proven win outranks every heuristic
// leaf and a proven loss is below all. Depths 1, 2, ... until the deadline or `max_depth`, or
// until a depth's search reached no depth-limited leaf (the game tree is searched to its end);
// the root's best move of the last finished depth is searched first at the next, and a depth
// the deadline interrupts keeps the best move found so far only if its first (the previous
// best) move was finished.
//
// Not thread-safe: one search on one thread, over a machine it does not own.

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <vector>

#include "games/gdl/prover/state_machine.h"

namespace arena::gdl {

// The heuristic values of a state that is not terminal, per role, 0..100.
using LeafValues = std::function<std::vector<double>(const State&)>;

struct AlphaBetaOptions {
  int max_depth = 64;      // plies of the deepest iteration
  std::uint64_t seed = 1;  // the root's moves are shuffled once (ties go to the first found)
};

struct AlphaBetaStats {
  std::uint64_t nodes = 0;  // states searched by the last choose()
  int depth = 0;            // the last depth finished
  double score = 0;         // the chosen move's score, -200..200 as above
};

class GdlAlphaBeta {
 public:
  GdlAlphaBeta(StateMachine& machine, LeafValues leaf, AlphaBetaOptions options = {});

  // The move of `me` in `state` (not terminal, `me` has a legal move) by `deadline`; nullopt
  // where the game has not two roles or both roles choose in `state` (simultaneous moves).
  std::optional<Move> choose(const State& state, int me,
                             std::chrono::steady_clock::time_point deadline);
  const AlphaBetaStats& stats() const { return stats_; }

 private:
  // The role that chooses in `state` (its moves in `moves`), or -1 where both do.
  int mover(const State& state, std::vector<Move>& moves);
  // Minimax with alpha-beta: the score for me_ of `state` searched `depth` plies; nullopt
  // when the deadline came (nothing of it is used).
  std::optional<double> search(const State& state, int depth, double alpha, double beta);
  std::optional<double> leaf_score(const State& state);
  // One iteration at the root: the best move's index and score; nullopt when cut short before
  // the first move was finished.
  std::optional<std::pair<std::size_t, double>> root(const State& state, int depth,
                                                     const std::vector<Move>& moves, int who);

  StateMachine& machine_;
  LeafValues leaf_;
  AlphaBetaOptions options_;
  std::mt19937_64 rng_;
  std::chrono::steady_clock::time_point deadline_;
  int me_ = 0;
  bool cut_by_depth_ = false;  // this iteration met a depth-limited leaf
  AlphaBetaStats stats_;
};

}  // namespace arena::gdl
