#include "games/gdl/library/latches.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>
#include <unordered_set>

#include "games/gdl/asp/asp.h"
#include "games/gdl/library/clingo.h"

namespace arena::gdl {
namespace {

using Clock = std::chrono::steady_clock;

// GDL's (base F) facts or rules; old sheets' (base f (args ...)) forms are not.
bool states_base(const Description& description) {
  return std::any_of(description.rules.begin(), description.rules.end(), [](const Rule& rule) {
    return rule.head.name == SymbolTable::kBase && rule.head.kind == Term::Kind::kCompound &&
           rule.head.args.size() == 1;
  });
}

// The candidate fluents cand(F): the sheet's base facts and the initial state, or a relaxed
// reachability (r_*): the rules without their negative literals, every legal move done, from
// the initial state. Each relaxed derivation over-approximates the real one, so cand covers
// every reachable fluent. A sheet's base is checked instead: outside(F) is a fluent an examined
// transition reaches outside cand; with none, cand holds init and is closed under transitions,
// so it covers every reachable state too.
Expected<std::string> candidates(const Description& description, bool use_base) {
  if (use_base)
    return std::string(
        "cand(F) :- base(F).\n"
        "cand(F) :- init(F).\n"
        "outside(F) :- true(F), not cand(F).\n"
        "outside(F) :- next(F), not cand(F).\n"
        "#show outside/1.\n");
  AspRuleOptions relaxed;
  relaxed.prefix = "r_";
  relaxed.drop_negation = true;
  relaxed.skip_goal = true;
  relaxed.skip_terminal = true;
  auto rules = rules_to_asp(description, relaxed);
  if (!rules) return rules;
  return "% relaxed reachability: the rules without negation, every legal move done\n" + *rules +
         "r_true(F) :- r_init(F).\n"
         "r_true(F) :- r_next(F).\n"
         "r_does(R,M) :- r_legal(R,M).\n"
         "cand(F) :- r_true(F).\n";
}

// The examined state: any set of candidates; with two_step, the initial state or the successor
// of any non-terminal candidate state (p_*: a copy of the rules for the state before).
Expected<std::string> examined_state(const Description& description, const LatchOptions& options) {
  if (!options.two_step) return std::string("{ true(F) : cand(F) }.\n");
  AspRuleOptions previous;
  previous.prefix = "p_";
  auto rules = rules_to_asp(description, previous);
  if (!rules) return rules;
  return "% two-step: the state before, any non-terminal state with a legal joint move\n" + *rules +
         "{ from_init }.\n"
         "{ p_true(F) : cand(F) } :- not from_init.\n"
         "1 { p_does(R,M) : p_legal(R,M) } 1 :- p_role(R), not from_init.\n"
         ":- p_terminal, not from_init.\n"
         "true(F) :- from_init, init(F).\n"
         "true(F) :- not from_init, p_next(F).\n";
}

struct ClingoAnswer {
  bool satisfiable = false;
  std::vector<std::string> atoms;  // the last model: with brave reasoning, the consequences
};

Expected<ClingoAnswer> read_answer(const ClingoRun& run) {
  const auto excerpt = [&] {
    std::string text = run.errors.empty() ? run.output : run.errors;
    if (text.size() > 1500) text = text.substr(0, 1500) + " ...";
    return text;
  };
  if (run.exit_code < 32 && (run.exit_code & 1))
    return make_error("clingo was interrupted before it finished (its time limit?): " + excerpt());
  if (run.exit_code != 20 && run.exit_code != 30)
    return make_error("clingo failed (exit code " + std::to_string(run.exit_code) +
                      "): " + excerpt());
  ClingoAnswer answer;
  answer.satisfiable = run.exit_code == 30;
  if (!answer.satisfiable) return answer;
  std::istringstream lines(run.output);
  std::string line;
  bool found = false;
  while (std::getline(lines, line)) {
    if (line.rfind("Answer:", 0) != 0) continue;
    std::string atoms;
    std::getline(lines, atoms);
    answer.atoms.clear();
    std::istringstream words(atoms);
    for (std::string atom; words >> atom;) answer.atoms.push_back(atom);
    found = true;
  }
  if (!found) return make_error("clingo said satisfiable but printed no model: " + excerpt());
  return answer;
}

// The fluents of clingo's answer, by predicate.
struct AnswerFluents {
  std::unordered_set<TermId> cand, broken_pos, broken_neg, outside;
};

// "broken_pos(g_cell(g_1,g_1,g_x))" -> the fluent, into the set named by the predicate.
Expected<void> read_atom(const std::string& atom, const Description& description, TermPool& pool,
                         AnswerFluents& fluents) {
  const auto open = atom.find('(');
  if (open == std::string::npos || atom.back() != ')')
    return make_error("unexpected atom in clingo's answer: " + atom);
  const std::string predicate = atom.substr(0, open);
  auto fluent = parse_asp_term(std::string_view(atom).substr(open + 1, atom.size() - open - 2),
                               description.symbols, pool);
  if (!fluent) return make_error(fluent.error());
  if (predicate == "cand")
    fluents.cand.insert(*fluent);
  else if (predicate == "broken_pos")
    fluents.broken_pos.insert(*fluent);
  else if (predicate == "broken_neg")
    fluents.broken_neg.insert(*fluent);
  else if (predicate == "outside")
    fluents.outside.insert(*fluent);
  else
    return make_error("unexpected atom in clingo's answer: " + atom);
  return {};
}

std::vector<TermId> sorted(const std::unordered_set<TermId>& set) {
  std::vector<TermId> out(set.begin(), set.end());
  std::sort(out.begin(), out.end());
  return out;
}

Expected<std::string> program(const Description& description, const LatchOptions& options,
                              bool use_base) {
  AspRuleOptions sheet;
  sheet.skip_goal = true;  // goals play no part in a transition
  auto rules = rules_to_asp(description, sheet);
  if (!rules) return rules;
  auto cand = candidates(description, use_base);
  if (!cand) return cand;
  auto state = examined_state(description, options);
  if (!state) return state;
  return "% latches of " + description.source + " (arena gdl latches)\n" +
         "% the sheet's rules but goal\n" + *rules + "% the candidate fluents\n" + *cand +
         "% the examined state\n" + *state +
         "% one transition: one legal move per role, from a non-terminal state\n"
         "1 { does(R,M) : legal(R,M) } 1 :- role(R).\n"
         ":- terminal.\n"
         "broken_pos(F) :- true(F), cand(F), not next(F).\n"
         "broken_neg(F) :- cand(F), not true(F), next(F).\n"
         "#show cand/1.\n#show broken_pos/1.\n#show broken_neg/1.\n";
}

// One clingo run within `seconds`.
Expected<Latches> run_once(const Description& description, TermPool& pool,
                           const LatchOptions& options, bool use_base, double seconds) {
  auto text = program(description, options, use_base);
  if (!text) return make_error(text.error());
  ClingoOptions clingo;
  clingo.program = options.clingo;
  // clingo's own limit, a little earlier than the kill, so that it can say where it was.
  clingo.arguments = {"--enum-mode=brave", "--quiet=1", "--warn=none",
                      "--time-limit=" + std::to_string(std::max(1, static_cast<int>(seconds)))};
  clingo.timeout_seconds = seconds + 2.0;
  auto run = run_clingo(*text, clingo);
  if (!run) return make_error(description.source + ": " + run.error());
  auto answer = read_answer(*run);
  if (!answer) return make_error(description.source + ": " + answer.error());

  AnswerFluents fluents;
  for (const std::string& atom : answer->atoms) {
    if (auto read = read_atom(atom, description, pool, fluents); !read)
      return make_error(description.source + ": " + read.error());
  }
  Latches latches;
  latches.clingo_seconds = run->seconds;
  latches.any_transition = answer->satisfiable;
  latches.from_base = use_base;
  latches.fluents = sorted(fluents.cand);
  latches.outside_base = sorted(fluents.outside);
  for (TermId fluent : latches.fluents) {
    if (!fluents.broken_pos.count(fluent)) latches.positive.push_back(fluent);
    if (!fluents.broken_neg.count(fluent)) latches.negative.push_back(fluent);
  }
  return latches;
}

}  // namespace

Expected<std::string> latch_program(const Description& description, const LatchOptions& options) {
  return program(description, options, options.use_base && states_base(description));
}

Expected<Latches> find_latches(const Description& description, TermPool& pool,
                               const LatchOptions& options) {
  const auto start = Clock::now();
  const double limit = std::isfinite(options.timeout_seconds) && options.timeout_seconds > 0
                           ? options.timeout_seconds
                           : 60.0;
  const bool use_base = options.use_base && states_base(description);
  auto latches = run_once(description, pool, options, use_base, limit);
  if (latches && use_base && !latches->outside_base.empty()) {
    // The sheet's base misses fluents a transition makes: its latches are not proven. The
    // relaxed reachability covers them; the time left is the second run's.
    const double spent = std::chrono::duration<double>(Clock::now() - start).count();
    auto relaxed = run_once(description, pool, options, false, std::max(1.0, limit - spent));
    if (!relaxed) return relaxed;
    relaxed->outside_base = std::move(latches->outside_base);
    relaxed->clingo_seconds += latches->clingo_seconds;
    latches = std::move(relaxed);
  }
  if (latches) latches->seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return latches;
}

}  // namespace arena::gdl
