#pragma once
// Stage: grounding.
// Internal to ground.cpp: disequality projections, ground in linear size.
//
// A rule  H(C, R) <= B(U, R), D(C, U) [, demand literals]  where D is a static relation that
// holds exactly when C and U are different tuples of its domains (chess.kif's different_cells:
// D(x1 y1 x2 y2) for every two different cells) says "some U other than C has B(U, R)". Ground
// as written, each H(C, R) gets one rule per U: C x U per R (chess: every king square joined
// with every attacker square, 11.7 million ground rules). Ground here instead:
//   - while the domains grow, any(R) <= B(U, R), domU(U) and H(C, R) <= any(R), domC(C),
//     demands (not recorded: only the atoms matter);
//   - after the fixpoint, per R its atoms B(U1, R) .. B(Um, R) in some order, prefix and suffix
//     ORs pre_i = B1 | .. | Bi and suf_i = Bi | .. | Bm (about 4m rules), and each H(C, R) is
//     pre_{j-1} | suf_{j+1} when C = Uj, else pre_m (one or two rules); or, when that is
//     fewer rules for this R, each H(C, R) <= B(U, R) for every U other than C.
// Whether D is such a relation is decided on its atoms (static, so known exactly): the
// arguments split into C (not in B) and U (in B) paired in order, no atom has C = U, and there
// are |domC| x |domU| - |domC & domU| atoms. Nothing here depends on names.

#include <functional>
#include <vector>

#include "games/gdl/ground/ground_join.h"

namespace arena::gdl::detail {

struct DisequalityProjection {
  CompiledRule rule;                   // the original rule (its head and variable numbers)
  int b_literal = -1;                  // B's index in the original body
  std::vector<int> c_vars, u_vars;     // paired: C_i against U_i
  std::vector<int> r_vars;             // B's variables other than U
  Symbol any_symbol = 0, dom_c_symbol = 0, dom_u_symbol = 0, pre_symbol = 0, suf_symbol = 0;
  int dom_c = -1, dom_u = -1;          // relation ids
};

// When `rule` has the shape above, fills `out`, makes the relations it needs through
// `relation` (a symbol's dense id, made when missing) with domC and domU filled, and returns
// the two domain rules that replace it in the phase. Symbols are taken from `next_symbol`.
bool plan_disequality(const CompiledRule& rule, TermPool& pool, std::vector<Relation>& relations,
                      const std::function<int(Symbol)>& relation, Symbol& next_symbol,
                      DisequalityProjection& out, std::vector<CompiledRule>& domain_rules);

// After the phase: the recorded rules of every atom of the rule's head relation it can derive.
// False when the budget was exceeded.
bool emit_disequality(const DisequalityProjection& p, TermPool& pool,
                      std::vector<Relation>& relations, RecordedRules& out, Budget& budget);

}  // namespace arena::gdl::detail
