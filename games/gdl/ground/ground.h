#pragma once
// Stage: grounding.
// Grounding: every rule of a description instantiated over the terms that can actually occur,
// with static relations (those that depend on neither `true` nor `does`) evaluated away.
//
// A ground sentence is one TermId whose functor is the relation: "(true (cell 1 1 b))",
// "(does xplayer (mark 1 1))", "(line x)", "terminal", "(goal xplayer 100)", "(legal ...)",
// "(next ...)". `or` in a body is expanded into one ground rule per alternative; `distinct`
// is decided during grounding and disappears.

#include <cstddef>
#include <vector>

#include "games/core/expected.h"
#include "games/gdl/reader/description.h"
#include "games/gdl/reader/term.h"

namespace arena::gdl {

struct GroundLiteral {
  TermId atom = 0;
  bool negated = false;
  bool operator==(const GroundLiteral&) const = default;
};

struct GroundRule {
  TermId head = 0;
  std::vector<GroundLiteral> body;  // empty: the head always holds
};

struct GroundProgram {
  std::vector<GroundRule> rules;
  // Every ground fluent that can hold ("(cell 1 1 b)", the arguments of true/init/next) and
  // every ground move per role that can be legal, sorted by id.
  std::vector<TermId> fluents;
  std::vector<std::vector<TermId>> moves;  // per role, in the order of Description::roles()
  std::vector<TermId> roles;               // the role terms
  std::vector<TermId> init;                // the fluents of the initial state, sorted
};

struct GroundLimits {
  std::size_t max_rules = 3'000'000;  // refused beyond this many ground rules
  double max_seconds = 25.0;          // refused when grounding (and compiling) takes longer
  // The compiled reasoner's grounding tries demand restriction and variable elimination
  // (ground_demand.h, ground_split.h) only when the plain grounding is too large;
  // true applies them at once (tests compare the result with the prover on every sheet).
  bool always_eliminate = false;
};

// Grounds `description` into `pool`'s ids. Errors say why a game is refused (too many ground
// rules, too slow) and are never a crash.
Expected<GroundProgram> ground(const Description& description, TermPool& pool,
                               const GroundLimits& limits = {});

namespace detail {

// ground() with split_rules() applied when `split` (the compiled reasoner's grounding: its
// auxiliary atoms live only inside the network).
Expected<GroundProgram> ground_program(const Description& description, TermPool& pool,
                                       const GroundLimits& limits, bool split);

}  // namespace detail

}  // namespace arena::gdl
