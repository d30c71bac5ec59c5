#pragma once
// Stage: the prover (the reasoners' contract and the reference reasoner).
// The planner's size estimates (prover_plan.h): how many rows a literal yields per binding of
// its bound variables, measured on the static relations and the initial state where they are
// known (a sample: the facts a first compilation derived), guessed from the state's size
// elsewhere; and the index paths a literal's bound arguments give.

#include <cstdint>
#include <map>
#include <vector>

#include "games/gdl/prover/prover_program.h"
#include "games/gdl/prover/prover_table.h"
#include "games/gdl/reader/term.h"

namespace arena::gdl::prover_detail {

// The paths of an atom known once `bound` are bound, and (into `key`, when given) the nodes
// giving them.
IndexDef index_def(const Program& p, const Lit& lit, const std::vector<char>& bound,
                   std::vector<std::uint32_t>* key);

class RowEstimates {
 public:
  // `sample` holds per relation the facts a first compilation (same relation numbers) derived,
  // null where unknown. `p` is the program being planned: read as it is at each call.
  RowEstimates(const Program& p, const TermPool& pool, const std::vector<const Table*>& sample)
      : p_(p), pool_(pool), sample_(sample) {}

  // The rows `lit` is expected to yield per binding of the variables in `bound`.
  double fanout(const Lit& lit, const std::vector<char>& bound);

 private:
  double scan_fanout(const Lit& lit, const IndexDef& def, const Table& t);

  const Program& p_;
  const TermPool& pool_;
  const std::vector<const Table*>& sample_;
  std::map<std::vector<std::uint32_t>, double> fanouts_;  // scan_fanout's answers
};

}  // namespace arena::gdl::prover_detail
