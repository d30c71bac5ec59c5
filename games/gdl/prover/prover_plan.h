#pragma once
// Stage: the prover (the reasoners' contract and the reference reasoner).
// The prover's join planning (prover_program.h, after the rules are read into literals and
// strata): which relations are evaluated on demand, and every rule's body (and every demand
// variant's) as plans whose literal order puts the most bound literal, or with a sample the
// one expected to yield the fewest rows (prover_estimate.h), first.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "games/gdl/prover/prover_estimate.h"
#include "games/gdl/prover/prover_program.h"
#include "games/gdl/prover/prover_table.h"
#include "games/gdl/reader/term.h"

namespace arena::gdl::prover_detail {

class Planner {
 public:
  // `p` holds the relations and strata read from `parsed`; run() fills its rules, indexes and
  // demand variants. `demand`: plan demand relations; `sample` as RowEstimates takes it.
  Planner(Program& p, const TermPool& pool, const std::vector<ParsedRule>& parsed, bool demand,
          const std::vector<const Table*>* sample);
  void run();

 private:
  void choose_demand();
  void compile_all();
  void compile_rule(const ParsedRule& r);
  void compile_variant(std::uint32_t relation, std::size_t variant);
  Step call(const Lit& lit, const std::vector<char>& bound, Step::Kind kind);
  Plan plan(std::vector<const Lit*> lits, std::vector<char>& bound, std::uint32_t component,
            bool delta_first);
  Step step(const Lit& lit, std::vector<char>& bound, std::uint32_t component, bool delta);
  Step probe(const Lit& lit, const std::vector<char>& bound, Step::Kind kind);
  double score(const Lit& lit, const std::vector<char>& bound);

  Program& p_;
  const std::vector<ParsedRule>& parsed_;
  bool demand_wanted_;
  std::optional<RowEstimates> estimates_;  // with a sample only
  // Demand planning: the relations still evaluated on demand, the variants to plan, and
  // whether a literal calling one with nothing bound sent the planning round back to start.
  std::vector<char> demand_;
  std::vector<std::pair<std::uint32_t, std::size_t>> requests_;
  bool restart_ = false;
};

}  // namespace arena::gdl::prover_detail
