// split_rules() (ground_split.h): auxiliary relations that project out the variables a rule's
// head does not need, so that grounding a rule costs the product of the domains of the
// variables that matter together rather than of all of them.

#include <algorithm>
#include <numeric>

#include "games/gdl/ground/ground_split.h"

namespace arena::gdl::detail {

namespace {

void vars_of(const Term& t, std::vector<Symbol>& out) {
  if (t.is_variable()) out.push_back(t.name);
  for (const Term& a : t.args) vars_of(a, out);
}

struct LiteralVars {
  std::vector<Symbol> vars;  // sorted, unique
  bool positive = true;      // binds its variables (not `not`, not `distinct`)
};

LiteralVars literal_vars(const Term& lit) {
  LiteralVars out;
  out.positive = !(lit.kind == Term::Kind::kCompound &&
                   (lit.name == SymbolTable::kNot || lit.name == SymbolTable::kDistinct));
  vars_of(lit, out.vars);
  std::sort(out.vars.begin(), out.vars.end());
  out.vars.erase(std::unique(out.vars.begin(), out.vars.end()), out.vars.end());
  return out;
}

bool contains(const std::vector<Symbol>& sorted, Symbol s) {
  return std::binary_search(sorted.begin(), sorted.end(), s);
}

// The body literals of `rule` grouped by the variables outside `head_vars` that link them.
std::vector<std::vector<std::size_t>> components(const std::vector<LiteralVars>& lits,
                                                 const std::vector<Symbol>& head_vars) {
  std::vector<std::size_t> parent(lits.size());
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](std::size_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  for (std::size_t i = 0; i < lits.size(); ++i)
    for (std::size_t j = i + 1; j < lits.size(); ++j)
      for (Symbol v : lits[i].vars)
        if (!contains(head_vars, v) && contains(lits[j].vars, v)) {
          parent[find(i)] = find(j);
          break;
        }
  std::vector<std::vector<std::size_t>> out(lits.size());
  for (std::size_t i = 0; i < lits.size(); ++i) out[find(i)].push_back(i);
  out.erase(std::remove_if(out.begin(), out.end(), [](const auto& c) { return c.empty(); }),
            out.end());
  return out;
}

std::vector<Symbol> sorted_vars(const Term& t) {
  std::vector<Symbol> out;
  vars_of(t, out);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// A demand literal (add_demand) left in a rule restricts an auxiliary relation made from the
// rule's literals over `vars` too: itself when its variables are all in `vars`, otherwise its
// projection on them (a demand relation of its own). Neither is ever recorded: no gate.
void restrict_by_demand(const Term& lit, const std::vector<Symbol>& vars, ExpandedRule& aux_rule,
                        Symbol& next_demand, std::vector<ExpandedRule>& demand_rules) {
  if (lit.kind != Term::Kind::kCompound || lit.name < kFirstDemandSymbol) return;
  const std::vector<Symbol> vs = sorted_vars(lit);
  std::vector<Symbol> common;
  for (Symbol w : vs)
    if (contains(vars, w)) common.push_back(w);
  if (common.size() == vs.size()) {
    aux_rule.body.push_back(lit);
  } else if (!common.empty()) {
    Term projection{Term::Kind::kCompound, next_demand++, {}};
    for (Symbol w : common) projection.args.push_back(Term{Term::Kind::kVariable, w, {}});
    demand_rules.push_back(ExpandedRule{aux_rule.source, projection, {lit}, true});
    aux_rule.body.push_back(std::move(projection));
  }
}

// One step of variable elimination on `rule`: the variable v (not in the head) whose literals
// G (those containing it) have the fewest other variables. Every variable outside the head
// that occurs only in G (E) is projected out: aux(I) <= G, with I = vars(G) \ E, replaces G.
// Only when it pays: the rest of the body brings variables outside vars(G), which the
// original rule would enumerate together with E (vars(G) x vars(rest)), and G is safe alone.
// False when no variable qualifies.
bool eliminate_one(ExpandedRule& rule, Symbol& next_aux, Symbol& next_demand,
                   ExpandedRule& aux_rule, std::vector<ExpandedRule>& demand_rules) {
  const std::vector<Symbol> head_vars = sorted_vars(rule.head);
  std::vector<LiteralVars> lits;
  for (const Term& lit : rule.body) lits.push_back(literal_vars(lit));
  std::vector<Symbol> candidates;
  for (const LiteralVars& l : lits)
    for (Symbol v : l.vars)
      if (!contains(head_vars, v)) candidates.push_back(v);
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  std::vector<bool> best_group;
  std::vector<Symbol> best_interface, best_vars;
  std::size_t best_all = 0;
  for (Symbol v : candidates) {
    std::vector<bool> in_group(lits.size(), false);
    std::vector<Symbol> all, bound, rest;
    for (std::size_t i = 0; i < lits.size(); ++i) {
      if (contains(lits[i].vars, v)) {
        in_group[i] = true;
        all.insert(all.end(), lits[i].vars.begin(), lits[i].vars.end());
        if (lits[i].positive) bound.insert(bound.end(), lits[i].vars.begin(), lits[i].vars.end());
      } else {
        rest.insert(rest.end(), lits[i].vars.begin(), lits[i].vars.end());
      }
    }
    for (auto* vs : {&all, &bound, &rest}) {
      std::sort(vs->begin(), vs->end());
      vs->erase(std::unique(vs->begin(), vs->end()), vs->end());
    }
    if (std::all_of(all.begin(), all.end(), [&](Symbol w) { return !contains(bound, w); }) ||
        !std::all_of(all.begin(), all.end(), [&](Symbol w) { return contains(bound, w); }))
      continue;  // unsafe alone
    const bool rest_adds = std::any_of(rest.begin(), rest.end(),
                                       [&](Symbol w) { return !contains(all, w); });
    if (!rest_adds) continue;  // the rule enumerates vars(G) anyway: nothing to save
    std::vector<Symbol> interface;
    for (Symbol w : all)
      if (contains(head_vars, w) || contains(rest, w)) interface.push_back(w);
    if (!best_group.empty() && (interface.size() > best_interface.size() ||
                                (interface.size() == best_interface.size() && all.size() >= best_all)))
      continue;
    best_group = std::move(in_group);
    best_interface = std::move(interface);
    best_vars = std::move(all);
    best_all = best_vars.size();
  }
  if (best_group.empty()) return false;
  Term aux{best_interface.empty() ? Term::Kind::kConstant : Term::Kind::kCompound,
           rule.demand ? next_demand++ : next_aux++, {}};
  for (Symbol w : best_interface) aux.args.push_back(Term{Term::Kind::kVariable, w, {}});
  aux_rule = ExpandedRule{rule.source, aux, {}, rule.demand};
  std::vector<Term> kept{aux};
  for (std::size_t i = 0; i < rule.body.size(); ++i) {
    if (best_group[i]) {
      aux_rule.body.push_back(std::move(rule.body[i]));
      continue;
    }
    restrict_by_demand(rule.body[i], best_vars, aux_rule, next_demand, demand_rules);
    kept.push_back(std::move(rule.body[i]));
  }
  rule.body = std::move(kept);
  return true;
}

}  // namespace

void split_rules(std::vector<ExpandedRule>& rules, bool eliminate) {
  Symbol next_aux = kFirstAuxSymbol;
  Symbol next_demand = kFirstDemandSymbol + 0x01000000u;  // add_demand's are below
  std::vector<ExpandedRule> demand_rules;
  std::vector<ExpandedRule> added;
  for (ExpandedRule& rule : rules) {
    if (rule.body.size() < 2) continue;
    std::vector<Symbol> head_vars;
    vars_of(rule.head, head_vars);
    std::sort(head_vars.begin(), head_vars.end());
    head_vars.erase(std::unique(head_vars.begin(), head_vars.end()), head_vars.end());
    std::vector<LiteralVars> lits;
    for (const Term& lit : rule.body) lits.push_back(literal_vars(lit));
    std::vector<Term> kept;
    std::vector<bool> moved(rule.body.size(), false);
    for (const auto& group : components(lits, head_vars)) {
      if (group.size() == rule.body.size()) break;  // one component: nothing to project
      std::vector<Symbol> all, bound, interface;
      for (std::size_t i : group) {
        all.insert(all.end(), lits[i].vars.begin(), lits[i].vars.end());
        if (lits[i].positive) bound.insert(bound.end(), lits[i].vars.begin(), lits[i].vars.end());
      }
      std::sort(all.begin(), all.end());
      all.erase(std::unique(all.begin(), all.end()), all.end());
      std::sort(bound.begin(), bound.end());
      const bool local = std::any_of(all.begin(), all.end(),
                                     [&](Symbol v) { return !contains(head_vars, v); });
      const bool safe = std::all_of(all.begin(), all.end(),
                                    [&](Symbol v) { return contains(bound, v); });
      if (!local || !safe) continue;
      for (Symbol v : all)
        if (contains(head_vars, v)) interface.push_back(v);
      Term aux{interface.empty() ? Term::Kind::kConstant : Term::Kind::kCompound,
               rule.demand ? next_demand++ : next_aux++, {}};
      for (Symbol v : interface) aux.args.push_back(Term{Term::Kind::kVariable, v, {}});
      ExpandedRule aux_rule{rule.source, aux, {}, rule.demand};
      for (std::size_t i : group) {
        aux_rule.body.push_back(rule.body[i]);
        moved[i] = true;
      }
      for (std::size_t i = 0; i < rule.body.size(); ++i)
        if (std::find(group.begin(), group.end(), i) == group.end())
          restrict_by_demand(rule.body[i], all, aux_rule, next_demand, demand_rules);
      kept.push_back(aux);
      added.push_back(std::move(aux_rule));
    }
    if (kept.empty()) continue;
    for (std::size_t i = 0; i < rule.body.size(); ++i)
      if (!moved[i]) kept.push_back(rule.body[i]);
    rule.body = std::move(kept);
  }
  for (auto& r : added) rules.push_back(std::move(r));
  // Variable elimination, on the auxiliary rules too (rules grows: by index).
  for (std::size_t r = 0; eliminate && r < rules.size(); ++r) {
    for (int steps = 0; steps < 64 && rules[r].body.size() >= 2; ++steps) {
      ExpandedRule aux_rule;
      if (!eliminate_one(rules[r], next_aux, next_demand, aux_rule, demand_rules)) break;
      rules.push_back(std::move(aux_rule));
    }
  }
  for (auto& r : demand_rules) rules.push_back(std::move(r));
}

}  // namespace arena::gdl::detail
