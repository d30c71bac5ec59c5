// add_demand() (ground_demand.h): demand relations that restrict a relation's ground atoms to
// the arguments its uses can ask for.

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "games/gdl/ground/ground_demand.h"

namespace arena::gdl::detail {

namespace {

void vars_of(const Term& t, std::vector<Symbol>& out) {
  if (t.is_variable()) out.push_back(t.name);
  for (const Term& a : t.args) vars_of(a, out);
}

// The relation a body literal is about (after `not`); false for distinct and variables.
bool relation_of(const Term& lit, Symbol& name, bool& negated, const Term*& atom) {
  negated = lit.kind == Term::Kind::kCompound && lit.name == SymbolTable::kNot &&
            lit.args.size() == 1;
  atom = negated ? &lit.args[0] : &lit;
  if (atom->is_variable() || atom->name == SymbolTable::kDistinct) return false;
  name = atom->name;
  return true;
}

bool is_keyword(Symbol s) {
  return s <= SymbolTable::kImplies;  // role .. input: GDL's own relations and connectives
}

// The relations among rules: head -> body relations, and their transitive closure.
class Dependencies {
 public:
  void add(Symbol head, Symbol body) { edges_[head].push_back(body); }
  void touch(Symbol head) { edges_[head]; }

  // Every relation `from` depends on, directly or not.
  const std::unordered_set<Symbol>& reach(Symbol from) {
    auto [it, inserted] = reaches_.try_emplace(from);
    if (!inserted) return it->second;
    std::unordered_set<Symbol> seen;
    std::vector<Symbol> stack{from};
    while (!stack.empty()) {
      const Symbol s = stack.back();
      stack.pop_back();
      auto d = edges_.find(s);
      if (d == edges_.end()) continue;
      for (Symbol t : d->second)
        if (seen.insert(t).second) stack.push_back(t);
    }
    return reaches_[from] = std::move(seen);
  }
  bool depends(Symbol a, Symbol b) { return reach(a).count(b) != 0; }
  bool dynamic(Symbol s) {
    return depends(s, SymbolTable::kTrue) || depends(s, SymbolTable::kDoes);
  }

 private:
  std::unordered_map<Symbol, std::vector<Symbol>> edges_;
  std::unordered_map<Symbol, std::unordered_set<Symbol>> reaches_;
};

// A use of a candidate relation: rules[rule].body[literal].
struct Use {
  std::size_t rule;
  std::size_t literal;
};
using Uses = std::unordered_map<Symbol, std::vector<Use>>;

// The atom of body literal j when it can bind the variables of the use of `s` at `literal`: a
// positive literal of another relation that does not depend on s. Null otherwise.
const Term* binding_atom(const ExpandedRule& rule, std::size_t j, std::size_t literal, Symbol s,
                         Dependencies& deps, Symbol& other) {
  bool negated = false;
  const Term* atom = nullptr;
  if (j == literal || !relation_of(rule.body[j], other, negated, atom) || negated || other == s ||
      deps.depends(other, s))
    return nullptr;
  return atom;
}

// The dependencies among the rules' relations and the relations with rules; false when a
// rule's head is a variable (refused later, with its message).
bool read_dependencies(const std::vector<ExpandedRule>& rules, Dependencies& deps,
                       std::unordered_set<Symbol>& heads) {
  for (const ExpandedRule& rule : rules) {
    if (rule.head.is_variable()) return false;
    heads.insert(rule.head.name);
    deps.touch(rule.head.name);
    for (const Term& lit : rule.body) {
      Symbol name = 0;
      bool negated = false;
      const Term* atom = nullptr;
      if (relation_of(lit, name, negated, atom)) deps.add(rule.head.name, name);
    }
  }
  return true;
}

// Candidates: dynamic, not recursive, not GDL's own, not auxiliary, with arguments.
std::unordered_set<Symbol> candidate_relations(const std::vector<ExpandedRule>& rules,
                                               const std::unordered_set<Symbol>& heads,
                                               Dependencies& deps) {
  std::unordered_map<Symbol, std::size_t> arity;
  for (const ExpandedRule& rule : rules) arity[rule.head.name] = rule.head.args.size();
  std::unordered_set<Symbol> candidates;
  for (Symbol s : heads)
    if (!is_keyword(s) && s < kFirstAuxSymbol && arity[s] > 0 && deps.dynamic(s) &&
        !deps.depends(s, s))
      candidates.insert(s);
  return candidates;
}

// Each use of a candidate, when the other positive literals that do not depend on it bind its
// variables; a candidate with a use they do not bind is dropped.
Uses find_uses(const std::vector<ExpandedRule>& rules, std::unordered_set<Symbol>& candidates,
               Dependencies& deps) {
  Uses uses;
  for (std::size_t r = 0; r < rules.size(); ++r) {
    const ExpandedRule& rule = rules[r];
    for (std::size_t i = 0; i < rule.body.size(); ++i) {
      Symbol name = 0;
      bool negated = false;
      const Term* atom = nullptr;
      if (!relation_of(rule.body[i], name, negated, atom) || candidates.count(name) == 0) continue;
      std::vector<Symbol> need, bound;
      vars_of(*atom, need);
      for (std::size_t j = 0; j < rule.body.size(); ++j) {
        Symbol other = 0;
        if (const Term* other_atom = binding_atom(rule, j, i, name, deps, other))
          vars_of(*other_atom, bound);
      }
      std::sort(bound.begin(), bound.end());
      const bool ok = std::all_of(need.begin(), need.end(), [&](Symbol v) {
        return std::binary_search(bound.begin(), bound.end(), v);
      });
      if (!ok) {
        candidates.erase(name);
        continue;
      }
      uses[name].push_back({r, i});
    }
  }
  return uses;
}

// A demand rule's literals may be restricted relations themselves; a cycle among demands
// (demand_R needs S, demand_S needs R) would have an empty least fixpoint, so candidates on
// one stay unrestricted. needs[R]: the candidates R's demand rules read (directly or not).
void drop_demand_cycles(const std::vector<ExpandedRule>& rules, const Uses& uses,
                        std::unordered_set<Symbol>& candidates, Dependencies& deps) {
  std::unordered_map<Symbol, std::vector<Symbol>> needs;
  for (Symbol s : candidates) {
    auto it = uses.find(s);
    if (it == uses.end()) continue;
    std::unordered_set<Symbol> read;
    for (const Use& use : it->second) {
      const ExpandedRule& rule = rules[use.rule];
      for (std::size_t j = 0; j < rule.body.size(); ++j) {
        Symbol other = 0;
        if (binding_atom(rule, j, use.literal, s, deps, other) == nullptr) continue;
        if (candidates.count(other) != 0) read.insert(other);
        for (Symbol t : deps.reach(other))
          if (candidates.count(t) != 0) read.insert(t);
      }
    }
    needs[s].assign(read.begin(), read.end());
  }
  std::vector<Symbol> on_cycle;
  for (Symbol s : candidates) {
    std::unordered_set<Symbol> seen;
    std::vector<Symbol> stack(needs[s].begin(), needs[s].end());
    bool cycle = false;
    while (!stack.empty() && !cycle) {
      const Symbol t = stack.back();
      stack.pop_back();
      cycle = t == s;
      if (seen.insert(t).second)
        for (Symbol u : needs[t]) stack.push_back(u);
    }
    if (cycle) on_cycle.push_back(s);
  }
  for (Symbol s : on_cycle) candidates.erase(s);
}

// demand(args of the use) <= the literals that bind them there, and the distinct filters
// whose variables they bind.
ExpandedRule demand_rule(const ExpandedRule& rule, const Use& use, Symbol s, Symbol demand,
                         Dependencies& deps) {
  Symbol name = 0;
  bool negated = false;
  const Term* atom = nullptr;
  relation_of(rule.body[use.literal], name, negated, atom);
  ExpandedRule d{rule.source, Term{Term::Kind::kCompound, demand, atom->args}, {}, true};
  std::vector<Symbol> bound;
  for (std::size_t j = 0; j < rule.body.size(); ++j) {
    Symbol other = 0;
    const Term* other_atom = binding_atom(rule, j, use.literal, s, deps, other);
    if (other_atom == nullptr) continue;
    d.body.push_back(rule.body[j]);
    vars_of(*other_atom, bound);
  }
  std::sort(bound.begin(), bound.end());
  for (const Term& lit : rule.body) {
    if (lit.is_variable() || lit.name != SymbolTable::kDistinct) continue;
    std::vector<Symbol> vs;
    vars_of(lit, vs);
    if (std::all_of(vs.begin(), vs.end(),
                    [&](Symbol v) { return std::binary_search(bound.begin(), bound.end(), v); }))
      d.body.push_back(lit);
  }
  return d;
}

}  // namespace

void add_demand(std::vector<ExpandedRule>& rules) {
  Dependencies deps;
  std::unordered_set<Symbol> heads;
  if (!read_dependencies(rules, deps, heads)) return;
  std::unordered_set<Symbol> candidates = candidate_relations(rules, heads, deps);
  const Uses uses = find_uses(rules, candidates, deps);
  drop_demand_cycles(rules, uses, candidates, deps);
  Symbol next = kFirstDemandSymbol;
  std::unordered_map<Symbol, Symbol> demand_of;
  std::vector<ExpandedRule> added;
  for (Symbol s : candidates) {
    auto it = uses.find(s);
    if (it == uses.end() || it->second.empty()) continue;  // unused: nothing asks for it
    const Symbol demand = next++;
    demand_of[s] = demand;
    for (const Use& use : it->second)
      added.push_back(demand_rule(rules[use.rule], use, s, demand, deps));
  }
  for (ExpandedRule& rule : rules) {
    auto it = demand_of.find(rule.head.name);
    if (it == demand_of.end()) continue;
    rule.body.push_back(Term{Term::Kind::kCompound, it->second, rule.head.args});
  }
  for (ExpandedRule& d : added) rules.push_back(std::move(d));
}

}  // namespace arena::gdl::detail
