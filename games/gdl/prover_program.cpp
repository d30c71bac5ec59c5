#include "games/gdl/prover_program.h"

#include <algorithm>
#include <unordered_map>

namespace arena::gdl::prover_detail {

namespace {

// A body literal as read, before planning.
struct Lit {
  Step::Kind kind = Step::Kind::kFail;  // kAtom, kNot, kDistinct, kOr or kFail
  std::uint32_t relation = 0;
  std::vector<std::uint32_t> args;
  std::vector<Lit> subs;            // kNot: one; kOr: the alternatives
  std::vector<std::uint32_t> vars;  // every variable it mentions, sorted
};

struct ParsedRule {
  std::uint32_t head = 0;
  std::vector<std::uint32_t> head_args;
  std::vector<Lit> body;
  std::uint32_t num_vars = 0;
};

class Compiler {
 public:
  Compiler(const Description& d, TermPool& pool) : d_(d), pool_(pool) {}
  Expected<Program> run();

 private:
  std::uint32_t relation(Symbol name, std::uint32_t arity);
  std::uint32_t pattern(const Term& t);
  Expected<Lit> literal(const Term& t);
  Error rule_error(const Rule& rule, const std::string& what) const;
  void find_components(const std::vector<ParsedRule>& parsed);
  Expected<void> check_strata(const std::vector<ParsedRule>& parsed);
  void compile_rule(const ParsedRule& r, int line);
  Plan plan(std::vector<const Lit*> lits, std::vector<char>& bound, std::uint32_t component,
            bool delta_first);
  Step step(const Lit& lit, std::vector<char>& bound, std::uint32_t component, bool delta);
  IndexDef index_def(const Lit& lit, const std::vector<char>& bound,
                     std::vector<std::uint32_t>* key) const;
  Step probe(const Lit& lit, const std::vector<char>& bound, Step::Kind kind);
  int score(const Lit& lit, const std::vector<char>& bound) const;

  const Description& d_;
  TermPool& pool_;
  Program p_;
  std::unordered_map<std::uint64_t, std::uint32_t> relation_ids_;
  std::unordered_map<Symbol, std::uint32_t> vars_;  // of the rule being read
};

void collect_vars(const Program& p, std::uint32_t node, std::vector<std::uint32_t>& out) {
  const PatternNode& n = p.nodes[node];
  if (n.kind == PatternNode::Kind::kVariable) out.push_back(n.value);
  if (n.kind != PatternNode::Kind::kCompound) return;
  for (std::uint32_t c = 0; c < n.arity; ++c) collect_vars(p, p.children[n.first + c], out);
}

void sort_unique(std::vector<std::uint32_t>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

// Every relation a literal reads, with whether it reads it under a negation or an `or`.
void read_relations(const Lit& lit, bool nested, std::vector<std::pair<std::uint32_t, bool>>& out,
                    bool negated, std::vector<std::pair<std::uint32_t, bool>>* negatives) {
  if (lit.kind == Step::Kind::kAtom) {
    out.push_back({lit.relation, nested});
    if (negated && negatives) negatives->push_back({lit.relation, true});
  }
  for (const Lit& s : lit.subs)
    read_relations(s, true, out, negated || lit.kind == Step::Kind::kNot, negatives);
}

}  // namespace

std::uint32_t Compiler::relation(Symbol name, std::uint32_t arity) {
  const std::uint64_t key = (std::uint64_t{name} << 32) | arity;
  auto [it, added] =
      relation_ids_.try_emplace(key, static_cast<std::uint32_t>(p_.relations.size()));
  if (added) p_.relations.push_back({name, arity, 0, {}});
  return it->second;
}

std::uint32_t Compiler::pattern(const Term& t) {
  PatternNode n;
  if (t.is_ground()) {
    n.value = pool_.from_term(t);
  } else if (t.is_variable()) {
    n.kind = PatternNode::Kind::kVariable;
    n.value = vars_.try_emplace(t.name, static_cast<std::uint32_t>(vars_.size())).first->second;
  } else {
    std::vector<std::uint32_t> kids;
    for (const Term& a : t.args) kids.push_back(pattern(a));
    n.kind = PatternNode::Kind::kCompound;
    n.value = t.name;
    n.first = static_cast<std::uint32_t>(p_.children.size());
    n.arity = static_cast<std::uint32_t>(kids.size());
    p_.children.insert(p_.children.end(), kids.begin(), kids.end());
  }
  p_.nodes.push_back(n);
  return static_cast<std::uint32_t>(p_.nodes.size() - 1);
}

Expected<Lit> Compiler::literal(const Term& t) {
  Lit lit;
  const bool compound = t.kind == Term::Kind::kCompound;
  if (t.is_variable()) return make_error("a variable used as a literal");
  if (compound && (t.name == SymbolTable::kNot || t.name == SymbolTable::kOr)) {
    if (t.name == SymbolTable::kNot && t.args.size() != 1)
      return make_error("not takes one literal");
    lit.kind = t.name == SymbolTable::kNot ? Step::Kind::kNot : Step::Kind::kOr;
    for (const Term& a : t.args) {
      auto sub = literal(a);
      if (!sub) return Error{sub.error()};
      lit.vars.insert(lit.vars.end(), sub->vars.begin(), sub->vars.end());
      lit.subs.push_back(std::move(*sub));
    }
  } else if (compound && t.name == SymbolTable::kDistinct) {
    if (t.args.size() != 2) return make_error("distinct takes two terms");
    lit.kind = Step::Kind::kDistinct;
    for (const Term& a : t.args) lit.args.push_back(pattern(a));
  } else {
    lit.kind = Step::Kind::kAtom;
    lit.relation = relation(t.name, static_cast<std::uint32_t>(t.args.size()));
    for (const Term& a : t.args) lit.args.push_back(pattern(a));
  }
  for (std::uint32_t a : lit.args) collect_vars(p_, a, lit.vars);
  sort_unique(lit.vars);
  return lit;
}

Error Compiler::rule_error(const Rule& rule, const std::string& what) const {
  return make_error(d_.source + ":" + std::to_string(rule.line) + ": rule " + d_.rule_text(rule) +
                    ": " + what);
}

Expected<Program> Compiler::run() {
  p_.true_rel = relation(SymbolTable::kTrue, 1);
  p_.does_rel = relation(SymbolTable::kDoes, 2);
  p_.init_rel = relation(SymbolTable::kInit, 1);
  p_.legal_rel = relation(SymbolTable::kLegal, 2);
  p_.next_rel = relation(SymbolTable::kNext, 1);
  p_.goal_rel = relation(SymbolTable::kGoal, 2);
  p_.terminal_rel = relation(SymbolTable::kTerminal, 0);
  for (Symbol r : d_.roles()) p_.roles.push_back(pool_.constant(r));

  std::vector<ParsedRule> parsed;
  for (const Rule& rule : d_.rules) {
    vars_.clear();
    const Term& h = rule.head;
    if (h.is_variable()) return rule_error(rule, "the head is a variable");
    for (Symbol k : {SymbolTable::kTrue, SymbolTable::kDoes, SymbolTable::kNot, SymbolTable::kOr,
                     SymbolTable::kDistinct})
      if (h.name == k) return rule_error(rule, "the head is a keyword that only bodies may use");
    ParsedRule r;
    r.head = relation(h.name, static_cast<std::uint32_t>(h.args.size()));
    for (const Term& a : h.args) r.head_args.push_back(pattern(a));
    for (const Term& b : rule.body) {
      auto lit = literal(b);
      if (!lit) return rule_error(rule, lit.error());
      r.body.push_back(std::move(*lit));
    }
    r.num_vars = static_cast<std::uint32_t>(vars_.size());
    parsed.push_back(std::move(r));
  }
  find_components(parsed);
  if (auto ok = check_strata(parsed); !ok) return Error{ok.error()};
  for (std::size_t i = 0; i < parsed.size(); ++i) compile_rule(parsed[i], d_.rules[i].line);
  return std::move(p_);
}

// Tarjan's algorithm, iterative (a sheet's relation graph may be deep): components come out
// dependencies first, which is the evaluation order.
void Compiler::find_components(const std::vector<ParsedRule>& parsed) {
  const std::size_t n = p_.relations.size();
  std::vector<std::vector<std::uint32_t>> edges(n);
  for (const ParsedRule& r : parsed) {
    std::vector<std::pair<std::uint32_t, bool>> reads;
    for (const Lit& l : r.body) read_relations(l, false, reads, false, nullptr);
    for (auto [rel, nested] : reads) edges[r.head].push_back(rel);
  }
  std::vector<std::uint32_t> index(n, kNone), low(n, 0), stack;
  std::vector<char> on_stack(n, 0);
  std::uint32_t counter = 0;
  std::vector<std::pair<std::uint32_t, std::size_t>> calls;  // node, next edge
  for (std::uint32_t root = 0; root < n; ++root) {
    if (index[root] != kNone) continue;
    calls.push_back({root, 0});
    while (!calls.empty()) {
      auto& [v, e] = calls.back();
      if (e == 0 && index[v] == kNone) {
        index[v] = low[v] = counter++;
        stack.push_back(v);
        on_stack[v] = 1;
      }
      if (e < edges[v].size()) {
        const std::uint32_t w = edges[v][e++];
        if (index[w] == kNone) {
          calls.push_back({w, 0});
        } else if (on_stack[w]) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      const std::uint32_t done = v;
      calls.pop_back();
      if (!calls.empty()) low[calls.back().first] = std::min(low[calls.back().first], low[done]);
      if (low[done] != index[done]) continue;
      Component c;
      std::uint32_t w = kNone;
      do {
        w = stack.back();
        stack.pop_back();
        on_stack[w] = 0;
        p_.relations[w].component = static_cast<std::uint32_t>(p_.components.size());
        c.relations.push_back(w);
      } while (w != done);
      p_.components.push_back(std::move(c));
    }
  }
  for (std::uint32_t i = 0; i < parsed.size(); ++i) {
    const std::uint32_t c = p_.relations[parsed[i].head].component;
    p_.components[c].rules.push_back(i);
    for (std::uint32_t rel : edges[parsed[i].head]) {
      const std::uint32_t dc = p_.relations[rel].component;
      if (dc == c) {
        p_.components[c].recursive = true;
      } else {
        p_.components[c].depends.push_back(dc);
      }
    }
  }
  p_.components[p_.relations[p_.true_rel].component].layer = Layer::kState;
  p_.components[p_.relations[p_.does_rel].component].layer = Layer::kMove;
  for (Component& c : p_.components) {
    sort_unique(c.depends);
    for (std::uint32_t dc : c.depends) c.layer = std::max(c.layer, p_.components[dc].layer);
  }
}

Expected<void> Compiler::check_strata(const std::vector<ParsedRule>& parsed) {
  for (std::size_t i = 0; i < parsed.size(); ++i) {
    std::vector<std::pair<std::uint32_t, bool>> reads, negatives;
    for (const Lit& l : parsed[i].body) read_relations(l, false, reads, false, &negatives);
    const std::uint32_t c = p_.relations[parsed[i].head].component;
    for (auto [rel, unused] : negatives)
      if (p_.relations[rel].component == c)
        return rule_error(d_.rules[i], "negation through recursion (the rules are not stratified)");
  }
  return {};
}

int Compiler::score(const Lit& lit, const std::vector<char>& bound) const {
  int unbound = 0;
  for (std::uint32_t v : lit.vars) unbound += bound[v] ? 0 : 1;
  switch (lit.kind) {
    case Step::Kind::kFail:
      return 10000;
    case Step::Kind::kDistinct:
      return unbound == 0 ? 5000 : -20000;
    case Step::Kind::kNot:
      return unbound == 0 ? 4000 : -10000 - unbound;
    case Step::Kind::kOr:
      return unbound == 0 ? 3000 : 100 - unbound;
    default:
      break;
  }
  if (unbound == 0) return 2000;  // a lookup of one fact
  // Most bound first: each probed path narrows the candidates; then fewer new variables.
  const int keys = static_cast<int>(index_def(lit, bound, nullptr).size());
  return 500 + 50 * keys - 10 * unbound + (lit.relation == p_.true_rel ? 5 : 0);
}

// The paths of an atom known once `bound` are bound, and (into `key`) the nodes giving them.
IndexDef Compiler::index_def(const Lit& lit, const std::vector<char>& bound,
                             std::vector<std::uint32_t>* key) const {
  IndexDef def;
  auto known = [&](std::uint32_t node) {
    const PatternNode& n = p_.nodes[node];
    return n.kind == PatternNode::Kind::kConstant ||
           (n.kind == PatternNode::Kind::kVariable && bound[n.value]);
  };
  for (std::uint32_t a = 0; a < lit.args.size(); ++a) {
    const PatternNode& n = p_.nodes[lit.args[a]];
    if (n.kind != PatternNode::Kind::kCompound) {
      if (known(lit.args[a])) {
        def.push_back({a, -1, 0, 0});
        if (key) key->push_back(lit.args[a]);
      }
      continue;
    }
    for (std::uint32_t c = 0; c < n.arity; ++c) {
      const std::uint32_t child = p_.children[n.first + c];
      if (!known(child)) continue;
      def.push_back({a, static_cast<std::int32_t>(c), n.value, n.arity});
      if (key) key->push_back(child);
    }
  }
  return def;
}

// The step that reads an atom's table given the bound variables, its index made if new.
Step Compiler::probe(const Lit& lit, const std::vector<char>& bound, Step::Kind kind) {
  Step s;
  s.kind = kind;
  s.relation = lit.relation;
  s.args = lit.args;
  IndexDef def = index_def(lit, bound, &s.key);
  if (def.empty()) return s;
  auto& defs = p_.relations[lit.relation].indexes;
  auto it = std::find(defs.begin(), defs.end(), def);
  s.index = static_cast<std::int32_t>(it - defs.begin());
  if (it == defs.end()) defs.push_back(std::move(def));
  return s;
}

Step Compiler::step(const Lit& lit, std::vector<char>& bound, std::uint32_t component, bool delta) {
  Step s;
  switch (lit.kind) {
    case Step::Kind::kAtom:
      s = probe(lit, bound, Step::Kind::kAtom);
      if (p_.relations[lit.relation].component == component && p_.components[component].recursive)
        s.range = delta ? Step::Range::kDelta : Step::Range::kSnapshot;
      for (std::uint32_t v : lit.vars) bound[v] = 1;
      return s;
    case Step::Kind::kNot:
      if (lit.subs[0].kind == Step::Kind::kAtom)
        return probe(lit.subs[0], bound, Step::Kind::kNotAtom);
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
Plan Compiler::plan(std::vector<const Lit*> lits, std::vector<char>& bound, std::uint32_t component,
                    bool delta_first) {
  Plan out;
  if (delta_first) {
    out.steps.push_back(step(*lits.front(), bound, component, true));
    lits.erase(lits.begin());
  }
  while (!lits.empty()) {
    std::size_t best = 0;
    int best_score = score(*lits[0], bound);
    for (std::size_t i = 1; i < lits.size(); ++i) {
      const int s = score(*lits[i], bound);
      if (s > best_score) best = i, best_score = s;
    }
    out.steps.push_back(step(*lits[best], bound, component, false));
    lits.erase(lits.begin() + static_cast<std::ptrdiff_t>(best));
  }
  return out;
}

void Compiler::compile_rule(const ParsedRule& r, int line) {
  CompiledRule c;
  c.head = r.head;
  c.head_args = r.head_args;
  c.num_vars = r.num_vars;
  c.line = line;
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

Expected<Program> compile_program(const Description& description, TermPool& pool) {
  return Compiler(description, pool).run();
}

std::vector<std::uint32_t> Program::closure(std::uint32_t relation) const {
  std::vector<char> seen(components.size(), 0);
  std::vector<std::uint32_t> todo{relations[relation].component}, out;
  while (!todo.empty()) {
    const std::uint32_t c = todo.back();
    todo.pop_back();
    if (seen[c]) continue;
    seen[c] = 1;
    out.push_back(c);
    for (std::uint32_t d : components[c].depends) todo.push_back(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace arena::gdl::prover_detail
