#pragma once
// Stage: the propositional network (the compiled reasoner).
// The compiled reasoner's network: the ground program (ground.h) as a propositional network of
// AND/OR gates over the base propositions (one per fluent: `true`) and the inputs (one per
// move: `does`), with the views (legal, next, goal, terminal and the helper relations) as gates.
//
// Evaluation is forward propagation of changes (as in Sancho): each gate keeps a counter of
// its satisfied inputs, biased so that bit 31 is the gate's value (an AND of n inputs starts at
// 2^31 - n, an OR at 2^31 - 1; a negated input counts as satisfied when false). Changing an
// input adds or subtracts one along its outputs and goes on only through gates whose value
// bit flips, so a move that changes a few fluents costs a few counter updates, not a pass over
// the network. The fluents whose `next` differs from `true` are kept as a set while values
// change, so play() flips just those; a role's legal list is rebuilt only after it changed.
// Before that, the ground rules of each view are factored (common literals taken out).
//
// The network holds one state at a time: set_state()/reset() load one, play() advances it by a
// joint move. Fluents and moves are numbered by their position in the program's sorted lists
// (so move indices ascend with the moves' TermIds).
// A ground program whose views are recursive (a cycle of positive dependencies among ground
// atoms) is refused: propagation needs an acyclic network.
//
// Not thread-safe; one owner at a time (a player thread keeps its own copy: Propnet copies).

#include <chrono>
#include <cstdint>
#include <span>
#include <vector>

#include "games/core/expected.h"
#include "games/gdl/ground/ground.h"
#include "games/gdl/reader/term.h"

namespace arena::gdl {

class StateMachine;

class Propnet {
 public:
  static constexpr std::uint32_t kNoMove = 0xFFFFFFFFu;

  // The network of `program`, whose atoms are ids of `pool` (`symbols` names the goal values).
  // Errors: cycles, too large, a goal value that is not an integer, past `deadline` (checked
  // while the rules become gates, so that a refusal for time comes in time).
  static Expected<Propnet> build(
      const GroundProgram& program, TermPool& pool, const SymbolTable& symbols,
      std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max());

  int num_roles() const { return static_cast<int>(legal_lists_.size()); }
  std::size_t num_fluents() const { return base_.size(); }
  std::size_t num_moves(int role) const { return does_[static_cast<std::size_t>(role)].size(); }
  std::size_t num_components() const { return counters_.size(); }
  std::size_t num_edges() const { return targets_.size(); }

  // Loads the initial state / the state whose fluents are the set bits of `bits` (fluent i is
  // bit i % 64 of word i / 64; num_fluents() bits).
  void reset();
  void set_state(std::span<const std::uint64_t> bits);
  // The loaded state as bits (the same layout).
  void state_bits(std::vector<std::uint64_t>& out) const;
  bool holds(std::size_t fluent) const { return value(base_[fluent]); }

  bool is_terminal() const { return value(terminal_); }
  // The legal move indices of `role` in the loaded state, ascending. Valid until the next
  // change of state.
  std::span<const std::uint32_t> legal(int role) const {
    const auto r = static_cast<std::size_t>(role);
    if (legal_dirty_[r]) rebuild_legal(r);
    return legal_lists_[r];
  }
  // Plays one move index per role (kNoMove: the role does nothing), each legal; the network
  // then holds the next state.
  void play(std::span<const std::uint32_t> joint);
  // The goal value of `role` in the loaded state; -1 when no goal holds, -2 when goals of
  // different values hold.
  int goal(int role) const;

 private:
  static constexpr std::uint32_t kTrueBit = 0x80000000u;
  struct Goal {
    std::uint32_t component;
    int value;
  };
  bool value(std::uint32_t c) const { return (counters_[c] & kTrueBit) != 0; }
  void set_input(std::uint32_t c, bool v);
  void propagate();
  void on_watch(std::uint32_t c);
  void toggle_mismatch(std::uint32_t fluent);
  void rebuild_sets();
  void rebuild_legal(std::size_t role) const;
  void state_changed();

  friend class PropnetBuilder;
  // Gates: counters, outputs (target << 1 | negated) in CSR form.
  std::vector<std::uint32_t> counters_;
  std::vector<std::uint32_t> out_begin_;
  std::vector<std::uint32_t> targets_;
  // What a component's flips mean to the sets: 0 none, else kind << 30 | index.
  std::vector<std::uint32_t> watch_;
  std::vector<std::uint8_t> info_;  // bit 0: the gate has outputs, bit 1: it is watched
  std::vector<std::uint32_t> base_;                // per fluent: its `true` input
  std::vector<std::uint32_t> next_;                // per fluent: its `next` gate
  std::vector<std::vector<std::uint32_t>> does_;   // per role, per move: its input
  std::vector<std::vector<std::uint32_t>> legal_;  // per role, per move: its `legal` gate
  std::vector<std::vector<Goal>> goals_;           // per role
  std::uint32_t terminal_ = 0;
  std::vector<std::uint64_t> init_bits_;
  // A role's legal list is rebuilt (a scan of its legal gates) when asked for after one of
  // them flipped (roles with many moves: watched) or after any change of state (few moves):
  // cheaper than keeping it as a set, since a turn flips many legal gates (the mover's all go
  // off) and a playout asks once per turn.
  mutable std::vector<std::vector<std::uint32_t>> legal_lists_;
  mutable std::vector<std::uint8_t> legal_dirty_;
  // Fluents whose next differs from true, kept as a set while values change.
  std::vector<std::uint32_t> mismatch_;
  std::vector<std::uint32_t> mismatch_pos_;
  std::vector<std::uint32_t> current_does_;  // per role: the input set, or kNoMove
  std::vector<std::uint32_t> stack_;
  std::vector<std::uint32_t> changes_;
  // The network as built, in the initial state with no move set, for reset() to copy back:
  // a random playout's end is many flips away from the start, and undoing them one by one
  // through the network cost more than the copy (a sixth of a tic-tac-toe playout's edges).
  // Kept only for networks of at most kSnapshotGates gates, where the copy is small.
  static constexpr std::size_t kSnapshotGates = std::size_t{1} << 16;
  void save_initial();
  std::vector<std::uint32_t> init_counters_, init_mismatch_, init_mismatch_pos_, init_does_;
};

// The network of a machine made by make_compiled(), or null for any other machine.
Propnet* compiled_network(StateMachine& machine);

}  // namespace arena::gdl
