#include "games/gdl/ground/ground_join.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>

namespace arena::gdl::detail {

namespace {

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  return h * 0xFF51AFD7ED558CCDull;
}

bool simple(const Pattern& p) {
  return p.kind != Pattern::Kind::kCompound;
}

void collect_vars(const Pattern& p, std::vector<int>& out) {
  if (p.kind == Pattern::Kind::kVariable) out.push_back(p.var);
  for (const Pattern& a : p.args) collect_vars(a, out);
}

bool all_bound(const Pattern& p, const std::vector<bool>& bound) {
  if (p.kind == Pattern::Kind::kVariable) return bound[static_cast<std::size_t>(p.var)];
  return std::all_of(p.args.begin(), p.args.end(),
                     [&](const Pattern& a) { return all_bound(a, bound); });
}

}  // namespace

std::uint32_t AtomPositions::find(TermId atom) const {
  if (slots_.empty()) return kUnbound;
  for (std::size_t i = slot_of(atom); slots_[i] != kEmpty; i = (i + 1) & (slots_.size() - 1))
    if ((slots_[i] >> 32) == atom) return static_cast<std::uint32_t>(slots_[i]);
  return kUnbound;
}

bool AtomPositions::emplace(TermId atom, std::uint32_t position) {
  if ((size_ + 1) * 2 > slots_.size()) {
    decltype(slots_) old(slots_.empty() ? 16 : slots_.size() * 2, kEmpty);
    old.swap(slots_);
    for (std::uint64_t s : old)
      if (s != kEmpty) {
        std::size_t i = slot_of(static_cast<TermId>(s >> 32));
        while (slots_[i] != kEmpty) i = (i + 1) & (slots_.size() - 1);
        slots_[i] = s;
      }
  }
  std::size_t i = slot_of(atom);
  for (; slots_[i] != kEmpty; i = (i + 1) & (slots_.size() - 1))
    if ((slots_[i] >> 32) == atom) return false;
  slots_[i] = std::uint64_t{atom} << 32 | position;
  ++size_;
  return true;
}

bool Relation::add(TermId atom) {
  const bool inserted = position.emplace(atom, static_cast<std::uint32_t>(atoms.size()));
  if (inserted) atoms.push_back(atom);
  return inserted;
}

std::size_t Relation::index_for(const IndexKey& key) {
  for (std::size_t i = 0; i < indices.size(); ++i)
    if (indices[i].key == key) return i;
  indices.push_back({key, 0, {}});
  return indices.size() - 1;
}

bool Budget::tick() {
  if ((++steps & 0xFFF) != 0) return exceeded();  // the clock every 4,096 steps
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (failure.empty() && seconds > max_seconds)
    failure = "grounding took longer than " + std::to_string(max_seconds) + " s";
  return exceeded();
}

Pattern RuleCompiler::compile(const Term& t) {
  Pattern p;
  if (t.is_variable()) {
    p.kind = Pattern::Kind::kVariable;
    auto [it, inserted] = vars_.emplace(t.name, static_cast<int>(vars_.size()));
    p.var = it->second;
    return p;
  }
  if (t.is_ground()) {
    p.kind = Pattern::Kind::kGround;
    p.ground = pool_.from_term(t);
    return p;
  }
  p.kind = Pattern::Kind::kCompound;
  p.functor = t.name;
  for (const Term& a : t.args) p.args.push_back(compile(a));
  return p;
}

int RuleCompiler::relation_of(const Term& sentence) const {
  if (sentence.is_variable()) return -1;
  auto it = relation_ids_.find(sentence.name);
  return it == relation_ids_.end() ? -1 : it->second;
}

// Step order: the delta literal first, then every filter as soon as its variables are bound,
// then the positive literal with the most bound arguments (the smallest relation on a tie).
JoinEngine::Plan JoinEngine::make_plan(const CompiledRule& rule, int delta) const {
  Plan plan;
  plan.rule = &rule;
  plan.delta = delta;
  std::vector<bool> bound(static_cast<std::size_t>(rule.num_vars), false);
  std::vector<bool> used(rule.body.size(), false);
  auto place = [&](int i) {
    const Literal& lit = rule.body[static_cast<std::size_t>(i)];
    Step step;
    step.literal = i;
    if (lit.kind == Literal::Kind::kPositive && lit.atom.kind == Pattern::Kind::kCompound) {
      for (std::size_t a = 0; a < lit.atom.args.size() && a < 64; ++a) {
        const Pattern& arg = lit.atom.args[a];
        const auto at = static_cast<std::uint8_t>(a);
        if (simple(arg)) {
          if (all_bound(arg, bound)) step.key.slots.push_back({at, -1});
          continue;
        }
        bool any = false;
        for (std::size_t b = 0; b < arg.args.size() && b < 64; ++b)
          if (simple(arg.args[b]) && all_bound(arg.args[b], bound)) {
            step.key.slots.push_back({at, static_cast<std::int8_t>(b)});
            any = true;
          }
        if (any)
          step.key.shapes.push_back({at, arg.functor, static_cast<std::uint32_t>(arg.args.size())});
      }
    }
    std::vector<int> vars;
    collect_vars(lit.atom, vars);
    collect_vars(lit.other, vars);
    if (lit.kind == Literal::Kind::kPositive)
      for (int v : vars) bound[static_cast<std::size_t>(v)] = true;
    used[static_cast<std::size_t>(i)] = true;
    plan.steps.push_back(step);
  };
  if (delta >= 0) place(delta);
  for (;;) {
    bool placed_filter = false;
    for (std::size_t i = 0; i < rule.body.size(); ++i) {
      const Literal& lit = rule.body[i];
      if (used[i] || lit.kind == Literal::Kind::kPositive) continue;
      if (all_bound(lit.atom, bound) && all_bound(lit.other, bound)) {
        place(static_cast<int>(i));
        placed_filter = true;
      }
    }
    int best = -1;
    std::uint64_t best_score = 0;
    for (std::size_t i = 0; i < rule.body.size(); ++i) {
      const Literal& lit = rule.body[i];
      if (used[i] || lit.kind != Literal::Kind::kPositive) continue;
      const Relation& rel = relations_[static_cast<std::size_t>(lit.relation)];
      int bound_args = 0;
      for (const Pattern& a : lit.atom.args) bound_args += all_bound(a, bound) ? 1 : 0;
      const std::uint64_t size = rel.complete ? rel.atoms.size() : (1u << 30);
      const std::uint64_t score = (all_bound(lit.atom, bound) ? (1ull << 62) : 0) +
                                  (static_cast<std::uint64_t>(bound_args) << 40) +
                                  ((1ull << 40) - 1 - std::min<std::uint64_t>(size, 1ull << 39));
      if (best < 0 || score > best_score) {
        best = static_cast<int>(i);
        best_score = score;
      }
    }
    if (best >= 0) {
      place(best);
    } else if (!placed_filter) {
      break;
    }
  }
  return plan;
}

void JoinEngine::range_of(int literal, std::uint32_t& lo, std::uint32_t& hi) const {
  const Literal& lit = plan_->rule->body[static_cast<std::size_t>(literal)];
  const Relation& rel = relations_[static_cast<std::size_t>(lit.relation)];
  lo = 0;
  hi = static_cast<std::uint32_t>(rel.atoms.size());
  if (!rel.in_phase) return;
  if (literal < plan_->delta) {
    hi = rel.old_end;
  } else if (literal == plan_->delta) {
    lo = rel.old_end;
    hi = rel.delta_end;
  } else {
    hi = rel.delta_end;
  }
}

bool JoinEngine::match(const Pattern& p, TermId t) {
  switch (p.kind) {
    case Pattern::Kind::kGround:
      return p.ground == t;
    case Pattern::Kind::kVariable: {
      TermId& slot = bindings_[static_cast<std::size_t>(p.var)];
      if (slot != kUnbound) return slot == t;
      slot = t;
      trail_.push_back(p.var);
      return true;
    }
    case Pattern::Kind::kCompound: {
      if (pool_.functor(t) != p.functor) return false;
      auto args = pool_.args(t);
      if (args.size() != p.args.size()) return false;
      for (std::size_t i = 0; i < args.size(); ++i)
        if (!match(p.args[i], args[i])) return false;
      return true;
    }
  }
  return false;
}

TermId JoinEngine::instantiate(const Pattern& p) {
  switch (p.kind) {
    case Pattern::Kind::kGround:
      return p.ground;
    case Pattern::Kind::kVariable:
      return bindings_[static_cast<std::size_t>(p.var)];
    case Pattern::Kind::kCompound:
      break;
  }
  // The arguments on scratch_ (nested calls restore its size): no allocation per term.
  const std::size_t base = scratch_.size();
  for (const Pattern& a : p.args) {
    const TermId arg = instantiate(a);
    scratch_.push_back(arg);
  }
  const TermId id = pool_.make(p.functor, std::span(scratch_.data() + base, p.args.size()));
  scratch_.resize(base);
  return id;
}

std::uint64_t JoinEngine::key_of(const Pattern& atom, const IndexKey& key) const {
  std::uint64_t h = 0;
  for (const IndexKey::Slot& slot : key.slots) {
    const Pattern& top = atom.args[slot.arg];
    const Pattern& arg = slot.sub < 0 ? top : top.args[static_cast<std::size_t>(slot.sub)];
    h = mix(h, arg.kind == Pattern::Kind::kGround ? arg.ground
                                                  : bindings_[static_cast<std::size_t>(arg.var)]);
  }
  return h;
}

// Adds the atoms derived since the index was last used.
void JoinEngine::update(Relation::Index& index, const Relation& rel) {
  for (; index.covered < rel.atoms.size() && !budget_.tick(); ++index.covered) {
    auto args = pool_.args(rel.atoms[index.covered]);
    bool fits = true;
    for (const IndexKey::Shape& shape : index.key.shapes) {
      const TermId arg = shape.arg < args.size() ? args[shape.arg] : 0;
      fits = fits && shape.arg < args.size() && pool_.functor(arg) == shape.functor &&
             pool_.args(arg).size() == shape.arity;
    }
    if (!fits) continue;
    std::uint64_t h = 0;
    for (const IndexKey::Slot& slot : index.key.slots) {
      if (slot.arg >= args.size()) {
        fits = false;
        break;
      }
      h = mix(h, slot.sub < 0 ? args[slot.arg]
                              : pool_.args(args[slot.arg])[static_cast<std::size_t>(slot.sub)]);
    }
    if (fits) index.postings[h].push_back(static_cast<std::uint32_t>(index.covered));
  }
}

void JoinEngine::scan(std::size_t step, Relation& rel, const Literal& lit, int index_id) {
  const int literal = plan_->steps[step].literal;
  std::uint32_t lo = 0, hi = 0;
  range_of(literal, lo, hi);
  const std::size_t trail_size = trail_.size();
  auto visit = [&](std::uint32_t pos) {
    const TermId atom = rel.atoms[pos];
    if (match(lit.atom, atom)) {
      matched_[static_cast<std::size_t>(literal)] = atom;
      join(step + 1);
    }
    while (trail_.size() > trail_size) {
      bindings_[static_cast<std::size_t>(trail_.back())] = kUnbound;
      trail_.pop_back();
    }
  };
  if (lit.atom.kind == Pattern::Kind::kGround) {
    const std::uint32_t at = rel.position.find(lit.atom.ground);
    if (at != kUnbound && at >= lo && at < hi) visit(at);
    return;
  }
  if (index_id < 0) {
    for (std::uint32_t pos = lo; pos < hi && !budget_.tick(); ++pos) visit(pos);
    return;
  }
  Relation::Index& index = rel.indices[static_cast<std::size_t>(index_id)];
  update(index, rel);
  auto it = index.postings.find(key_of(lit.atom, index.key));
  if (it == index.postings.end()) return;
  const std::vector<std::uint32_t>& list = it->second;  // may grow while we iterate: by index
  std::size_t k =
      static_cast<std::size_t>(std::lower_bound(list.begin(), list.end(), lo) - list.begin());
  for (; k < list.size() && list[k] < hi && !budget_.tick(); ++k) visit(list[k]);
}

void JoinEngine::join(std::size_t step) {
  if (budget_.exceeded()) return;
  if (step == plan_->steps.size()) {
    emit();
    return;
  }
  const Step& s = plan_->steps[step];
  const Literal& lit = plan_->rule->body[static_cast<std::size_t>(s.literal)];
  switch (lit.kind) {
    case Literal::Kind::kPositive:
      scan(step, relations_[static_cast<std::size_t>(lit.relation)], lit, s.index);
      return;
    case Literal::Kind::kNegative: {
      const Relation& rel = relations_[static_cast<std::size_t>(lit.relation)];
      if (rel.complete && rel.position.count(instantiate(lit.atom)) != 0) return;
      join(step + 1);
      return;
    }
    case Literal::Kind::kDistinct:
    case Literal::Kind::kEqual: {
      const bool equal = instantiate(lit.atom) == instantiate(lit.other);
      if (equal == (lit.kind == Literal::Kind::kEqual)) join(step + 1);
      return;
    }
  }
}

void JoinEngine::emit() {
  const CompiledRule& rule = *plan_->rule;
  const TermId head = instantiate(rule.head);
  if (relations_[static_cast<std::size_t>(rule.head_relation)].add(head)) {
    if (++budget_.atoms > budget_.max_atoms && budget_.failure.empty())
      budget_.failure = "more than " + std::to_string(budget_.max_atoms) + " ground atoms";
  }
  if (!rule.record || out_ == nullptr) return;
  if (stats_ != nullptr) ++(*stats_)[{rule.source, rule.head_relation}];
  out_->heads.push_back(head);
  for (std::size_t i = 0; i < rule.body.size(); ++i) {
    const Literal& lit = rule.body[i];
    if (lit.kind != Literal::Kind::kPositive && lit.kind != Literal::Kind::kNegative) continue;
    const Relation& of = relations_[static_cast<std::size_t>(lit.relation)];
    if (of.complete || of.demand) continue;
    if (lit.kind == Literal::Kind::kPositive) {
      out_->literals.push_back(matched_[i] << 1);
    } else {
      out_->literals.push_back(instantiate(lit.atom) << 1 | 1u);
    }
  }
  out_->body_begin.push_back(static_cast<std::uint32_t>(out_->literals.size()));
  if (++budget_.rules > budget_.max_rules && budget_.failure.empty())
    budget_.failure = "more than " + std::to_string(budget_.max_rules) + " ground rules";
}

void JoinEngine::run_plan(const Plan& plan, RecordedRules* out) {
  plan_ = &plan;
  out_ = out;
  bindings_.assign(static_cast<std::size_t>(plan.rule->num_vars), kUnbound);
  trail_.clear();
  matched_.assign(plan.rule->body.size(), 0);
  join(0);
}

bool JoinEngine::run_phase(const std::vector<CompiledRule>& rules, RecordedRules* out) {
  // ARENA_GDL_GROUND_STATS: the 25 rules (source line, head relation id) that recorded the
  // most ground rules in this phase, on stderr, also when the budget was exceeded.
  std::map<std::pair<int, int>, std::size_t> stats;
  stats_ = std::getenv("ARENA_GDL_GROUND_STATS") != nullptr ? &stats : nullptr;
  struct Report {
    std::map<std::pair<int, int>, std::size_t>* s;
    ~Report() {
      if (s == nullptr) return;
      std::vector<std::pair<std::size_t, std::pair<int, int>>> v;
      for (const auto& [rule, n] : *s) v.push_back({n, rule});
      std::sort(v.rbegin(), v.rend());
      for (std::size_t i = 0; i < v.size() && i < 25; ++i)
        std::fprintf(stderr, "ground rules of line %d (head relation %d): %zu\n",
                     v[i].second.first, v[i].second.second, v[i].first);
    }
  } report{stats_};
  // Plans per rule: [0] with no delta literal (rules without an in-phase positive literal run
  // once), otherwise one per in-phase positive literal.
  std::vector<std::vector<Plan>> plans(rules.size());
  for (std::size_t r = 0; r < rules.size(); ++r) {
    for (std::size_t i = 0; i < rules[r].body.size(); ++i) {
      const Literal& lit = rules[r].body[i];
      if (lit.kind == Literal::Kind::kPositive &&
          relations_[static_cast<std::size_t>(lit.relation)].in_phase)
        plans[r].push_back(make_plan(rules[r], static_cast<int>(i)));
    }
    if (plans[r].empty()) plans[r].push_back(make_plan(rules[r], -1));
    for (Plan& plan : plans[r])
      for (Step& step : plan.steps) {
        const Literal& lit = rules[r].body[static_cast<std::size_t>(step.literal)];
        if (lit.kind != Literal::Kind::kPositive || step.key.slots.empty()) continue;
        Relation& rel = relations_[static_cast<std::size_t>(lit.relation)];
        step.index = static_cast<int>(rel.index_for(step.key));
      }
  }
  for (std::size_t r = 0; r < rules.size(); ++r)
    if (plans[r].front().delta < 0) run_plan(plans[r].front(), out);
  for (Relation& rel : relations_)
    if (rel.in_phase) rel.old_end = rel.delta_end = 0;
  for (;;) {
    bool grew = false;
    for (Relation& rel : relations_) {
      if (!rel.in_phase) continue;
      rel.old_end = rel.delta_end;
      rel.delta_end = static_cast<std::uint32_t>(rel.atoms.size());
      grew = grew || rel.old_end < rel.delta_end;
    }
    if (!grew || budget_.exceeded()) break;
    for (std::size_t r = 0; r < rules.size(); ++r) {
      for (const Plan& plan : plans[r]) {
        if (plan.delta < 0) continue;
        const Literal& lit = rules[r].body[static_cast<std::size_t>(plan.delta)];
        const Relation& rel = relations_[static_cast<std::size_t>(lit.relation)];
        if (rel.old_end < rel.delta_end) run_plan(plan, out);
      }
    }
  }
  return !budget_.exceeded();
}

}  // namespace arena::gdl::detail
