// Grounding, written here in C++ rather than by translating GDL to ASP for Debian's gringo:
// a game is grounded without a child process or a file round trip, the ground atoms are ids of
// our own TermPool from the start (no parsing gringo's output back), and the limits (ground
// rules, atoms, seconds) are checked inside the join loops, so a refusal is quick and says why.
//
// Steps:
//   1. `or` in bodies expanded into one rule per choice of disjuncts.
//   2. Relations split into static (depending on neither `true` nor `does`) and dynamic.
//   3. Static relations evaluated exactly, stratum by stratum (stratified negation).
//   4. Domains of the dynamic relations by a fixpoint that ignores negation on dynamic
//      relations: `true` ranges over init and every derivable `next`, `does` over every
//      derivable `legal`. Each binding of a dynamic rule's body found on the way is one ground
//      rule (semi-naive evaluation finds each exactly once): static literals are decided and
//      dropped, `distinct` too.
//   5. Ground rules deduplicated; negated literals whose atom can never hold are dropped.
// For the compiled reasoner (ground_program with `split`), split_rules projects variables out
// of rule bodies first; when the result is too large, the rules are ground again with demand
// restriction (add_demand) and variable elimination (split_rules' `eliminate`) as well.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <unordered_map>

#include "games/gdl/ground/ground.h"
#include "games/gdl/ground/ground_demand.h"
#include "games/gdl/ground/ground_diseq.h"
#include "games/gdl/ground/ground_join.h"
#include "games/gdl/ground/ground_split.h"
#include "games/gdl/reader/huge_pages.h"

namespace arena::gdl {

namespace {

using detail::CompiledRule;
using detail::Literal;
using detail::Pattern;
using detail::Relation;

constexpr std::size_t kMaxOrChoices = 4096;

using detail::ExpandedRule;

std::string where(const Description& d, const Rule& rule) {
  return d.source + ":" + std::to_string(rule.line) + ": rule " + d.rule_text(rule);
}

// The choices of one body literal: (or a b) gives a and b (flattened), (not (or a b)) gives
// the single choice (not a) (not b) (De Morgan); anything else is itself.
std::vector<std::vector<Term>> choices_of(const Term& lit) {
  if (lit.kind == Term::Kind::kCompound && lit.name == SymbolTable::kOr) {
    std::vector<std::vector<Term>> out;
    for (const Term& a : lit.args)
      for (auto& c : choices_of(a)) out.push_back(std::move(c));
    return out;
  }
  if (lit.kind == Term::Kind::kCompound && lit.name == SymbolTable::kNot && lit.args.size() == 1 &&
      lit.args[0].kind == Term::Kind::kCompound && lit.args[0].name == SymbolTable::kOr) {
    std::vector<Term> all;
    for (const Term& a : lit.args[0].args)
      all.push_back(Term{Term::Kind::kCompound, SymbolTable::kNot, {a}});
    return {all};
  }
  return {{lit}};
}

Expected<std::vector<ExpandedRule>> expand_or(const Description& d) {
  std::vector<ExpandedRule> out;
  for (const Rule& rule : d.rules) {
    std::vector<std::vector<Term>> bodies{{}};
    for (const Term& lit : rule.body) {
      auto choices = choices_of(lit);
      if (bodies.size() * choices.size() > kMaxOrChoices)
        return make_error(where(d, rule) + ": more than " + std::to_string(kMaxOrChoices) +
                          " combinations of `or` choices");
      std::vector<std::vector<Term>> next;
      for (const auto& b : bodies)
        for (const auto& c : choices) {
          next.push_back(b);
          next.back().insert(next.back().end(), c.begin(), c.end());
        }
      bodies = std::move(next);
    }
    for (auto& b : bodies) out.push_back({&rule, rule.head, std::move(b), false});
  }
  return out;
}

// The relation symbol a body literal is about (after `not`), or false for distinct/variables.
bool sentence_of(const Term& lit, const Term*& sentence, bool& negated) {
  negated = false;
  sentence = &lit;
  if (lit.kind == Term::Kind::kCompound && lit.name == SymbolTable::kNot && lit.args.size() == 1) {
    negated = true;
    sentence = &lit.args[0];
  }
  if (sentence->is_variable()) return false;
  return sentence->name != SymbolTable::kDistinct;
}

struct Grounder {
  const Description& d;
  TermPool& pool;
  std::vector<ExpandedRule> rules;
  std::unordered_map<Symbol, int> ids;
  std::vector<Relation> relations;
  std::vector<std::vector<std::pair<int, bool>>> deps;  // per relation: (relation, negated)
  std::vector<bool> dynamic, needed;
  detail::Budget budget;
  bool eliminate = false;  // the second grounding: disequality projections too

  int relation(Symbol s) {
    auto [it, inserted] = ids.emplace(s, static_cast<int>(relations.size()));
    if (inserted) {
      relations.emplace_back();
      relations.back().name = s;
      deps.emplace_back();
    }
    return it->second;
  }

  Expected<void> classify();
  Expected<CompiledRule> compile(const ExpandedRule& rule);
  Expected<void> evaluate_static();
  Expected<detail::RecordedRules> evaluate_dynamic();
  std::vector<detail::DisequalityProjection> plan_disequalities(std::vector<CompiledRule>& compiled);
};

// Dependencies, the dynamic relations (those reaching true or does) and the needed ones (those
// the game's questions reach: role, init, legal, next, goal, terminal).
Expected<void> Grounder::classify() {
  for (Symbol k :
       {SymbolTable::kRole, SymbolTable::kInit, SymbolTable::kTrue, SymbolTable::kNext,
        SymbolTable::kLegal, SymbolTable::kDoes, SymbolTable::kGoal, SymbolTable::kTerminal})
    relation(k);
  for (const ExpandedRule& rule : rules) {
    if (rule.head.is_variable())
      return make_error(where(d, *rule.source) + ": the head is a variable");
    const int head = relation(rule.head.name);
    for (const Term& lit : rule.body) {
      const Term* sentence = nullptr;
      bool negated = false;
      if (!sentence_of(lit, sentence, negated)) continue;
      const int dep = relation(sentence->name);
      deps[static_cast<std::size_t>(head)].push_back({dep, negated});
    }
  }
  const std::size_t n = relations.size();
  dynamic.assign(n, false);
  dynamic[static_cast<std::size_t>(ids[SymbolTable::kTrue])] = true;
  dynamic[static_cast<std::size_t>(ids[SymbolTable::kDoes])] = true;
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t r = 0; r < n; ++r)
      for (auto [dep, neg] : deps[r])
        if (dynamic[static_cast<std::size_t>(dep)] && !dynamic[r]) dynamic[r] = changed = true;
  }
  needed.assign(n, false);
  std::vector<int> stack;
  for (Symbol k : {SymbolTable::kRole, SymbolTable::kInit, SymbolTable::kNext, SymbolTable::kLegal,
                   SymbolTable::kGoal, SymbolTable::kTerminal})
    stack.push_back(ids[k]);
  while (!stack.empty()) {
    const auto r = static_cast<std::size_t>(stack.back());
    stack.pop_back();
    if (needed[r]) continue;
    needed[r] = true;
    for (auto [dep, neg] : deps[r]) stack.push_back(dep);
  }
  for (std::size_t r = 0; r < n; ++r) {
    relations[r].is_static = !dynamic[r];
    relations[r].demand = relations[r].name >= detail::kFirstDemandSymbol;
  }
  return {};
}

Expected<CompiledRule> Grounder::compile(const ExpandedRule& rule) {
  detail::RuleCompiler compiler(pool, ids);
  CompiledRule out;
  out.head_relation = relation(rule.head.name);
  out.head = compiler.compile(rule.head);
  out.source = rule.source->line;
  out.record = !rule.demand;
  std::vector<bool> positive_var;
  auto mark = [&](const Pattern& p, auto&& self) -> void {
    if (p.kind == Pattern::Kind::kVariable) {
      if (positive_var.size() <= static_cast<std::size_t>(p.var))
        positive_var.resize(static_cast<std::size_t>(p.var) + 1, false);
      positive_var[static_cast<std::size_t>(p.var)] = true;
    }
    for (const Pattern& a : p.args) self(a, self);
  };
  for (const Term& lit : rule.body) {
    Literal l;
    const Term* sentence = nullptr;
    bool negated = false;
    if (sentence_of(lit, sentence, negated)) {
      l.kind = negated ? Literal::Kind::kNegative : Literal::Kind::kPositive;
      l.relation = relation(sentence->name);
      l.atom = compiler.compile(*sentence);
      if (!negated) mark(l.atom, mark);
    } else if (!sentence->is_variable() && sentence->args.size() == 2) {
      l.kind = negated ? Literal::Kind::kEqual : Literal::Kind::kDistinct;
      l.atom = compiler.compile(sentence->args[0]);
      l.other = compiler.compile(sentence->args[1]);
    } else {
      return make_error(where(d, *rule.source) +
                        ": a body literal is a variable or a malformed distinct");
    }
    out.body.push_back(std::move(l));
  }
  out.num_vars = compiler.num_vars();
  positive_var.resize(static_cast<std::size_t>(out.num_vars), false);
  if (!std::all_of(positive_var.begin(), positive_var.end(), [](bool b) { return b; }))
    return make_error(where(d, *rule.source) +
                      ": a variable does not occur in a positive body literal (safety)");
  return out;
}

// Static relations stratum by stratum: a relation's stratum is above those it negates.
Expected<void> Grounder::evaluate_static() {
  const std::size_t n = relations.size();
  std::vector<int> stratum(n, 0);
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t r = 0; r < n; ++r) {
      if (dynamic[r] || !needed[r]) continue;
      for (auto [dep, neg] : deps[r]) {
        const int want = stratum[static_cast<std::size_t>(dep)] + (neg ? 1 : 0);
        if (want > stratum[r]) {
          if (want > static_cast<int>(n))
            return make_error(d.source +
                              ": negation through recursion among static relations "
                              "(not stratified)");
          stratum[r] = want;
          changed = true;
        }
      }
    }
  }
  const int top = n == 0 ? 0 : *std::max_element(stratum.begin(), stratum.end());
  detail::JoinEngine engine(pool, relations, budget);
  for (int s = 0; s <= top; ++s) {
    std::vector<CompiledRule> compiled;
    for (std::size_t r = 0; r < n; ++r) relations[r].in_phase = false;
    for (std::size_t r = 0; r < n; ++r)
      if (!dynamic[r] && needed[r] && stratum[r] == s) relations[r].in_phase = true;
    for (const ExpandedRule& rule : rules) {
      if (!relations[static_cast<std::size_t>(relation(rule.head.name))].in_phase) continue;
      auto c = compile(rule);
      if (!c) return make_error(c.error());
      compiled.push_back(std::move(*c));
    }
    if (!engine.run_phase(compiled, nullptr))
      return make_error(d.source + ": refused: " + budget.failure);
    for (std::size_t r = 0; r < n; ++r)
      if (relations[r].in_phase) relations[r].complete = true;
  }
  for (std::size_t r = 0; r < n; ++r) {
    relations[r].in_phase = false;
    if (!dynamic[r]) relations[r].complete = true;  // unneeded static ones stay empty
  }
  return {};
}

// A bridge rule head(?0..) <- body(?0..): true from next, does from legal.
CompiledRule bridge(int head, Symbol head_name, int body, Symbol body_name, int arity) {
  CompiledRule rule;
  rule.head_relation = head;
  rule.record = false;
  rule.num_vars = arity;
  Pattern h{Pattern::Kind::kCompound, 0, -1, head_name, {}};
  Pattern b{Pattern::Kind::kCompound, 0, -1, body_name, {}};
  for (int v = 0; v < arity; ++v) {
    h.args.push_back({Pattern::Kind::kVariable, 0, v, 0, {}});
    b.args.push_back({Pattern::Kind::kVariable, 0, v, 0, {}});
  }
  rule.head = std::move(h);
  Literal lit;
  lit.relation = body;
  lit.atom = std::move(b);
  rule.body.push_back(std::move(lit));
  return rule;
}

Expected<detail::RecordedRules> Grounder::evaluate_dynamic() {
  const int t = ids[SymbolTable::kTrue], does = ids[SymbolTable::kDoes];
  const int next = ids[SymbolTable::kNext], legal = ids[SymbolTable::kLegal];
  const int init = ids[SymbolTable::kInit];
  std::vector<CompiledRule> compiled;
  for (std::size_t r = 0; r < relations.size(); ++r)
    relations[r].in_phase =
        dynamic[r] && (needed[r] || static_cast<int>(r) == t || static_cast<int>(r) == does);
  for (const ExpandedRule& rule : rules) {
    if (!relations[static_cast<std::size_t>(relation(rule.head.name))].in_phase) continue;
    auto c = compile(rule);
    if (!c) return make_error(c.error());
    compiled.push_back(std::move(*c));
  }
  // Seeds and bridges: true from init and next, does from legal.
  auto seed = [&](int from, int to, Symbol to_name) {
    for (TermId atom : relations[static_cast<std::size_t>(from)].atoms) {
      auto args = pool.args(atom);
      std::vector<TermId> copy(args.begin(), args.end());
      relations[static_cast<std::size_t>(to)].add(pool.make(to_name, copy));
    }
  };
  seed(init, t, SymbolTable::kTrue);
  if (dynamic[static_cast<std::size_t>(next)]) {
    compiled.push_back(bridge(t, SymbolTable::kTrue, next, SymbolTable::kNext, 1));
  } else {
    seed(next, t, SymbolTable::kTrue);
  }
  if (dynamic[static_cast<std::size_t>(legal)]) {
    compiled.push_back(bridge(does, SymbolTable::kDoes, legal, SymbolTable::kLegal, 2));
  } else {
    seed(legal, does, SymbolTable::kDoes);
  }
  const auto projections = plan_disequalities(compiled);
  detail::RecordedRules recorded;
  detail::JoinEngine engine(pool, relations, budget);
  if (!engine.run_phase(compiled, &recorded))
    return make_error(d.source + ": refused: " + budget.failure);
  for (const auto& p : projections)
    if (!detail::emit_disequality(p, pool, relations, recorded, budget))
      return make_error(d.source + ": refused: " + budget.failure);
  return recorded;
}

// With `eliminate`, the rules that are disequality projections (ground_diseq.h) are replaced
// by their domain rules; their recorded rules come after the phase.
std::vector<detail::DisequalityProjection> Grounder::plan_disequalities(
    std::vector<CompiledRule>& compiled) {
  std::vector<detail::DisequalityProjection> out;
  if (!eliminate) return out;
  Symbol next_symbol = detail::kFirstDisequalitySymbol;
  std::vector<CompiledRule> kept;
  for (CompiledRule& rule : compiled) {
    detail::DisequalityProjection p;
    if (detail::plan_disequality(rule, pool, relations, [&](Symbol s) { return relation(s); },
                                 next_symbol, p, kept)) {
      if (std::getenv("ARENA_GDL_GROUND_STATS") != nullptr)
        std::fprintf(stderr, "grounding: line %d: a disequality projection\n", rule.source);
      out.push_back(std::move(p));
    } else {
      kept.push_back(std::move(rule));
    }
  }
  compiled = std::move(kept);
  return out;
}

std::vector<TermId> sorted_unique(std::vector<TermId> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// Recorded rule r's body sorted, without repeats nor negated literals that can never hold;
// false when it says both A and not A.
bool normalized_body(TermPool& pool, const std::vector<Relation>& relations,
                     std::unordered_map<Symbol, int>& ids, const detail::RecordedRules& recorded,
                     std::size_t r, std::vector<GroundLiteral>& body) {
  body.clear();
  for (std::uint32_t k = recorded.body_begin[r]; k < recorded.body_begin[r + 1]; ++k) {
    const GroundLiteral lit{recorded.literals[k] >> 1, (recorded.literals[k] & 1u) != 0};
    if (lit.negated) {
      const Relation& of = relations[static_cast<std::size_t>(ids[pool.functor(lit.atom)])];
      if (of.position.count(lit.atom) == 0) continue;  // can never hold
    }
    body.push_back(lit);
  }
  std::sort(body.begin(), body.end(), [](const GroundLiteral& a, const GroundLiteral& b) {
    return a.atom != b.atom ? a.atom < b.atom : a.negated < b.negated;
  });
  body.erase(std::unique(body.begin(), body.end()), body.end());
  for (std::size_t i = 1; i < body.size(); ++i)
    if (body[i].atom == body[i - 1].atom) return false;
  return true;
}

// The program: roles, fluents, moves, init, the static outputs as facts and the recorded
// rules, deduplicated, with negated literals that can never hold removed.
Expected<GroundProgram> assemble_program(TermPool& pool, const Description& d,
                                         const std::vector<Relation>& relations,
                                         std::unordered_map<Symbol, int>& ids,
                                         const detail::RecordedRules& recorded,
                                         detail::Budget& budget) {
  GroundProgram p;
  std::unordered_map<TermId, std::size_t> role_index;
  for (Symbol s : d.roles()) {
    role_index.emplace(pool.constant(s), p.roles.size());
    p.roles.push_back(pool.constant(s));
  }
  auto rel = [&](Symbol s) -> const Relation& {
    return relations[static_cast<std::size_t>(ids[s])];
  };
  for (TermId atom : rel(SymbolTable::kTrue).atoms) p.fluents.push_back(pool.args(atom)[0]);
  p.fluents = sorted_unique(std::move(p.fluents));
  for (TermId atom : rel(SymbolTable::kInit).atoms) p.init.push_back(pool.args(atom)[0]);
  p.init = sorted_unique(std::move(p.init));
  p.moves.resize(p.roles.size());
  for (TermId atom : rel(SymbolTable::kDoes).atoms) {
    auto it = role_index.find(pool.args(atom)[0]);
    if (it != role_index.end()) p.moves[it->second].push_back(pool.args(atom)[1]);
  }
  for (auto& m : p.moves) m = sorted_unique(std::move(m));
  for (Symbol k :
       {SymbolTable::kLegal, SymbolTable::kNext, SymbolTable::kGoal, SymbolTable::kTerminal})
    if (rel(k).is_static)
      for (TermId atom : rel(k).atoms) p.rules.push_back({atom, {}});
  // Rules seen, by hash: open addressing (at most half full) over the hash's high 32 bits << 32
  // | the index into p.rules (kNone: free), so that a probe compares rules only when the hashes
  // agree: no allocation per rule, and one table read per rule of a chess-sized program.
  constexpr std::uint64_t kNone = ~std::uint64_t{0};
  std::size_t capacity = 1024;
  while (capacity < 2 * (recorded.size() + p.rules.size() + 1)) capacity *= 2;
  std::vector<std::uint64_t, HugePageAllocator<std::uint64_t>> seen(capacity, kNone);
  p.rules.reserve(p.rules.size() + recorded.size());
  std::vector<GroundLiteral> body;
  for (std::size_t r = 0; r < recorded.size(); ++r) {
    if (budget.tick()) return make_error(d.source + ": refused: " + budget.failure);
    if (!normalized_body(pool, relations, ids, recorded, r, body)) continue;
    std::uint64_t h = recorded.heads[r] * 0x9E3779B97F4A7C15ull;
    for (const GroundLiteral& lit : body)
      h = (h ^ (lit.atom * 2u + lit.negated)) * 0x100000001B3ull;
    h ^= h >> 31;
    const std::uint64_t high = h & 0xFFFFFFFF00000000ull;
    std::size_t slot = h & (capacity - 1);
    bool duplicate = false;
    for (; seen[slot] != kNone && !duplicate; slot = (slot + 1) & (capacity - 1)) {
      if ((seen[slot] & 0xFFFFFFFF00000000ull) != high) continue;
      const GroundRule& other = p.rules[static_cast<std::uint32_t>(seen[slot])];
      duplicate = other.head == recorded.heads[r] && other.body == body;
    }
    if (duplicate) continue;
    seen[slot] = high | static_cast<std::uint32_t>(p.rules.size());
    p.rules.push_back({recorded.heads[r], body});
  }
  return p;
}

}  // namespace

namespace detail {

namespace {

// ARENA_GDL_SPLIT_DUMP: the rules as ground (after add_demand and split_rules), on stderr, one
// a line after its source line; auxiliary relations print as auxN, demand relations demandN.
void dump_rules(const Description& description, const std::vector<ExpandedRule>& rules) {
  auto text = [&](const Term& t, auto&& self) -> std::string {
    std::string name;
    if (t.name >= kFirstDemandSymbol) {
      name = "demand";
      name += std::to_string(t.name - kFirstDemandSymbol);
    } else if (t.name >= kFirstAuxSymbol) {
      name = "aux";
      name += std::to_string(t.name - kFirstAuxSymbol);
    } else {
      name = description.symbols.name(t.name);
    }
    if (t.kind != Term::Kind::kCompound) return name;
    for (const Term& a : t.args) {
      name += ' ';  // appended apart: GCC 12 warns (-Wrestrict, falsely) on " " + string
      name += self(a, self);
    }
    return "(" + name + ")";
  };
  for (const ExpandedRule& r : rules) {
    std::string line = std::to_string(r.source->line) + ": " + text(r.head, text) + " <=";
    for (const Term& b : r.body) {
      line += ' ';
      line += text(b, text);
    }
    std::fprintf(stderr, "%s\n", line.c_str());
  }
}

// One grounding; `too_large` says whether it was refused for its number of rules or atoms.
Expected<GroundProgram> ground_once(const Description& description, TermPool& pool,
                                    const GroundLimits& limits, bool split, bool eliminate,
                                    std::chrono::steady_clock::time_point start,
                                    bool& too_large) {
  Grounder g{description, pool, {}, {}, {}, {}, {}, {}, {}, false};
  g.budget.max_rules = limits.max_rules;
  g.budget.max_atoms = limits.max_rules;
  g.budget.max_seconds = limits.max_seconds;
  g.budget.start = start;
  g.eliminate = split && eliminate;
  too_large = false;
  auto expanded = expand_or(description);
  if (!expanded) return make_error(expanded.error());
  g.rules = std::move(*expanded);
  if (split && eliminate) add_demand(g.rules);
  if (split) split_rules(g.rules, eliminate);
  if (std::getenv("ARENA_GDL_SPLIT_DUMP") != nullptr) dump_rules(description, g.rules);
  // ARENA_GDL_GROUND_STATS: the seconds (since the start) at which each step ended.
  const bool stats = std::getenv("ARENA_GDL_GROUND_STATS") != nullptr;
  auto step = [&](const char* what, std::size_t rules) {
    if (!stats) return;
    std::fprintf(stderr, "grounding: %s at %.2f s (%zu rules, %zu terms)\n", what,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                 rules, pool.size());
  };
  auto program = [&]() -> Expected<GroundProgram> {
    if (auto ok = g.classify(); !ok) return make_error(ok.error());
    if (auto ok = g.evaluate_static(); !ok) return make_error(ok.error());
    step("static relations", 0);
    auto recorded = g.evaluate_dynamic();
    if (!recorded) return make_error(recorded.error());
    step("dynamic relations", recorded->size());
    auto assembled = assemble_program(pool, description, g.relations, g.ids, *recorded, g.budget);
    step("assembled", assembled ? assembled->rules.size() : 0);
    return assembled;
  }();
  too_large = !program && g.budget.failure.rfind("more than ", 0) == 0;
  return program;
}

}  // namespace

// With `split`, the rules are first ground with split_rules' projections only; when that is
// too large, again with variable elimination too, within the same time limit. Elimination is
// not always applied because on small games it only reshapes the network: on tic-tac-toe it
// costs about 12% of the playouts per second and on conn4.kif it turns each diagonal's four
// cells into a chain of auxiliary gates (1,250 gates become 13,394, 17% slower). The first
// grounding stops at kFirstGroundingRules even when the limit is higher: a sheet that large is
// ground with elimination in far fewer rules (chess.kif with a limit of 20,000,000 would
// otherwise spend half a minute on a plain grounding that elimination makes unnecessary).
Expected<GroundProgram> ground_program(const Description& description, TermPool& pool,
                                       const GroundLimits& limits, bool split) {
  constexpr std::size_t kFirstGroundingRules = 1'500'000;
  const auto start = std::chrono::steady_clock::now();
  bool too_large = false;
  GroundLimits first = limits;
  if (split && !limits.always_eliminate)
    first.max_rules = std::min(limits.max_rules, kFirstGroundingRules);
  auto program =
      ground_once(description, pool, first, split, limits.always_eliminate, start, too_large);
  if (program || !too_large || !split || limits.always_eliminate) return program;
  return ground_once(description, pool, limits, split, true, start, too_large);
}

}  // namespace detail

Expected<GroundProgram> ground(const Description& description, TermPool& pool,
                               const GroundLimits& limits) {
  return detail::ground_program(description, pool, limits, false);
}

}  // namespace arena::gdl
