// The fuzzy goal heuristic explained: its degrees at a position as text, and the report of a
// position given as KIF fluents that `arena eval` prints for GDL games.

#include <algorithm>
#include <cstdio>

#include "bots/eval/gdl_fuzzy.h"
#include "games/gdl/reader/kif_reader.h"

namespace arena::eval {

using gdl::GroundProgram;
using gdl::SymbolTable;
using gdl::TermId;
using gdl::TermPool;

std::string format_explanation(const FuzzyGoalExplanation& e, const FuzzyGoalParams& p,
                               const TermPool& pool, const SymbolTable& symbols) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "fuzzy_goal tau=%g theta=%g q=%g\n", p.tau, p.theta, p.q);
  std::string out = buf;
  out += e.simplified ? "goal rules read under terminal (bots/eval/gdl_fuzzy.h)\n"
                      : "goal rules evaluated as written: " + e.note + "\n";
  if (e.latches) {
    std::string fixed;
    for (const auto& l : e.latched)
      fixed += (fixed.empty() ? "" : ", ") + pool.to_kif(l.fluent, symbols) +
               (l.degree == 1.0 ? " = 1" : " = 0");
    out += "latched " + (fixed.empty() ? std::string("none") : fixed) + "\n";
  }
  for (const auto& a : e.atoms) {
    std::snprintf(buf, sizeof buf, "%.6f", a.degree);
    out += "atom " + pool.to_kif(a.atom, symbols) + " " + buf + "\n";
  }
  for (const auto& r : e.roles) {
    out += "role " + pool.to_kif(r.role, symbols) + "\n";
    for (const auto& l : r.levels) {
      std::snprintf(buf, sizeof buf, "  goal %3d  %.6f  = ", l.value, l.degree);
      std::string formula;
      for (const FuzzyCube& c : l.cubes) {
        std::string conj;
        for (const FuzzyLiteral& lit : c)
          conj += (conj.empty() ? "" : " and ") + std::string(lit.negated ? "not " : "") +
                  pool.to_kif(lit.atom, symbols);
        formula += (formula.empty() ? "" : " or ") + (conj.empty() ? "true" : conj);
      }
      out += buf + (formula.empty() ? "false" : formula) + "\n";
    }
    std::snprintf(buf, sizeof buf, "  value %.6f\n", r.value);
    out += buf;
  }
  return out;
}

namespace {

// The fluents of `position` as ground terms of `pool`; each must be a fluent of `program`.
Expected<gdl::State> parse_position(const gdl::Description& description,
                                    const GroundProgram& program, std::string_view position,
                                    TermPool& pool) {
  SymbolTable symbols = description.symbols;  // a copy: unknown names must not enter the game's
  auto forms = gdl::parse_kif(position, "position", symbols);
  if (!forms) return make_error(forms.error());
  gdl::State state;
  for (const gdl::Rule& form : *forms) {
    const std::string text = gdl::to_kif(form.head, symbols);
    if (!form.body.empty() || !form.head.is_ground())
      return make_error("position: '" + text + "' is not a ground fluent");
    const TermId id = pool.from_term(form.head);
    if (!std::binary_search(program.fluents.begin(), program.fluents.end(), id))
      return make_error("position: " + text + " is not a fluent of " + description.source);
    state.push_back(id);
  }
  std::sort(state.begin(), state.end());
  state.erase(std::unique(state.begin(), state.end()), state.end());
  return state;
}

}  // namespace

Expected<std::string> fuzzy_goal_report(const gdl::Description& description,
                                        std::string_view position, const FuzzyGoalParams& params,
                                        bool explain, const gdl::LatchOptions* latches) {
  TermPool pool;
  auto program = gdl::ground(description, pool);
  if (!program) return make_error(program.error());  // ground() names the sheet
  auto h = FuzzyGoalHeuristic::make(*program, pool, description.symbols, params);
  if (!h) return make_error(h.error());
  std::string latch_line;
  if (latches) {
    // The same pool as the program's: the latches' fluent ids are the states'.
    auto found = gdl::find_latches(description, pool, *latches);
    if (!found) return make_error(found.error());
    h->set_latches(*found);
    latch_line = "latches " + std::to_string(found->positive.size()) + " positive, " +
                 std::to_string(found->negative.size()) + " negative\n";
  }
  gdl::State state = program->init;
  if (!position.empty()) {
    auto parsed = parse_position(description, *program, position, pool);
    if (!parsed) return make_error(parsed.error());
    state = std::move(*parsed);
  }
  std::vector<std::string> fluents;
  for (TermId f : state) fluents.push_back(pool.to_kif(f, description.symbols));
  std::sort(fluents.begin(), fluents.end());
  std::string out = "position";
  for (const std::string& f : fluents) out += " " + f;
  out += "\n" + latch_line;
  if (explain) return out + format_explanation(h->explain(state), params, pool, description.symbols);
  const std::vector<double> values = h->values(state);
  char buf[64];
  for (std::size_t r = 0; r < values.size(); ++r) {
    std::snprintf(buf, sizeof buf, " %.6f\n", values[r]);
    out += "value " + pool.to_kif(h->roles()[r], description.symbols) + buf;
  }
  return out;
}

}  // namespace arena::eval
