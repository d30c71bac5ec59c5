// split_rules() (ground_join.h): auxiliary relations that project out the variables a rule's
// head does not need, so that grounding a rule costs the product of the domains of the
// variables that matter together rather than of all of them.

#include <algorithm>
#include <numeric>

#include "games/gdl/ground_join.h"

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

}  // namespace

void split_rules(std::vector<ExpandedRule>& rules) {
  Symbol next_aux = kFirstAuxSymbol;
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
      Term aux{interface.empty() ? Term::Kind::kConstant : Term::Kind::kCompound, next_aux++, {}};
      for (Symbol v : interface) aux.args.push_back(Term{Term::Kind::kVariable, v, {}});
      ExpandedRule aux_rule{rule.source, aux, {}};
      for (std::size_t i : group) {
        aux_rule.body.push_back(rule.body[i]);
        moved[i] = true;
      }
      kept.push_back(aux);
      added.push_back(std::move(aux_rule));
    }
    if (kept.empty()) continue;
    for (std::size_t i = 0; i < rule.body.size(); ++i)
      if (!moved[i]) kept.push_back(rule.body[i]);
    rule.body = std::move(kept);
  }
  for (auto& r : added) rules.push_back(std::move(r));
}

}  // namespace arena::gdl::detail
