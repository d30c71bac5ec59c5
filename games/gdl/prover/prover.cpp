#include "games/gdl/prover/prover.h"

#include <algorithm>
#include <utility>

#include "games/gdl/prover/prover_eval.h"
#include "games/gdl/prover/prover_program.h"

namespace arena::gdl {

namespace {

using prover_detail::Evaluator;
using prover_detail::Layer;
using prover_detail::Table;

std::vector<TermId> sorted_unique(std::vector<TermId> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

class Prover final : public StateMachine {
 public:
  Prover(std::shared_ptr<const Description> description, std::shared_ptr<TermPool> pool,
         const ProverOptions& options);

  std::string_view kind() const override { return "prover"; }
  const std::vector<TermId>& roles() const override { return roles_; }
  State initial_state() override { return initial_; }
  bool is_terminal(const State& state) override;
  std::vector<Move> legal_moves(const State& state, int role) override;
  State next_state(const State& state, const JointMove& moves) override;
  Expected<int> goal(const State& state, int role) override;
  std::string failure(const State& state) override {
    (void)load(state);  // the state held already, or one next_state cut short
    return state_error_;
  }

 private:
  void replan();
  bool load(const State& state);
  bool ask(std::uint32_t relation);
  std::string role_name(int role) const;

  ProverOptions options_;
  std::unique_ptr<Evaluator> eval_;  // null when the description could not be compiled
  std::string fatal_;                // why, or why the static relations failed
  std::vector<TermId> roles_;
  State initial_;
  // The state whose facts the evaluator holds, and its error if a question about it failed.
  State cached_;
  bool has_cached_ = false;
  std::string state_error_;
  // States next_state cut short (a limit hit while deriving them), with the error; a few.
  std::vector<std::pair<State, std::string>> tainted_;
};

Prover::Prover(std::shared_ptr<const Description> description, std::shared_ptr<TermPool> pool,
               const ProverOptions& options)
    : StateMachine(std::move(description), std::move(pool)), options_(options) {
  for (Symbol r : this->description().roles()) roles_.push_back(this->pool().constant(r));
  auto program =
      prover_detail::compile_program(this->description(), this->pool(), options_.demand);
  if (!program) {
    fatal_ = program.error();
    return;
  }
  eval_ = std::make_unique<Evaluator>(std::move(*program), this->description(), this->pool(),
                                      options_);
  // The static relations are evaluated here, once, and kept for every state.
  const auto& p = eval_->program();
  eval_->begin_question();
  for (std::uint32_t rel : {p.init_rel, p.legal_rel, p.next_rel, p.goal_rel, p.terminal_rel}) {
    if (!eval_->ensure(rel, true)) {
      fatal_ = eval_->error();
      return;
    }
  }
  const Table& init = eval_->table(p.init_rel);
  for (std::uint32_t r = 0; r < init.size(); ++r) initial_.push_back(init.row(r)[0]);
  initial_ = sorted_unique(std::move(initial_));
  replan();
}

// Plans the rules again with statistics: the static relations' sizes, and the relations of the
// initial state and of its first joint move as the first plans evaluate them (each within a
// small budget; what it cannot finish stays unknown). The first plans could only count bound
// arguments. The static facts are kept.
void Prover::replan() {
  if (!options_.replan) return;
  const auto& p = eval_->program();
  for (TermId fluent : initial_) eval_->load(p.true_rel, &fluent);
  constexpr std::uint64_t kSampleSteps = 2'000'000;
  bool ok = true;
  for (std::uint32_t rel : {p.legal_rel, p.terminal_rel, p.goal_rel}) {
    eval_->begin_question(kSampleSteps);
    ok = eval_->ensure(rel) && ok;
  }
  if (ok) {
    const Table& legal = eval_->table(p.legal_rel);
    for (TermId role : roles_) {
      for (std::uint32_t r = 0; r < legal.size(); ++r) {
        if (legal.row(r)[0] != role) continue;
        eval_->load(p.does_rel, legal.row(r));
        break;
      }
    }
    eval_->begin_question(kSampleSteps);
    (void)eval_->ensure(p.next_rel);
  }
  const std::vector<const Table*> sample = eval_->sample();
  auto program = prover_detail::compile_program(description(), pool(), options_.demand, &sample);
  if (!program) return;  // the first plans stay
  auto planned = std::make_unique<Evaluator>(std::move(*program), description(), pool(), options_);
  planned->adopt_static(*eval_);
  eval_ = std::move(planned);
}

bool Prover::load(const State& state) {
  if (!fatal_.empty()) {
    state_error_ = fatal_;
    return false;
  }
  if (has_cached_ && state == cached_) return state_error_.empty();
  eval_->clear_layers(Layer::kState);
  const std::uint32_t true_rel = eval_->program().true_rel;
  for (TermId fluent : state) eval_->load(true_rel, &fluent);
  cached_ = state;
  has_cached_ = true;
  state_error_.clear();
  for (const auto& [s, error] : tainted_)
    if (s == state) state_error_ = error;
  return state_error_.empty();
}

bool Prover::ask(std::uint32_t relation) {
  eval_->begin_question();
  if (eval_->ensure(relation)) return true;
  state_error_ = eval_->error();
  return false;
}

bool Prover::is_terminal(const State& state) {
  if (!load(state) || !ask(eval_->program().terminal_rel)) return true;
  return eval_->table(eval_->program().terminal_rel).size() > 0;
}

std::vector<Move> Prover::legal_moves(const State& state, int role) {
  if (role < 0 || static_cast<std::size_t>(role) >= roles_.size()) return {};
  if (!load(state) || !ask(eval_->program().legal_rel)) return {};
  const Table& legal = eval_->table(eval_->program().legal_rel);
  std::vector<Move> moves;
  const TermId who = roles_[static_cast<std::size_t>(role)];
  for (std::uint32_t r = 0; r < legal.size(); ++r)
    if (legal.row(r)[0] == who) moves.push_back(legal.row(r)[1]);
  return sorted_unique(std::move(moves));
}

State Prover::next_state(const State& state, const JointMove& moves) {
  if (!load(state)) return state;
  const auto& p = eval_->program();
  if (moves.size() != roles_.size()) {
    state_error_ = description().source + ": prover: a joint move of " +
                   std::to_string(moves.size()) + " moves for " + std::to_string(roles_.size()) +
                   " roles";
    return state;
  }
  eval_->clear_layers(Layer::kMove);
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const TermId does[2] = {roles_[i], moves[i]};
    eval_->load(p.does_rel, does);
  }
  const bool ok = ask(p.next_rel);
  const Table& next = eval_->table(p.next_rel);
  State out;
  out.reserve(next.size());
  for (std::uint32_t r = 0; r < next.size(); ++r) out.push_back(next.row(r)[0]);
  out = sorted_unique(std::move(out));
  if (!ok) {
    if (tainted_.size() >= 16) tainted_.erase(tainted_.begin());
    tainted_.emplace_back(out, state_error_);
  }
  return out;
}

std::string Prover::role_name(int role) const {
  return shared_pool()->to_kif(roles_[static_cast<std::size_t>(role)], description().symbols);
}

Expected<int> Prover::goal(const State& state, int role) {
  if (role < 0 || static_cast<std::size_t>(role) >= roles_.size())
    return make_error(description().source + ": no role number " + std::to_string(role));
  if (!load(state) || !ask(eval_->program().goal_rel)) return make_error(state_error_);
  const Table& goals = eval_->table(eval_->program().goal_rel);
  const TermId who = roles_[static_cast<std::size_t>(role)];
  std::vector<TermId> values;
  for (std::uint32_t r = 0; r < goals.size(); ++r)
    if (goals.row(r)[0] == who) values.push_back(goals.row(r)[1]);
  values = sorted_unique(std::move(values));
  const std::string where = description().source + ": goal of " + role_name(role);
  if (values.empty()) return make_error(where + ": the rules give no goal value in this state");
  auto text = [&](TermId v) { return shared_pool()->to_kif(v, description().symbols); };
  if (values.size() > 1)
    return make_error(where + ": the rules give several goal values in this state (" +
                      text(values[0]) + ", " + text(values[1]) + ")");
  const std::string value = text(values[0]);
  int number = 0;
  const bool digits =
      !value.empty() && value.size() <= 3 &&
      std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (digits) number = std::stoi(value);
  if (!digits || number > 100)
    return make_error(where + ": the goal value " + value + " is not a number in 0..100");
  return number;
}

}  // namespace

std::unique_ptr<StateMachine> make_prover(std::shared_ptr<const Description> description,
                                          std::shared_ptr<TermPool> pool,
                                          const ProverOptions& options) {
  if (!pool) pool = std::make_shared<TermPool>();
  return std::make_unique<Prover>(std::move(description), std::move(pool), options);
}

}  // namespace arena::gdl
