#include "games/gdl/asp/asp.h"

#include <algorithm>
#include <cctype>
#include <optional>

namespace arena::gdl {
namespace {

bool plain_name(const std::string& name) {
  if (name.empty()) return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

std::string symbol_name(Symbol s, const SymbolTable& symbols) {
  const std::string& name = symbols.name(s);
  return plain_name(name) ? "g_" + name : "h" + std::to_string(s);
}

void append_term(const Term& term, const SymbolTable& symbols, std::string& out) {
  if (term.kind == Term::Kind::kVariable) {
    out += "V" + std::to_string(term.name);
    return;
  }
  out += symbol_name(term.name, symbols);
  if (term.kind != Term::Kind::kCompound) return;
  out += '(';
  for (std::size_t i = 0; i < term.args.size(); ++i) {
    if (i > 0) out += ',';
    append_term(term.args[i], symbols, out);
  }
  out += ')';
}

// Relations named by GDL's keywords keep their names (role, true, next, ...).
bool keyword_relation(Symbol s) {
  return s <= SymbolTable::kInput && s != SymbolTable::kDistinct && s != SymbolTable::kNot &&
         s != SymbolTable::kOr;
}

std::string atom(const Term& term, const SymbolTable& symbols, const std::string& prefix) {
  std::string out = prefix;
  out += keyword_relation(term.name) ? symbols.name(term.name) : symbol_name(term.name, symbols);
  if (term.kind != Term::Kind::kCompound) return out;
  out += '(';
  for (std::size_t i = 0; i < term.args.size(); ++i) {
    if (i > 0) out += ',';
    append_term(term.args[i], symbols, out);
  }
  return out + ')';
}

bool is_compound(const Term& term, Symbol functor, std::size_t arity) {
  return term.kind == Term::Kind::kCompound && term.name == functor && term.args.size() == arity;
}

// One body literal; "" when drop_negation leaves it out.
Expected<std::string> literal(const Term& lit, const SymbolTable& symbols,
                              const AspRuleOptions& options) {
  if (is_compound(lit, SymbolTable::kDistinct, 2))
    return asp_term(lit.args[0], symbols) + "!=" + asp_term(lit.args[1], symbols);
  if (!is_compound(lit, SymbolTable::kNot, 1)) return atom(lit, symbols, options.prefix);
  const Term& inner = lit.args[0];
  if (is_compound(inner, SymbolTable::kDistinct, 2))
    return asp_term(inner.args[0], symbols) + "=" + asp_term(inner.args[1], symbols);
  if (inner.kind == Term::Kind::kCompound &&
      (inner.name == SymbolTable::kOr || inner.name == SymbolTable::kNot))
    return make_error("a negated or/not is not GDL-I");
  if (options.drop_negation) return std::string();
  return "not " + atom(inner, symbols, options.prefix);
}

// The alternatives of one body literal: (or a (or b c)) gives a, b, c; anything else itself.
void alternatives(const Term& lit, std::vector<const Term*>& out, int depth) {
  if (depth < 64 && lit.kind == Term::Kind::kCompound && lit.name == SymbolTable::kOr) {
    for (const Term& arg : lit.args) alternatives(arg, out, depth + 1);
    return;
  }
  out.push_back(&lit);
}

void collect_variables(const Term& term, std::vector<Symbol>& out) {
  if (term.is_variable()) out.push_back(term.name);
  for (const Term& arg : term.args) collect_variables(arg, out);
}

// The variable of one combination of alternatives that no positive literal binds, if any.
std::optional<Symbol> unsafe_variable(const Term& head, const std::vector<const Term*>& literals,
                                      const AspRuleOptions& options) {
  std::vector<Symbol> bound, needed;
  collect_variables(head, needed);
  for (const Term* lit : literals) {
    const bool negative = is_compound(*lit, SymbolTable::kNot, 1);
    if (negative && options.drop_negation && !is_compound(lit->args[0], SymbolTable::kDistinct, 2))
      continue;
    const bool positive = !negative && !is_compound(*lit, SymbolTable::kDistinct, 2);
    collect_variables(*lit, positive ? bound : needed);
  }
  for (Symbol variable : needed)
    if (std::find(bound.begin(), bound.end(), variable) == bound.end()) return variable;
  return std::nullopt;
}

Expected<void> append_rule(const Rule& rule, const Description& description,
                           const AspRuleOptions& options, std::string& out) {
  const SymbolTable& symbols = description.symbols;
  const auto fail = [&](const std::string& what) {
    return make_error(description.source + ":" + std::to_string(rule.line) + ": rule " +
                      description.rule_text(rule) + ": " + what);
  };
  const std::string head = atom(rule.head, symbols, options.prefix);
  std::vector<std::vector<const Term*>> choices;
  std::vector<std::vector<std::string>> texts;
  std::size_t combinations = 1;
  for (const Term& lit : rule.body) {
    std::vector<const Term*> alts;
    alternatives(lit, alts, 0);
    if (alts.empty()) return {};  // (or) with no alternative is false: the rule never fires
    texts.emplace_back();
    for (const Term* alt : alts) {
      auto text = literal(*alt, symbols, options);
      if (!text) return fail(text.error());
      texts.back().push_back(std::move(*text));
    }
    combinations *= alts.size();
    if (combinations > kMaxOrExpansion)
      return fail("its `or`s expand to more than " + std::to_string(kMaxOrExpansion) + " rules");
    choices.push_back(std::move(alts));
  }
  std::vector<std::size_t> pick(choices.size(), 0);
  std::vector<const Term*> picked(choices.size());
  for (std::size_t n = 0; n < combinations; ++n) {
    std::string body;
    for (std::size_t i = 0; i < choices.size(); ++i) {
      picked[i] = choices[i][pick[i]];
      const std::string& text = texts[i][pick[i]];
      if (text.empty()) continue;
      body += (body.empty() ? "" : ", ") + text;
    }
    if (const auto variable = unsafe_variable(rule.head, picked, options))
      return fail("variable " + symbols.name(*variable) +
                  " occurs in no positive literal (GDL's safety); clingo cannot ground it");
    out += body.empty() ? head + ".\n" : head + " :- " + body + ".\n";
    for (std::size_t i = 0; i < pick.size(); ++i) {  // the next combination, odometer style
      if (++pick[i] < choices[i].size()) break;
      pick[i] = 0;
    }
  }
  return {};
}

}  // namespace

std::string asp_term(const Term& term, const SymbolTable& symbols) {
  std::string out;
  append_term(term, symbols, out);
  return out;
}

std::string asp_term(TermId id, const TermPool& pool, const SymbolTable& symbols) {
  std::string out = symbol_name(pool.functor(id), symbols);
  const auto args = pool.args(id);
  if (args.empty()) return out;
  out += '(';
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (i > 0) out += ',';
    out += asp_term(args[i], pool, symbols);
  }
  return out + ')';
}

Expected<std::string> rules_to_asp(const Description& description, const AspRuleOptions& options) {
  std::string out;
  for (const Rule& rule : description.rules) {
    const Symbol head = rule.head.name;
    if ((options.skip_goal && head == SymbolTable::kGoal) ||
        (options.skip_terminal && head == SymbolTable::kTerminal))
      continue;
    if (auto added = append_rule(rule, description, options, out); !added)
      return make_error(added.error());
  }
  return out;
}

namespace {

class AspTermParser {
 public:
  AspTermParser(std::string_view text, const SymbolTable& symbols, TermPool& pool)
      : text_(text), symbols_(symbols), pool_(pool) {}

  Expected<TermId> parse_whole() {
    auto term = parse(0);
    if (!term) return term;
    if (pos_ != text_.size()) return fail("unexpected text after the term");
    return term;
  }

 private:
  static constexpr int kMaxDepth = 1000;

  Error fail(const std::string& what) const {
    return make_error("cannot read clingo's term '" + std::string(text_.substr(0, 200)) +
                      "' at offset " + std::to_string(pos_) + ": " + what);
  }

  Expected<TermId> parse(int depth) {
    if (depth > kMaxDepth) return fail("nested too deeply");
    const std::size_t start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) ||
                                   text_[pos_] == '_' || text_[pos_] == '\''))
      ++pos_;
    if (pos_ == start) return fail("expected a name");
    auto symbol = symbol_of(text_.substr(start, pos_ - start));
    if (!symbol) return make_error(symbol.error());
    std::vector<TermId> args;
    if (pos_ < text_.size() && text_[pos_] == '(') {
      do {
        ++pos_;
        auto arg = parse(depth + 1);
        if (!arg) return arg;
        args.push_back(*arg);
      } while (pos_ < text_.size() && text_[pos_] == ',');
      if (pos_ >= text_.size() || text_[pos_] != ')') return fail("expected ')'");
      ++pos_;
    }
    return pool_.make(*symbol, args);
  }

  Expected<Symbol> symbol_of(std::string_view name) const {
    Symbol symbol = 0;
    if (name.size() > 2 && name.substr(0, 2) == "g_" && symbols_.find(name.substr(2), symbol))
      return symbol;
    if (name.size() > 1 && name[0] == 'h') {
      unsigned long long id = 0;
      bool digits = true;
      for (char c : name.substr(1)) {
        if (c < '0' || c > '9' || id > symbols_.size()) {
          digits = false;
          break;
        }
        id = id * 10 + static_cast<unsigned>(c - '0');
      }
      if (digits && id < symbols_.size()) return static_cast<Symbol>(id);
    }
    return fail("'" + std::string(name) + "' names no symbol of the sheet");
  }

  std::string_view text_;
  const SymbolTable& symbols_;
  TermPool& pool_;
  std::size_t pos_ = 0;
};

}  // namespace

Expected<TermId> parse_asp_term(std::string_view text, const SymbolTable& symbols, TermPool& pool) {
  return AspTermParser(text, symbols, pool).parse_whole();
}

}  // namespace arena::gdl
