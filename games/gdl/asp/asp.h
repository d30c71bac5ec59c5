#pragma once
// Stage: ASP (the rules as an answer set program; latches, which run clingo, are in library/).
// GDL rules as an answer set program in clingo's language, and clingo's printed terms read back
// into ground GDL terms (clingo itself is run by games/gdl/library/clingo.h).
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

}  // namespace arena::gdl
