#include "bots/gdl/uct.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

namespace arena::gdl {

UctSearch::UctSearch(StateMachine& machine, UctOptions options, Evaluator evaluator)
    : machine_(machine),
      options_(options),
      evaluator_(std::move(evaluator)),
      rng_(options.seed),
      roles_(machine.roles().size()) {}

std::vector<double> UctSearch::goals(const State& state) {
  std::vector<double> out(roles_, 0.0);
  for (std::size_t r = 0; r < roles_; ++r) {
    auto g = machine_.goal(state, static_cast<int>(r));
    if (g) out[r] = std::clamp(*g, 0, 100) / 100.0;  // no goal (a sheet's bug): 0
  }
  return out;
}

std::uint32_t UctSearch::add_node(State state) {
  Node n;
  n.state = std::move(state);
  n.terminal = machine_.is_terminal(n.state);
  if (!n.terminal) {
    n.legal.resize(roles_);
    for (std::size_t r = 0; r < roles_ && !n.terminal; ++r) {
      n.legal[r] = machine_.legal_moves(n.state, static_cast<int>(r));
      n.terminal = n.legal[r].empty();  // a role that cannot move ends the game (a sheet's bug)
    }
  }
  if (n.terminal) {
    n.legal.clear();
    n.rewards = goals(n.state);
  } else {
    for (const auto& moves : n.legal) {
      n.sum.emplace_back(moves.size(), 0.0);
      n.count.emplace_back(moves.size(), 0);
    }
    if (options_.bias > 0 && evaluator_) score_moves(n);
  }
  nodes_.push_back(std::move(n));
  return static_cast<std::uint32_t>(nodes_.size() - 1);
}

void UctSearch::score_moves(Node& node) {
  std::size_t mover = roles_;
  for (std::size_t r = 0; r < roles_; ++r) {
    if (node.legal[r].size() < 2) continue;
    if (mover != roles_) return;  // simultaneous choices: no bias
    mover = r;
  }
  if (mover == roles_) return;  // nobody has a choice
  node.prior.assign(roles_, {});
  JointMove joint(roles_);
  for (std::size_t r = 0; r < roles_; ++r) joint[r] = node.legal[r][0];
  for (Move m : node.legal[mover]) {
    joint[mover] = m;
    const State next = machine_.next_state(node.state, joint);
    const auto h = machine_.is_terminal(next) ? goals(next) : evaluator_(machine_, next);
    node.prior[mover].push_back(std::clamp(h[mover], 0.0, 1.0));
  }
}

std::uint32_t UctSearch::select_move(const Node& node, std::size_t role) {
  const auto& count = node.count[role];
  const std::size_t n = count.size();
  if (n == 1) return 0;
  const std::vector<double>* prior =
      role < node.prior.size() && !node.prior[role].empty() ? &node.prior[role] : nullptr;
  // Unvisited moves first, in random order (with a bias: the best h first, ties at random).
  std::uint32_t unvisited = 0;
  double best_h = -1;
  for (std::size_t i = 0; i < n; ++i) {
    if (count[i] != 0) continue;
    const double h = prior ? (*prior)[i] : 0.0;
    if (h > best_h) best_h = h, unvisited = 0;
    unvisited += h == best_h ? 1 : 0;
  }
  if (unvisited > 0) {
    std::uint64_t pick = rng_() % unvisited;
    for (std::size_t i = 0; i < n; ++i)
      if (count[i] == 0 && (prior ? (*prior)[i] : 0.0) == best_h && pick-- == 0)
        return static_cast<std::uint32_t>(i);
  }
  const double log_n = std::log(static_cast<double>(std::max<std::uint32_t>(node.visits, 1)));
  double best = -1;
  std::uint32_t best_i = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double visits = count[i];
    double ucb = node.sum[role][i] / visits + options_.c * std::sqrt(log_n / visits);
    if (prior) ucb += options_.bias * (*prior)[i] / (visits + 1);
    if (ucb > best) {
      best = ucb;
      best_i = static_cast<std::uint32_t>(i);
    }
  }
  return best_i;
}

std::optional<std::vector<double>> UctSearch::playout(State state) {
  JointMove joint(roles_);
  for (int turn = 0; turn < options_.max_playout_turns; ++turn) {
    if (machine_.is_terminal(state)) return goals(state);
    if (std::chrono::steady_clock::now() >= deadline_) return std::nullopt;
    if (evaluator_ && options_.cutoff >= 0 && turn >= options_.cutoff)
      return evaluator_(machine_, state);
    for (std::size_t r = 0; r < roles_; ++r) {
      auto legal = machine_.legal_moves(state, static_cast<int>(r));
      if (legal.empty()) return goals(state);
      joint[r] = legal[rng_() % legal.size()];
    }
    state = machine_.next_state(state, joint);
  }
  return evaluator_ ? evaluator_(machine_, state) : goals(state);
}

bool UctSearch::iterate() {
  std::vector<Step> path;
  std::optional<std::vector<double>> rewards;
  std::uint32_t id = 0;
  for (;;) {
    if (nodes_[id].terminal) {
      rewards = nodes_[id].rewards;
      break;
    }
    Step step{id, std::vector<std::uint32_t>(roles_)};
    std::uint64_t key = 0, radix = 1;
    for (std::size_t r = 0; r < roles_; ++r) {
      step.choice[r] = select_move(nodes_[id], r);
      key += step.choice[r] * radix;
      radix *= nodes_[id].legal[r].size();
    }
    path.push_back(step);
    auto it = nodes_[id].children.find(key);
    if (it != nodes_[id].children.end()) {
      id = it->second;
      continue;
    }
    JointMove joint(roles_);
    for (std::size_t r = 0; r < roles_; ++r) joint[r] = nodes_[id].legal[r][step.choice[r]];
    State next = machine_.next_state(nodes_[id].state, joint);
    if (nodes_.size() >= options_.max_nodes) {
      rewards = playout(std::move(next));
      break;
    }
    const std::uint32_t child = add_node(std::move(next));
    nodes_[id].children.emplace(key, child);
    if (nodes_[child].terminal)
      rewards = nodes_[child].rewards;
    else
      rewards = playout(nodes_[child].state);
    break;
  }
  if (!rewards) return false;  // the deadline came during the playout
  for (const Step& step : path) {
    Node& n = nodes_[step.node];
    ++n.visits;
    for (std::size_t r = 0; r < roles_; ++r) {
      ++n.count[r][step.choice[r]];
      n.sum[r][step.choice[r]] += (*rewards)[r];
    }
  }
  return true;
}

Move UctSearch::choose(const State& state, int role,
                       std::chrono::steady_clock::time_point deadline) {
  nodes_.clear();
  stats_ = {};
  deadline_ = deadline;
  add_node(state);
  const auto r = static_cast<std::size_t>(role);
  if (nodes_[0].terminal) return 0;  // the caller checks; nothing sensible to return
  if (nodes_[0].legal[r].size() == 1) return nodes_[0].legal[r][0];
  while ((options_.iterations == 0 || stats_.iterations < options_.iterations) &&
         std::chrono::steady_clock::now() < deadline) {
    if (iterate()) ++stats_.iterations;
  }
  const Node& root = nodes_[0];
  std::size_t best = 0;
  for (std::size_t i = 1; i < root.legal[r].size(); ++i) {
    const auto ci = root.count[r][i], cb = root.count[r][best];
    if (ci > cb || (ci == cb && ci > 0 && root.sum[r][i] / ci > root.sum[r][best] / cb))
      best = i;
  }
  stats_.nodes = nodes_.size();
  if (root.count[r][best] > 0) stats_.root_value = root.sum[r][best] / root.count[r][best];
  return root.legal[r][best];
}

}  // namespace arena::gdl
