#include <algorithm>

#include "games/gdl/prover/prover_plan.h"

namespace arena::gdl::prover_detail {

Planner::Planner(Program& p, const TermPool& pool, const std::vector<ParsedRule>& parsed,
                 bool demand, const std::vector<const Table*>* sample)
    : p_(p), parsed_(parsed), demand_wanted_(demand) {
  if (sample != nullptr) estimates_.emplace(p_, pool, *sample);
}

void Planner::run() {
  choose_demand();
  compile_all();
}

// Higher first. Filters whose variables are all bound come first (they only cut), literals that
// cannot run yet (a negation or distinct with an unbound variable) last; among the others the
// one expected to yield the fewest rows per binding (the most bound one when no sizes are known).
double Planner::score(const Lit& lit, const std::vector<char>& bound) {
  int unbound = 0;
  for (std::uint32_t v : lit.vars) unbound += bound[v] ? 0 : 1;
  switch (lit.kind) {
    case Step::Kind::kFail:
      return 1e7;
    case Step::Kind::kDistinct:
      return unbound == 0 ? 5e6 : -2e12;
    case Step::Kind::kNot:
      return unbound == 0 ? 4e6 : -1e12 - unbound;
    case Step::Kind::kOr:
      if (unbound == 0) return 3e6;
      if (!estimates_) return -1e6 - unbound;
      {  // the rows of its alternatives together; one that cannot run yet puts it last
        double rows = 0;
        for (const Lit& alt : lit.subs) {
          const double s = score(alt, bound);
          rows += s >= 1e6 ? 1.0 : s <= -1e12 ? 1e12 : -s;
        }
        return -rows;
      }
    default:
      break;
  }
  if (unbound == 0) return 2e6;  // a lookup of one fact
  if (estimates_) return -estimates_->fanout(lit, bound);
  const int keys = static_cast<int>(index_def(p_, lit, bound, nullptr).size());
  return 500 + 50 * keys - 10 * unbound + (lit.relation == p_.true_rel ? 5 : 0);
}

// The step that reads an atom's table given the bound variables, its index made if new.
Step Planner::probe(const Lit& lit, const std::vector<char>& bound, Step::Kind kind) {
  Step s;
  s.kind = kind;
  s.relation = lit.relation;
  s.args = lit.args;
  IndexDef def = index_def(p_, lit, bound, &s.key);
  if (def.empty()) return s;
  auto& defs = p_.relations[lit.relation].indexes;
  auto it = std::find(defs.begin(), defs.end(), def);
  s.index = static_cast<std::int32_t>(it - defs.begin());
  if (it == defs.end()) defs.push_back(std::move(def));
  return s;
}

Step Planner::step(const Lit& lit, std::vector<char>& bound, std::uint32_t component, bool delta) {
  Step s;
  switch (lit.kind) {
    case Step::Kind::kAtom:
      s = p_.relations[lit.relation].demand ? call(lit, bound, Step::Kind::kAtom)
                                            : probe(lit, bound, Step::Kind::kAtom);
      if (p_.relations[lit.relation].component == component && p_.components[component].recursive)
        s.range = delta ? Step::Range::kDelta : Step::Range::kSnapshot;
      for (std::uint32_t v : lit.vars) bound[v] = 1;
      return s;
    case Step::Kind::kNot:
      if (lit.subs[0].kind == Step::Kind::kAtom) {
        return p_.relations[lit.subs[0].relation].demand
                   ? call(lit.subs[0], bound, Step::Kind::kNotAtom)
                   : probe(lit.subs[0], bound, Step::Kind::kNotAtom);
      }
      s.kind = Step::Kind::kNot;
      {
        std::vector<char> inner = bound;
        s.plans.push_back(plan({&lit.subs[0]}, inner, component, false));
      }
      return s;
    case Step::Kind::kOr: {
      s.kind = Step::Kind::kOr;
      std::vector<int> bound_by_all(bound.size(), 0);
      for (const Lit& alt : lit.subs) {
        std::vector<char> inner = bound;
        s.plans.push_back(plan({&alt}, inner, component, false));
        for (std::size_t v = 0; v < inner.size(); ++v) bound_by_all[v] += inner[v];
      }
      // Later steps may count on a variable only when every alternative binds it.
      for (std::size_t v = 0; v < bound.size(); ++v)
        if (bound_by_all[v] == static_cast<int>(lit.subs.size())) bound[v] = 1;
      return s;
    }
    case Step::Kind::kDistinct:
      s.kind = Step::Kind::kDistinct;
      s.args = lit.args;
      return s;
    default:
      return s;
  }
}

// Greedy order: the best scored literal next, ties in the sheet's order.
Plan Planner::plan(std::vector<const Lit*> lits, std::vector<char>& bound, std::uint32_t component,
                    bool delta_first) {
  Plan out;
  if (delta_first) {
    out.steps.push_back(step(*lits.front(), bound, component, true));
    lits.erase(lits.begin());
  }
  while (!lits.empty()) {
    std::size_t best = 0;
    double best_score = score(*lits[0], bound);
    for (std::size_t i = 1; i < lits.size(); ++i) {
      const double s = score(*lits[i], bound);
      if (s > best_score) best = i, best_score = s;
    }
    out.steps.push_back(step(*lits[best], bound, component, false));
    lits.erase(lits.begin() + static_cast<std::ptrdiff_t>(best));
  }
  return out;
}

void Planner::compile_rule(const ParsedRule& r) {
  CompiledRule c;
  c.head = r.head;
  c.head_args = r.head_args;
  c.num_vars = r.num_vars;
  c.line = r.line;
  if (p_.relations[r.head].demand) {  // planned per call pattern (compile_variant)
    p_.rules.push_back(std::move(c));
    return;
  }
  const std::uint32_t component = p_.relations[r.head].component;
  std::vector<const Lit*> lits;
  for (const Lit& l : r.body) lits.push_back(&l);
  std::vector<char> bound(r.num_vars, 0);
  c.full = plan(lits, bound, component, false);
  if (p_.components[component].recursive) {
    for (std::size_t i = 0; i < r.body.size(); ++i) {
      std::vector<std::pair<std::uint32_t, bool>> reads;
      read_relations(r.body[i], false, reads, false, nullptr);
      for (auto [rel, nested] : reads) {
        if (p_.relations[rel].component != component) continue;
        if (nested) c.naive = true;
      }
      if (r.body[i].kind != Step::Kind::kAtom ||
          p_.relations[r.body[i].relation].component != component)
        continue;
      std::vector<const Lit*> order{&r.body[i]};
      for (std::size_t j = 0; j < r.body.size(); ++j)
        if (j != i) order.push_back(&r.body[j]);
      std::vector<char> b(r.num_vars, 0);
      c.deltas.push_back(plan(order, b, component, true));
    }
  }
  p_.rules.push_back(std::move(c));
}

// Candidates for demand evaluation: non-recursive relations computed per state (static ones
// are computed once anyway) that the reasoner does not read whole.
void Planner::choose_demand() {
  demand_.assign(p_.relations.size(), 0);
  if (!demand_wanted_) return;
  for (std::uint32_t rel = 0; rel < p_.relations.size(); ++rel) {
    const Relation& r = p_.relations[rel];
    const Component& c = p_.components[r.component];
    const bool read_whole = rel == p_.true_rel || rel == p_.does_rel || rel == p_.init_rel ||
                            rel == p_.legal_rel || rel == p_.next_rel || rel == p_.goal_rel ||
                            rel == p_.terminal_rel;
    demand_[rel] = !read_whole && !c.recursive && c.layer != Layer::kStatic && !c.rules.empty() &&
                   r.arity >= 1 && r.arity <= 32;
  }
}

// Plans every rule; a demand relation that some literal calls with nothing bound is computed
// whole after all, and planning starts again without it (at most once per relation).
void Planner::compile_all() {
  for (;;) {
    restart_ = false;
    requests_.clear();
    p_.rules.clear();
    for (std::uint32_t rel = 0; rel < p_.relations.size(); ++rel) {
      p_.relations[rel].indexes.clear();
      p_.relations[rel].variants.clear();
      p_.relations[rel].demand = demand_[rel] != 0;
    }
    for (const ParsedRule& r : parsed_) compile_rule(r);
    while (!requests_.empty() && !restart_) {
      const auto [rel, variant] = requests_.back();
      requests_.pop_back();
      compile_variant(rel, variant);
    }
    if (!restart_) return;
  }
}

// A call of a demand relation: the arguments ground when it runs select the variant.
Step Planner::call(const Lit& lit, const std::vector<char>& bound, Step::Kind kind) {
  Step s;
  s.kind = kind;
  s.relation = lit.relation;
  s.args = lit.args;
  std::uint32_t mask = 0;
  for (std::uint32_t a = 0; a < lit.args.size(); ++a) {
    std::vector<std::uint32_t> vars;
    collect_vars(p_, lit.args[a], vars);
    if (!std::all_of(vars.begin(), vars.end(), [&](std::uint32_t v) { return bound[v] != 0; }))
      continue;
    mask |= 1u << a;
    s.key.push_back(lit.args[a]);
  }
  if (mask == 0) {
    demand_[lit.relation] = 0;
    restart_ = true;
    return s;
  }
  auto& variants = p_.relations[lit.relation].variants;
  std::size_t v = 0;
  while (v < variants.size() && variants[v].mask != mask) ++v;
  if (v == variants.size()) {
    variants.push_back({mask, {}});
    requests_.push_back({lit.relation, v});
  }
  s.variant = static_cast<std::int32_t>(v);
  return s;
}

void Planner::compile_variant(std::uint32_t relation, std::size_t variant) {
  const std::uint32_t mask = p_.relations[relation].variants[variant].mask;
  const std::uint32_t component = p_.relations[relation].component;
  std::vector<Plan> plans;
  for (std::uint32_t k : p_.components[component].rules) {
    const ParsedRule& r = parsed_[k];
    std::vector<char> bound(r.num_vars, 0);
    for (std::uint32_t a = 0; a < r.head_args.size(); ++a) {
      if ((mask >> a & 1u) == 0) continue;
      std::vector<std::uint32_t> vars;
      collect_vars(p_, r.head_args[a], vars);
      for (std::uint32_t v : vars) bound[v] = 1;
    }
    std::vector<const Lit*> lits;
    for (const Lit& l : r.body) lits.push_back(&l);
    plans.push_back(plan(lits, bound, component, false));
  }
  p_.relations[relation].variants[variant].plans = std::move(plans);
}

}  // namespace arena::gdl::prover_detail
