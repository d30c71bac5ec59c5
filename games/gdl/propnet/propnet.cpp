#include "games/gdl/propnet/propnet.h"

#include <algorithm>
#include <charconv>
#include <string>
#include <unordered_map>

namespace arena::gdl {

namespace {

constexpr std::uint32_t kWatchNext = 1, kWatchBase = 2, kWatchLegal = 3;
constexpr std::size_t kMaxComponents = std::size_t{1} << 28;
// Roles with at most this many moves have their legal list rescanned after every change of
// state rather than watched: a scan of a few words costs less than a watch per flip.
constexpr std::size_t kScannedLegal = 256;

// The gates an output reads, directly or not, over the edges into gates that are not aliases
// (alias[c] != c; alias resolved: each alias[c] is final).
std::vector<bool> live_gates(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& edges,
                             const std::vector<std::uint32_t>& alias,
                             const std::vector<std::uint32_t*>& outputs) {
  const std::size_t n = alias.size();
  // Each gate's inputs in CSR form: readers[begin[c] .. begin[c + 1]).
  std::vector<std::uint32_t> begin(n + 1, 0), readers;
  for (const auto& [from, to] : edges)
    if (alias[to >> 1] == (to >> 1)) ++begin[(to >> 1) + 1];
  for (std::size_t c = 0; c < n; ++c) begin[c + 1] += begin[c];
  readers.resize(begin[n]);
  std::vector<std::uint32_t> fill(begin.begin(), begin.end() - 1);
  for (const auto& [from, to] : edges)
    if (alias[to >> 1] == (to >> 1)) readers[fill[to >> 1]++] = alias[from];
  std::vector<bool> live(n, false);
  std::vector<std::uint32_t> stack;
  for (auto* c : outputs) stack.push_back(*c);
  while (!stack.empty()) {
    const std::uint32_t c = stack.back();
    stack.pop_back();
    if (live[c]) continue;
    live[c] = true;
    for (std::uint32_t e = begin[c]; e < begin[c + 1]; ++e) stack.push_back(readers[e]);
  }
  return live;
}

}  // namespace

// Builds the gates: one input per fluent and per move, one OR per view atom, one AND per
// ground rule of two or more literals (a one-literal rule is an edge into the OR).
class PropnetBuilder {
 public:
  PropnetBuilder(const GroundProgram& program, TermPool& pool, const SymbolTable& symbols,
                 std::chrono::steady_clock::time_point deadline)
      : program_(program), pool_(pool), symbols_(symbols), deadline_(deadline) {}
  Expected<Propnet> build();

 private:
  enum class Gate : std::uint8_t { kAnd, kOr };
  using Lit = std::uint32_t;  // component << 1 | negated
  using Body = std::vector<Lit>;
  std::uint32_t add(Gate gate) {
    gates_.push_back(gate);
    return static_cast<std::uint32_t>(gates_.size() - 1);
  }
  void edge(std::uint32_t from, std::uint32_t to, bool negated) {
    edges_.push_back({from, to << 1 | (negated ? 1u : 0u)});
  }
  std::uint32_t input(TermId atom) {
    if (atom >= atoms_.size()) atoms_.resize(std::max<std::size_t>(atom + 1, pool_.size()), kNone);
    if (atoms_[atom] == kNone) {
      atoms_[atom] = add(Gate::kOr);
      atom_list_.push_back(atom);
    }
    return atoms_[atom];
  }
  std::uint32_t component_of(TermId atom) const {
    return atom < atoms_.size() && atoms_[atom] != kNone ? atoms_[atom] : kFalse;
  }
  void add_inputs(Propnet& net);
  Expected<void> add_rules();
  void build_or(std::uint32_t head, std::vector<Body>& bodies, int depth);
  Expected<void> add_outputs(Propnet& net);
  void optimize(Propnet& net);
  Expected<void> wire(Propnet& net);

  static constexpr std::uint32_t kFalse = 0, kTrue = 1;
  const GroundProgram& program_;
  TermPool& pool_;
  const SymbolTable& symbols_;
  std::chrono::steady_clock::time_point deadline_;
  std::vector<Gate> gates_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges_;  // from, to << 1 | negated
  // Sentence (a TermId: dense) -> component (kNone: none), and the sentences that have one.
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
  std::vector<std::uint32_t> atoms_;
  std::vector<TermId> atom_list_;
  std::vector<std::uint32_t> lit_count_;  // build_or's scratch: bodies per literal
};

// Inputs first: one per fluent (`true`) and one per move (`does`).
void PropnetBuilder::add_inputs(Propnet& net) {
  add(Gate::kOr);   // kFalse: an OR of nothing
  add(Gate::kAnd);  // kTrue: an AND of nothing
  const std::size_t roles = program_.roles.size();
  net.base_.resize(program_.fluents.size());
  for (std::size_t i = 0; i < program_.fluents.size(); ++i)
    net.base_[i] = input(pool_.make(SymbolTable::kTrue, std::span(&program_.fluents[i], 1)));
  net.does_.resize(roles);
  for (std::size_t r = 0; r < roles; ++r)
    for (TermId m : program_.moves[r]) {
      const TermId args[2] = {program_.roles[r], m};
      net.does_[r].push_back(input(pool_.make(SymbolTable::kDoes, args)));
    }
}

// The rules grouped by head component (a counting sort of their indices, in program order
// within a head), each head built as the OR of its rules' bodies.
Expected<void> PropnetBuilder::add_rules() {
  const std::size_t n = program_.rules.size();
  std::vector<std::uint32_t> head_of(n);
  for (std::size_t r = 0; r < n; ++r) head_of[r] = input(program_.rules[r].head);
  std::vector<std::uint32_t> begin(gates_.size() + 1, 0), order(n);
  for (std::uint32_t h : head_of) ++begin[h + 1];
  for (std::size_t c = 0; c + 1 < begin.size(); ++c) begin[c + 1] += begin[c];
  std::vector<std::uint32_t> fill(begin.begin(), begin.end() - 1);
  for (std::size_t r = 0; r < n; ++r) order[fill[head_of[r]]++] = static_cast<std::uint32_t>(r);
  std::vector<Body> bodies;
  for (std::size_t k = 0; k < n;) {
    const std::uint32_t head = head_of[order[k]];
    bodies.clear();
    for (; k < n && head_of[order[k]] == head; ++k) {
      Body& body = bodies.emplace_back();
      for (const GroundLiteral& lit : program_.rules[order[k]].body)
        body.push_back(component_of(lit.atom) << 1 | (lit.negated ? 1u : 0u));
    }
    build_or(head, bodies, 0);
    if (gates_.size() > kMaxComponents)
      return make_error("the network has more than " + std::to_string(kMaxComponents) + " gates");
    if ((k & 0xFFF) < bodies.size() && std::chrono::steady_clock::now() > deadline_)
      return make_error("refused: building the network went past the time limit");
  }
  return {};
}

// head = OR of the bodies, with common literals factored out: the bodies that share their
// most frequent literal L become L AND (OR of the rest of each). Frame rules such as
// next(cell m n b) <= true(cell m n b) AND does(r, mark j k), one per move, then read the
// cell's fluent once instead of once per move.
void PropnetBuilder::build_or(std::uint32_t head, std::vector<Body>& bodies, int depth) {
  if (bodies.size() >= 2 && depth < 32) {
    // How many bodies hold each literal: counts in lit_count_ (indexed by literal, zero
    // between calls), reset before the recursion below.
    if (lit_count_.size() < 2 * gates_.size()) lit_count_.resize(4 * gates_.size(), 0);
    std::vector<Lit> touched;
    for (const Body& b : bodies)
      for (Lit l : b)
        if (lit_count_[l]++ == 0) touched.push_back(l);
    auto freq = [&](Lit l) { return lit_count_[l]; };
    std::vector<Body> rest;
    std::vector<Lit> order;
    std::unordered_map<Lit, std::vector<Body>> groups;
    for (Body& b : bodies) {
      Lit best = 0;
      std::uint32_t best_count = 1;
      for (Lit l : b)
        if (freq(l) > best_count || (freq(l) == best_count && best_count > 1 && l < best)) {
          best = l;
          best_count = freq(l);
        }
      if (b.size() < 2 || best_count < 2) {
        rest.push_back(std::move(b));
        continue;
      }
      b.erase(std::find(b.begin(), b.end(), best));
      auto& group = groups[best];
      if (group.empty()) order.push_back(best);
      group.push_back(std::move(b));
    }
    for (Lit l : touched) lit_count_[l] = 0;
    for (Lit l : order) {
      std::vector<Body>& group = groups[l];
      if (group.size() == 1) {
        group[0].push_back(l);
        rest.push_back(std::move(group[0]));
      } else {
        const std::uint32_t aux = add(Gate::kOr);
        build_or(aux, group, depth + 1);
        rest.push_back(Body{l, aux << 1});
      }
    }
    bodies = std::move(rest);
  }
  for (const Body& body : bodies) {
    if (body.empty()) {
      edge(kTrue, head, false);
    } else if (body.size() == 1) {
      edge(body[0] >> 1, head, (body[0] & 1) != 0);
    } else {
      const std::uint32_t gate = add(Gate::kAnd);
      for (Lit l : body) edge(l >> 1, gate, (l & 1) != 0);
      edge(gate, head, false);
    }
  }
}

Expected<void> PropnetBuilder::add_outputs(Propnet& net) {
  const std::size_t roles = program_.roles.size();
  std::unordered_map<TermId, std::size_t> role_index;
  for (std::size_t r = 0; r < roles; ++r) role_index.emplace(program_.roles[r], r);
  net.next_.resize(program_.fluents.size());
  net.init_bits_.assign((program_.fluents.size() + 63) / 64, 0);
  for (std::size_t i = 0; i < program_.fluents.size(); ++i) {
    const TermId f = program_.fluents[i];
    net.next_[i] = component_of(pool_.make(SymbolTable::kNext, std::span(&f, 1)));
    if (std::binary_search(program_.init.begin(), program_.init.end(), f))
      net.init_bits_[i / 64] |= std::uint64_t{1} << (i % 64);
  }
  net.legal_.resize(roles);
  for (std::size_t r = 0; r < roles; ++r)
    for (TermId m : program_.moves[r]) {
      const TermId args[2] = {program_.roles[r], m};
      net.legal_[r].push_back(component_of(pool_.make(SymbolTable::kLegal, args)));
    }
  net.terminal_ = component_of(pool_.constant(SymbolTable::kTerminal));
  net.goals_.resize(roles);
  for (TermId atom : atom_list_) {
    const std::uint32_t component = atoms_[atom];
    if (pool_.functor(atom) != SymbolTable::kGoal || pool_.args(atom).size() != 2) continue;
    auto role = role_index.find(pool_.args(atom)[0]);
    if (role == role_index.end()) continue;
    const TermId value_term = pool_.args(atom)[1];
    const std::string& text = symbols_.name(pool_.functor(value_term));
    int value = -1;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (!pool_.args(value_term).empty() || ec != std::errc() || end != text.data() + text.size())
      return make_error("goal value " + pool_.to_kif(value_term, symbols_) + " is not an integer");
    net.goals_[role->second].push_back({component, value});
  }
  for (auto& g : net.goals_)
    std::sort(g.begin(), g.end(), [](const auto& a, const auto& b) { return a.value < b.value; });
  return {};
}

// Fewer gates and edges, same answers: an OR of one plain input is replaced by that input
// (unless both would be outputs: each output keeps its own gate for the watches), and edges
// into gates that reach no output (views only the domain over-approximation made) are dropped.
void PropnetBuilder::optimize(Propnet& net) {
  const std::size_t n = gates_.size();
  std::vector<std::uint32_t*> outputs;
  for (auto& c : net.next_) outputs.push_back(&c);
  for (auto& role : net.legal_)
    for (auto& c : role) outputs.push_back(&c);
  for (auto& role : net.goals_)
    for (auto& g : role) outputs.push_back(&g.component);
  outputs.push_back(&net.terminal_);
  std::vector<bool> fixed(n, false);  // inputs and constants
  fixed[kFalse] = fixed[kTrue] = true;
  for (auto c : net.base_) fixed[c] = true;
  for (const auto& role : net.does_)
    for (auto c : role) fixed[c] = true;
  std::vector<std::uint32_t> claims(n, 0), in_count(n, 0), source(n, 0);
  for (auto* c : outputs) ++claims[*c];
  for (const auto& [from, to] : edges_) {
    ++in_count[to >> 1];
    source[to >> 1] = (to & 1) != 0 ? kFalse : from;  // kFalse marks a negated input
  }
  std::vector<std::uint32_t> alias(n);
  for (std::uint32_t c = 0; c < n; ++c) alias[c] = c;
  auto find = [&](std::uint32_t c) {
    while (alias[c] != c) c = alias[c] = alias[alias[c]];
    return c;
  };
  for (std::uint32_t c = 0; c < n; ++c) {
    if (fixed[c] || gates_[c] != Gate::kOr || in_count[c] != 1 || source[c] == kFalse) continue;
    const std::uint32_t to = find(source[c]);
    if (to == c) continue;
    if (claims[c] > 0 && (fixed[to] || claims[to] > 0)) continue;
    claims[to] += claims[c];
    alias[c] = to;
  }
  for (auto* c : outputs) *c = find(*c);
  // Live gates: those an output reads, directly or not.
  for (std::uint32_t c = 0; c < n; ++c) alias[c] = find(c);
  const std::vector<bool> live = live_gates(edges_, alias, outputs);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> kept;
  for (const auto& [from, to] : edges_)
    if (alias[to >> 1] == (to >> 1) && live[to >> 1]) kept.push_back({find(from), to});
  edges_ = std::move(kept);
}

// Edges in CSR form, the watches, and every gate's counter with all inputs false, in
// topological order (which also finds cycles).
Expected<void> PropnetBuilder::wire(Propnet& net) {
  const std::size_t n = gates_.size();
  net.out_begin_.assign(n + 1, 0);
  for (const auto& [from, to] : edges_) ++net.out_begin_[from + 1];
  for (std::size_t c = 0; c < n; ++c) net.out_begin_[c + 1] += net.out_begin_[c];
  net.targets_.resize(edges_.size());
  std::vector<std::uint32_t> fill(net.out_begin_.begin(), net.out_begin_.end() - 1);
  std::vector<std::uint32_t> inputs(n, 0);
  for (const auto& [from, to] : edges_) {
    net.targets_[fill[from]++] = to;
    ++inputs[to >> 1];
  }
  net.counters_.resize(n);
  for (std::size_t c = 0; c < n; ++c)
    net.counters_[c] = gates_[c] == Gate::kAnd ? Propnet::kTrueBit - inputs[c] : Propnet::kTrueBit - 1;
  // Kahn's order; a gate's counter is final once all its inputs are.
  std::vector<std::uint32_t> pending = inputs, order;
  order.reserve(n);
  for (std::uint32_t c = 0; c < n; ++c)
    if (pending[c] == 0) order.push_back(c);
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::uint32_t c = order[k];
    const bool v = net.value(c);
    for (std::uint32_t e = net.out_begin_[c]; e < net.out_begin_[c + 1]; ++e) {
      const std::uint32_t t = net.targets_[e] >> 1;
      if (v != ((net.targets_[e] & 1) != 0)) ++net.counters_[t];
      if (--pending[t] == 0) order.push_back(t);
    }
  }
  if (order.size() != n)
    return make_error("the ground rules are recursive (" + std::to_string(n - order.size()) +
                      " gates on cycles); the compiled reasoner needs an acyclic network");
  net.watch_.assign(n, 0);
  auto watch = [&](std::uint32_t c, std::uint32_t kind, std::size_t index) {
    if (c != kFalse && c != kTrue && net.watch_[c] == 0)
      net.watch_[c] = kind << 30 | static_cast<std::uint32_t>(index);
  };
  for (std::size_t i = 0; i < net.base_.size(); ++i) {
    watch(net.base_[i], kWatchBase, i);
    watch(net.next_[i], kWatchNext, i);
  }
  for (std::size_t r = 0; r < net.legal_.size(); ++r)
    if (net.legal_[r].size() > kScannedLegal)
      for (std::uint32_t c : net.legal_[r]) watch(c, kWatchLegal, r);
  net.info_.assign(n, 0);
  for (std::size_t c = 0; c < n; ++c)
    net.info_[c] = static_cast<std::uint8_t>((net.out_begin_[c] != net.out_begin_[c + 1] ? 1 : 0) |
                                             (net.watch_[c] != 0 ? 2 : 0));
  return {};
}

Expected<Propnet> PropnetBuilder::build() {
  Propnet net;
  if (program_.fluents.size() >= (std::size_t{1} << 30))
    return make_error("too many fluents for the network");
  add_inputs(net);
  if (auto ok = add_rules(); !ok) return make_error(ok.error());
  if (auto ok = add_outputs(net); !ok) return make_error(ok.error());
  optimize(net);
  if (auto ok = wire(net); !ok) return make_error(ok.error());
  net.legal_lists_.resize(net.legal_.size());
  net.legal_dirty_.assign(net.legal_.size(), 1);
  net.current_does_.assign(net.legal_.size(), Propnet::kNoMove);
  net.rebuild_sets();
  net.reset();
  net.save_initial();
  return net;
}

Expected<Propnet> Propnet::build(const GroundProgram& program, TermPool& pool,
                                 const SymbolTable& symbols,
                                 std::chrono::steady_clock::time_point deadline) {
  return PropnetBuilder(program, pool, symbols, deadline).build();
}

// The mismatch set from the values, after the counters were set without watching.
void Propnet::rebuild_sets() {
  std::fill(legal_dirty_.begin(), legal_dirty_.end(), 1);
  mismatch_.clear();
  mismatch_pos_.assign(base_.size(), kNoMove);
  for (std::size_t i = 0; i < base_.size(); ++i)
    if (value(base_[i]) != value(next_[i])) toggle_mismatch(static_cast<std::uint32_t>(i));
}

void Propnet::rebuild_legal(std::size_t role) const {
  auto& list = legal_lists_[role];
  list.clear();
  const auto& gates = legal_[role];
  for (std::size_t k = 0; k < gates.size(); ++k)
    if (value(gates[k])) list.push_back(static_cast<std::uint32_t>(k));
  legal_dirty_[role] = 0;
}

void Propnet::toggle_mismatch(std::uint32_t fluent) {
  std::uint32_t& pos = mismatch_pos_[fluent];
  if (pos == kNoMove) {
    pos = static_cast<std::uint32_t>(mismatch_.size());
    mismatch_.push_back(fluent);
  } else {
    const std::uint32_t last = mismatch_.back();
    mismatch_[pos] = last;
    mismatch_pos_[last] = pos;
    mismatch_.pop_back();
    pos = kNoMove;
  }
}

void Propnet::on_watch(std::uint32_t c) {
  const std::uint32_t w = watch_[c];
  const std::uint32_t index = w & 0x3FFFFFFFu;
  if ((w >> 30) == kWatchLegal) {
    legal_dirty_[index] = 1;
  } else {
    toggle_mismatch(index);
  }
}

// Each flip is pushed with its new value: a gate may flip twice before its outputs hear of
// the first flip, and every flip must reach them (the counters add up in any order).
void Propnet::set_input(std::uint32_t c, bool v) {
  if (value(c) == v) return;
  counters_[c] = v ? kTrueBit : kTrueBit - 1;
  if (watch_[c] != 0) on_watch(c);
  if (stack_.empty()) stack_.resize(64);
  stack_[0] = c << 1 | (v ? 1u : 0u);
  propagate();
}

// Branch-free where it matters: whether a target flipped is data, not a branch (it is
// unpredictable); the event is always written and the stack grows by the flip bit.
void Propnet::propagate() {
  std::size_t sp = 1;
  while (sp > 0) {
    const std::uint32_t event = stack_[--sp];
    const std::uint32_t c = event >> 1;
    const std::uint32_t v = event & 1u;
    const std::uint32_t begin = out_begin_[c], end = out_begin_[c + 1];
    if (stack_.size() < sp + (end - begin)) stack_.resize(2 * (sp + (end - begin)));
    std::uint32_t* stack = stack_.data();
    for (std::uint32_t e = begin; e < end; ++e) {
      const std::uint32_t target = targets_[e];
      const std::uint32_t t = target >> 1;
      // +1 when the literal became satisfied: value true on a plain edge, false on a negated.
      const std::uint32_t delta = ((v ^ target) & 1u) * 2u - 1u;
      const std::uint32_t before = counters_[t];
      const std::uint32_t after = before + delta;
      counters_[t] = after;
      const std::uint32_t flipped = (before ^ after) >> 31;
      const std::uint32_t info = info_[t];
      stack[sp] = t << 1 | after >> 31;
      sp += flipped & info;  // gates nothing reads (legal, goal, terminal) stop here
      if ((flipped & (info >> 1)) != 0) on_watch(t);
    }
  }
}

void Propnet::set_state(std::span<const std::uint64_t> bits) {
  for (std::size_t i = 0; i < base_.size(); ++i)
    set_input(base_[i], ((bits[i / 64] >> (i % 64)) & 1u) != 0);
  state_changed();
}

void Propnet::save_initial() {
  if (counters_.size() > kSnapshotGates) return;
  init_counters_ = counters_;
  init_mismatch_ = mismatch_;
  init_mismatch_pos_ = mismatch_pos_;
  init_does_ = current_does_;
}

void Propnet::reset() {
  if (init_counters_.empty()) return set_state(init_bits_);
  std::copy(init_counters_.begin(), init_counters_.end(), counters_.begin());
  mismatch_.assign(init_mismatch_.begin(), init_mismatch_.end());
  std::copy(init_mismatch_pos_.begin(), init_mismatch_pos_.end(), mismatch_pos_.begin());
  std::copy(init_does_.begin(), init_does_.end(), current_does_.begin());
  std::fill(legal_dirty_.begin(), legal_dirty_.end(), 1);
}

void Propnet::state_changed() {
  for (std::size_t r = 0; r < legal_.size(); ++r)
    if (legal_[r].size() <= kScannedLegal) legal_dirty_[r] = 1;
}

void Propnet::state_bits(std::vector<std::uint64_t>& out) const {
  out.assign((base_.size() + 63) / 64, 0);
  for (std::size_t i = 0; i < base_.size(); ++i)
    if (value(base_[i])) out[i / 64] |= std::uint64_t{1} << (i % 64);
}

void Propnet::play(std::span<const std::uint32_t> joint) {
  for (std::size_t r = 0; r < does_.size(); ++r) {
    const std::uint32_t move = r < joint.size() ? joint[r] : kNoMove;
    const std::uint32_t old = current_does_[r];
    if (move == old) continue;
    // The new move first: ORs over several moves of a role then do not flip on the way.
    if (move != kNoMove) set_input(does_[r][move], true);
    if (old != kNoMove) set_input(does_[r][old], false);
    current_does_[r] = move;
  }
  // Now `next` holds for the joint move: flip the fluents whose next differs.
  changes_.assign(mismatch_.begin(), mismatch_.end());
  for (std::uint32_t i : changes_) set_input(base_[i], !value(base_[i]));
  state_changed();
}

int Propnet::goal(int role) const {
  int found = -1;
  for (const Goal& g : goals_[static_cast<std::size_t>(role)]) {
    if (!value(g.component)) continue;
    if (found >= 0 && found != g.value) return -2;
    found = g.value;
  }
  return found;
}

}  // namespace arena::gdl
