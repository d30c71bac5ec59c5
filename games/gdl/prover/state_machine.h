#pragma once
// Stage: the prover (the reasoners' contract and the reference reasoner).
// The reasoner's contract: what every GDL reasoner (the prover, the compiled network) answers
// about a game, in ground terms of one TermPool.
//
// A state is the sorted, duplicate-free list of the fluents that hold (the arguments of `true`:
// "(cell 1 1 b)"). A move is the action term a role does ("(mark 1 1)", "noop"). A joint move
// holds one move per role, in the order of roles(). Every role moves every turn (GDL is
// simultaneous; a waiting role's only legal move is typically "noop").
//
// Two machines built over the same TermPool answer in the same ids, so their answers compare
// directly (the compiled reasoner is tested against the prover that way).
//
// Not thread-safe: one owner at a time (the TermPool is shared and grows as terms are met).

#include <memory>
#include <string>
#include <vector>

#include "games/core/expected.h"
#include "games/gdl/reader/description.h"
#include "games/gdl/reader/term.h"

namespace arena::gdl {

using State = std::vector<TermId>;
using Move = TermId;
using JointMove = std::vector<Move>;

class StateMachine {
 public:
  virtual ~StateMachine() = default;

  // "prover" or "compiled", for messages and benchmarks.
  virtual std::string_view kind() const = 0;
  // The role terms in the sheet's order.
  virtual const std::vector<TermId>& roles() const = 0;

  virtual State initial_state() = 0;
  virtual bool is_terminal(const State& state) = 0;
  // The legal moves of roles()[role] in `state`, sorted by id, no duplicates.
  virtual std::vector<Move> legal_moves(const State& state, int role) = 0;
  // The state after every role does its move of `moves` (which must be legal).
  virtual State next_state(const State& state, const JointMove& moves) = 0;
  // The goal value of roles()[role] in `state`: 0..100. An error when the rules give none or
  // more than one value there (a sheet's bug, reported, never a crash).
  virtual Expected<int> goal(const State& state, int role) = 0;
  // Why the reasoner could not answer the questions just asked about `state` (a limit hit, a
  // construct it refuses), or empty; ask before turning to another state. When not empty,
  // is_terminal() said true and legal_moves() said none because of it, not because of the
  // rules. The compiled network answers every question once built: always empty.
  virtual std::string failure(const State& /*state*/) { return {}; }

  TermPool& pool() { return *pool_; }
  const std::shared_ptr<TermPool>& shared_pool() const { return pool_; }
  const Description& description() const { return *description_; }
  const std::shared_ptr<const Description>& shared_description() const { return description_; }

 protected:
  StateMachine(std::shared_ptr<const Description> description, std::shared_ptr<TermPool> pool)
      : description_(std::move(description)), pool_(std::move(pool)) {}

 private:
  std::shared_ptr<const Description> description_;
  std::shared_ptr<TermPool> pool_;
};

}  // namespace arena::gdl
