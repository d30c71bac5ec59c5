#pragma once
// Stage: the reader (KIF text to checked rules, with the rewritings).
// Unification of rule terms, for the reader's rewritings (description.cpp, demand.cpp): most
// general unifiers with the occurs check, substitution bounded by the reader's nesting limit,
// renaming apart, and fresh relation names that no sheet symbol takes.

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "games/gdl/reader/term.h"

namespace arena::gdl {

using Substitution = std::unordered_map<Symbol, Term>;

// `t` with the bindings of `s` followed at its top (not inside its arguments).
const Term& walk(const Term& t, const Substitution& s);

// Most general unifier of a and b (with the occurs check), added to `s`. Of two variables, the
// one of `a` is kept: unify((distinct ?x ?y)'s ?x, ?y) binds ?y to ?x.
bool unify(const Term& a, const Term& b, Substitution& s);

// `t` with `s` applied; nullopt when the result would nest deeper than the reader allows.
std::optional<Term> substitute(const Term& t, const Substitution& s, int depth = 0);

// `t` with every variable renamed to a symbol past `offset` (the table's size: never printed),
// so that two terms unify as if their rules' variables were apart.
Term rename_apart(const Term& t, Symbol offset);

// Appends the variables of `t` not yet in `out`, in the order they occur.
void add_variables(const Term& t, std::vector<Symbol>& out);

// A fresh relation name, PREFIX_LINE_N with the smallest N past `n` that no symbol takes.
Symbol fresh_relation(SymbolTable& symbols, const std::string& prefix, int line, int& n);

// A fresh relation name: `base` when no symbol takes it, else base_2, base_3, ...
Symbol fresh_name(SymbolTable& symbols, const std::string& base);

// Calls f(sentence, negative) for every sentence a body literal reads, inside not and or.
template <class F>
void for_each_read(const Term& literal, bool negative, F&& f) {
  if (literal.name == SymbolTable::kDistinct) return;
  if (literal.name == SymbolTable::kNot || literal.name == SymbolTable::kOr) {
    for (const Term& a : literal.args)
      for_each_read(a, negative || literal.name == SymbolTable::kNot, f);
    return;
  }
  f(literal, negative);
}

}  // namespace arena::gdl
