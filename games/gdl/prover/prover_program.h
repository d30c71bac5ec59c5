#pragma once
// Stage: the prover (the reasoners' contract and the reference reasoner).
// The prover's compiled form of a description: relations, their strata (strongly connected
// components of the dependency graph, in evaluation order), and every rule's body as join
// plans whose literal order puts the most bound literal first.
//
// Rule terms become pattern nodes: ground subterms are pool ids (kConstant), variables are
// numbered per rule. A plan is a list of steps run left to right with backtracking; each step
// knows statically which of its arguments are bound when it runs, hence which table index it
// probes. Recursive strata get one extra plan per recursive body literal for the semi-naive
// rounds (that literal first, reading only the last round's new facts).
//
// Demand: a non-recursive relation that depends on the state and that every literal reading it
// calls with some argument bound ((count h1 h2 i1 red ?payoff)) is not computed whole; a call
// evaluates its rules with those arguments bound and keeps the answers for the state (tabling),
// as a top-down prover would. Bottom-up evaluation of such a relation can cost the product of
// its literals' sizes (every count of every triple of cells) where the game asks for three.
//
// The compiler's stages: reading rules into literals and strata (here, prover_program.cpp),
// planning the joins (prover_plan.h), and the planner's row estimates (prover_estimate.h).

#include <cstdint>
#include <utility>
#include <vector>

#include "games/core/expected.h"
#include "games/gdl/reader/description.h"
#include "games/gdl/prover/prover_table.h"
#include "games/gdl/reader/term.h"

namespace arena::gdl::prover_detail {

// What a relation depends on: nothing of the state (computed once), the state's `true` facts,
// or also the joint move's `does` facts.
enum class Layer : std::uint8_t { kStatic, kState, kMove };

struct PatternNode {
  enum class Kind : std::uint8_t { kConstant, kVariable, kCompound };
  Kind kind = Kind::kConstant;
  std::uint32_t value = 0;  // kConstant: the TermId; kVariable: its number; kCompound: functor
  std::uint32_t first = 0;  // kCompound: its children are Program::children[first, first+arity)
  std::uint32_t arity = 0;
};

struct Plan;

struct Step {
  enum class Kind : std::uint8_t {
    kAtom,      // a positive literal: every row that matches, in turn
    kNotAtom,   // (not atom): no row matches
    kNot,       // (not X) for any other X: plans[0] has no solution
    kDistinct,  // args[0] and args[1] differ
    kOr,        // each of plans in turn
    kFail,      // a literal that never holds
  };
  // Which rows of a table a step reads: all, or (inside a recursive stratum) those before the
  // round's snapshot, or only those the last round added.
  enum class Range : std::uint8_t { kAll, kSnapshot, kDelta };

  Kind kind = Kind::kFail;
  Range range = Range::kAll;
  std::uint32_t relation = 0;
  std::vector<std::uint32_t> args;  // pattern roots (kDistinct: the two terms)
  std::int32_t index = -1;          // the table's index to probe; -1: scan every row
  std::vector<std::uint32_t> key;   // per path of that index, the node that gives its value
  // A demand relation's call: its variant (Relation::variants) and, in `key`, the nodes giving
  // the values of the variant's bound arguments in order.
  std::int32_t variant = -1;
  std::vector<Plan> plans;
};

struct Plan {
  std::vector<Step> steps;
};

struct CompiledRule {
  std::uint32_t head = 0;  // relation
  std::vector<std::uint32_t> head_args;
  std::uint32_t num_vars = 0;
  int line = 0;
  Plan full;
  std::vector<Plan> deltas;  // semi-naive plans, one per body atom of the rule's own stratum
  bool naive = false;        // recursive through or/not: the full plan runs every round
};

// The plans of a demand relation's rules (in its component's rule order) for calls that bind
// the arguments of `mask` (bit i: argument i).
struct Variant {
  std::uint32_t mask = 0;
  std::vector<Plan> plans;
};

struct Relation {
  Symbol name = 0;
  std::uint32_t arity = 0;
  std::uint32_t component = 0;
  std::vector<IndexDef> indexes;
  bool demand = false;
  std::vector<Variant> variants;
};

struct Component {
  std::vector<std::uint32_t> relations;
  std::vector<std::uint32_t> rules;
  std::vector<std::uint32_t> depends;  // components its rules read (not itself)
  bool recursive = false;
  Layer layer = Layer::kStatic;
};

struct Program {
  std::vector<PatternNode> nodes;
  std::vector<std::uint32_t> children;
  std::vector<Relation> relations;
  std::vector<Component> components;  // evaluation order: a component after those it reads
  std::vector<CompiledRule> rules;
  std::vector<TermId> roles;
  // GDL's relations (always present, empty when the sheet has no such rule).
  std::uint32_t true_rel = 0, does_rel = 0, init_rel = 0, legal_rel = 0, next_rel = 0,
                goal_rel = 0, terminal_rel = 0;

  // The components `relation` needs (itself included), in evaluation order.
  std::vector<std::uint32_t> closure(std::uint32_t relation) const;
};

// A body literal as read, before planning.
struct Lit {
  Step::Kind kind = Step::Kind::kFail;  // kAtom, kNot, kDistinct, kOr or kFail
  std::uint32_t relation = 0;
  std::vector<std::uint32_t> args;
  std::vector<Lit> subs;            // kNot: one; kOr: the alternatives
  std::vector<std::uint32_t> vars;  // every variable it mentions, sorted
};

// A rule as read: its head's relation and patterns, its body's literals, before planning
// (prover_plan.h).
struct ParsedRule {
  std::uint32_t head = 0;
  std::vector<std::uint32_t> head_args;
  std::vector<Lit> body;
  std::uint32_t num_vars = 0;
  int line = 0;  // in the sheet
};

// The variables of a pattern, appended to `out`.
void collect_vars(const Program& p, std::uint32_t node, std::vector<std::uint32_t>& out);
void sort_unique(std::vector<std::uint32_t>& v);
// Every relation a literal reads, with whether it reads it under a negation or an `or`; the
// negated ones also into `negatives`.
void read_relations(const Lit& lit, bool nested, std::vector<std::pair<std::uint32_t, bool>>& out,
                    bool negated, std::vector<std::pair<std::uint32_t, bool>>* negatives);

// Compiles `description` into `pool`'s ids. Errors name the rule (a construct the prover
// cannot evaluate, such as negation through recursion). `demand`: plan demand relations (see
// above); otherwise every relation is evaluated whole. With `sample` (per relation the facts
// a compilation without it derived: the static relations, the initial state and what was
// evaluated on it; null where unknown) the plans order literals by the rows they are
// expected to yield.
Expected<Program> compile_program(const Description& description, TermPool& pool, bool demand,
                                  const std::vector<const Table*>* sample = nullptr);

}  // namespace arena::gdl::prover_detail
