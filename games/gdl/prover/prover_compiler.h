#pragma once
// Stage: the prover (the reasoners' contract and the reference reasoner).
// The prover's compiler (prover_program.h), shared by its two source files: reading rules
// into literals and strata (prover_program.cpp), and planning the joins (prover_plan.cpp).

#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include "games/gdl/prover/prover_program.h"

namespace arena::gdl::prover_detail {

// A body literal as read, before planning.
struct Lit {
  Step::Kind kind = Step::Kind::kFail;  // kAtom, kNot, kDistinct, kOr or kFail
  std::uint32_t relation = 0;
  std::vector<std::uint32_t> args;
  std::vector<Lit> subs;            // kNot: one; kOr: the alternatives
  std::vector<std::uint32_t> vars;  // every variable it mentions, sorted
};

struct ParsedRule {
  std::uint32_t head = 0;
  std::vector<std::uint32_t> head_args;
  std::vector<Lit> body;
  std::uint32_t num_vars = 0;
};

// The variables of a pattern, appended to `out`.
void collect_vars(const Program& p, std::uint32_t node, std::vector<std::uint32_t>& out);
void sort_unique(std::vector<std::uint32_t>& v);
// Every relation a literal reads, with whether it reads it under a negation or an `or`; the
// negated ones also into `negatives`.
void read_relations(const Lit& lit, bool nested, std::vector<std::pair<std::uint32_t, bool>>& out,
                    bool negated, std::vector<std::pair<std::uint32_t, bool>>* negatives);

class Compiler {
 public:
  // `sample`, when given, holds per relation the facts a first compilation (same relation
  // numbers) derived (null where unknown): plans then order literals by expected rows.
  Compiler(const Description& d, TermPool& pool, bool demand,
           const std::vector<const Table*>* sample)
      : d_(d), pool_(pool), demand_wanted_(demand), sample_(sample) {}
  Expected<Program> run();

 private:
  std::uint32_t relation(Symbol name, std::uint32_t arity);
  std::uint32_t pattern(const Term& t);
  Expected<Lit> literal(const Term& t);
  Error rule_error(const Rule& rule, const std::string& what) const;
  void find_components(const std::vector<ParsedRule>& parsed);
  Expected<void> check_strata(const std::vector<ParsedRule>& parsed);
  void choose_demand();
  void compile_all();
  void compile_rule(const ParsedRule& r, int line);
  void compile_variant(std::uint32_t relation, std::size_t variant);
  Step call(const Lit& lit, const std::vector<char>& bound, Step::Kind kind);
  Plan plan(std::vector<const Lit*> lits, std::vector<char>& bound, std::uint32_t component,
            bool delta_first);
  Step step(const Lit& lit, std::vector<char>& bound, std::uint32_t component, bool delta);
  IndexDef index_def(const Lit& lit, const std::vector<char>& bound,
                     std::vector<std::uint32_t>* key) const;
  Step probe(const Lit& lit, const std::vector<char>& bound, Step::Kind kind);
  double score(const Lit& lit, const std::vector<char>& bound);
  double fanout(const Lit& lit, const std::vector<char>& bound);
  double scan_fanout(const Lit& lit, const IndexDef& def, const Table& t);

  const Description& d_;
  TermPool& pool_;
  bool demand_wanted_;
  const std::vector<const Table*>* sample_;
  std::map<std::vector<std::uint32_t>, double> fanouts_;  // scan_fanout's answers
  Program p_;
  std::unordered_map<std::uint64_t, std::uint32_t> relation_ids_;
  std::unordered_map<Symbol, std::uint32_t> vars_;  // of the rule being read
  std::vector<ParsedRule> parsed_;
  // Demand planning: the relations still evaluated on demand, the variants to plan, and
  // whether a literal calling one with nothing bound sent the planning round back to start.
  std::vector<char> demand_;
  std::vector<std::pair<std::uint32_t, std::size_t>> requests_;
  bool restart_ = false;
};

}  // namespace arena::gdl::prover_detail
