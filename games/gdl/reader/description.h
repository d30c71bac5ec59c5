#pragma once
// Stage: the reader (KIF text to checked rules, with the rewritings).
// A GDL-I game description read from KIF and checked against GDL's restrictions.
//
// read_description() parses the sheet and checks it; an error names the source, the line and
// the rule ("connectFour.kif:42: rule (<= (next ...) ...): variable ?x in the head does not
// occur in a positive body literal (safety)"). It never crashes or hangs on any input.
//
// Checked: balanced parentheses and valid tokens; every relation and function used with one
// arity; keywords used as GDL says (role, init, true, next, legal, does, goal, terminal,
// distinct, not, or, base, input); safety (every variable of a rule occurs in a positive body
// literal that is not distinct); stratified negation (no relation depends negatively on itself
// through a cycle); GDL's recursion restriction; `true` and `does` only in bodies; `init`,
// `base` and `input` not depending on `true`/`does`; `legal`/`goal`/`terminal` not depending on
// `does`; at least one role. With or, safety holds for every choice of disjuncts (a variable
// may be local to the disjunct that binds it, as checkers.kif has it).
//
// Before the checks, the rewritings ggp-base's GdlCleaner makes: (not (distinct a b)) is
// removed by applying the unifier of a and b to the rule (the rule is dropped if they do not
// unify); (not (or L1 .. Ln)) becomes (not L1) .. (not Ln); a legal, goal or input rule whose
// first argument is an unbound variable ?p gets (role ?p) as its first body literal; old-style
// (base ...) facts of arity other than 1 drop all base facts. A negation (not S) whose
// variables occur nowhere else in the rule (no instance of S holds) becomes (not (aux ..)) with
// a new rule (<= (aux ..) S) named not_exists_LINE_N. So reasoners never see
// (not (distinct ..)) or (not (or ..)), and every rule is safe. A negation in a cycle that
// only the terms tell apart ((<= (goal ?r 0) (role ?r) (not (goal ?r 100))), where no rule for
// (goal ?r 100) reads (goal ?r 0)) reads a new relation REL_negated_LINE_N instead, defined by
// copies of the rules whose heads unify with the negated sentence; a cycle through the same
// instances stays one, and is refused as unstratified. Last, an unsafe rule that states a
// relation for any value ((<= (sum ?x 0 ?x) (succ 0 1))) is bound by the values its readers ask
// for (demand.h); when it cannot be, or the rewritten sheet breaks another restriction, the
// refusal names the sheet's own rule as without the rewriting.

#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "games/core/expected.h"
#include "games/gdl/reader/term.h"

namespace arena::gdl {

// One rule (a fact has an empty body). Body literals are Terms as read: (not L), (or L1 L2 ...),
// (distinct a b), (true f), (does r m) keep those functors (SymbolTable::kNot and so on).
struct Rule {
  Term head;
  std::vector<Term> body;
  int line = 0;  // 1-based line of the rule's opening parenthesis in the source
};

struct Description {
  std::string source;  // the file or sheet name, for messages
  SymbolTable symbols;
  std::vector<Rule> rules;
  // The relations the reader added to bind unsafe rules by their readers' demand (demand.h).
  // A rule of one only projects facts its body reads (its head's arguments are variables of
  // the body or ground), so it makes no new terms: GDL's recursion restriction, which keeps
  // the facts finite, looks at the cycles without them.
  std::unordered_set<Symbol> demand_relations;
  // The lines of the sheet's unsafe rules that demand.h bound, in order (empty for most).
  std::vector<int> bound_by_demand;

  // The roles in the order the sheet states them: (role xplayer) (role oplayer).
  std::vector<Symbol> roles() const;
  // "(<= (next (cell ?x ?y x)) (does xplayer (mark ?x ?y)) ...)", for messages.
  std::string rule_text(const Rule& rule) const;
};

// Parses and checks `text`; `source` names it in errors.
Expected<Description> read_description(std::string_view text, std::string_view source);


}  // namespace arena::gdl
