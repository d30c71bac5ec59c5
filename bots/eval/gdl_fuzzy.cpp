#include "bots/eval/gdl_fuzzy.h"

#include "bots/eval/heuristic.h"
#include "games/gdl/reader/kif_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <unordered_set>

namespace arena::eval {

using gdl::GroundLiteral;
using gdl::GroundProgram;
using gdl::GroundRule;
using gdl::SymbolTable;
using gdl::TermId;
using gdl::TermPool;
using Lit = FuzzyGoalHeuristic::Lit;
using Node = FuzzyGoalHeuristic::Node;
using Op = FuzzyGoalHeuristic::Op;

namespace {

constexpr std::size_t kMaxNodes = std::size_t{1} << 22;
// Minterm checks the terminal reading may spend before it gives up (2^16 rows, a few cubes).
constexpr std::uint64_t kTableWorkBudget = std::uint64_t{1} << 26;

// FuzzyGoalHeuristic::latch_ bits: a positive latch (degree 1 while it holds), a negative one
// (degree 0 while it does not).
constexpr std::uint8_t kLatchTrue = 1;
constexpr std::uint8_t kLatchFalse = 2;

constexpr Lit kZeroLit = 0;  // node 0 is kZero, node 1 kOne
constexpr Lit kOneLit = 2;
bool is_zero(Lit l) { return l == kZeroLit || l == (kOneLit | 1u); }
bool is_one(Lit l) { return l == kOneLit || l == (kZeroLit | 1u); }

std::string number_text(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

// --- the terminal reading (header: "Arena's reading of the chapter") --------------------------

// A conjunction over the atoms' bits: holds for an assignment a when (a & care) == value.
struct TableCube {
  std::uint32_t care = 0, value = 0;
  bool holds(std::uint32_t a) const { return (a & care) == value; }
};

struct LevelRules {
  int value = 0;
  std::vector<const GroundRule*> rules;
};

class TerminalReading {
 public:
  TerminalReading(std::vector<TermId> atoms, std::uint64_t budget)
      : atoms_(std::move(atoms)), n_(static_cast<int>(atoms_.size())), budget_(budget) {}

  // The cube of a body over the atoms; false when it contradicts itself (L and not L).
  bool to_cube(const std::vector<GroundLiteral>& body, TableCube& out) const {
    out = {};
    for (const GroundLiteral& l : body) {
      const std::uint32_t bit = std::uint32_t{1} << index_of(l.atom);
      const std::uint32_t want = l.negated ? 0u : bit;
      if ((out.care & bit) && (out.value & bit) != want) return false;
      out.care |= bit;
      out.value |= want;
    }
    return true;
  }

  std::vector<char> table(const std::vector<const GroundRule*>& rules) const {
    std::vector<char> t(std::size_t{1} << n_, 0);
    for (const GroundRule* r : rules) {
      TableCube c;
      if (!to_cube(r->body, c)) continue;
      for (std::uint32_t a = 0; a < t.size(); ++a)
        if (c.holds(a)) t[a] = 1;
    }
    return t;
  }

  // Per level of one role, the cubes of its formula; false when the budget ran out.
  bool read_role(const std::vector<LevelRules>& levels, const std::vector<char>& terminal,
                 std::vector<std::vector<FuzzyCube>>& out) {
    const std::size_t rows = terminal.size();
    std::vector<std::vector<char>> holds;
    for (const LevelRules& l : levels) holds.push_back(table(l.rules));
    out.assign(levels.size(), {});
    for (std::size_t li = 0; li < levels.size(); ++li) {
      // allowed: terminal rows where this level is the role's only value, and every
      // non-terminal row (a don't-care); on: the allowed terminal rows.
      std::vector<char> allowed(rows, 0), on(rows, 0);
      for (std::size_t a = 0; a < rows; ++a) {
        int count = 0;
        for (const auto& h : holds) count += h[a];
        on[a] = terminal[a] && holds[li][a] && count == 1;
        allowed[a] = !terminal[a] || on[a];
      }
      for (const GroundRule* r : levels[li].rules)
        if (!cover_rule(*r, on, allowed, out[li])) return false;
    }
    return true;
  }

 private:
  int index_of(TermId atom) const {
    return static_cast<int>(std::find(atoms_.begin(), atoms_.end(), atom) - atoms_.begin());
  }

  // Whether every row of `c` is allowed.
  bool inside(TableCube c, const std::vector<char>& allowed) {
    const std::uint32_t all = (std::uint32_t{1} << n_) - 1, free = all & ~c.care;
    std::uint32_t sub = 0;
    do {
      if (++work_ > budget_) return false;
      if (!allowed[c.value | sub]) return false;
      sub = (sub - free) & free;
    } while (sub != 0);
    return true;
  }

  // Adds to `cubes` the cubes that cover the on-rows of rule `r`'s body, each grown from an
  // uncovered row by dropping first the literals the body does not state, then its own.
  bool cover_rule(const GroundRule& r, std::vector<char>& on, const std::vector<char>& allowed,
                  std::vector<FuzzyCube>& cubes) {
    TableCube body;
    if (!to_cube(r.body, body)) return true;
    std::vector<int> order;  // bits to try dropping
    for (int b = 0; b < n_; ++b)
      if (!(body.care >> b & 1u)) order.push_back(b);
    for (const GroundLiteral& l : r.body) {
      const int b = index_of(l.atom);
      if (std::find(order.begin(), order.end(), b) == order.end()) order.push_back(b);
    }
    const std::uint32_t all = (std::uint32_t{1} << n_) - 1, free = all & ~body.care;
    std::uint32_t sub = 0;
    do {
      const std::uint32_t row = body.value | sub;
      sub = (sub - free) & free;
      if (!on[row]) continue;
      TableCube grown{all, row};
      for (int b : order) {
        const std::uint32_t bit = std::uint32_t{1} << b;
        const TableCube trial{grown.care & ~bit, grown.value & ~bit};
        if (inside(trial, allowed)) grown = trial;
        if (work_ > budget_) return false;
      }
      for (std::uint32_t a = 0; a <= all; ++a)
        if (grown.holds(a)) on[a] = 0;  // covered; later rules need not cover it again
      cubes.push_back(literals(grown, r.body));
    } while (sub != 0);
    return true;
  }

  // The cube's literals: the body's own first, in body order, then the added ones.
  FuzzyCube literals(TableCube c, const std::vector<GroundLiteral>& body) const {
    FuzzyCube out;
    std::uint32_t done = 0;
    auto add = [&](int b) {
      const std::uint32_t bit = std::uint32_t{1} << b;
      if (!(c.care & bit) || (done & bit)) return;
      done |= bit;
      out.push_back({atoms_[b], (c.value & bit) == 0});
    };
    for (const GroundLiteral& l : body) add(index_of(l.atom));
    for (int b = 0; b < n_; ++b) add(b);
    return out;
  }

  std::vector<TermId> atoms_;
  int n_;
  std::uint64_t budget_;
  std::uint64_t work_ = 0;
};

}  // namespace

// --- the compiler ------------------------------------------------------------------------------

class FuzzyCompiler {
 public:
  FuzzyCompiler(FuzzyGoalHeuristic& h, const GroundProgram& program, const TermPool& pool,
                const SymbolTable& symbols)
      : h_(h), program_(program), pool_(pool), symbols_(symbols) {}

  Expected<void> run() {
    h_.roles_ = program_.roles;
    h_.nodes_ = {Node{Op::kZero, 0, 0}, Node{Op::kOne, 0, 0}};
    for (const GroundRule& r : program_.rules) rules_of_[r.head].push_back(&r);
    auto grouped = group_goals();
    if (!grouped) return make_error(grouped.error());
    std::vector<std::vector<std::vector<FuzzyCube>>> cubes = as_written(*grouped);
    read_under_terminal(*grouped, cubes);
    h_.levels_.assign(h_.roles_.size(), {});
    for (std::size_t r = 0; r < h_.roles_.size(); ++r) {
      for (std::size_t l = 0; l < (*grouped)[r].size(); ++l) {
        auto lit = compile_formula(cubes[r][l]);
        if (!lit) return make_error(lit.error());
        h_.levels_[r].push_back({(*grouped)[r][l].value, *lit, std::move(cubes[r][l])});
      }
    }
    return {};
  }

 private:
  std::string text(TermId t) const { return pool_.to_kif(t, symbols_); }

  // The goal rules per role and level (highest value first).
  Expected<std::vector<std::vector<LevelRules>>> group_goals() {
    std::vector<std::vector<LevelRules>> out(h_.roles_.size());
    for (const GroundRule& r : program_.rules) {
      if (pool_.functor(r.head) != gdl::SymbolTable::kGoal) continue;
      const auto args = pool_.args(r.head);
      if (args.size() != 2) return make_error("goal " + text(r.head) + " does not have 2 arguments");
      const auto role = std::find(h_.roles_.begin(), h_.roles_.end(), args[0]);
      if (role == h_.roles_.end()) continue;  // (goal b 100) of a rule over any (line ?p): never read
      const std::string& name = symbols_.name(pool_.functor(args[1]));
      int v = -1;
      const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), v);
      if (!pool_.args(args[1]).empty() || ec != std::errc() || end != name.data() + name.size() ||
          v < 0 || v > 100)
        return make_error(text(r.head) + ": the goal value is not an integer in 0..100");
      auto& levels = out[static_cast<std::size_t>(role - h_.roles_.begin())];
      auto it = std::find_if(levels.begin(), levels.end(), [v](auto& l) { return l.value == v; });
      if (it == levels.end()) it = levels.insert(levels.end(), LevelRules{v, {}});
      it->rules.push_back(&r);
    }
    for (auto& levels : out)
      std::sort(levels.begin(), levels.end(), [](auto& a, auto& b) { return a.value > b.value; });
    return out;
  }

  static std::vector<std::vector<std::vector<FuzzyCube>>> as_written(
      const std::vector<std::vector<LevelRules>>& grouped) {
    std::vector<std::vector<std::vector<FuzzyCube>>> out(grouped.size());
    for (std::size_t r = 0; r < grouped.size(); ++r)
      for (const LevelRules& l : grouped[r]) {
        std::vector<FuzzyCube> cubes;
        for (const GroundRule* rule : l.rules) {
          FuzzyCube c;
          for (const GroundLiteral& g : rule->body) c.push_back({g.atom, g.negated});
          cubes.push_back(std::move(c));
        }
        out[r].push_back(std::move(cubes));
      }
    return out;
  }

  // Replaces `cubes` by the terminal reading when it applies; says why not otherwise.
  void read_under_terminal(const std::vector<std::vector<LevelRules>>& grouped,
                           std::vector<std::vector<std::vector<FuzzyCube>>>& cubes) {
    std::vector<const GroundRule*> terminal;
    std::vector<TermId> atoms;
    auto note_atoms = [&](const GroundRule& r) {
      for (const GroundLiteral& l : r.body)
        if (std::find(atoms.begin(), atoms.end(), l.atom) == atoms.end()) atoms.push_back(l.atom);
    };
    for (const auto& levels : grouped)
      for (const LevelRules& l : levels)
        for (const GroundRule* r : l.rules) note_atoms(*r);
    for (const GroundRule& r : program_.rules)
      if (pool_.functor(r.head) == SymbolTable::kTerminal && pool_.args(r.head).empty()) {
        terminal.push_back(&r);
        note_atoms(r);
      }
    h_.goal_atoms_ = atoms;
    if (!h_.params_.read_under_terminal) {
      h_.note_ = "reading=written";
      return;
    }
    if (atoms.size() > static_cast<std::size_t>(kMaxGoalAtoms)) {
      h_.note_ = std::to_string(atoms.size()) + " atoms in the goal and terminal bodies (more than " +
                 std::to_string(kMaxGoalAtoms) + ")";
      return;
    }
    TerminalReading reading(atoms, kTableWorkBudget);
    const std::vector<char> terminal_table = reading.table(terminal);
    std::vector<std::vector<std::vector<FuzzyCube>>> read(grouped.size());
    for (std::size_t r = 0; r < grouped.size(); ++r) {
      if (!reading.read_role(grouped[r], terminal_table, read[r])) {
        h_.note_ = "the truth table took too long";
        return;
      }
      const bool had = !grouped[r].empty();
      const bool lost = std::all_of(read[r].begin(), read[r].end(), [](auto& c) { return c.empty(); });
      if (had && lost) {
        h_.note_ = "no terminal assignment gives role " + text(h_.roles_[r]) + " a single value";
        return;
      }
    }
    cubes = std::move(read);
    h_.simplified_ = true;
  }

  Expected<Lit> add_node(Op op, const std::vector<Lit>& children) {
    if (h_.nodes_.size() >= kMaxNodes || h_.children_.size() + children.size() > kMaxNodes)
      return make_error("the goal formulas are too large (more than " +
                        std::to_string(kMaxNodes) + " nodes)");
    h_.nodes_.push_back({op, static_cast<std::uint32_t>(h_.children_.size()),
                         static_cast<std::uint32_t>(children.size())});
    h_.children_.insert(h_.children_.end(), children.begin(), children.end());
    return static_cast<Lit>((h_.nodes_.size() - 1) << 1);
  }

  // AND (is_and) or OR of `lits`, constants folded away.
  Expected<Lit> junction(bool is_and, std::vector<Lit> lits) {
    const auto absorbing = is_and ? is_zero : is_one;
    const auto neutral = is_and ? is_one : is_zero;
    if (std::any_of(lits.begin(), lits.end(), absorbing)) return is_and ? kZeroLit : kOneLit;
    std::erase_if(lits, neutral);
    if (lits.empty()) return is_and ? kOneLit : kZeroLit;
    if (lits.size() == 1) return lits[0];
    return add_node(is_and ? Op::kAnd : Op::kOr, lits);
  }

  Expected<Lit> leaf(TermId fluent) {
    if (auto it = h_.leaf_of_.find(fluent); it != h_.leaf_of_.end()) return it->second << 1;
    auto lit = add_node(Op::kLeaf, {});
    if (!lit) return lit;
    h_.leaf_of_[fluent] = *lit >> 1;
    h_.leaves_.push_back(*lit >> 1);
    h_.leaf_fluents_.push_back(fluent);
    return lit;
  }

  // The literal of `atom` if known without compiling its rules (a fluent, compiled already, or
  // on the current path: 0); nothing when its rules must be compiled.
  std::optional<Expected<Lit>> known(TermId atom) {
    if (pool_.functor(atom) == SymbolTable::kTrue && pool_.args(atom).size() == 1)
      return leaf(pool_.args(atom)[0]);
    if (auto it = h_.atom_lit_.find(atom); it != h_.atom_lit_.end()) return it->second;
    if (on_path_.count(atom)) return Expected<Lit>(kZeroLit);
    if (!rules_of_.count(atom)) return Expected<Lit>(kZeroLit);  // no rule: false
    return std::nullopt;
  }

  // Compiles `atom` from its rules, depth first with an explicit stack (no recursion limit).
  Expected<Lit> compile_atom(TermId atom) {
    struct Frame {
      Frame(TermId a, const std::vector<const GroundRule*>* r) : atom(a), rules(r) {}
      TermId atom;
      const std::vector<const GroundRule*>* rules;
      std::size_t rule = 0, lit = 0;
      std::vector<Lit> body, alternatives;
    };
    if (auto k = known(atom)) return *k;
    std::vector<Frame> stack;
    stack.emplace_back(atom, &rules_of_[atom]);
    on_path_.insert(atom);
    while (true) {
      Frame& f = stack.back();
      if (f.rule == f.rules->size()) {
        auto lit = junction(false, std::move(f.alternatives));
        if (!lit) return lit;
        h_.atom_lit_[f.atom] = *lit;
        on_path_.erase(f.atom);
        stack.pop_back();
        if (stack.empty()) return lit;
        continue;
      }
      const auto& body = (*f.rules)[f.rule]->body;
      if (f.lit == body.size()) {
        auto lit = junction(true, std::move(f.body));
        if (!lit) return lit;
        f.alternatives.push_back(*lit);
        f.body.clear();
        ++f.rule;
        f.lit = 0;
        continue;
      }
      const GroundLiteral& g = body[f.lit];
      if (auto k = known(g.atom)) {
        if (!*k) return *k;
        f.body.push_back(**k ^ (g.negated ? 1u : 0u));
        ++f.lit;
        continue;
      }
      on_path_.insert(g.atom);
      stack.emplace_back(g.atom, &rules_of_[g.atom]);  // f is not used after this
    }
  }

  Expected<Lit> compile_formula(const std::vector<FuzzyCube>& cubes) {
    std::vector<Lit> alternatives;
    for (const FuzzyCube& cube : cubes) {
      std::vector<Lit> lits;
      for (const FuzzyLiteral& l : cube) {
        auto lit = compile_atom(l.atom);
        if (!lit) return lit;
        lits.push_back(*lit ^ (l.negated ? 1u : 0u));
      }
      auto conj = junction(true, std::move(lits));
      if (!conj) return conj;
      alternatives.push_back(*conj);
    }
    return junction(false, std::move(alternatives));
  }

  FuzzyGoalHeuristic& h_;
  const GroundProgram& program_;
  const TermPool& pool_;
  const SymbolTable& symbols_;
  std::unordered_map<TermId, std::vector<const GroundRule*>> rules_of_;
  std::unordered_set<TermId> on_path_;
};

// --- the parameters ---------------------------------------------------------------------------

Expected<FuzzyGoalParams> parse_fuzzy_goal_params(const GameOptions& params) {
  FuzzyGoalParams p;
  for (const auto& [key, text] : params) {
    if (key == "reading") {
      if (text != "terminal" && text != "written")
        return make_error("parameter reading='" + text + "' is neither 'terminal' nor 'written'");
      p.read_under_terminal = text == "terminal";
      continue;
    }
    const auto number = parse_param_number(key, text);
    if (!number) return make_error(number.error());
    const double v = *number;
    if (key == "tau" && v > 0.5 && v <= 1) {
      p.tau = v;
    } else if (key == "theta" && v >= 0 && v <= 1) {
      p.theta = v;
    } else if (key == "q" && v >= 0 && v <= 1000) {
      p.q = v;
    } else if (key == "tau" || key == "theta" || key == "q") {
      return make_error("parameter " + key + "=" + text +
                        " is out of range (tau in (0.5, 1], theta in [0, 1], q in [0, 1000])");
    } else {
      return make_error("unknown parameter '" + key + "' (fuzzy_goal knows tau, theta, q, reading)");
    }
  }
  return p;
}

// --- the heuristic -----------------------------------------------------------------------------

Expected<FuzzyGoalHeuristic> FuzzyGoalHeuristic::make(const GroundProgram& program,
                                                      const TermPool& pool,
                                                      const SymbolTable& symbols,
                                                      const FuzzyGoalParams& params) {
  if (!(params.tau > 0.5 && params.tau <= 1) || !(params.theta >= 0 && params.theta <= 1) ||
      !(params.q >= 0 && params.q <= 1000))
    return make_error("fuzzy_goal: tau " + number_text(params.tau) + ", theta " +
                      number_text(params.theta) + ", q " + number_text(params.q) +
                      " out of range (tau in (0.5, 1], theta in [0, 1], q in [0, 1000])");
  FuzzyGoalHeuristic h;
  h.params_ = params;
  FuzzyCompiler compiler(h, program, pool, symbols);
  if (auto ok = compiler.run(); !ok) return make_error("fuzzy_goal: " + ok.error());
  return h;
}

Expected<FuzzyGoalHeuristic> FuzzyGoalHeuristic::from_description(
    const gdl::Description& description, gdl::TermPool& pool, const FuzzyGoalParams& params,
    std::optional<double> max_seconds) {
  gdl::GroundLimits limits;
  if (max_seconds) limits.max_seconds = std::min(limits.max_seconds, *max_seconds);
  auto program = gdl::ground(description, pool, limits);
  if (!program) return make_error(program.error());  // ground() names the sheet
  return make(*program, pool, description.symbols, params);
}

double FuzzyGoalHeuristic::lit_value(Lit lit) const {
  const double v = val_[lit >> 1];
  return (lit & 1u) ? 1.0 - v : v;
}

void FuzzyGoalHeuristic::set_latches(const gdl::Latches& latches) {
  latch_.assign(leaves_.size(), 0);
  num_latched_ = 0;
  for (std::size_t i = 0; i < leaves_.size(); ++i) {
    const TermId f = leaf_fluents_[i];
    if (std::binary_search(latches.positive.begin(), latches.positive.end(), f))
      latch_[i] |= kLatchTrue;
    if (std::binary_search(latches.negative.begin(), latches.negative.end(), f))
      latch_[i] |= kLatchFalse;
    if (latch_[i]) ++num_latched_;
  }
  if (num_latched_ == 0) latch_.clear();  // the plain loop in evaluate()
  latches_set_ = !latches.positive.empty() || !latches.negative.empty();
  evaluated_ = false;                      // the remembered state's degrees may change
}

void FuzzyGoalHeuristic::evaluate(const gdl::State& state) {
  if (evaluated_ && state == last_state_) return;
  val_.resize(nodes_.size());
  val_[0] = 0.0;
  val_[1] = 1.0;
  if (latch_.empty()) {
    for (std::uint32_t leaf : leaves_) val_[leaf] = 1.0 - params_.tau;
    for (TermId f : state)
      if (auto it = leaf_of_.find(f); it != leaf_of_.end()) val_[it->second] = params_.tau;
  } else {
    // A leaf's degree by whether it holds: the state is sorted, so one binary search per leaf.
    for (std::size_t i = 0; i < leaves_.size(); ++i) {
      const bool holds = std::binary_search(state.begin(), state.end(), leaf_fluents_[i]);
      double v = holds ? params_.tau : 1.0 - params_.tau;
      if (holds && (latch_[i] & kLatchTrue)) v = 1.0;
      if (!holds && (latch_[i] & kLatchFalse)) v = 0.0;
      val_[leaves_[i]] = v;
    }
  }
  const bool product = params_.q == 0 && params_.theta == 0;
  for (std::size_t i = 2; i < nodes_.size(); ++i) {
    const Node& n = nodes_[i];
    if (n.op == Op::kLeaf) continue;
    const Lit* c = children_.data() + n.first;
    double acc = lit_value(c[0]);
    for (std::uint32_t k = 1; k < n.count; ++k) {
      const double x = lit_value(c[k]);
      if (n.op == Op::kAnd)
        acc = product ? acc * x : fuzzy_and(acc, x, params_);
      else
        acc = product ? acc + x - acc * x : fuzzy_or(acc, x, params_);
    }
    val_[i] = acc;
  }
  last_state_ = state;
  evaluated_ = true;
}

double FuzzyGoalHeuristic::role_value(std::size_t role) const {
  double acc = 0.0;
  for (const Level& l : levels_[role])
    acc = fuzzy_combine(acc, l.value / 100.0 * lit_value(l.lit), params_);
  return 100.0 * acc;
}

std::vector<double> FuzzyGoalHeuristic::values(const gdl::State& state) {
  evaluate(state);
  std::vector<double> out;
  for (std::size_t r = 0; r < levels_.size(); ++r) out.push_back(role_value(r));
  return out;
}

double FuzzyGoalHeuristic::value(const gdl::State& state, int role) {
  if (role < 0 || static_cast<std::size_t>(role) >= levels_.size()) return 0.0;
  evaluate(state);
  return role_value(static_cast<std::size_t>(role));
}

double FuzzyGoalHeuristic::goal_degree(const gdl::State& state, int role, int level_value) {
  if (role < 0 || static_cast<std::size_t>(role) >= levels_.size()) return 0.0;
  evaluate(state);
  for (const Level& l : levels_[static_cast<std::size_t>(role)])
    if (l.value == level_value) return lit_value(l.lit);
  return 0.0;
}

double FuzzyGoalHeuristic::atom_degree(const gdl::State& state, TermId atom) {
  Lit lit = 0;
  if (auto it = atom_lit_.find(atom); it != atom_lit_.end()) {
    lit = it->second;
  } else if (auto leaf = leaf_of_.find(atom); leaf != leaf_of_.end()) {
    lit = leaf->second << 1;
  } else {
    return -1.0;
  }
  evaluate(state);
  return lit_value(lit);
}

FuzzyGoalExplanation FuzzyGoalHeuristic::explain(const gdl::State& state) {
  FuzzyGoalExplanation e;
  e.simplified = simplified_;
  e.note = note_;
  const std::vector<double> v = values(state);
  for (TermId a : goal_atoms_)
    if (auto it = atom_lit_.find(a); it != atom_lit_.end()) e.atoms.push_back({a, lit_value(it->second)});
  e.latches = latches_set_;
  for (std::size_t i = 0; i < latch_.size(); ++i) {
    const bool holds = std::binary_search(state.begin(), state.end(), leaf_fluents_[i]);
    if (holds ? (latch_[i] & kLatchTrue) : (latch_[i] & kLatchFalse))
      e.latched.push_back({leaf_fluents_[i], holds ? 1.0 : 0.0});
  }
  for (std::size_t r = 0; r < roles_.size(); ++r) {
    FuzzyGoalExplanation::Role role{roles_[r], {}, v[r]};
    for (const Level& l : levels_[r]) role.levels.push_back({l.value, lit_value(l.lit), l.cubes});
    e.roles.push_back(std::move(role));
  }
  return e;
}

}  // namespace arena::eval
