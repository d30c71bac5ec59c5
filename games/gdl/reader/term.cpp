#include "games/gdl/reader/term.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace arena::gdl {

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

SymbolTable::SymbolTable() {
  // The order fixes the k* constants of the header.
  for (const char* keyword : {"role", "init", "true", "next", "legal", "does", "goal", "terminal",
                              "distinct", "not", "or", "base", "input", "<="})
    intern(keyword);
}

Symbol SymbolTable::intern(std::string_view name) {
  std::string key = lower(name);
  if (auto it = ids_.find(key); it != ids_.end()) return it->second;
  const auto id = static_cast<Symbol>(names_.size());
  names_.push_back(key);
  ids_.emplace(std::move(key), id);
  return id;
}

bool SymbolTable::find(std::string_view name, Symbol& out) const {
  auto it = ids_.find(lower(name));
  if (it == ids_.end()) return false;
  out = it->second;
  return true;
}

bool Term::is_ground() const {
  if (kind == Kind::kVariable) return false;
  return std::all_of(args.begin(), args.end(), [](const Term& a) { return a.is_ground(); });
}

std::string to_kif(const Term& t, const SymbolTable& symbols) {
  if (t.kind != Term::Kind::kCompound) return symbols.name(t.name);
  std::string out = "(" + symbols.name(t.name);
  for (const Term& a : t.args) {
    out += ' ';
    out += to_kif(a, symbols);
  }
  return out + ")";
}

std::uint64_t TermPool::hash(Symbol functor, std::span<const TermId> args) {
  std::uint64_t h = 1469598103934665603ull ^ functor;  // FNV-1a over the 32-bit words
  h *= 1099511628211ull;
  for (TermId a : args) {
    h ^= a;
    h *= 1099511628211ull;
  }
  h ^= h >> 33;  // murmur3's finalizer: the low bits index the table
  h *= 0xFF51AFD7ED558CCDull;
  return h ^ (h >> 33);
}

void TermPool::grow() {
  decltype(slots_) slots(slots_.empty() ? 1024 : slots_.size() * 2, kEmptySlot);
  const std::size_t mask = slots.size() - 1;
  for (TermId id = 0; id < offsets_.size(); ++id) {
    const std::uint64_t h = hash(functor(id), args(id));
    std::size_t i = static_cast<std::size_t>(h) & mask;
    while (slots[i] != kEmptySlot) i = (i + 1) & mask;
    slots[i] = (h & 0xFFFFFFFF00000000ull) | offsets_[id];
  }
  slots_ = std::move(slots);
}

TermId TermPool::make(Symbol functor, std::span<const TermId> args) {
  if ((offsets_.size() + 1) * 2 > slots_.size()) grow();
  const std::size_t mask = slots_.size() - 1;
  const std::uint64_t h = hash(functor, args), high = h & 0xFFFFFFFF00000000ull;
  std::size_t i = static_cast<std::size_t>(h) & mask;
  for (; slots_[i] != kEmptySlot; i = (i + 1) & mask) {
    if ((slots_[i] & 0xFFFFFFFF00000000ull) != high) continue;
    const TermId* record = words_.data() + static_cast<std::uint32_t>(slots_[i]);
    if (record[1] == functor && record[2] == args.size() &&
        std::equal(args.begin(), args.end(), record + 3))
      return record[0];
  }
  const auto id = static_cast<TermId>(offsets_.size());
  const auto offset = static_cast<std::uint32_t>(words_.size());
  // `args` may be another term's arguments (pool.args(t)): copied before words_ may move.
  std::array<TermId, 8> small{};
  std::vector<TermId> large;
  std::span<const TermId> from = args;
  if (!args.empty() && args.data() >= words_.data() && args.data() < words_.data() + words_.size()) {
    if (args.size() <= small.size()) {
      std::copy(args.begin(), args.end(), small.begin());
      from = std::span<const TermId>(small.data(), args.size());
    } else {
      large.assign(args.begin(), args.end());
      from = large;
    }
  }
  words_.push_back(id);
  words_.push_back(functor);
  words_.push_back(static_cast<std::uint32_t>(args.size()));
  words_.insert(words_.end(), from.begin(), from.end());
  offsets_.push_back(offset);
  slots_[i] = high | offset;
  return id;
}

TermId TermPool::from_term(const Term& t) {
  std::vector<TermId> args;
  args.reserve(t.args.size());
  for (const Term& a : t.args) args.push_back(from_term(a));
  return make(t.name, args);
}

std::string TermPool::to_kif(TermId id, const SymbolTable& symbols) const {
  auto a = args(id);
  if (a.empty()) return symbols.name(functor(id));
  std::string out = "(" + symbols.name(functor(id));
  for (TermId arg : a) {
    out += ' ';  // appended apart: GCC 12 warns (-Wrestrict, falsely) on " " + string here
    out += to_kif(arg, symbols);
  }
  return out + ")";
}

}  // namespace arena::gdl
