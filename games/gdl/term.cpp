#include "games/gdl/term.h"

#include <algorithm>
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
  for (const Term& a : t.args) out += " " + to_kif(a, symbols);
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
  std::vector<std::uint64_t> slots(slots_.empty() ? 1024 : slots_.size() * 2, kEmptySlot);
  const std::size_t mask = slots.size() - 1;
  for (TermId id = 0; id < nodes_.size(); ++id) {
    const std::uint64_t h = hash(functor(id), args(id));
    std::size_t i = static_cast<std::size_t>(h) & mask;
    while (slots[i] != kEmptySlot) i = (i + 1) & mask;
    slots[i] = (h & 0xFFFFFFFF00000000ull) | id;
  }
  slots_ = std::move(slots);
}

TermId TermPool::make(Symbol functor, std::span<const TermId> args) {
  if ((nodes_.size() + 1) * 2 > slots_.size()) grow();
  const std::size_t mask = slots_.size() - 1;
  const std::uint64_t h = hash(functor, args), high = h & 0xFFFFFFFF00000000ull;
  std::size_t i = static_cast<std::size_t>(h) & mask;
  for (; slots_[i] != kEmptySlot; i = (i + 1) & mask) {
    if ((slots_[i] & 0xFFFFFFFF00000000ull) != high) continue;
    const auto id = static_cast<TermId>(slots_[i]);
    const Node& n = nodes_[id];
    if (n.functor == functor && n.arity == args.size() &&
        std::equal(args.begin(), args.end(), args_.begin() + n.first_arg))
      return id;
  }
  const auto id = static_cast<TermId>(nodes_.size());
  nodes_.push_back({functor, static_cast<std::uint32_t>(args_.size()),
                    static_cast<std::uint32_t>(args.size())});
  // `args` may be another term's arguments (pool.args(t)): copied before args_ may move.
  if (!args.empty() && args.data() >= args_.data() && args.data() < args_.data() + args_.size()) {
    const std::vector<TermId> copy(args.begin(), args.end());
    args_.insert(args_.end(), copy.begin(), copy.end());
  } else {
    args_.insert(args_.end(), args.begin(), args.end());
  }
  slots_[i] = high | id;
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
  for (TermId arg : a) out += " " + to_kif(arg, symbols);
  return out + ")";
}

}  // namespace arena::gdl
