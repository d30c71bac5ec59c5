#pragma once
// Stage: ASP and latches.
// GDL rules as an answer set program in clingo's language, clingo run as a program with a time
// and memory bound, and clingo's printed terms read back into ground GDL terms.
//
// GDL is close to ASP: (<= (next (cell ?x ?y x)) (does ?p (mark ?x ?y)) (true (cell ?x ?y b)))
// becomes next(g_cell(X,Y,g_x)) :- does(P,g_mark(X,Y)), true(g_cell(X,Y,g_b)). Names:
// - GDL's keywords in relation position (role, init, true, next, legal, does, goal, terminal,
//   base, input) keep their names, with AspRuleOptions::prefix in front ("r_true").
// - Every other symbol, and a keyword used as a term ("(role base)"), is renamed so that any
//   GDL constant is a valid ASP name and no two symbols meet: "g_NAME" when NAME is made of
//   [a-z0-9_] ("1" is g_1, "xplayer" g_xplayer), else "h<symbol id>" ("white-king" is h57).
//   User relations get the prefix too ("r_g_line"). Names the caller adds to a program are safe
//   if they start with neither "g_", "h" followed by a digit, nor the prefix.
// - Variables become "V<symbol id>"; distinct is !=, (not (distinct a b)) is =; `or` gives one
//   rule per alternative (several `or`s: one rule per combination, at most kMaxOrExpansion).
//
// Standard library and POSIX only; clingo (Debian's gringo package) is found through PATH or
// given as a path.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "games/core/expected.h"
#include "games/gdl/reader/description.h"
#include "games/gdl/reader/term.h"

namespace arena::gdl {

inline constexpr std::size_t kMaxOrExpansion = 4096;

struct AspRuleOptions {
  // Put before every relation name ("r_" for a second copy of the rules in the same program).
  std::string prefix;
  // Leave out negative literals: the rules then derive a superset of what they derived (GDL's
  // safety keeps every rule safe), a monotone over-approximation. (not (distinct ..)) is kept.
  bool drop_negation = false;
  // Leave out the rules whose head is goal (or terminal).
  bool skip_goal = false;
  bool skip_terminal = false;
};

// The rules of `description` in clingo's language, one rule per line. An error names the rule
// when it cannot be translated (an `or` nested in a `not`, too many `or` combinations, a
// variable that occurs in no positive literal of an alternative: clingo cannot ground it).
Expected<std::string> rules_to_asp(const Description& description,
                                   const AspRuleOptions& options = {});

// The ASP text of the GDL term `term` in argument position ("g_cell(V12,g_1,g_b)").
std::string asp_term(const Term& term, const SymbolTable& symbols);
// The ASP text of the ground term `id` of `pool` in argument position.
std::string asp_term(TermId id, const TermPool& pool, const SymbolTable& symbols);

// Reads a ground term as clingo prints it (only names and compounds, as asp_term writes them)
// back into `pool`: "g_cell(g_1,g_1,g_x)" is (cell 1 1 x). Errors name the text.
Expected<TermId> parse_asp_term(std::string_view text, const SymbolTable& symbols, TermPool& pool);

struct ClingoOptions {
  std::string program = "clingo";  // a path, or a name looked up in PATH
  std::vector<std::string> arguments;
  double timeout_seconds = 60.0;     // the run is killed after this long
  std::size_t max_memory_mb = 4096;  // address-space limit of the clingo process
  std::size_t max_output_bytes = std::size_t{64} << 20;
};

struct ClingoRun {
  int exit_code = 0;   // clingo's: 10 satisfiable, 20 unsatisfiable, 30 satisfiable and
                       // the search exhausted, 1 bit set: interrupted, 65 error
  std::string output;  // stdout
  std::string errors;  // stderr
  double seconds = 0;  // wall time of the run
};

// Runs clingo on `program_text` (written to a temporary file). Errors: clingo cannot be run
// (names the program and says: apt-get install gringo), the time limit passed, it was killed
// by a signal, or it printed more than max_output_bytes. A non-zero exit code is not an error
// here (clingo's codes carry its answer); the caller reads it.
Expected<ClingoRun> run_clingo(const std::string& program_text, const ClingoOptions& options);

}  // namespace arena::gdl
