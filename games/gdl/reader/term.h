#pragma once
// Stage: the reader (KIF text to checked rules, with the rewritings).
// GDL terms as the reader produces them (rules may hold variables) and ground terms as the
// reasoners use them (hash-consed, one 32-bit id per distinct term).
//
// KIF is case-insensitive (as in ggp-base, which lower-cases a sheet before reading it): every
// symbol is stored lower-case, so "xPlayer" and "xplayer" are one symbol. Variables keep their
// leading '?'.
//
// Not thread-safe: a SymbolTable and a TermPool have one owner at a time (a game's reasoner and
// the players that share it on one thread). Ids are stable for the owner's lifetime.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "games/gdl/reader/huge_pages.h"

namespace arena::gdl {

// `text` with ASCII letters lower-cased: KIF names compare so (ggp-base lower-cases a sheet,
// and GGP messages, before reading them).
std::string lower(std::string_view text);


using Symbol = std::uint32_t;

class SymbolTable {
 public:
  SymbolTable();
  // The symbol for `name` (lower-cased), made on first use.
  Symbol intern(std::string_view name);
  // The symbol for `name` if it exists; no new symbol is made.
  bool find(std::string_view name, Symbol& out) const;
  const std::string& name(Symbol s) const { return names_[s]; }
  std::size_t size() const { return names_.size(); }

  // GDL's keywords, interned first so that their ids are these constants in every table.
  static constexpr Symbol kRole = 0, kInit = 1, kTrue = 2, kNext = 3, kLegal = 4, kDoes = 5,
                          kGoal = 6, kTerminal = 7, kDistinct = 8, kNot = 9, kOr = 10,
                          kBase = 11, kInput = 12, kImplies = 13 /* "<=" */;

 private:
  std::vector<std::string> names_;
  std::unordered_map<std::string, Symbol> ids_;
};

// A term of a rule: a constant, a variable (name starts with '?') or a compound f(t1..tn).
struct Term {
  enum class Kind : std::uint8_t { kConstant, kVariable, kCompound };
  Kind kind = Kind::kConstant;
  Symbol name = 0;
  std::vector<Term> args;  // kCompound only (at least one)

  bool is_variable() const { return kind == Kind::kVariable; }
  bool is_ground() const;
  bool operator==(const Term&) const = default;
};

// KIF text of `t`: "(cell 1 1 b)", "?x", "noop".
std::string to_kif(const Term& t, const SymbolTable& symbols);

// Ground terms, hash-consed: equal terms have equal ids, so a state is a set of ids and a move
// is one id. A constant is a term with no arguments.
using TermId = std::uint32_t;

class TermPool {
 public:
  TermId constant(Symbol name) { return make(name, {}); }
  TermId make(Symbol functor, std::span<const TermId> args);
  // The ground term `t` (which must be ground).
  TermId from_term(const Term& t);

  Symbol functor(TermId id) const { return words_[offsets_[id] + 1]; }
  std::span<const TermId> args(TermId id) const {
    const TermId* record = words_.data() + offsets_[id];
    return {record + 3, record[2]};
  }
  std::size_t size() const { return offsets_.size(); }
  // KIF text: "(cell 1 1 b)".
  std::string to_kif(TermId id, const SymbolTable& symbols) const;

 private:
  static std::uint64_t hash(Symbol functor, std::span<const TermId> args);
  void grow();
  // A term is a record of words_ at offsets_[id]: id, functor, arity, the arguments. Id, name
  // and arguments in one place, so that finding a term that exists already (most lookups of a
  // grounding) reads its slot and one record.
  std::vector<std::uint32_t, HugePageAllocator<std::uint32_t>> words_;
  std::vector<std::uint32_t, HugePageAllocator<std::uint32_t>> offsets_;
  // Open addressing, hashed on functor and arguments: no allocation per lookup, for the
  // millions of terms of a large grounding. A slot is the hash's high 32 bits << 32 | the
  // record's offset (kEmptySlot: free), so that a probe reads the record only when the hashes
  // agree. Kept at most half full.
  static constexpr std::uint64_t kEmptySlot = ~std::uint64_t{0};
  std::vector<std::uint64_t, HugePageAllocator<std::uint64_t>> slots_;
};

}  // namespace arena::gdl
