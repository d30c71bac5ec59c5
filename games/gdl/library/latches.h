#pragma once
// Stage: the library (file and process I/O): latches run clingo (clingo.h) on the ASP program.
// Latches of a GDL game, found with answer set programming through clingo (Debian's gringo
// package), as in the GGP literature (Schiffel & Thielscher's Fluxplayer; Haufe, Schiffel &
// Thielscher, "Automated verification of state sequence invariants in general game playing").
//
// A positive latch is a fluent that, once true, stays true in every successor state; a negative
// latch one that, once false, stays false. The fuzzy goal heuristic uses them: a fluent latched
// true in a state is certainly true from then on; a fluent false there and a negative latch is
// certainly false, so a goal that needs it is unreachable.
//
// How: the rules are translated to ASP (asp.h) and one transition is examined from an ARBITRARY
// state: a choice over the candidate fluents, exactly one legal move per role, no terminal state:
//
//   { true(F) : cand(F) }.   1 { does(R,M) : legal(R,M) } 1 :- role(R).   :- terminal.
//   broken_pos(F) :- true(F), not next(F).   broken_neg(F) :- cand(F), not true(F), next(F).
//
// One clingo call with brave reasoning (--enum-mode=brave: the last model holds every atom true
// in SOME answer set) gives every fluent some transition breaks; the candidates no transition
// breaks are the latches. Candidates: the sheet's `base` facts and init when it states base
// (and LatchOptions::use_base), checked in the same run to be closed under the examined
// transitions (else a second run drops them); otherwise the fluents of a relaxed reachability
// computed in the same program (the rules with negative literals left out, every legal move
// taken, from init). Goal rules are left out: they play no part in a transition.
//
// Sound: the candidates cover every reachable fluent, so the arbitrary states include every
// reachable non-terminal state, and every latch found holds in the game. Not complete: a
// fluent may hold in every reachable transition and still be broken by an unreachable state;
// with LatchOptions::two_step the examined state must be the initial state or a successor of
// an arbitrary non-terminal state, which removes some of those (a 2-step induction).
//
// Not thread-safe with respect to `pool` (it grows); clingo runs as a child process.

#include <string>
#include <vector>

#include "games/core/expected.h"
#include "games/gdl/reader/description.h"
#include "games/gdl/reader/term.h"

namespace arena::gdl {

struct LatchOptions {
  std::string clingo = "clingo";  // a path, or a name looked up in PATH
  double timeout_seconds = 60.0;  // clingo is killed after this long (an error)
  bool use_base = true;           // the sheet's base facts as candidates when it has them
  bool two_step = false;          // the examined state is a successor of an arbitrary state
};

struct Latches {
  std::vector<TermId> positive;      // once true, always true; sorted by id
  std::vector<TermId> negative;      // once false, always false; sorted by id
  std::vector<TermId> fluents;       // the candidates examined; sorted by id
  bool from_base = false;            // the candidates are the sheet's base facts and init (else
                                     // relaxed reachability)
  std::vector<TermId> outside_base;  // fluents a transition makes that the sheet's base lacks:
                                     // when any, its base was dropped for relaxed reachability
  bool any_transition = true;        // false: no non-terminal state has a legal joint move (every
                                     // list is then empty: nothing is claimed)
  double clingo_seconds = 0;         // the clingo run, wall time
  double seconds = 0;                // the whole call: translation, clingo, reading its answer
};

// The latches of `description`; fluents are made in `pool`. Errors: clingo is missing (names
// the install command), fails, or runs out of time; the sheet cannot be translated.
Expected<Latches> find_latches(const Description& description, TermPool& pool,
                               const LatchOptions& options = {});

// The ASP program find_latches gives clingo (for `arena gdl latches --asp` and debugging).
Expected<std::string> latch_program(const Description& description,
                                    const LatchOptions& options = {});

}  // namespace arena::gdl
