#pragma once
// Monte Carlo tree search with UCT for any GDL game: any number of roles, simultaneous moves.
//
// Decoupled UCT: at each node every role keeps its own statistics per legal move and picks
// its move by UCB1 alone (visits and mean reward of that move, whatever the others did); the
// roles' picks make the joint move that leads to a child. A new child is evaluated by a random
// playout to a terminal state (rewards: each role's goal / 100), or, with an Evaluator and a
// cutoff, after `cutoff` random turns by the evaluator. The move played is the root's most
// visited move of the player's role.
//
// Progressive bias (options.bias = w > 0, with an Evaluator): when a node where one role alone
// has a choice is expanded, the evaluator scores the state after each of that role's moves
// once (a terminal state scores its goals), for that role: h in 0..1. Its untried moves are
// then tried best h first (ties in random order), and a tried move's UCB1 value gains
// w * h / (visits + 1), a bias that fades as the move is visited (Chaslot et al. 2008). Nodes
// where two or more roles choose at once (simultaneous moves) get no bias.
//
// Not thread-safe: one search on one thread, over a machine it does not own.

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <unordered_map>
#include <vector>

#include "games/gdl/prover/state_machine.h"

namespace arena::gdl {

struct UctOptions {
  double c = 0.7;                    // exploration constant (rewards are in 0..1)
  std::uint64_t iterations = 0;      // stop after this many iterations (0: the deadline only)
  std::size_t max_nodes = 200'000;   // the tree stops growing here (playouts go on)
  int max_playout_turns = 2'000;     // a playout longer than this is scored where it stops
  int cutoff = -1;                   // with an evaluator: random turns before evaluating
  double bias = 0;                   // progressive bias weight w (needs an evaluator)
  std::uint64_t seed = 1;
};

// Rewards per role in 0..1 for a state that is not terminal (the fuzzy goal heuristic).
using Evaluator = std::function<std::vector<double>(StateMachine&, const State&)>;

struct UctStats {
  std::uint64_t iterations = 0;
  std::size_t nodes = 0;
  double root_value = 0;  // the chosen move's mean reward, 0..1
};

class UctSearch {
 public:
  UctSearch(StateMachine& machine, UctOptions options, Evaluator evaluator = {});

  // The move of `role` in `state` (not terminal, the role has a legal move), searched until
  // `deadline` or the iteration limit, whichever comes first; a playout the deadline
  // interrupts is dropped, so the answer comes in time (the first legal move if nothing
  // was searched).
  Move choose(const State& state, int role, std::chrono::steady_clock::time_point deadline);
  const UctStats& stats() const { return stats_; }

 private:
  struct Node {
    State state;
    bool terminal = false;
    std::vector<double> rewards;              // terminal nodes
    std::vector<std::vector<Move>> legal;     // per role
    std::vector<std::vector<double>> sum;     // per role, per move
    std::vector<std::vector<std::uint32_t>> count;
    std::vector<std::vector<double>> prior;  // per role, per move: h of the move (bias only)
    std::uint32_t visits = 0;
    std::unordered_map<std::uint64_t, std::uint32_t> children;  // joint move key -> node
  };
  struct Step {
    std::uint32_t node;
    std::vector<std::uint32_t> choice;  // per role, an index into legal
  };

  std::uint32_t add_node(State state);
  // The progressive bias's h of each move of the node's only choosing role (see above).
  void score_moves(Node& node);
  // One iteration: selection, expansion, playout, backpropagation; false when the deadline
  // came during the playout (nothing is backed up).
  bool iterate();
  std::uint32_t select_move(const Node& node, std::size_t role);
  std::optional<std::vector<double>> playout(State state);
  std::vector<double> goals(const State& state);

  StateMachine& machine_;
  std::chrono::steady_clock::time_point deadline_;
  UctOptions options_;
  Evaluator evaluator_;
  std::mt19937_64 rng_;
  std::vector<Node> nodes_;
  std::size_t roles_ = 0;
  UctStats stats_;
};

}  // namespace arena::gdl
