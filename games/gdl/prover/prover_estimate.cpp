#include <algorithm>
#include <cmath>
#include <unordered_set>

#include "games/gdl/prover/prover_estimate.h"

namespace arena::gdl::prover_detail {

// The paths of an atom known once `bound` are bound, and (into `key`) the nodes giving them.
IndexDef index_def(const Program& p, const Lit& lit, const std::vector<char>& bound,
                   std::vector<std::uint32_t>* key) {
  IndexDef def;
  auto known = [&](std::uint32_t node) {
    const PatternNode& n = p.nodes[node];
    return n.kind == PatternNode::Kind::kConstant ||
           (n.kind == PatternNode::Kind::kVariable && bound[n.value]);
  };
  for (std::uint32_t a = 0; a < lit.args.size(); ++a) {
    const PatternNode& n = p.nodes[lit.args[a]];
    if (n.kind != PatternNode::Kind::kCompound) {
      if (known(lit.args[a])) {
        def.push_back({a, -1, 0, 0});
        if (key) key->push_back(lit.args[a]);
      }
      continue;
    }
    for (std::uint32_t c = 0; c < n.arity; ++c) {
      const std::uint32_t child = p.children[n.first + c];
      if (!known(child)) continue;
      def.push_back({a, static_cast<std::int32_t>(c), n.value, n.arity});
      if (key) key->push_back(child);
    }
  }
  return def;
}

double RowEstimates::fanout(const Lit& lit, const std::vector<char>& bound) {
  const Relation& r = p_.relations[lit.relation];
  const IndexDef def = index_def(p_, lit, bound, nullptr);
  if (r.demand) {  // answered per call and kept, unless called with no argument known
    for (std::uint32_t a : lit.args) {
      std::vector<std::uint32_t> vars;
      collect_vars(p_, a, vars);
      if (std::all_of(vars.begin(), vars.end(), [&](std::uint32_t v) { return bound[v] != 0; }))
        return 1.0;
    }
  }
  if (lit.relation == p_.does_rel) {  // one move per role
    const bool role_known = std::any_of(def.begin(), def.end(), [](const Path& p) { return p.arg == 0; });
    return role_known ? 1.0 : static_cast<double>(p_.roles.size());
  }
  if (const Table* t = sample_[lit.relation]) {
    const double f = scan_fanout(lit, def, *t);
    // A state's relation may be empty in the sample and not later: count it small, not empty.
    if (p_.components[r.component].layer == Layer::kStatic) return f;
    return std::max(f, lit.relation == p_.true_rel ? 1.0 : 0.5);
  }
  // Not sampled: about as many rows as the state has facts, narrowed per bound path.
  double paths = 0;
  for (std::uint32_t a : lit.args) {
    const PatternNode& n = p_.nodes[a];
    paths += n.kind == PatternNode::Kind::kCompound ? n.arity : 1;
  }
  if (paths == 0) return 1.0;
  const Table* state = sample_[p_.true_rel];
  const double size = std::max(10.0, state ? static_cast<double>(state->size()) : 0.0);
  return std::pow(size, (paths - static_cast<double>(def.size())) / paths);
}

// The rows of the table whose arguments have the literal's shape (the functors of its compound
// arguments), divided by the distinct values they take on the known paths.
double RowEstimates::scan_fanout(const Lit& lit, const IndexDef& def, const Table& t) {
  std::vector<std::uint32_t> signature{lit.relation};
  for (std::uint32_t a : lit.args) {
    const PatternNode& n = p_.nodes[a];
    signature.push_back(n.kind == PatternNode::Kind::kCompound ? n.value : kNone);
    signature.push_back(n.arity);
  }
  for (const Path& p : def) {
    signature.push_back(p.arg);
    signature.push_back(static_cast<std::uint32_t>(p.child));
  }
  if (auto it = fanouts_.find(signature); it != fanouts_.end()) return it->second;
  std::size_t matching = 0;
  std::unordered_set<std::uint64_t> keys;
  for (std::uint32_t r = 0; r < t.size(); ++r) {
    const TermId* row = t.row(r);
    bool shape = true;
    for (std::size_t a = 0; a < lit.args.size() && shape; ++a) {
      const PatternNode& n = p_.nodes[lit.args[a]];
      shape = n.kind != PatternNode::Kind::kCompound ||
              (pool_.functor(row[a]) == n.value && pool_.args(row[a]).size() == n.arity);
    }
    if (!shape) continue;
    ++matching;
    std::uint64_t h = kKeySeed;
    for (const Path& p : def)
      h = key_step(h, p.child < 0 ? row[p.arg]
                                  : pool_.args(row[p.arg])[static_cast<std::size_t>(p.child)]);
    keys.insert(h);
  }
  const double f = keys.empty() ? 0.0
                                : static_cast<double>(matching) / static_cast<double>(keys.size());
  fanouts_.emplace(std::move(signature), f);
  return f;
}

}  // namespace arena::gdl::prover_detail
