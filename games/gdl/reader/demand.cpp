#include "games/gdl/reader/demand.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "games/gdl/reader/unify.h"
#include "games/gdl/reader/validate.h"

namespace arena::gdl {

namespace {

using S = SymbolTable;

constexpr int kMaxRequestDepth = 32;
// Reading places looked at in all: a sheet of many unsafe rules, each read in many places,
// is refused in time rather than rewritten.
constexpr std::size_t kMaxReadingPlaces = 200000;

bool is_keyword(Symbol s) {
  return s <= S::kImplies;
}

bool contains(const std::vector<Symbol>& set, Symbol v) {
  return std::find(set.begin(), set.end(), v) != set.end();
}

Term variable(Symbol v) {
  return Term{Term::Kind::kVariable, v, {}};
}

Term atom(Symbol relation, const std::vector<Symbol>& vars) {
  Term out{Term::Kind::kCompound, relation, {}};
  for (Symbol v : vars) out.args.push_back(variable(v));
  return out;
}

bool has_variable_past(const Term& t, Symbol offset) {
  if (t.is_variable()) return t.name >= offset;
  return std::any_of(t.args.begin(), t.args.end(),
                     [&](const Term& a) { return has_variable_past(a, offset); });
}

// The demand relations of one description, made on request: demand(rule, vars) is a relation
// of the tuples of `vars` (variables of the rule's head) that the rule's readers ask for.
//
// Which literals of a reader bind the values it asks for: any literal left of the reading
// place (a top-down prover such as ggp-base's has its answers before it asks, and so, by
// induction over the order of its calls, has this bottom-up reading), and to its right only a
// literal that depends on no rewritten relation (its facts are all there, demand or not).
class Demands {
 public:
  Demands(Description& d, std::unordered_set<Symbol> depends)
      : d_(d), depends_(std::move(depends)) {
    for (std::size_t i = 0; i < d_.rules.size(); ++i)
      for (const Term& literal : d_.rules[i].body)
        for_each_read(literal, false, [&](const Term& s, bool) {
          auto& readers = readers_[s.name];
          if (readers.empty() || readers.back() != i) readers.push_back(i);
        });
  }

  // The demand relation of `vars` in rule `rule`, nullopt when some reader cannot bind them
  // (what was made for it is then taken back).
  std::optional<Symbol> demand(std::size_t rule, const std::vector<Symbol>& vars, int depth) {
    const std::pair<std::size_t, std::vector<Symbol>> key{rule, vars};
    if (auto it = made_.find(key); it != made_.end()) return it->second;
    if (depth > kMaxRequestDepth) return std::nullopt;
    const Rule& def = d_.rules[rule];  // the rules do not change while demands are made
    int n = 0;
    const Symbol name =
        fresh_relation(d_.symbols, d_.symbols.name(def.head.name) + "_demand", def.line, n);
    const std::size_t rules_before = added_.size(), made_before = order_.size();
    made_.emplace(key, name);
    order_.push_back(key);
    const auto fail = [&]() -> std::optional<Symbol> {
      added_.resize(rules_before);
      for (std::size_t i = made_before; i < order_.size(); ++i) made_.erase(order_[i]);
      order_.resize(made_before);
      made_.emplace(key, std::nullopt);  // asked again, the answer is the same
      return std::nullopt;
    };
    const auto readers = readers_.find(def.head.name);
    if (readers == readers_.end()) return name;
    for (std::size_t reader : readers->second) {
      const auto& body = d_.rules[reader].body;
      for (std::size_t i = 0; i < body.size(); ++i) {
        bool bound = true;
        for_each_read(body[i], false, [&](const Term& s, bool) {
          if (bound && s.name == def.head.name)
            bound = ask_at(name, def, vars, reader, i, s, depth);
        });
        if (!bound) return fail();
      }
    }
    return name;
  }

  std::vector<Rule>& added() { return added_; }
  std::vector<Symbol> relations() const {
    std::vector<Symbol> out;
    for (const auto& [key, name] : made_)
      if (name) out.push_back(*name);
    return out;
  }

 private:
  // 0 and 1: a static relation, then true or does, that depends on no rewritten relation;
  // 2: a literal left of the reading place that does; -1: not a binder.
  int binder_rank(const Term& literal, bool left) const {
    if (literal.name == S::kNot || literal.name == S::kOr || literal.name == S::kDistinct)
      return -1;
    if (!depends_.contains(literal.name))
      return literal.name == S::kTrue || literal.name == S::kDoes ? 1 : 0;
    return left ? 2 : -1;
  }

  // Adds the rule that says which tuples of `vars` the literal `site` (inside body literal
  // `site_index`) of rule `reader` asks `def` for. False when the reader does not bind them.
  bool ask_at(Symbol name, const Rule& def, const std::vector<Symbol>& vars, std::size_t reader,
              std::size_t site_index, const Term& site, int depth) {
    const Rule& reading = d_.rules[reader];
    if (++asked_ > kMaxReadingPlaces) return false;
    const Symbol offset = static_cast<Symbol>(d_.symbols.size());
    Substitution s;
    if (!unify(site, rename_apart(def.head, offset), s)) return true;  // never reads def's facts
    Term tuple{Term::Kind::kCompound, name, {}};
    for (Symbol v : vars) {
      auto value = substitute(variable(v + offset), s);
      // A demand projects values (Description::demand_relations): a variable or a ground term.
      if (!value || !(value->is_variable() || value->is_ground())) return false;
      tuple.args.push_back(std::move(*value));
    }
    std::vector<Symbol> needed;
    add_variables(tuple, needed);
    std::vector<Term> body;
    std::vector<Symbol> outside;  // bound by literals that depend on no rewritten relation
    std::vector<Symbol> cycle;    // bound by literals left of the site that do
    // Adds the literals of `rank` that bind a variable of `wanted` not yet `covered`.
    const auto bind_by = [&](int rank, const std::vector<Symbol>& wanted,
                             std::vector<Symbol>& covered) {
      for (std::size_t i = 0; i < reading.body.size(); ++i) {
        if (i == site_index || binder_rank(reading.body[i], i < site_index) != rank) continue;
        auto literal = substitute(reading.body[i], s);
        if (!literal || has_variable_past(*literal, offset)) continue;
        std::vector<Symbol> its;
        add_variables(*literal, its);
        if (!std::any_of(its.begin(), its.end(),
                         [&](Symbol v) { return contains(wanted, v) && !contains(covered, v); }))
          continue;
        for (Symbol v : its) covered.push_back(v);
        body.push_back(std::move(*literal));
      }
    };
    bind_by(0, needed, outside);
    bind_by(1, needed, outside);
    std::vector<Symbol> open;
    for (Symbol v : needed)
      if (!contains(outside, v)) open.push_back(v);
    if (!open.empty()) {
      // The reader's own readers bind them, through its head; else literals to the left that
      // depend on a rewritten relation.
      if (auto outer = ask_readers_of(reader, s, open, depth)) {
        body.push_back(atom(*outer, open));
      } else {
        bind_by(2, open, cycle);
        if (std::any_of(open.begin(), open.end(), [&](Symbol v) { return !contains(cycle, v); }))
          return false;
        // Those literals may be in a cycle with this demand: GDL's recursion restriction wants
        // their other variables bound outside it too, where the reader does.
        bind_by(0, cycle, outside);
        bind_by(1, cycle, outside);
      }
    }
    if (body.size() == 1 && body.front() == tuple) return true;  // adds nothing
    Rule asks{std::move(tuple), std::move(body), reading.line};
    if (std::any_of(added_.begin(), added_.end(),
                    [&](const Rule& r) { return r.head == asks.head && r.body == asks.body; }))
      return true;  // another reading place asks the same
    if (added_.size() >= kMaxDemandRules) return false;
    added_.push_back(std::move(asks));
    return true;
  }

  // The demand of the reader's head variables that `s` makes `open`, nullopt when they are not
  // all in the head (or it is a keyword's) or its readers do not bind them.
  std::optional<Symbol> ask_readers_of(std::size_t reader, const Substitution& s,
                                       const std::vector<Symbol>& open, int depth) {
    const Term& head = d_.rules[reader].head;
    if (is_keyword(head.name)) return std::nullopt;
    std::vector<Symbol> head_vars, asked;
    add_variables(head, head_vars);
    for (Symbol v : open) {
      const auto w = std::find_if(head_vars.begin(), head_vars.end(), [&](Symbol h) {
        const Term head_var = variable(h);
        const Term& at = walk(head_var, s);
        return at.is_variable() && at.name == v;
      });
      if (w == head_vars.end()) return std::nullopt;
      asked.push_back(*w);
    }
    return demand(reader, asked, depth + 1);
  }

  Description& d_;
  std::unordered_map<Symbol, std::vector<std::size_t>> readers_;  // relation -> rules reading it
  std::unordered_set<Symbol> depends_;  // relations that read a rewritten one, and those
  using Key = std::pair<std::size_t, std::vector<Symbol>>;
  std::map<Key, std::optional<Symbol>> made_;  // nullopt: asked and not bindable
  std::vector<Key> order_;                     // the keys made, in order, for taking back
  std::vector<Rule> added_;
  std::size_t asked_ = 0;
};

// The relations that read one of `roots`, directly or through others, and the roots.
std::unordered_set<Symbol> dependents(const std::vector<Rule>& rules,
                                      const std::vector<Symbol>& roots) {
  std::unordered_map<Symbol, std::vector<Symbol>> read_by;  // relation -> its readers' heads
  for (const Rule& r : rules)
    for (const Term& literal : r.body)
      for_each_read(literal, false,
                    [&](const Term& s, bool) { read_by[s.name].push_back(r.head.name); });
  std::unordered_set<Symbol> out(roots.begin(), roots.end());
  std::vector<Symbol> todo = roots;
  while (!todo.empty()) {
    const auto readers = read_by.find(todo.back());
    todo.pop_back();
    if (readers == read_by.end()) continue;
    for (Symbol head : readers->second)
      if (out.insert(head).second) todo.push_back(head);
  }
  return out;
}

// Every sentence of `literal` (inside not and or) whose relation `rename` maps, renamed.
template <class F>
void rename_reads(Term& literal, F&& rename) {
  if (literal.name == S::kDistinct) return;
  if (literal.name == S::kNot || literal.name == S::kOr) {
    for (Term& a : literal.args) rename_reads(a, rename);
    return;
  }
  literal.name = rename(literal.name);
}

// GDL evaluates in three phases: init (and base, input, role) with no state, legal, goal and
// terminal in a state, next with the moves. A demand binds by what its reader has, so a
// relation that depends on a rewritten one gets a version per phase that reads it (REL_init,
// REL for the state, REL_next), each asked only by readers of its phase: legal never comes to
// depend on does through a demand that next's readers make.
std::vector<Rule> version_by_phase(const std::vector<Rule>& rules,
                                   const std::unordered_set<Symbol>& depends,
                                   SymbolTable& symbols) {
  const auto phase_of = [](Symbol keyword) {
    if (keyword == S::kInit || keyword == S::kBase || keyword == S::kInput || keyword == S::kRole)
      return 0;
    return keyword == S::kNext ? 2 : 1;
  };
  const auto versioned = [&](Symbol r) { return !is_keyword(r) && depends.contains(r); };
  std::unordered_map<Symbol, std::vector<const Rule*>> rules_of;
  for (const Rule& r : rules) rules_of[r.head.name].push_back(&r);
  std::map<std::pair<Symbol, int>, Symbol> version;  // (relation, phase) -> name
  std::vector<std::pair<Symbol, int>> todo;
  const auto name_of = [&](Symbol r, int phase) {
    auto [it, fresh] = version.try_emplace({r, phase}, r);
    if (fresh) {
      if (phase != 1) {
        it->second = fresh_name(symbols, symbols.name(r) + (phase == 0 ? "_init" : "_next"));
      }
      todo.emplace_back(r, phase);
    }
    return it->second;
  };
  const auto copy = [&](const Rule& r, Symbol head, int phase) {
    Rule out = r;
    out.head.name = head;
    for (Term& literal : out.body)
      rename_reads(literal, [&](Symbol s) { return versioned(s) ? name_of(s, phase) : s; });
    return out;
  };
  std::vector<Rule> out;
  for (const Rule& r : rules)
    if (!versioned(r.head.name)) out.push_back(copy(r, r.head.name, phase_of(r.head.name)));
  while (!todo.empty()) {
    const auto [relation, phase] = todo.back();
    todo.pop_back();
    const Symbol head = version.at({relation, phase});
    for (const Rule* r : rules_of[relation]) out.push_back(copy(*r, head, phase));
  }
  return out;
}

// A rule that reads a demand relation no rule defines can never hold: dropped, and so on for
// the demand rules that only it made possible.
void drop_rules_of_empty_demands(std::vector<Rule>& rules, const std::vector<Symbol>& demands) {
  for (bool dropped = true; dropped;) {
    std::unordered_set<Symbol> defined;
    for (const Rule& r : rules) defined.insert(r.head.name);
    const auto unsatisfiable = [&](const Rule& r) {
      return std::any_of(r.body.begin(), r.body.end(), [&](const Term& l) {
        return contains(demands, l.name) && !defined.contains(l.name);
      });
    };
    const std::size_t before = rules.size();
    std::erase_if(rules, unsatisfiable);
    dropped = rules.size() != before;
  }
}

}  // namespace

namespace {

std::vector<std::pair<std::size_t, std::vector<Symbol>>> unsafe_rules(
    const std::vector<Rule>& rules) {
  std::vector<std::pair<std::size_t, std::vector<Symbol>>> out;
  for (std::size_t i = 0; i < rules.size(); ++i) {
    std::vector<Symbol> vars = unsafe_variables(rules[i]);
    if (!vars.empty()) out.emplace_back(i, std::move(vars));
  }
  return out;
}

// The relations that a rule of another relation reads.
std::unordered_set<Symbol> read_elsewhere(const std::vector<Rule>& rules) {
  std::unordered_set<Symbol> out;
  for (const Rule& r : rules)
    for (const Term& literal : r.body)
      for_each_read(literal, false, [&](const Term& s, bool) {
        if (s.name != r.head.name) out.insert(s.name);
      });
  return out;
}

// Whether every unsafe rule can be asked for a demand: its unsafe variables are in its head,
// which is no keyword's, and another relation reads it (an unsafe rule that nothing asks is a
// mistake of the sheet, refused as before).
bool bindable(const std::vector<Rule>& rules,
              const std::vector<std::pair<std::size_t, std::vector<Symbol>>>& unsafe) {
  const std::unordered_set<Symbol> read = read_elsewhere(rules);
  return std::all_of(unsafe.begin(), unsafe.end(), [&](const auto& u) {
    const Rule& rule = rules[u.first];
    std::vector<Symbol> head_vars;
    add_variables(rule.head, head_vars);
    return !is_keyword(rule.head.name) && read.contains(rule.head.name) &&
           std::all_of(u.second.begin(), u.second.end(),
                       [&](Symbol v) { return contains(head_vars, v); });
  });
}

std::vector<Symbol> heads_of(
    const std::vector<Rule>& rules,
    const std::vector<std::pair<std::size_t, std::vector<Symbol>>>& unsafe) {
  std::vector<Symbol> out;
  for (const auto& [i, vars] : unsafe) out.push_back(rules[i].head.name);
  return out;
}

}  // namespace

std::optional<std::vector<Rule>> bind_unsafe_rules_by_demand(Description& d) {
  auto unsafe = unsafe_rules(d.rules);
  if (unsafe.empty() || !bindable(d.rules, unsafe)) return std::nullopt;
  std::vector<Rule> as_written = d.rules;
  std::vector<int> lines;
  for (const auto& [i, vars] : unsafe) lines.push_back(d.rules[i].line);
  std::sort(lines.begin(), lines.end());
  lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
  d.rules = version_by_phase(d.rules, dependents(d.rules, heads_of(d.rules, unsafe)), d.symbols);
  unsafe = unsafe_rules(d.rules);
  const std::vector<Symbol> rewritten = heads_of(d.rules, unsafe);
  Demands demands(d, dependents(d.rules, rewritten));
  std::vector<Term> literals;
  for (const auto& [i, vars] : unsafe) {
    const auto relation = demands.demand(i, vars, 0);
    if (!relation) {
      d.rules = std::move(as_written);
      return std::nullopt;
    }
    literals.push_back(atom(*relation, vars));
  }
  for (std::size_t k = 0; k < unsafe.size(); ++k) {
    auto& body = d.rules[unsafe[k].first].body;
    body.insert(body.begin(), literals[k]);
  }
  for (Rule& r : demands.added()) d.rules.push_back(std::move(r));
  const std::vector<Symbol> made = demands.relations();
  drop_rules_of_empty_demands(d.rules, made);
  d.demand_relations.insert(made.begin(), made.end());
  d.bound_by_demand = std::move(lines);
  return as_written;
}

}  // namespace arena::gdl
