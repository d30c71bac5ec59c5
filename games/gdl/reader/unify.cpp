#include "games/gdl/reader/unify.h"

#include <algorithm>

#include "games/gdl/reader/kif_reader.h"

namespace arena::gdl {

namespace {

bool occurs(Symbol variable, const Term& t, const Substitution& s) {
  const Term& w = walk(t, s);
  if (w.is_variable()) return w.name == variable;
  return std::any_of(w.args.begin(), w.args.end(),
                     [&](const Term& a) { return occurs(variable, a, s); });
}

}  // namespace

const Term& walk(const Term& t, const Substitution& s) {
  const Term* at = &t;
  while (at->is_variable()) {
    auto it = s.find(at->name);
    if (it == s.end()) break;
    at = &it->second;
  }
  return *at;
}

bool unify(const Term& a, const Term& b, Substitution& s) {
  const Term& x = walk(a, s);
  const Term& y = walk(b, s);
  if (x.is_variable() && y.is_variable() && x.name == y.name) return true;
  if (x.is_variable() || y.is_variable()) {
    const bool bind_y = y.is_variable();  // keeps the first variable: (distinct ?x ?y) -> ?x
    const Term& var = bind_y ? y : x;
    const Term& value = bind_y ? x : y;
    if (occurs(var.name, value, s)) return false;
    s.emplace(var.name, value);
    return true;
  }
  if (x.name != y.name || x.args.size() != y.args.size()) return false;
  for (std::size_t i = 0; i < x.args.size(); ++i)
    if (!unify(x.args[i], y.args[i], s)) return false;
  return true;
}

std::optional<Term> substitute(const Term& t, const Substitution& s, int depth) {
  if (depth > 2 * kMaxKifDepth) return std::nullopt;
  const Term& w = walk(t, s);
  Term out = w;
  for (Term& a : out.args) {
    auto sub = substitute(a, s, depth + 1);
    if (!sub) return std::nullopt;
    a = std::move(*sub);
  }
  return out;
}

Term rename_apart(const Term& t, Symbol offset) {
  Term out = t;
  if (out.is_variable()) out.name += offset;
  for (Term& a : out.args) a = rename_apart(a, offset);
  return out;
}

void add_variables(const Term& t, std::vector<Symbol>& out) {
  if (t.is_variable() && std::find(out.begin(), out.end(), t.name) == out.end())
    out.push_back(t.name);
  for (const Term& a : t.args) add_variables(a, out);
}

Symbol fresh_relation(SymbolTable& symbols, const std::string& prefix, int line, int& n) {
  for (;;) {
    const std::string name = prefix + "_" + std::to_string(line) + "_" + std::to_string(++n);
    Symbol taken;
    if (!symbols.find(name, taken)) return symbols.intern(name);
  }
}

Symbol fresh_name(SymbolTable& symbols, const std::string& base) {
  Symbol taken;
  if (!symbols.find(base, taken)) return symbols.intern(base);
  for (int n = 2;; ++n) {
    const std::string name = base + "_" + std::to_string(n);
    if (!symbols.find(name, taken)) return symbols.intern(name);
  }
}

}  // namespace arena::gdl
