#include "bots/gdl/alphabeta.h"

#include <algorithm>
#include <utility>

namespace arena::gdl {

GdlAlphaBeta::GdlAlphaBeta(StateMachine& machine, LeafValues leaf, AlphaBetaOptions options)
    : machine_(machine), leaf_(std::move(leaf)), options_(options), rng_(options.seed) {}

int GdlAlphaBeta::mover(const State& state, std::vector<Move>& moves) {
  std::vector<Move> a = machine_.legal_moves(state, 0), b = machine_.legal_moves(state, 1);
  if (a.size() > 1 && b.size() > 1) return -1;
  const bool second = b.size() > 1 || a.empty();
  moves = second ? std::move(b) : std::move(a);
  return second ? 1 : 0;
}

std::optional<double> GdlAlphaBeta::leaf_score(const State& state) {
  if (machine_.is_terminal(state)) {
    auto mine = machine_.goal(state, me_), theirs = machine_.goal(state, 1 - me_);
    return 2.0 * ((mine ? *mine : 0) - (theirs ? *theirs : 0));
  }
  return std::nullopt;
}

std::optional<double> GdlAlphaBeta::search(const State& state, int depth, double alpha,
                                           double beta) {
  ++stats_.nodes;
  if (std::chrono::steady_clock::now() >= deadline_) return std::nullopt;
  if (auto end = leaf_score(state)) return end;
  std::vector<Move> moves;
  const int who = depth > 0 ? mover(state, moves) : -1;
  if (who < 0 || moves.empty()) {  // the depth limit, or simultaneous choices: a leaf
    cut_by_depth_ = true;
    const std::vector<double> h = leaf_(state);
    return h[static_cast<std::size_t>(me_)] - h[static_cast<std::size_t>(1 - me_)];
  }
  const std::vector<Move> other = machine_.legal_moves(state, 1 - who);
  JointMove joint(2);
  joint[static_cast<std::size_t>(1 - who)] = other.empty() ? Move{0} : other.front();
  const bool maximize = who == me_;
  double best = maximize ? -1e9 : 1e9;
  for (Move m : moves) {
    joint[static_cast<std::size_t>(who)] = m;
    auto v = search(machine_.next_state(state, joint), depth - 1, alpha, beta);
    if (!v) return std::nullopt;
    if (maximize) {
      best = std::max(best, *v);
      alpha = std::max(alpha, best);
    } else {
      best = std::min(best, *v);
      beta = std::min(beta, best);
    }
    if (alpha >= beta) break;
  }
  return best;
}

std::optional<std::pair<std::size_t, double>> GdlAlphaBeta::root(const State& state, int depth,
                                                                 const std::vector<Move>& moves,
                                                                 int who) {
  const std::vector<Move> other = machine_.legal_moves(state, 1 - who);
  JointMove joint(2);
  joint[static_cast<std::size_t>(1 - who)] = other.empty() ? Move{0} : other.front();
  std::optional<std::pair<std::size_t, double>> best;
  double alpha = -1e9;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    joint[static_cast<std::size_t>(who)] = moves[i];
    auto v = search(machine_.next_state(state, joint), depth - 1, alpha, 1e9);
    if (!v) break;
    if (!best || *v > best->second) best = std::pair{i, *v};
    alpha = std::max(alpha, *v);
  }
  return best;
}

std::optional<Move> GdlAlphaBeta::choose(const State& state, int me,
                                         std::chrono::steady_clock::time_point deadline) {
  stats_ = {};
  if (machine_.roles().size() != 2) return std::nullopt;
  me_ = me;
  deadline_ = deadline;
  std::vector<Move> moves;
  const int who = mover(state, moves);
  if (who < 0) return std::nullopt;
  if (who != me || moves.size() == 1) {  // my one move (a noop, or forced)
    auto mine = machine_.legal_moves(state, me);
    return mine.empty() ? std::nullopt : std::optional<Move>(mine.front());
  }
  std::shuffle(moves.begin(), moves.end(), rng_);
  for (int depth = 1; depth <= options_.max_depth; ++depth) {
    cut_by_depth_ = false;
    auto best = root(state, depth, moves, who);
    if (!best) break;  // not even the previous best move was finished
    std::rotate(moves.begin(), moves.begin() + static_cast<std::ptrdiff_t>(best->first),
                moves.begin() + static_cast<std::ptrdiff_t>(best->first) + 1);
    stats_.score = best->second;
    if (std::chrono::steady_clock::now() >= deadline) break;  // cut short: keep its best so far
    stats_.depth = depth;
    if (!cut_by_depth_) break;  // searched to the end of the game
  }
  return moves.front();
}

}  // namespace arena::gdl
