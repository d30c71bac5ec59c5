#include "games/gdl/reader/validate.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace arena::gdl {

namespace {

using S = SymbolTable;

// The arity GDL fixes for its relations; -1 for the keywords that are not relations.
int keyword_arity(Symbol s) {
  switch (s) {
    case S::kRole:
    case S::kInit:
    case S::kTrue:
    case S::kNext:
    case S::kBase:
      return 1;
    case S::kLegal:
    case S::kDoes:
    case S::kGoal:
    case S::kInput:
      return 2;
    case S::kTerminal:
      return 0;
    default:
      return -1;
  }
}

bool is_connective(Symbol s) {
  return s == S::kNot || s == S::kOr || s == S::kDistinct;
}
bool is_keyword(Symbol s) {
  return s <= S::kImplies;
}

void collect_variables(const Term& t, std::vector<Symbol>& out) {
  if (t.is_variable()) out.push_back(t.name);
  for (const Term& a : t.args) collect_variables(a, out);
}

// Calls f(sentence, negative) for every sentence of a body literal, inside not and or.
template <class F>
void for_each_sentence(const Term& literal, bool negative, F&& f) {
  if (literal.name == S::kDistinct) return;
  if (literal.name == S::kNot || literal.name == S::kOr) {
    for (const Term& a : literal.args) for_each_sentence(a, negative || literal.name == S::kNot, f);
    return;
  }
  f(literal, negative);
}

using VariableSet = std::unordered_set<Symbol>;

void add_variables(const Term& t, VariableSet& out) {
  if (t.is_variable()) out.insert(t.name);
  for (const Term& a : t.args) add_variables(a, out);
}

// Safety with or: a rule is safe when every rule that expanding its ors would give is safe
// (ggp-base's prover and DeORer read them so). The variables a literal binds in every choice of
// disjuncts: a positive sentence binds its own, an or those that all its disjuncts bind.
VariableSet always_bound(const Term& l) {
  VariableSet out;
  if (l.name == S::kNot || l.name == S::kDistinct) return out;
  if (l.name != S::kOr) {
    add_variables(l, out);
    return out;
  }
  if (l.args.empty()) return out;  // a bare "or", refused by the checks
  out = always_bound(l.args[0]);
  for (std::size_t i = 1; i < l.args.size() && !out.empty(); ++i) {
    const VariableSet other = always_bound(l.args[i]);
    std::erase_if(out, [&](Symbol v) { return !other.contains(v); });
  }
  return out;
}

// The variables that some choice of disjuncts mentions under not or distinct; that choice
// binds them in no positive sentence of the literal.
void add_maybe_unbound(const Term& l, VariableSet& out) {
  if (l.name == S::kNot || l.name == S::kDistinct) {
    add_variables(l, out);
  } else if (l.name == S::kOr) {
    for (const Term& d : l.args) add_maybe_unbound(d, out);
  }
}

// A hash of a term's structure, for looking terms up among many.
std::size_t term_hash(const Term& t) {
  std::size_t h = t.name * 0x9e3779b97f4a7c15ull + static_cast<std::size_t>(t.kind);
  for (const Term& a : t.args) h = (h ^ term_hash(a)) * 0x100000001b3ull;
  return h;
}

// A set of terms (the subterms of some literals), looked up by structure.
class TermSet {
 public:
  // Adds t and its subterms; returns t's hash.
  std::size_t add_with_subterms(const Term& t) {
    std::size_t h = t.name * 0x9e3779b97f4a7c15ull + static_cast<std::size_t>(t.kind);
    for (const Term& a : t.args) h = (h ^ add_with_subterms(a)) * 0x100000001b3ull;
    by_hash_.emplace(h, &t);
    return h;
  }
  void add(const Term& t) { by_hash_.emplace(term_hash(t), &t); }
  bool contains(const Term& t) const {
    auto [first, last] = by_hash_.equal_range(term_hash(t));
    for (auto it = first; it != last; ++it)
      if (*it->second == t) return true;
    return false;
  }

 private:
  std::unordered_multimap<std::size_t, const Term*> by_hash_;
};

class Validator {
 public:
  explicit Validator(const Description& d) : d_(d) {}

  Expected<void> run() {
    for (const Rule& rule : d_.rules)
      if (!check_gdl_one(rule) || !check_shape(rule) || !check_arities(rule) ||
          !check_safety(rule))
        return failure();
    build_graph();
    if (!check_stratification() || !check_keyword_dependencies() || !check_recursion() ||
        !check_roles())
      return failure();
    return {};
  }

 private:
  Expected<void> failure() { return make_error(std::move(*error_)); }

  std::string name(Symbol s) const { return d_.symbols.name(s); }
  std::string kif(const Term& t) const { return to_kif(t, d_.symbols); }

  bool fail(const Rule& rule, const std::string& what) {
    std::string text = d_.rule_text(rule);
    if (text.size() > 240) text = text.substr(0, 200) + " ...";
    error_ = d_.source + ":" + std::to_string(rule.line) + ": rule " + text + ": " + what;
    return false;
  }

  // Step 0. GDL-I only: GDL-II's imperfect information (the role `random` that nature plays,
  // the percepts of `sees`) would be read as an ordinary seat and relation and played wrongly,
  // so such a sheet is refused by name.
  bool check_gdl_one(const Rule& rule) {
    const Term& head = rule.head;
    const auto lower = [](std::string text) {
      for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      return text;
    };
    if (head.name == S::kRole && head.args.size() == 1 &&
        head.args[0].kind == Term::Kind::kConstant && lower(name(head.args[0].name)) == "random")
      return fail(rule, "the role random is GDL-II's nature (a sheet with imperfect information); "
                        "Arena plays GDL-I sheets only");
    if (head.kind == Term::Kind::kCompound && head.args.size() == 2 &&
        lower(name(head.name)) == "sees" && names_a_role(rule, head.args[0]))
      return fail(rule, "sees is GDL-II's percept relation (a sheet with imperfect information); "
                        "Arena plays GDL-I sheets only");
    return true;
  }

  // Whether `t`, the first argument of a rule's head, is a role: a role's name, or a variable
  // the body binds by (role ?r) or (does ?r ..). A GDL-I sheet may have a relation sees of its
  // own (of cells, say); GDL-II's tells what a role sees.
  bool names_a_role(const Rule& rule, const Term& t) const {
    if (t.kind == Term::Kind::kConstant) {
      for (const Rule& r : d_.rules)
        if (r.head.name == S::kRole && r.head.args.size() == 1 && r.head.args[0] == t) return true;
      return false;
    }
    if (t.kind != Term::Kind::kVariable) return false;
    for (const Term& literal : rule.body)
      if ((literal.name == S::kRole || literal.name == S::kDoes) && !literal.args.empty() &&
          literal.args[0] == t)
        return true;
    return false;
  }

  // Step 1. Keywords where GDL allows them and with GDL's arities; connectives well formed.
  bool check_shape(const Rule& rule) {
    const Term& head = rule.head;
    if (head.name == S::kTrue || head.name == S::kDoes || is_connective(head.name))
      return fail(rule, name(head.name) + " may only appear in rule bodies (keyword usage)");
    if (head.name == S::kRole && !rule.body.empty())
      return fail(rule, "roles are stated by facts, not derived by rules (keyword usage)");
    for (const Term& literal : rule.body)
      if (!check_literal(rule, literal, false)) return false;
    return check_terms(rule, head);
  }

  bool check_literal(const Rule& rule, const Term& l, bool in_not) {
    const auto arity = l.args.size();
    if (l.name == S::kDistinct) {
      if (arity != 2) return fail(rule, kif(l) + ": distinct takes 2 arguments (keyword usage)");
      return check_terms(rule, l.args[0]) && check_terms(rule, l.args[1]);
    }
    if (l.name == S::kNot) {
      if (arity != 1) return fail(rule, kif(l) + ": not takes 1 literal (keyword usage)");
      const Symbol inner = l.args[0].name;
      if (in_not || inner == S::kNot || inner == S::kOr)
        return fail(rule, kif(l) + ": not applies to a sentence or a distinct (keyword usage)");
      return check_literal(rule, l.args[0], true);
    }
    if (l.name == S::kOr) {
      if (in_not || arity == 0) return fail(rule, kif(l) + ": misplaced or (keyword usage)");
      for (const Term& d : l.args) {
        if (d.name == S::kNot && d.args.size() == 1 && d.args[0].name == S::kDistinct)
          return fail(rule, kif(d) + ": (not (distinct ...)) inside or is not supported");
        if (!check_literal(rule, d, false)) return false;
      }
      return true;
    }
    if (l.name == S::kInit || l.name == S::kNext || l.name == S::kBase || l.name == S::kInput)
      return fail(rule,
                  kif(l) + ": " + name(l.name) + " may only appear in rule heads (keyword usage)");
    return check_terms(rule, l);
  }

  // GDL's relations with their arities; no keyword used as a function inside a sentence.
  bool check_terms(const Rule& rule, const Term& sentence) {
    const int want = keyword_arity(sentence.name);
    if (want >= 0 && static_cast<int>(sentence.args.size()) != want)
      return fail(rule, kif(sentence) + ": " + name(sentence.name) + " takes " +
                            std::to_string(want) + " argument(s) (keyword usage)");
    if (is_connective(sentence.name) || sentence.name == S::kImplies)
      return fail(rule, kif(sentence) + ": misplaced " + name(sentence.name) + " (keyword usage)");
    for (const Term& a : sentence.args)
      if (const Term* bad = find_keyword_function(a))
        return fail(rule, "the keyword " + name(bad->name) + " is used as a function in " +
                              kif(sentence) + " (keyword usage)");
    return true;
  }

  const Term* find_keyword_function(const Term& t) const {
    if (t.kind != Term::Kind::kCompound) return nullptr;
    if (is_keyword(t.name)) return &t;
    for (const Term& a : t.args)
      if (const Term* bad = find_keyword_function(a)) return bad;
    return nullptr;
  }

  // Step 2. Every relation and every function has one arity throughout the sheet.
  bool check_arities(const Rule& rule) {
    if (!note_arity(rule, rule.head, relation_arity_, "relation") ||
        !note_functions(rule, rule.head))
      return false;
    bool ok = true;
    for (const Term& literal : rule.body) {
      for_each_sentence(literal, false, [&](const Term& s, bool) {
        ok = ok && note_arity(rule, s, relation_arity_, "relation") && note_functions(rule, s);
      });
      if (literal.name == S::kDistinct)
        for (const Term& a : literal.args) ok = ok && note_function_terms(rule, a);
    }
    return ok;
  }

  bool note_functions(const Rule& rule, const Term& sentence) {
    for (const Term& a : sentence.args)
      if (!note_function_terms(rule, a)) return false;
    return true;
  }

  bool note_function_terms(const Rule& rule, const Term& t) {
    if (t.kind != Term::Kind::kCompound) return true;
    if (!note_arity(rule, t, function_arity_, "function")) return false;
    for (const Term& a : t.args)
      if (!note_function_terms(rule, a)) return false;
    return true;
  }

  struct Use {
    std::size_t arity;
    int line;
  };
  bool note_arity(const Rule& rule, const Term& t, std::unordered_map<Symbol, Use>& seen,
                  const char* what) {
    auto [it, fresh] = seen.try_emplace(t.name, Use{t.args.size(), rule.line});
    if (fresh || it->second.arity == t.args.size()) return true;
    return fail(rule, std::string(what) + " " + name(t.name) + " has " +
                          std::to_string(t.args.size()) + " argument(s) here but " +
                          std::to_string(it->second.arity) + " at line " +
                          std::to_string(it->second.line) + " (fixed arity)");
  }

  // Step 3. Every variable of the rule occurs in a positive body literal (safety); with or,
  // in every choice of disjuncts that mentions it.
  bool check_safety(const Rule& rule) {
    const std::vector<Symbol> unsafe = unsafe_variables(rule);
    if (unsafe.empty()) return true;
    const bool has_or = std::any_of(rule.body.begin(), rule.body.end(),
                                    [](const Term& l) { return l.name == S::kOr; });
    return fail(rule, "variable " + name(unsafe.front()) + (rule.body.empty() ? " in a fact" : "") +
                          " does not occur in a positive body literal" +
                          (has_or ? " for some choice of the or's disjuncts" : "") + " (safety)");
  }

  // The dependency graph: one node per relation, an edge from a rule's head to each relation
  // of its body, marked negative under not; then its strongly connected components.
  // The recursion restriction is checked on the graph without the reader's demand relations
  // (Description::demand_relations): they make no terms, so no cycle through them grows any.
  void build_graph() {
    for (const Rule& rule : d_.rules) {
      const int from = node(rule.head.name);
      for (const Term& literal : rule.body)
        for_each_sentence(literal, false, [&](const Term& s, bool) {
          const int to = node(s.name);
          edges_[static_cast<std::size_t>(from)].push_back(to);
        });
    }
    compute_components();
    if (d_.demand_relations.empty()) return;
    const auto demand = [&](int v) {
      return d_.demand_relations.contains(symbol_of_[static_cast<std::size_t>(v)]);
    };
    std::vector<std::vector<int>> without_demands(edges_.size());
    for (std::size_t v = 0; v < edges_.size(); ++v)
      if (!demand(static_cast<int>(v)))
        for (int w : edges_[v])
          if (!demand(w)) without_demands[v].push_back(w);
    int count = 0;
    recursion_component_ = strongly_connected_components(without_demands, count);
  }

  int node(Symbol s) {
    auto [it, fresh] = node_of_.try_emplace(s, static_cast<int>(symbol_of_.size()));
    if (fresh) {
      symbol_of_.push_back(s);
      edges_.emplace_back();
    }
    return it->second;
  }

  int component(Symbol s) const { return component_[static_cast<std::size_t>(node_of_.at(s))]; }
  int recursion_component(Symbol s) const {
    const auto& of = recursion_component_.empty() ? component_ : recursion_component_;
    return of[static_cast<std::size_t>(node_of_.at(s))];
  }

  void compute_components();

  bool check_stratification();
  bool check_keyword_dependencies();
  bool check_recursion();
  bool check_recursive_literal(const Rule& rule, const Term& literal,
                               std::optional<TermSet>& allowed);
  bool check_roles();

  const Description& d_;
  std::optional<std::string> error_;
  std::unordered_map<Symbol, Use> relation_arity_;
  std::unordered_map<Symbol, Use> function_arity_;
  std::unordered_map<Symbol, int> node_of_;
  std::vector<Symbol> symbol_of_;
  std::vector<std::vector<int>> edges_;
  std::vector<int> component_;  // per node; components are numbered in reverse topological
                                // order (a component's successors have smaller numbers)
  int components_ = 0;
  std::vector<int> recursion_component_;  // without demand relations, when there are some
};

void Validator::compute_components() {
  component_ = strongly_connected_components(edges_, components_);
}

// Step 4. No relation depends on itself through not (stratified negation).
bool Validator::check_stratification() {
  for (const Rule& rule : d_.rules) {
    const int head = component(rule.head.name);
    for (const Term& literal : rule.body) {
      bool ok = true;
      for_each_sentence(literal, false, [&](const Term& s, bool negative) {
        if (ok && negative && component(s.name) == head)
          ok = fail(rule, "(not " + kif(s) + ") is in a cycle with " + name(rule.head.name) +
                              " (stratified negation)");
      });
      if (!ok) return false;
    }
  }
  return true;
}

// Step 5. init, base and input do not depend on the state or the moves (true, does, next,
// legal, goal, terminal); legal, goal and terminal do not depend on does.
bool Validator::check_keyword_dependencies() {
  // Components come in reverse topological order, so successors are final when read.
  std::vector<char> on_turn(static_cast<std::size_t>(components_), 0);
  std::vector<char> on_does(static_cast<std::size_t>(components_), 0);
  std::vector<std::vector<int>> members(static_cast<std::size_t>(components_));
  for (std::size_t v = 0; v < symbol_of_.size(); ++v)
    members[static_cast<std::size_t>(component_[v])].push_back(static_cast<int>(v));
  for (std::size_t c = 0; c < members.size(); ++c) {
    for (int v : members[c]) {
      const Symbol s = symbol_of_[static_cast<std::size_t>(v)];
      on_does[c] |= s == S::kDoes;
      on_turn[c] |= s == S::kTrue || s == S::kDoes || s == S::kNext || s == S::kLegal ||
                    s == S::kGoal || s == S::kTerminal;
      for (int w : edges_[static_cast<std::size_t>(v)]) {
        const auto cw = static_cast<std::size_t>(component_[static_cast<std::size_t>(w)]);
        on_does[c] |= on_does[cw];
        on_turn[c] |= on_turn[cw];
      }
    }
  }
  for (const Rule& rule : d_.rules) {
    const Symbol h = rule.head.name;
    const bool static_head = h == S::kInit || h == S::kBase || h == S::kInput;
    const bool turn_head = h == S::kLegal || h == S::kGoal || h == S::kTerminal;
    if (!static_head && !turn_head) continue;
    for (const Term& literal : rule.body) {
      bool ok = true;
      for_each_sentence(literal, false, [&](const Term& s, bool) {
        const auto c = static_cast<std::size_t>(component(s.name));
        if (ok && static_head && on_turn[c])
          ok = fail(rule, name(h) + " depends on " + kif(s) +
                              ", which depends on the state or the moves (keyword usage)");
        if (ok && turn_head && on_does[c])
          ok = fail(rule,
                    name(h) + " depends on " + kif(s) + ", which depends on does (keyword usage)");
      });
      if (!ok) return false;
    }
  }
  return true;
}

// Step 6. GDL's recursion restriction: in a rule p(t1..tn) :- ..., q(s1..sk), ... with q in a
// cycle with p, each sj is ground, or one of the ti, or occurs in a positive body literal
// whose relation is not in that cycle. It keeps the set of derivable facts finite.
bool Validator::check_recursion() {
  for (const Rule& rule : d_.rules) {
    const int head = recursion_component(rule.head.name);
    std::optional<TermSet> allowed;
    for (const Term& literal : rule.body) {
      bool ok = true;
      for_each_sentence(literal, false, [&](const Term& s, bool negative) {
        if (ok && !negative && recursion_component(s.name) == head)
          ok = check_recursive_literal(rule, s, allowed);
      });
      if (!ok) return false;
    }
  }
  return true;
}

bool Validator::check_recursive_literal(const Rule& rule, const Term& literal,
                                        std::optional<TermSet>& allowed) {
  for (const Term& arg : literal.args) {
    if (arg.is_ground()) continue;
    if (!allowed) {  // the head's arguments and the subterms of the literals outside the cycle
      const int cycle = recursion_component(rule.head.name);
      allowed.emplace();
      for (const Term& a : rule.head.args) allowed->add(a);
      for (const Term& l : rule.body)
        if (!is_connective(l.name) && recursion_component(l.name) != cycle)
          for (const Term& a : l.args) allowed->add_with_subterms(a);
    }
    if (!allowed->contains(arg))
      return fail(rule, "argument " + kif(arg) + " of the recursive literal " + kif(literal) +
                            " is neither ground, nor an argument of the head, nor in a positive "
                            "literal outside the recursion (recursion restriction)");
  }
  return true;
}

// Step 7. At least one role, each stated once by a ground fact.
bool Validator::check_roles() {
  std::unordered_set<Symbol> seen;
  for (const Rule& rule : d_.rules) {
    if (rule.head.name != S::kRole) continue;
    const Term& role = rule.head.args[0];
    if (role.kind != Term::Kind::kConstant)
      return fail(rule, "a role is a name, not " + kif(role) + " (keyword usage)");
    if (!seen.insert(role.name).second)
      return fail(rule, "role " + name(role.name) + " is stated twice (keyword usage)");
  }
  if (seen.empty()) {
    error_ = d_.source + ": no (role NAME) fact: a game needs at least one role";
    return false;
  }
  return true;
}

}  // namespace

std::vector<Symbol> unsafe_variables(const Rule& rule) {
  VariableSet needed;
  add_variables(rule.head, needed);
  for (const Term& literal : rule.body) add_maybe_unbound(literal, needed);
  if (needed.empty()) return {};
  const VariableSet bound = always_bound_variables(rule);
  std::vector<Symbol> all;
  collect_variables(rule.head, all);
  for (const Term& literal : rule.body) collect_variables(literal, all);
  std::vector<Symbol> out;
  for (Symbol v : all)
    if (needed.contains(v) && !bound.contains(v) &&
        std::find(out.begin(), out.end(), v) == out.end())
      out.push_back(v);
  return out;
}

VariableSet always_bound_variables(const Rule& rule) {
  VariableSet out;
  for (const Term& literal : rule.body) out.merge(always_bound(literal));
  return out;
}

// Tarjan's algorithm without recursion (hostile sheets may chain many relations).
std::vector<int> strongly_connected_components(const std::vector<std::vector<int>>& edges,
                                               int& count) {
  const std::size_t n = edges.size();
  std::vector<int> index(n, -1), low(n, 0);
  std::vector<char> on_stack(n, 0);
  std::vector<int> stack;
  std::vector<std::pair<int, std::size_t>> frames;  // node, next edge
  std::vector<int> component(n, -1);
  count = 0;
  int counter = 0;
  for (std::size_t root = 0; root < n; ++root) {
    if (index[root] >= 0) continue;
    frames.push_back({static_cast<int>(root), 0});
    while (!frames.empty()) {
      auto& [v, next] = frames.back();
      const auto vi = static_cast<std::size_t>(v);
      if (next == 0 && index[vi] < 0) {
        index[vi] = low[vi] = counter++;
        stack.push_back(v);
        on_stack[vi] = 1;
      }
      if (next < edges[vi].size()) {
        const auto w = static_cast<std::size_t>(edges[vi][next++]);
        if (index[w] < 0) {
          frames.push_back({static_cast<int>(w), 0});
        } else if (on_stack[w]) {
          low[vi] = std::min(low[vi], index[w]);
        }
        continue;
      }
      if (low[vi] == index[vi]) {
        for (int w = -1; w != v;) {
          w = stack.back();
          stack.pop_back();
          on_stack[static_cast<std::size_t>(w)] = 0;
          component[static_cast<std::size_t>(w)] = count;
        }
        ++count;
      }
      const int done = v;
      frames.pop_back();
      if (!frames.empty()) {
        const auto parent = static_cast<std::size_t>(frames.back().first);
        low[parent] = std::min(low[parent], low[static_cast<std::size_t>(done)]);
      }
    }
  }
  return component;
}

Expected<void> validate_description(const Description& description) {
  return Validator(description).run();
}

}  // namespace arena::gdl
