// The compiled reasoner: ground() then Propnet::build(), behind the StateMachine interface.
// States travel as sorted TermId vectors; the network keeps the last one loaded, so asking
// several questions about one state (legal moves of each role, then next) loads it once, and
// loading a state near the loaded one flips only the fluents that differ.

#include "games/gdl/propnet/compiled.h"

#include <algorithm>
#include <chrono>
#include <unordered_map>

#include "games/gdl/propnet/propnet.h"

namespace arena::gdl {

namespace {

class CompiledMachine final : public StateMachine {
 public:
  CompiledMachine(std::shared_ptr<const Description> description, std::shared_ptr<TermPool> pool,
                  GroundProgram program, Propnet net)
      : StateMachine(std::move(description), std::move(pool)),
        program_(std::move(program)),
        net_(std::move(net)) {
    for (std::size_t i = 0; i < program_.fluents.size(); ++i)
      fluent_index_.emplace(program_.fluents[i], i);
    move_index_.resize(program_.roles.size());
    for (std::size_t r = 0; r < program_.roles.size(); ++r)
      for (std::size_t k = 0; k < program_.moves[r].size(); ++k)
        move_index_[r].emplace(program_.moves[r][k], static_cast<std::uint32_t>(k));
  }

  std::string_view kind() const override { return "compiled"; }
  const std::vector<TermId>& roles() const override { return program_.roles; }
  State initial_state() override { return program_.init; }

  bool is_terminal(const State& state) override {
    load(state);
    return net_.is_terminal();
  }

  std::vector<Move> legal_moves(const State& state, int role) override {
    std::vector<Move> out;
    if (role < 0 || role >= net_.num_roles()) return out;
    load(state);
    for (std::uint32_t k : net_.legal(role))
      out.push_back(program_.moves[static_cast<std::size_t>(role)][k]);
    std::sort(out.begin(), out.end());
    return out;
  }

  State next_state(const State& state, const JointMove& moves) override {
    load(state);
    joint_.assign(program_.roles.size(), Propnet::kNoMove);
    for (std::size_t r = 0; r < joint_.size() && r < moves.size(); ++r) {
      auto it = move_index_[r].find(moves[r]);
      if (it != move_index_[r].end()) joint_[r] = it->second;  // else: never legal, no input
    }
    net_.play(joint_);
    loaded_.clear();
    for (std::size_t i = 0; i < program_.fluents.size(); ++i)
      if (net_.holds(i)) loaded_.push_back(program_.fluents[i]);  // fluents are sorted
    return loaded_;
  }

  Expected<int> goal(const State& state, int role) override {
    if (role < 0 || role >= net_.num_roles())
      return make_error("goal: no role " + std::to_string(role));
    load(state);
    const int value = net_.goal(role);
    const std::string name = pool().to_kif(program_.roles[static_cast<std::size_t>(role)],
                                           description().symbols);
    if (value == -1) return make_error("no goal value holds for " + name + " in this state");
    if (value == -2) return make_error("several goal values hold for " + name + " in this state");
    return value;
  }

  Propnet& network() { return net_; }

 private:
  // Fluents the ground program does not know cannot hold in any reachable state; they are
  // ignored (no rule can read them).
  void load(const State& state) {
    if (has_loaded_ && state == loaded_) return;
    bits_.assign((program_.fluents.size() + 63) / 64, 0);
    for (TermId f : state) {
      auto it = fluent_index_.find(f);
      if (it != fluent_index_.end()) bits_[it->second / 64] |= std::uint64_t{1} << (it->second % 64);
    }
    net_.set_state(bits_);
    loaded_ = state;
    has_loaded_ = true;
  }

  GroundProgram program_;
  Propnet net_;
  std::unordered_map<TermId, std::size_t> fluent_index_;
  std::vector<std::unordered_map<TermId, std::uint32_t>> move_index_;
  State loaded_;
  bool has_loaded_ = false;
  std::vector<std::uint64_t> bits_;
  std::vector<std::uint32_t> joint_;
};

}  // namespace

Expected<std::unique_ptr<StateMachine>> make_compiled(
    std::shared_ptr<const Description> description, std::shared_ptr<TermPool> pool,
    const GroundLimits& limits) {
  if (!description) return make_error("make_compiled: no description");
  if (!pool) pool = std::make_shared<TermPool>();
  // limits.max_seconds bounds grounding and building the network together.
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(limits.max_seconds));
  auto program = detail::ground_program(*description, *pool, limits, /*split=*/true);
  if (!program) return make_error(program.error());
  auto net = Propnet::build(*program, *pool, description->symbols, deadline);
  if (!net) return make_error(description->source + ": " + net.error());
  return std::unique_ptr<StateMachine>(std::make_unique<CompiledMachine>(
      std::move(description), std::move(pool), std::move(*program), std::move(*net)));
}

Propnet* compiled_network(StateMachine& machine) {
  auto* compiled = dynamic_cast<CompiledMachine*>(&machine);
  return compiled ? &compiled->network() : nullptr;
}

}  // namespace arena::gdl
