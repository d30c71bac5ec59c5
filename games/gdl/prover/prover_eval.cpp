#include "games/gdl/prover/prover_eval.h"

#include <algorithm>
#include <array>

namespace arena::gdl::prover_detail {

Evaluator::Evaluator(Program program, const Description& description, TermPool& pool,
                     const ProverOptions& options)
    : program_(std::move(program)), description_(description), pool_(pool), limits_(options) {
  tables_.reserve(program_.relations.size());
  for (Relation& r : program_.relations) tables_.emplace_back(r.arity, r.indexes);
  done_.assign(program_.components.size(), 0);
  closures_.resize(program_.relations.size());
  snap_lo_.assign(program_.relations.size(), 0);
  snap_hi_.assign(program_.relations.size(), 0);
  memos_.resize(program_.relations.size());
  for (std::size_t r = 0; r < program_.relations.size(); ++r)
    for (std::size_t v = 0; v < program_.relations[r].variants.size(); ++v)
      memos_[r].emplace_back(program_.relations[r].arity);
}

void Evaluator::clear_layers(Layer from) {
  for (std::size_t c = 0; c < program_.components.size(); ++c) {
    const Component& comp = program_.components[c];
    if (comp.layer < from) continue;
    done_[c] = 0;
    for (std::uint32_t rel : comp.relations) {
      tables_[rel].clear();
      for (Memo& m : memos_[rel]) {
        if (m.calls.empty()) continue;
        m.rows.clear();
        m.keys.clear();
        m.calls.clear();
        m.by_key.clear();
      }
    }
  }
}

void Evaluator::begin_question(std::uint64_t max_steps) {
  max_steps_ = max_steps != 0 ? max_steps : limits_.max_steps;
  steps_ = facts_ = 0;
  abort_ = false;
  error_.clear();
}

std::vector<const Table*> Evaluator::sample() const {
  std::vector<const Table*> out(tables_.size(), nullptr);
  for (std::size_t rel = 0; rel < tables_.size(); ++rel) {
    const std::uint32_t c = program_.relations[rel].component;
    const bool input = rel == program_.true_rel || rel == program_.does_rel;
    if (input || (done_[c] && !program_.relations[rel].demand)) out[rel] = &tables_[rel];
  }
  return out;
}

void Evaluator::adopt_static(const Evaluator& other) {
  for (std::size_t c = 0; c < program_.components.size(); ++c) {
    const Component& comp = program_.components[c];
    if (comp.layer != Layer::kStatic) continue;
    const bool evaluated = std::all_of(comp.relations.begin(), comp.relations.end(), [&](auto r) {
      return other.done_[other.program_.relations[r].component] != 0;
    });
    if (!evaluated) continue;
    for (std::uint32_t rel : comp.relations) {
      const Table& from = other.tables_[rel];
      for (std::uint32_t r = 0; r < from.size(); ++r) tables_[rel].insert(from.row(r), pool_);
    }
    done_[c] = 1;
  }
}

bool Evaluator::ensure(std::uint32_t relation, bool static_only) {
  if (abort_) return false;
  std::vector<std::uint32_t>& closure = closures_[relation];
  if (closure.empty()) closure = program_.closure(relation);
  for (std::uint32_t c : closure) {
    if (done_[c] || (static_only && program_.components[c].layer != Layer::kStatic)) continue;
    evaluate(c);
    if (abort_) return false;
    done_[c] = 1;
  }
  return true;
}

void Evaluator::evaluate(std::uint32_t component) {
  const Component& comp = program_.components[component];
  if (comp.relations.size() == 1 && program_.relations[comp.relations[0]].demand) return;
  if (!comp.recursive) {
    for (std::uint32_t r : comp.rules) {
      run_rule(r, program_.rules[r].full);
      if (abort_) return;
    }
    return;
  }
  // Semi-naive: round one runs every rule over what is known; each further round joins the
  // facts the previous round added (snap_lo_..snap_hi_) through the delta plans.
  for (std::uint32_t rel : comp.relations) snap_lo_[rel] = 0, snap_hi_[rel] = tables_[rel].size();
  for (std::uint32_t r : comp.rules) {
    run_rule(r, program_.rules[r].full);
    if (abort_) return;
  }
  for (;;) {
    bool grew = false;
    for (std::uint32_t rel : comp.relations) {
      snap_lo_[rel] = snap_hi_[rel];
      snap_hi_[rel] = tables_[rel].size();
      grew = grew || snap_hi_[rel] > snap_lo_[rel];
    }
    if (!grew) return;
    for (std::uint32_t r : comp.rules) {
      const CompiledRule& rule = program_.rules[r];
      if (rule.naive) {
        run_rule(r, rule.full);
      } else {
        for (const Plan& delta : rule.deltas) {
          run_rule(r, delta);
          if (abort_) return;
        }
      }
      if (abort_) return;
    }
  }
}

void Evaluator::run_rule(std::uint32_t rule, const Plan& plan) {
  rule_ = rule;
  binding_.assign(program_.rules[rule].num_vars, kNone);
  trail_.clear();
  conts_.clear();
  solve(plan, 0);
}

void Evaluator::solve(const Plan& plan, std::size_t i) {
  if (i == plan.steps.size()) {
    finish();
    return;
  }
  const Step& s = plan.steps[i];
  switch (s.kind) {
    case Step::Kind::kAtom:
      for_each_match(s, [&] {
        solve(plan, i + 1);
        return true;
      });
      return;
    case Step::Kind::kNotAtom: {
      bool found = false;
      for_each_match(s, [&] {
        found = true;
        return false;
      });
      if (!found && !abort_) solve(plan, i + 1);
      return;
    }
    case Step::Kind::kNot:
      if (!exists(s.plans[0]) && !abort_) solve(plan, i + 1);
      return;
    case Step::Kind::kDistinct: {
      const TermId a = instantiate(s.args[0]);
      const TermId b = instantiate(s.args[1]);
      if (a != kNone && b != kNone && a != b) solve(plan, i + 1);
      return;
    }
    case Step::Kind::kOr:
      for (const Plan& alt : s.plans) {
        conts_.push_back({&plan, i + 1});
        solve(alt, 0);
        conts_.pop_back();
        if (abort_ || cut_) return;
      }
      return;
    case Step::Kind::kFail:
      return;
  }
}

template <class F>
void Evaluator::for_each_match(const Step& s, F&& on_match) {
  const bool call = s.variant >= 0;
  const Table& t = call ? memos_[s.relation][static_cast<std::size_t>(s.variant)].rows
                        : tables_[s.relation];
  std::uint32_t lo = 0, hi = t.size();
  if (call) {
    if (!answer_call(s, lo, hi)) return;
  } else if (s.range != Step::Range::kAll) {
    hi = snap_hi_[s.relation];
    if (s.range == Step::Range::kDelta) lo = snap_lo_[s.relation];
  }
  const std::size_t mark = trail_.size();
  // One candidate row: match it, go on, undo the bindings. False stops the loop.
  auto try_row = [&](std::uint32_t r) {
    if (++steps_ > max_steps_) {
      fail("the evaluation took more than " + std::to_string(max_steps_) +
           " join steps for one question");
      return false;
    }
    const TermId* row = t.row(r);  // read before on_match, which may add rows
    bool ok = true;
    for (std::size_t a = 0; a < s.args.size() && ok; ++a) ok = match(s.args[a], row[a]);
    const bool go_on = !ok || on_match();
    undo(mark);
    return go_on && !abort_ && !cut_;
  };
  if (s.index < 0 || call) {
    for (std::uint32_t r = lo; r < hi; ++r)
      if (!try_row(r)) return;
    return;
  }
  std::uint64_t key = kKeySeed;
  for (std::uint32_t node : s.key) key = key_step(key, value_of(node));
  const auto index = static_cast<std::size_t>(s.index);
  for (std::uint32_t r = t.first(index, key); r != kNone && r < hi; r = t.next(index, r))
    if (r >= lo && !try_row(r)) return;
}

bool Evaluator::answer_call(const Step& s, std::uint32_t& first, std::uint32_t& end) {
  Memo& memo = memos_[s.relation][static_cast<std::size_t>(s.variant)];
  std::vector<TermId> values;
  values.reserve(s.key.size());
  std::uint64_t key = kKeySeed;
  for (std::uint32_t node : s.key) {
    values.push_back(instantiate(node));
    if (values.back() == kNone) return false;
    key = key_step(key, values.back());
  }
  auto it = memo.by_key.find(key);
  for (std::uint32_t c = it == memo.by_key.end() ? kNone : it->second; c != kNone;
       c = memo.calls[c].next) {
    const Call& known = memo.calls[c];
    if (std::equal(values.begin(), values.end(), memo.keys.begin() + known.key_at)) {
      first = known.first;
      end = known.end;
      return true;
    }
  }
  Call fresh;
  fresh.first = memo.rows.size();
  evaluate_call(s, values, memo);
  if (abort_) return false;
  fresh.end = memo.rows.size();
  fresh.key_at = static_cast<std::uint32_t>(memo.keys.size());
  fresh.next = it == memo.by_key.end() ? kNone : it->second;
  memo.keys.insert(memo.keys.end(), values.begin(), values.end());
  memo.calls.push_back(fresh);
  memo.by_key[key] = static_cast<std::uint32_t>(memo.calls.size() - 1);
  first = fresh.first;
  end = fresh.end;
  return true;
}

// Runs the called relation's rules with the call's values bound, into the memo, and restores
// the caller's rule, bindings and continuations.
void Evaluator::evaluate_call(const Step& s, const std::vector<TermId>& values, Memo& memo) {
  const std::uint32_t saved_rule = rule_;
  std::vector<TermId> saved_binding;
  std::vector<std::uint32_t> saved_trail;
  std::vector<Frame> saved_conts;
  saved_binding.swap(binding_);
  saved_trail.swap(trail_);
  saved_conts.swap(conts_);
  Table* saved_sink = sink_;
  const bool saved_cut = cut_, saved_found = found_;
  sink_ = &memo.rows;
  const Relation& rel = program_.relations[s.relation];
  const Variant& variant = rel.variants[static_cast<std::size_t>(s.variant)];
  const Component& comp = program_.components[rel.component];
  for (std::size_t k = 0; k < comp.rules.size() && !abort_; ++k) {
    const std::uint32_t r = comp.rules[k];
    const CompiledRule& rule = program_.rules[r];
    rule_ = r;
    binding_.assign(rule.num_vars, kNone);
    trail_.clear();
    conts_.clear();
    cut_ = found_ = false;
    bool ok = true;
    for (std::size_t a = 0, j = 0; a < rule.head_args.size() && ok; ++a)
      if (variant.mask >> a & 1u) ok = match(rule.head_args[a], values[j++]);
    if (ok) solve(variant.plans[k], 0);
  }
  rule_ = saved_rule;
  binding_.swap(saved_binding);
  trail_.swap(saved_trail);
  conts_.swap(saved_conts);
  sink_ = saved_sink;
  cut_ = saved_cut;
  found_ = saved_found;
}

bool Evaluator::exists(const Plan& sub) {
  std::vector<Frame> saved;
  saved.swap(conts_);
  conts_.push_back({nullptr, 0});
  found_ = false;
  solve(sub, 0);
  const bool found = found_;
  found_ = cut_ = false;
  conts_.swap(saved);
  return found;
}

// The end of a plan: go on with the plan an `or` interrupted, end an existence check, or
// derive the rule's head.
void Evaluator::finish() {
  if (conts_.empty()) {
    emit();
    return;
  }
  const Frame f = conts_.back();
  if (f.plan == nullptr) {
    found_ = cut_ = true;
    return;
  }
  conts_.pop_back();
  solve(*f.plan, f.step);
  conts_.push_back(f);
}

void Evaluator::emit() {
  const CompiledRule& rule = program_.rules[rule_];
  scratch_.resize(rule.head_args.size());
  for (std::size_t a = 0; a < rule.head_args.size(); ++a) {
    const TermId v = instantiate(rule.head_args[a]);
    if (v == kNone) return;  // an unsafe rule's unbound variable: nothing derived
    if (depth(v) > limits_.max_term_depth) {
      fail("a derived term is nested deeper than " + std::to_string(limits_.max_term_depth) +
           " levels (the rules build ever larger terms)");
      return;
    }
    scratch_[a] = v;
  }
  Table& into = sink_ != nullptr ? *sink_ : tables_[rule.head];
  if (into.insert(scratch_.data(), pool_) && ++facts_ > limits_.max_facts)
    fail("more than " + std::to_string(limits_.max_facts) + " facts derived for one state");
}

bool Evaluator::match(std::uint32_t node, TermId t) {
  const PatternNode& n = program_.nodes[node];
  switch (n.kind) {
    case PatternNode::Kind::kConstant:
      return n.value == t;
    case PatternNode::Kind::kVariable:
      if (binding_[n.value] == kNone) {
        binding_[n.value] = t;
        trail_.push_back(n.value);
        return true;
      }
      return binding_[n.value] == t;
    case PatternNode::Kind::kCompound: {
      if (pool_.functor(t) != n.value) return false;
      const auto args = pool_.args(t);
      if (args.size() != n.arity) return false;
      for (std::uint32_t c = 0; c < n.arity; ++c)
        if (!match(program_.children[n.first + c], args[c])) return false;
      return true;
    }
  }
  return false;
}

TermId Evaluator::value_of(std::uint32_t node) const {
  const PatternNode& n = program_.nodes[node];
  return n.kind == PatternNode::Kind::kVariable ? binding_[n.value] : n.value;
}

TermId Evaluator::instantiate(std::uint32_t node) {
  const PatternNode& n = program_.nodes[node];
  if (n.kind != PatternNode::Kind::kCompound) return value_of(node);
  std::array<TermId, 8> small{};
  std::vector<TermId> large;
  TermId* args = small.data();
  if (n.arity > small.size()) {
    large.resize(n.arity);
    args = large.data();
  }
  for (std::uint32_t c = 0; c < n.arity; ++c) {
    args[c] = instantiate(program_.children[n.first + c]);
    if (args[c] == kNone) return kNone;
  }
  return pool_.make(n.value, {args, n.arity});
}

void Evaluator::undo(std::size_t mark) {
  while (trail_.size() > mark) {
    binding_[trail_.back()] = kNone;
    trail_.pop_back();
  }
}

std::uint32_t Evaluator::depth(TermId id) {
  while (depth_.size() <= id) {
    const auto next = static_cast<TermId>(depth_.size());
    std::uint32_t d = 0;
    for (TermId a : pool_.args(next)) d = std::max(d, depth_[a]);
    depth_.push_back(d + 1);
  }
  return depth_[id];
}

void Evaluator::fail(const std::string& what) {
  if (!abort_) {
    const Rule& rule = description_.rules[rule_];
    error_ = description_.source + ":" + std::to_string(rule.line) + ": rule " +
             description_.rule_text(rule) + ": prover: " + what;
  }
  abort_ = true;
}

}  // namespace arena::gdl::prover_detail
