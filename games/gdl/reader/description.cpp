#include "games/gdl/reader/description.h"

#include <algorithm>
#include <optional>
#include <sstream>
#include <unordered_map>
#include <utility>

#include "games/gdl/reader/demand.h"
#include "games/gdl/reader/kif_reader.h"
#include "games/gdl/reader/unify.h"
#include "games/gdl/reader/validate.h"

namespace arena::gdl {

namespace {

// Step 1 of read_description: the rewritings ggp-base's GdlCleaner applies before its
// validator, so that reasoners see only the plain forms.

bool is_not_of(const Term& literal, Symbol inner) {
  return literal.name == SymbolTable::kNot && literal.args.size() == 1 &&
         literal.args[0].name == inner && literal.args[0].kind == Term::Kind::kCompound;
}

// (not (or L1 .. Ln)) becomes (not L1) .. (not Ln), as De Morgan allows.
void split_negated_ors(Rule& rule) {
  for (std::size_t i = 0; i < rule.body.size();) {
    if (!is_not_of(rule.body[i], SymbolTable::kOr)) {
      ++i;
      continue;
    }
    std::vector<Term> disjuncts = std::move(rule.body[i].args[0].args);
    rule.body.erase(rule.body.begin() + static_cast<std::ptrdiff_t>(i));
    for (Term& d : disjuncts) {
      Term negated{Term::Kind::kCompound, SymbolTable::kNot, {}};
      negated.args.push_back(std::move(d));
      rule.body.push_back(std::move(negated));
    }
  }
}

// Some sheets (older ones from Dresden) write a conjunction as (and L1 .. Ln), which GDL leaves
// out. Read so when no rule defines a relation named `and`: in a body it is its literals,
// (not (and L1 .. Ln)) is (or (not L1) .. (not Ln)), and an (or ..) with a conjunction among
// its disjuncts becomes one rule per disjunct. At most kMaxConjunctionRules rules come of one.
constexpr std::size_t kMaxConjunctionRules = 4096;

bool is_and(const Term& t, Symbol and_symbol) {
  return t.kind == Term::Kind::kCompound && t.name == and_symbol;
}

bool has_and(const Term& literal, Symbol and_symbol) {
  if (is_and(literal, and_symbol)) return true;
  if (literal.kind != Term::Kind::kCompound ||
      (literal.name != SymbolTable::kOr && literal.name != SymbolTable::kNot))
    return false;
  return std::any_of(literal.args.begin(), literal.args.end(),
                     [&](const Term& a) { return has_and(a, and_symbol); });
}

// Rewrites body literal `i` of `rule` one step towards no (and ..); the rules that replace
// `rule` go to `todo`.
void open_conjunction(Rule rule, std::size_t i, Symbol and_symbol, std::vector<Rule>& todo) {
  Term literal = std::move(rule.body[i]);
  rule.body.erase(rule.body.begin() + static_cast<std::ptrdiff_t>(i));
  if (is_and(literal, and_symbol)) {
    rule.body.insert(rule.body.begin() + static_cast<std::ptrdiff_t>(i),
                     std::make_move_iterator(literal.args.begin()),
                     std::make_move_iterator(literal.args.end()));
    todo.push_back(std::move(rule));
  } else if (literal.name == SymbolTable::kNot && !literal.args.empty() &&
             is_and(literal.args[0], and_symbol)) {
    Term any{Term::Kind::kCompound, SymbolTable::kOr, {}};
    for (Term& conjunct : literal.args[0].args)
      any.args.push_back(Term{Term::Kind::kCompound, SymbolTable::kNot, {std::move(conjunct)}});
    rule.body.insert(rule.body.begin() + static_cast<std::ptrdiff_t>(i), std::move(any));
    todo.push_back(std::move(rule));
  } else if (literal.name == SymbolTable::kOr) {
    // In reverse: `todo` is taken from its back, so the rules keep the disjuncts' order.
    for (auto d = literal.args.rbegin(); d != literal.args.rend(); ++d) {
      Rule one = rule;
      one.body.insert(one.body.begin() + static_cast<std::ptrdiff_t>(i), std::move(*d));
      todo.push_back(std::move(one));
    }
  } else if (!literal.args.empty() && literal.args[0].name == SymbolTable::kNot &&
             !literal.args[0].args.empty()) {  // (not (not L)) is L
    rule.body.insert(rule.body.begin() + static_cast<std::ptrdiff_t>(i),
                     std::move(literal.args[0].args[0]));
    todo.push_back(std::move(rule));
  } else {  // (not (or .. (and ..) ..)): (and (not ..) ..) as De Morgan allows
    Term all{Term::Kind::kCompound, and_symbol, {}};
    for (Term& d : literal.args[0].args)
      all.args.push_back(Term{Term::Kind::kCompound, SymbolTable::kNot, {std::move(d)}});
    rule.body.insert(rule.body.begin() + static_cast<std::ptrdiff_t>(i), std::move(all));
    todo.push_back(std::move(rule));
  }
}

Expected<void> expand_conjunctions(Description& d) {
  Symbol and_symbol;
  if (!d.symbols.find("and", and_symbol)) return {};
  if (std::any_of(d.rules.begin(), d.rules.end(),
                  [&](const Rule& r) { return r.head.name == and_symbol; }))
    return {};  // a relation of the sheet's own
  std::vector<Rule> out;
  for (Rule& rule : d.rules) {
    std::vector<Rule> todo{std::move(rule)};
    std::size_t made = 0;
    while (!todo.empty()) {
      Rule r = std::move(todo.back());
      todo.pop_back();
      auto it = std::find_if(r.body.begin(), r.body.end(),
                             [&](const Term& l) { return has_and(l, and_symbol); });
      if (it == r.body.end()) {
        out.push_back(std::move(r));
        continue;
      }
      if (++made > kMaxConjunctionRules) {
        return make_error(d.source + ":" + std::to_string(r.line) + ": the rule's (and ..) " +
                          "and (or ..) give more than " + std::to_string(kMaxConjunctionRules) +
                          " rules");
      }
      open_conjunction(std::move(r), static_cast<std::size_t>(it - r.body.begin()), and_symbol,
                       todo);
    }
  }
  d.rules = std::move(out);
  return {};
}

// (not (distinct a b)) says a = b: the rule is rewritten with the unifier of a and b, or
// dropped (false) when they do not unify. Errors only when the result nests too deep.
Expected<bool> remove_not_distinct(Rule& rule, const std::string& where) {
  constexpr std::size_t kMaxEqualities = 64;  // keeps the unification linear in practice
  Substitution s;
  std::size_t equalities = 0;
  bool unifiable = true;
  std::erase_if(rule.body, [&](const Term& l) {
    if (!is_not_of(l, SymbolTable::kDistinct) || l.args[0].args.size() != 2) return false;
    if (++equalities <= kMaxEqualities && unifiable)
      unifiable = unify(l.args[0].args[0], l.args[0].args[1], s);
    return true;
  });
  if (equalities > kMaxEqualities)
    return make_error(where + ": more than " + std::to_string(kMaxEqualities) +
                      " (not (distinct ...)) literals in one rule (size limit)");
  if (!unifiable) return false;
  if (s.empty()) return true;
  const std::string too_deep = where + ": terms nest too deep after (not (distinct ...))";
  auto head = substitute(rule.head, s, 0);
  if (!head) return make_error(too_deep);
  rule.head = std::move(*head);
  for (Term& literal : rule.body) {
    auto sub = substitute(literal, s, 0);
    if (!sub) return make_error(too_deep);
    literal = std::move(*sub);
  }
  return true;
}

// Old sheets state (base NAME (x 1 2) ...) facts of another arity than GDL's (base F); like
// GdlCleaner, all base facts are then dropped, since the two kinds cannot be told apart.
void drop_old_style_base(std::vector<Rule>& rules) {
  const auto old_style = [](const Rule& r) {
    return r.body.empty() && r.head.name == SymbolTable::kBase && r.head.args.size() != 1;
  };
  if (std::none_of(rules.begin(), rules.end(), old_style)) return;
  std::erase_if(rules,
                [](const Rule& r) { return r.body.empty() && r.head.name == SymbolTable::kBase; });
}

// The first argument of legal, goal and input is a role by GDL's definition; a rule that
// leaves it a free variable ((legal ?p noop) as a fact) gets (role ?p) as its first literal.
// ggp-base's prover plays such sheets; its cleaner lists the same rewriting as a to-do.
void bind_role_arguments(Rule& rule) {
  const Symbol h = rule.head.name;
  if (h != SymbolTable::kLegal && h != SymbolTable::kGoal && h != SymbolTable::kInput) return;
  if (rule.head.args.empty() || !rule.head.args[0].is_variable()) return;
  if (always_bound_variables(rule).contains(rule.head.args[0].name)) return;
  Term role{Term::Kind::kCompound, SymbolTable::kRole, {rule.head.args[0]}};
  rule.body.insert(rule.body.begin(), std::move(role));
}

// (not S) with variables that occur nowhere else in the rule says that no instance of S holds
// (ggp-base's prover reads it so, and slaughter.kif and sudoku.kif need it). It becomes
// (not (aux V..)) with the new rule (<= (aux V..) S), V being S's other variables, so that
// both rules are safe. The new rules go to `out` before the rule.
void name_existential_negations(Rule& rule, SymbolTable& symbols, std::vector<Rule>& out) {
  int n = 0;
  for (std::size_t i = 0; i < rule.body.size(); ++i) {
    Term& literal = rule.body[i];
    if (literal.name != SymbolTable::kNot || literal.args.size() != 1) continue;
    const Term& sentence = literal.args[0];
    if (sentence.name == SymbolTable::kDistinct || sentence.name == SymbolTable::kOr ||
        sentence.name == SymbolTable::kNot)
      continue;
    std::vector<Symbol> inside, elsewhere;
    add_variables(sentence, inside);
    if (inside.empty()) continue;
    add_variables(rule.head, elsewhere);
    for (std::size_t j = 0; j < rule.body.size(); ++j)
      if (j != i) add_variables(rule.body[j], elsewhere);
    Term aux{Term::Kind::kConstant, 0, {}};
    for (Symbol v : inside)
      if (std::find(elsewhere.begin(), elsewhere.end(), v) != elsewhere.end())
        aux.args.push_back(Term{Term::Kind::kVariable, v, {}});
    if (aux.args.size() == inside.size()) continue;  // no variable of its own
    aux.name = fresh_relation(symbols, "not_exists", rule.line, n);
    if (!aux.args.empty()) aux.kind = Term::Kind::kCompound;
    Rule definition{aux, {std::move(literal.args[0])}, rule.line};
    literal.args[0] = std::move(aux);
    out.push_back(std::move(definition));
  }
}

// Each relation's strongly connected component in the graph of what its rules read: a negated
// sentence in its head's component is in a cycle through not. Linear in the rules.
class ReadGraph {
 public:
  explicit ReadGraph(const std::vector<Rule>& rules) {
    for (const Rule& rule : rules) {
      const int head = node(rule.head.name);
      for (const Term& literal : rule.body)
        for_each_read(literal, false, [&](const Term& s, bool) {
          const int read = node(s.name);
          edges_[static_cast<std::size_t>(head)].push_back(read);
        });
    }
    int count = 0;
    component_ = strongly_connected_components(edges_, count);
  }
  bool same_component(Symbol a, Symbol b) const {
    const auto x = node_of_.find(a), y = node_of_.find(b);
    return x != node_of_.end() && y != node_of_.end() &&
           component_[static_cast<std::size_t>(x->second)] ==
               component_[static_cast<std::size_t>(y->second)];
  }

 private:
  int node(Symbol s) {
    auto [it, added] = node_of_.emplace(s, static_cast<int>(edges_.size()));
    if (added) edges_.emplace_back();
    return it->second;
  }
  std::unordered_map<Symbol, int> node_of_;
  std::vector<std::vector<int>> edges_;
  std::vector<int> component_;
};

// A negation inside a cycle that only the terms tell apart, as in ggp-repository's majorities
// and futoshiki: (<= (goal ?r 0) (role ?r) (not (goal ?r 100))) reads goal through not, but no
// rule for (goal ?r 100) reads (goal ?r 0). The negated sentence's relation becomes a new one,
// defined by copies of exactly the rules whose heads unify with it: no other rule makes an
// instance of it true, so the sheet means what it did, and the cycle through not is gone when
// those instances do not depend on themselves (ground-level stratification, which ggp-base's
// prover accepts). Up to kRounds rounds, for negations in the copies; a cycle still there then
// (a real one), or a need for kMaxCopies copied rules or more, leaves the rules as they were,
// for the validator to refuse by the original rule.
void unfold_negations_in_cycles(Description& d) {
  constexpr int kRounds = 4;
  constexpr std::size_t kMaxCopies = 4096;
  std::optional<std::vector<Rule>> original;
  std::size_t copies_made = 0;
  for (int round = 0; round <= kRounds; ++round) {
    const ReadGraph reads(d.rules);
    const Symbol offset = static_cast<Symbol>(d.symbols.size());
    std::vector<Rule> copies;
    const auto full = [&] { return copies_made + copies.size() >= kMaxCopies; };
    bool cyclic = false;
    for (Rule& rule : d.rules) {
      int n = 0;
      for (Term& literal : rule.body) {
        if (literal.name != SymbolTable::kNot || literal.args.size() != 1) continue;
        Term& sentence = literal.args[0];
        if (sentence.name == SymbolTable::kDistinct || sentence.name == SymbolTable::kOr ||
            sentence.name == SymbolTable::kNot || sentence.name == SymbolTable::kTrue ||
            sentence.name == SymbolTable::kDoes ||
            !reads.same_component(sentence.name, rule.head.name))
          continue;
        cyclic = true;
        if (round == kRounds) break;
        if (!original) original = d.rules;
        const Term apart = rename_apart(sentence, offset);
        const Symbol fresh =
            fresh_relation(d.symbols, d.symbols.name(sentence.name) + "_negated", rule.line, n);
        for (const Rule& r : d.rules) {
          Substitution s;
          if (r.head.name != sentence.name || !unify(r.head, apart, s)) continue;
          if (full()) break;  // checked as they come: a sheet could ask for millions
          copies.push_back(r);
          copies.back().head.name = fresh;
        }
        sentence.name = fresh;
        if (full()) break;
      }
      if (full()) break;
    }
    if (!cyclic) return;
    if (round == kRounds || full()) break;
    copies_made += copies.size();
    for (Rule& c : copies) d.rules.push_back(std::move(c));
  }
  if (original) d.rules = std::move(*original);
}

Expected<void> clean(Description& d) {
  if (auto opened = expand_conjunctions(d); !opened) return opened;
  std::vector<Rule> kept;
  kept.reserve(d.rules.size());
  for (Rule& rule : d.rules) {
    split_negated_ors(rule);
    auto keep = remove_not_distinct(rule, d.source + ":" + std::to_string(rule.line));
    if (!keep) return make_error(keep.error());
    if (!*keep) continue;
    bind_role_arguments(rule);
    name_existential_negations(rule, d.symbols, kept);
    kept.push_back(std::move(rule));
  }
  d.rules = std::move(kept);
  drop_old_style_base(d.rules);
  unfold_negations_in_cycles(d);
  return {};
}

}  // namespace

std::vector<Symbol> Description::roles() const {
  std::vector<Symbol> out;
  for (const Rule& rule : rules) {
    if (!rule.body.empty() || rule.head.name != SymbolTable::kRole || rule.head.args.size() != 1)
      continue;
    const Term& role = rule.head.args[0];
    if (role.kind == Term::Kind::kConstant) out.push_back(role.name);
  }
  return out;
}

std::string Description::rule_text(const Rule& rule) const {
  if (rule.body.empty()) return to_kif(rule.head, symbols);
  std::string out = "(<= " + to_kif(rule.head, symbols);
  for (const Term& literal : rule.body) out += " " + to_kif(literal, symbols);
  return out + ")";
}

Expected<Description> read_description(std::string_view text, std::string_view source) {
  Description description;
  description.source = std::string(source);
  auto rules = parse_kif(text, source, description.symbols);
  if (!rules) return make_error(rules.error());
  description.rules = std::move(*rules);
  if (auto cleaned = clean(description); !cleaned) return make_error(cleaned.error());
  const auto as_written = bind_unsafe_rules_by_demand(description);
  if (auto valid = validate_description(description); !valid) {
    if (!as_written) return make_error(valid.error());
    description.rules = *as_written;  // the refusal names the sheet's own rules
    description.demand_relations.clear();
    description.bound_by_demand.clear();
    auto first = validate_description(description);
    return make_error(first ? valid.error() : first.error());
  }
  return description;
}

}  // namespace arena::gdl
