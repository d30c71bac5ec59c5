#include "bots/gdl/local_match.h"

#include <algorithm>

#include "games/core/rng.h"

namespace arena::gdl {
namespace {

using SteadyClock = std::chrono::steady_clock;

class Referee {
 public:
  Referee(StateMachine& machine, const LocalMatchConfig& config)
      : machine_(machine), config_(config), rng_(config.seed ^ 0x2545f4914f6cdd1dULL) {}

  Expected<LocalMatchResult> run(const std::vector<GdlPlayer*>& players) {
    const auto begin = SteadyClock::now();
    for (TermId role : machine_.roles()) result_.roles.push_back(text(role));
    if (players.size() != result_.roles.size())
      return make_error("the game has " + std::to_string(result_.roles.size()) + " roles; " +
                        std::to_string(players.size()) + " players were given");
    State state = machine_.initial_state();
    if (config_.on_state) config_.on_state(state);
    for (std::size_t r = 0; r < players.size(); ++r)
      players[r]->start(machine_, static_cast<int>(r), kNoStartClock);
    for (int step = 0; step < config_.max_steps; ++step) {
      if (machine_.is_terminal(state)) break;
      const bool opening = step < config_.opening_steps;
      auto joint = joint_move(state, players, opening, step);
      if (!joint) return make_error(joint.error());
      std::vector<std::string> texts;
      for (Move m : *joint) texts.push_back(text(m));
      result_.moves.push_back(std::move(texts));
      result_.opening_steps += opening;
      state = machine_.next_state(state, *joint);
      if (config_.on_state) config_.on_state(state);
    }
    if (auto why = machine_.failure(state); !why.empty())
      return make_error("the reasoner cannot answer about the state reached: " + why);
    result_.terminal = machine_.is_terminal(state);
    for (std::size_t r = 0; r < result_.roles.size(); ++r) {
      auto goal = machine_.goal(state, static_cast<int>(r));
      result_.goals.push_back(goal ? *goal : -1);
      if (!goal && result_.problem.empty()) result_.problem = goal.error();  // names the role
    }
    result_.seconds = std::chrono::duration<double>(SteadyClock::now() - begin).count();
    return std::move(result_);
  }

 private:
  std::string text(TermId t) const {
    return machine_.pool().to_kif(t, machine_.description().symbols);
  }

  // One move per role: the only legal one, a random one in the opening, else the player's.
  Expected<JointMove> joint_move(const State& state, const std::vector<GdlPlayer*>& players,
                                 bool opening, int step) {
    JointMove joint;
    for (std::size_t r = 0; r < players.size(); ++r) {
      const int role = static_cast<int>(r);
      const std::vector<Move> legal = machine_.legal_moves(state, role);
      if (auto why = machine_.failure(state); !why.empty())
        return make_error("step " + std::to_string(step + 1) +
                          ": the reasoner cannot answer: " + why);
      if (legal.empty())
        return make_error("step " + std::to_string(step + 1) + ": " + result_.roles[r] +
                          " has no legal move in a state that is not terminal (a bug of the "
                          "rules)");
      if (legal.size() == 1) {
        joint.push_back(legal.front());
      } else if (opening) {
        joint.push_back(legal[rng_.below(legal.size())]);
      } else {
        const Move m = players[r]->choose(state, SteadyClock::now() + config_.movetime);
        if (!std::binary_search(legal.begin(), legal.end(), m))
          return make_error("step " + std::to_string(step + 1) + ": " + result_.roles[r] + " (" +
                            std::string(players[r]->name()) + ") chose " + text(m) +
                            ", which is not legal");
        joint.push_back(m);
      }
    }
    return joint;
  }

  StateMachine& machine_;
  const LocalMatchConfig& config_;
  Rng rng_;
  LocalMatchResult result_;
};

}  // namespace

Expected<LocalMatchResult> play_local_match(StateMachine& machine,
                                            const std::vector<GdlPlayer*>& players,
                                            const LocalMatchConfig& config) {
  return Referee(machine, config).run(players);
}

}  // namespace arena::gdl
