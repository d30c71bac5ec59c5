// Disequality projections (ground_diseq.h): "some U other than C has B(U, R)" in linear size.

#include "games/gdl/ground/ground_diseq.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace arena::gdl::detail {

namespace {

// Atoms of D above this many are not examined (a disequality over a domain of 2,000 values).
constexpr std::size_t kMaxDisequalityAtoms = 4'000'000;

void vars_of(const Pattern& p, std::vector<int>& out) {
  if (p.kind == Pattern::Kind::kVariable) out.push_back(p.var);
  for (const Pattern& a : p.args) vars_of(a, out);
}

std::vector<int> sorted_vars(const Pattern& p) {
  std::vector<int> out;
  vars_of(p, out);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool has(const std::vector<int>& sorted, int v) {
  return std::binary_search(sorted.begin(), sorted.end(), v);
}

bool match(const TermPool& pool, const Pattern& p, TermId t, std::vector<TermId>& bindings) {
  switch (p.kind) {
    case Pattern::Kind::kGround:
      return p.ground == t;
    case Pattern::Kind::kVariable: {
      TermId& slot = bindings[static_cast<std::size_t>(p.var)];
      if (slot != kUnbound) return slot == t;
      slot = t;
      return true;
    }
    case Pattern::Kind::kCompound: {
      if (pool.functor(t) != p.functor) return false;
      auto args = pool.args(t);
      if (args.size() != p.args.size()) return false;
      for (std::size_t i = 0; i < args.size(); ++i)
        if (!match(pool, p.args[i], args[i], bindings)) return false;
      return true;
    }
  }
  return false;
}

// f(values of vars) (a constant when there are none).
TermId tuple(TermPool& pool, Symbol f, const std::vector<int>& vars,
             const std::vector<TermId>& bindings) {
  std::vector<TermId> args;
  args.reserve(vars.size());
  for (int v : vars) args.push_back(bindings[static_cast<std::size_t>(v)]);
  return pool.make(f, args);
}

Pattern tuple_pattern(TermPool& pool, Symbol f, const std::vector<int>& vars) {
  if (vars.empty()) return Pattern{Pattern::Kind::kGround, pool.constant(f), -1, 0, {}};
  Pattern p{Pattern::Kind::kCompound, 0, -1, f, {}};
  for (int v : vars) p.args.push_back(Pattern{Pattern::Kind::kVariable, 0, v, 0, {}});
  return p;
}

Literal positive(int relation, Pattern atom) {
  Literal lit;
  lit.relation = relation;
  lit.atom = std::move(atom);
  return lit;
}

// D's arguments split into C (not in B) and U (in B), paired in order; false when the rule's
// variables do not have the shape of ground_diseq.h.
bool split_arguments(const CompiledRule& rule, const Literal& d, const Literal& b,
                     DisequalityProjection& out) {
  const std::vector<int> b_vars = sorted_vars(b.atom), head_vars = sorted_vars(rule.head);
  std::vector<int> seen;
  for (const Pattern& arg : d.atom.args) {
    if (arg.kind != Pattern::Kind::kVariable) return false;
    if (std::find(seen.begin(), seen.end(), arg.var) != seen.end()) return false;
    seen.push_back(arg.var);
    (has(b_vars, arg.var) ? out.u_vars : out.c_vars).push_back(arg.var);
  }
  if (out.c_vars.empty() || out.c_vars.size() != out.u_vars.size()) return false;
  for (int v : b_vars)
    if (std::find(out.u_vars.begin(), out.u_vars.end(), v) == out.u_vars.end())
      out.r_vars.push_back(v);
  for (int v : out.u_vars)
    if (has(head_vars, v)) return false;
  for (int v : head_vars)
    if (!has(out.r_vars, v) && std::find(out.c_vars.begin(), out.c_vars.end(), v) ==
                                   out.c_vars.end())
      return false;
  for (int v : out.c_vars)
    if (!has(head_vars, v)) return false;
  for (int v : out.r_vars)
    if (!has(head_vars, v)) return false;
  for (const Literal& lit : rule.body)  // demand literals: over the head's variables only
    if (&lit != &d && &lit != &b)
      for (int v : sorted_vars(lit.atom))
        if (!has(head_vars, v)) return false;
  return true;
}

// Whether D's atoms are exactly the pairs of different tuples of its two domains; fills domC
// and domU (the relations `out` names) when they are.
bool is_disequality(const Literal& d, TermPool& pool, std::vector<Relation>& relations,
                    const DisequalityProjection& out) {
  const Relation& rel = relations[static_cast<std::size_t>(d.relation)];
  if (rel.atoms.size() > kMaxDisequalityAtoms) return false;
  std::vector<std::size_t> c_pos, u_pos;
  for (std::size_t i = 0; i < d.atom.args.size(); ++i) {
    const int v = d.atom.args[i].var;
    (std::find(out.c_vars.begin(), out.c_vars.end(), v) != out.c_vars.end() ? c_pos : u_pos)
        .push_back(i);
  }
  std::unordered_set<TermId> dom_c, dom_u;  // as tuples of the same functor, to compare
  std::vector<TermId> c, u;
  for (TermId atom : rel.atoms) {
    auto args = pool.args(atom);
    c.clear();
    u.clear();
    for (std::size_t i : c_pos) c.push_back(args[i]);
    for (std::size_t i : u_pos) u.push_back(args[i]);
    if (c == u) return false;
    dom_c.insert(pool.make(out.dom_u_symbol, c));
    dom_u.insert(pool.make(out.dom_u_symbol, u));
  }
  std::size_t common = 0;
  for (TermId t : dom_c) common += dom_u.count(t);
  if (rel.atoms.size() != dom_c.size() * dom_u.size() - common) return false;
  Relation& rc = relations[static_cast<std::size_t>(out.dom_c)];
  Relation& ru = relations[static_cast<std::size_t>(out.dom_u)];
  for (TermId t : dom_c) {
    auto args = pool.args(t);
    rc.add(pool.make(out.dom_c_symbol, std::vector<TermId>(args.begin(), args.end())));
  }
  for (TermId t : dom_u) ru.add(t);
  return true;
}

// The rules that replace `rule` while the domains grow (never recorded):
// any(R) <= B(U, R), domU(U) and H(C, R) <= any(R), domC(C), demands.
void add_domain_rules(const CompiledRule& rule, const Literal& b, const std::vector<int>& others,
                      TermPool& pool, const DisequalityProjection& p, int any,
                      std::vector<CompiledRule>& domain_rules) {
  CompiledRule r1;  // any(R) <= B(U, R), domU(U)
  r1.head_relation = any;
  r1.head = tuple_pattern(pool, p.any_symbol, p.r_vars);
  r1.body = {b, positive(p.dom_u, tuple_pattern(pool, p.dom_u_symbol, p.u_vars))};
  r1.num_vars = rule.num_vars;
  r1.record = false;
  r1.source = rule.source;
  CompiledRule r2;  // H(C, R) <= any(R), domC(C), demands
  r2.head_relation = rule.head_relation;
  r2.head = rule.head;
  r2.body = {positive(any, r1.head), positive(p.dom_c, tuple_pattern(pool, p.dom_c_symbol,
                                                                     p.c_vars))};
  for (std::size_t i = 0; i < rule.body.size(); ++i)
    if (static_cast<int>(i) != others[0] && static_cast<int>(i) != others[1])
      r2.body.push_back(rule.body[i]);
  r2.num_vars = rule.num_vars;
  r2.record = false;
  r2.source = rule.source;
  domain_rules.push_back(std::move(r1));
  domain_rules.push_back(std::move(r2));
}

}  // namespace

bool plan_disequality(const CompiledRule& rule, TermPool& pool, std::vector<Relation>& relations,
                      const std::function<int(Symbol)>& relation, Symbol& next_symbol,
                      DisequalityProjection& out, std::vector<CompiledRule>& domain_rules) {
  if (!rule.record) return false;
  std::vector<int> others;  // the body literals that are not demand literals
  for (std::size_t i = 0; i < rule.body.size(); ++i) {
    const Literal& lit = rule.body[i];
    if (lit.kind != Literal::Kind::kPositive) return false;
    if (!relations[static_cast<std::size_t>(lit.relation)].demand)
      others.push_back(static_cast<int>(i));
  }
  if (others.size() != 2) return false;
  for (int which = 0; which < 2; ++which) {
    const Literal& d = rule.body[static_cast<std::size_t>(others[which])];
    const Literal& b = rule.body[static_cast<std::size_t>(others[1 - which])];
    const Relation& d_rel = relations[static_cast<std::size_t>(d.relation)];
    const Relation& b_rel = relations[static_cast<std::size_t>(b.relation)];
    if (!d_rel.is_static || !d_rel.complete || b_rel.complete ||
        d.atom.kind != Pattern::Kind::kCompound)
      continue;
    DisequalityProjection p;
    p.rule = rule;
    p.b_literal = others[1 - which];
    if (!split_arguments(rule, d, b, p)) continue;
    p.dom_c_symbol = next_symbol++;
    p.dom_u_symbol = next_symbol++;
    p.dom_c = relation(p.dom_c_symbol);
    p.dom_u = relation(p.dom_u_symbol);
    if (!is_disequality(d, pool, relations, p)) continue;  // the two empty relations stay
    for (int id : {p.dom_c, p.dom_u}) {
      relations[static_cast<std::size_t>(id)].is_static = true;
      relations[static_cast<std::size_t>(id)].complete = true;
    }
    p.any_symbol = next_symbol++;
    p.pre_symbol = next_symbol++;
    p.suf_symbol = next_symbol++;
    const int any = relation(p.any_symbol);
    relation(p.pre_symbol);
    relation(p.suf_symbol);
    relations[static_cast<std::size_t>(any)].in_phase = true;
    add_domain_rules(rule, b, others, pool, p, any, domain_rules);
    out = std::move(p);
    return true;
  }
  return false;
}

namespace {

void record(RecordedRules& out, Budget& budget, TermId head, TermId body) {
  out.heads.push_back(head);
  out.literals.push_back(body << 1);
  out.body_begin.push_back(static_cast<std::uint32_t>(out.literals.size()));
  if (++budget.rules > budget.max_rules && budget.failure.empty())
    budget.failure = "more than " + std::to_string(budget.max_rules) + " ground rules";
}

// One R: its atoms B(U, R) (U as a domU tuple) and the atoms H(C, R) to derive (C as a domU
// tuple too, to compare with the U).
struct Group {
  std::vector<std::pair<TermId, TermId>> bs;     // (U, B's atom)
  std::vector<std::pair<TermId, TermId>> heads;  // (C, H's atom)
};

// pre_i <= pre_{i-1} | B_i and suf_i <= suf_{i+1} | B_i, named by B_i's atom; then each head
// reads the one or two chains around its C.
void emit_chains(const DisequalityProjection& p, TermPool& pool, const Group& g,
                 RecordedRules& out, Budget& budget) {
  const auto& bs = g.bs;
  auto pre = [&](std::size_t i) { return pool.make(p.pre_symbol, std::span(&bs[i].second, 1)); };
  auto suf = [&](std::size_t i) { return pool.make(p.suf_symbol, std::span(&bs[i].second, 1)); };
  for (std::size_t i = 0; i < bs.size(); ++i) {
    record(out, budget, pre(i), bs[i].second);
    if (i > 0) record(out, budget, pre(i), pre(i - 1));
    record(out, budget, suf(i), bs[i].second);
    if (i + 1 < bs.size()) record(out, budget, suf(i), suf(i + 1));
  }
  for (const auto& [c, h] : g.heads) {
    std::size_t j = 0;
    while (j < bs.size() && bs[j].first != c) ++j;
    if (j == bs.size()) {
      record(out, budget, h, pre(bs.size() - 1));
      continue;
    }
    if (j > 0) record(out, budget, h, pre(j - 1));
    if (j + 1 < bs.size()) record(out, budget, h, suf(j + 1));
  }
}

// Each head gets one rule per B atom of another U when that is fewer rules than the chains.
void emit_group(const DisequalityProjection& p, TermPool& pool, const Group& g,
                RecordedRules& out, Budget& budget) {
  const std::size_t direct = g.heads.size() * g.bs.size();
  const std::size_t chains = 4 * g.bs.size() + 2 * g.heads.size();
  if (direct > chains) {
    emit_chains(p, pool, g, out, budget);
    return;
  }
  for (const auto& [c, h] : g.heads)
    for (const auto& [u, atom] : g.bs)
      if (u != c) record(out, budget, h, atom);
}

}  // namespace

bool emit_disequality(const DisequalityProjection& p, TermPool& pool,
                      std::vector<Relation>& relations, RecordedRules& out, Budget& budget) {
  const CompiledRule& rule = p.rule;
  const Literal& b = rule.body[static_cast<std::size_t>(p.b_literal)];
  const Relation& dom_c = relations[static_cast<std::size_t>(p.dom_c)];
  const Relation& dom_u = relations[static_cast<std::size_t>(p.dom_u)];
  std::vector<TermId> bindings(static_cast<std::size_t>(rule.num_vars), kUnbound);
  std::unordered_map<TermId, Group> groups;  // by any(R)
  std::vector<TermId> order;                 // the keys in the order first seen
  for (TermId atom : relations[static_cast<std::size_t>(b.relation)].atoms) {
    if (budget.tick()) return false;
    std::fill(bindings.begin(), bindings.end(), kUnbound);
    if (!match(pool, b.atom, atom, bindings)) continue;
    const TermId u = tuple(pool, p.dom_u_symbol, p.u_vars, bindings);
    if (dom_u.position.count(u) == 0) continue;
    const TermId key = tuple(pool, p.any_symbol, p.r_vars, bindings);
    auto [it, inserted] = groups.try_emplace(key);
    if (inserted) order.push_back(key);
    it->second.bs.push_back({u, atom});
  }
  for (TermId h : relations[static_cast<std::size_t>(rule.head_relation)].atoms) {
    if (budget.tick()) return false;
    std::fill(bindings.begin(), bindings.end(), kUnbound);
    if (!match(pool, rule.head, h, bindings)) continue;
    if (dom_c.position.count(tuple(pool, p.dom_c_symbol, p.c_vars, bindings)) == 0) continue;
    auto it = groups.find(tuple(pool, p.any_symbol, p.r_vars, bindings));
    if (it != groups.end())
      it->second.heads.push_back({tuple(pool, p.dom_u_symbol, p.c_vars, bindings), h});
  }
  for (TermId key : order) {
    if (budget.tick()) return false;
    emit_group(p, pool, groups[key], out, budget);
  }
  return !budget.exceeded();
}

}  // namespace arena::gdl::detail
