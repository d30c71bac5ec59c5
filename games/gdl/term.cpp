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

std::size_t TermPool::KeyHash::operator()(const std::vector<std::uint32_t>& k) const noexcept {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a over the 32-bit words
  for (std::uint32_t w : k) {
    h ^= w;
    h *= 1099511628211ull;
  }
  return static_cast<std::size_t>(h);
}

TermId TermPool::make(Symbol functor, std::span<const TermId> args) {
  std::vector<std::uint32_t> key;
  key.reserve(args.size() + 1);
  key.push_back(functor);
  key.insert(key.end(), args.begin(), args.end());
  if (auto it = index_.find(key); it != index_.end()) return it->second;
  const auto id = static_cast<TermId>(nodes_.size());
  nodes_.push_back({functor, static_cast<std::uint32_t>(args_.size()),
                    static_cast<std::uint32_t>(args.size())});
  args_.insert(args_.end(), args.begin(), args.end());
  index_.emplace(std::move(key), id);
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
