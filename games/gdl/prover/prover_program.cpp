#include "games/gdl/prover/prover_program.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "games/gdl/prover/prover_plan.h"

namespace arena::gdl::prover_detail {

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

void read_relations(const Lit& lit, bool nested, std::vector<std::pair<std::uint32_t, bool>>& out,
                    bool negated, std::vector<std::pair<std::uint32_t, bool>>* negatives) {
  if (lit.kind == Step::Kind::kAtom) {
    out.push_back({lit.relation, nested});
    if (negated && negatives) negatives->push_back({lit.relation, true});
  }
  for (const Lit& s : lit.subs)
    read_relations(s, true, out, negated || lit.kind == Step::Kind::kNot, negatives);
}

namespace {

// Reads the rules into literals and strata, then has the Planner plan them.
class Compiler {
 public:
  Compiler(const Description& d, TermPool& pool, bool demand,
           const std::vector<const Table*>* sample)
      : d_(d), pool_(pool), demand_wanted_(demand), sample_(sample) {}
  Expected<Program> run();

 private:
  std::uint32_t relation(Symbol name, std::uint32_t arity);
  std::uint32_t pattern(const Term& t);
  Expected<Lit> literal(const Term& t);
  Error rule_error(const Rule& rule, const std::string& what) const;
  void find_components(const std::vector<ParsedRule>& parsed);
  Expected<void> check_strata(const std::vector<ParsedRule>& parsed);

  const Description& d_;
  TermPool& pool_;
  bool demand_wanted_;
  const std::vector<const Table*>* sample_;
  Program p_;
  std::unordered_map<std::uint64_t, std::uint32_t> relation_ids_;
  std::unordered_map<Symbol, std::uint32_t> vars_;  // of the rule being read
  std::vector<ParsedRule> parsed_;
};

}  // namespace

std::uint32_t Compiler::relation(Symbol name, std::uint32_t arity) {
  const std::uint64_t key = (std::uint64_t{name} << 32) | arity;
  auto [it, added] =
      relation_ids_.try_emplace(key, static_cast<std::uint32_t>(p_.relations.size()));
  if (added) {
    Relation r;
    r.name = name;
    r.arity = arity;
    p_.relations.push_back(std::move(r));
  }
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
    r.line = rule.line;
    parsed_.push_back(std::move(r));
  }
  find_components(parsed_);
  if (auto ok = check_strata(parsed_); !ok) return Error{ok.error()};
  Planner(p_, pool_, parsed_, demand_wanted_, sample_).run();
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


Expected<Program> compile_program(const Description& description, TermPool& pool, bool demand,
                                  const std::vector<const Table*>* sample) {
  return Compiler(description, pool, demand, sample).run();
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
