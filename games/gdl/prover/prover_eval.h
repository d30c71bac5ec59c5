#pragma once
// Stage: the prover (the reasoners' contract and the reference reasoner).
// The prover's bottom-up evaluation: the facts of every relation (one Table each) computed
// stratum by stratum from the compiled program. A non-recursive stratum runs each rule's plan
// once; a recursive one runs semi-naive rounds (each round joins the last round's new facts
// with everything known) until nothing new is derived. `not` reads lower strata only, which
// are complete by then.
//
// Demand relations (prover_program.h) are not evaluated with their stratum: a literal calling
// one evaluates its rules with the call's bound arguments, and the answers are kept per call
// until the layer is cleared.
//
// The caller loads `true` (and `does`) facts, asks for a relation with ensure(), which
// evaluates the strata it needs that are not evaluated yet, and clears layers when the state
// or the joint move changes; static strata are evaluated once and kept.

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "games/gdl/reader/description.h"
#include "games/gdl/prover/prover.h"
#include "games/gdl/prover/prover_program.h"
#include "games/gdl/prover/prover_table.h"

namespace arena::gdl::prover_detail {

class Evaluator {
 public:
  Evaluator(Program program, const Description& description, TermPool& pool,
            const ProverOptions& options);

  const Program& program() const { return program_; }
  const Table& table(std::uint32_t relation) const { return tables_[relation]; }
  // Per relation its table when its facts are known for the loaded state (static relations,
  // `true` and `does`, and the strata evaluated since), else null; for planning.
  std::vector<const Table*> sample() const;
  // Adds a fact to a table (the `true` and `does` facts the caller loads).
  void load(std::uint32_t relation, const TermId* tuple) { tables_[relation].insert(tuple, pool_); }

  // Forgets the facts and evaluations of every stratum whose layer is `from` or above.
  void clear_layers(Layer from);
  // Starts counting a new question's work against the limits (max_steps instead of the
  // limits' when not 0).
  void begin_question(std::uint64_t max_steps = 0);
  // Evaluates what `relation` needs (only its static part with `static_only`). False when a
  // limit was hit; error() says which.
  bool ensure(std::uint32_t relation, bool static_only = false);
  // Takes the evaluated static relations of `other`, an evaluator of the same description
  // (the same relation numbers) with other plans.
  void adopt_static(const Evaluator& other);
  const std::string& error() const { return error_; }

 private:
  struct Frame {
    const Plan* plan = nullptr;  // null: the end of an existence check
    std::size_t step = 0;
  };
  // The answers of a demand relation's calls of one variant: rows[first, end) per call.
  struct Call {
    std::uint32_t key_at = 0, first = 0, end = 0, next = kNone;
  };
  struct Memo {
    explicit Memo(std::uint32_t arity) : rows(arity, {}) {}
    Table rows;
    std::vector<TermId> keys;  // the calls' bound values
    std::vector<Call> calls;
    std::unordered_map<std::uint64_t, std::uint32_t> by_key;  // latest call per key hash
  };

  void evaluate(std::uint32_t component);
  void run_rule(std::uint32_t rule, const Plan& plan);
  void solve(const Plan& plan, std::size_t i);
  template <class F>
  void for_each_match(const Step& s, F&& on_match);
  // The rows of the memo answering `s`'s call, evaluated now if new; false on an error.
  bool answer_call(const Step& s, std::uint32_t& first, std::uint32_t& end);
  void evaluate_call(const Step& s, const std::vector<TermId>& values, Memo& memo);
  bool exists(const Plan& sub);
  void finish();
  void emit();
  bool match(std::uint32_t node, TermId t);
  TermId instantiate(std::uint32_t node);
  TermId value_of(std::uint32_t node) const;
  void undo(std::size_t mark);
  std::uint32_t depth(TermId id);
  void fail(const std::string& what);

  Program program_;
  const Description& description_;
  TermPool& pool_;
  ProverOptions limits_;
  std::uint64_t max_steps_ = 0;  // of the current question
  std::vector<Table> tables_;
  std::vector<char> done_;  // per component
  std::vector<std::vector<std::uint32_t>> closures_;  // per relation, made on first use
  std::vector<std::uint32_t> snap_lo_, snap_hi_;     // per relation: the semi-naive round
  std::vector<std::uint32_t> depth_;                 // per pool id, made on first use
  std::vector<std::vector<Memo>> memos_;             // per relation, per variant
  Table* sink_ = nullptr;                            // where emit() puts facts: a memo, or null

  // The rule being run.
  std::uint32_t rule_ = 0;
  std::vector<TermId> binding_;
  std::vector<std::uint32_t> trail_;
  std::vector<Frame> conts_;
  std::vector<TermId> scratch_;
  bool cut_ = false;    // an existence check found its solution: unwind to it
  bool found_ = false;
  bool abort_ = false;  // a limit was hit
  std::uint64_t steps_ = 0, facts_ = 0;
  std::string error_;
};

}  // namespace arena::gdl::prover_detail
