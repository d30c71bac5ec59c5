#include "games/gdl/library/latches.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "games/gdl/asp/asp.h"
#include "games/gdl/library/clingo.h"
#include "games/gdl/reader/description.h"
#include "games/gdl/prover/prover.h"
#include "games/gdl/library/sheet_file.h"

namespace arena::gdl {
namespace {

std::shared_ptr<const Description> read_sheet(const std::string& path) {
  auto description = read_description_file(path);
  EXPECT_TRUE(description) << description.error();
  if (!description) return nullptr;
  return std::make_shared<const Description>(std::move(*description));
}

std::shared_ptr<const Description> read_text(const std::string& text) {
  auto description = read_description(text, "inline.kif");
  EXPECT_TRUE(description) << description.error();
  if (!description) return nullptr;
  return std::make_shared<const Description>(std::move(*description));
}

// The KIF texts of `ids`, sorted.
std::vector<std::string> kif(const std::vector<TermId>& ids, const TermPool& pool,
                             const Description& description) {
  std::vector<std::string> out;
  for (TermId id : ids) out.push_back(pool.to_kif(id, description.symbols));
  std::sort(out.begin(), out.end());
  return out;
}

bool contains(const std::vector<std::string>& texts, const std::string& text) {
  return std::find(texts.begin(), texts.end(), text) != texts.end();
}

LatchOptions quick() {
  LatchOptions options;
  options.timeout_seconds = 30;
  return options;
}

TEST(Latches, TicTacToeMarksArePositiveBlanksNegativeControlNeither) {
  const auto description = read_sheet(ARENA_TEST_DATA_DIR "/gdl/ticTacToe.kif");
  ASSERT_TRUE(description);
  TermPool pool;
  auto latches = find_latches(*description, pool, quick());
  ASSERT_TRUE(latches) << latches.error();
  const auto positive = kif(latches->positive, pool, *description);
  const auto negative = kif(latches->negative, pool, *description);
  EXPECT_EQ(latches->fluents.size(), 9u * 3u + 2u);  // cells x/o/b, control of either role
  for (const std::string x : {"1", "2", "3"}) {
    for (const std::string y : {"1", "2", "3"}) {
      const std::string cell = "(cell " + x + " " + y + " ";
      EXPECT_TRUE(contains(positive, cell + "x)")) << cell;
      EXPECT_TRUE(contains(positive, cell + "o)")) << cell;
      EXPECT_TRUE(contains(negative, cell + "b)")) << cell;
      EXPECT_FALSE(contains(positive, cell + "b)")) << cell;
      EXPECT_FALSE(contains(negative, cell + "x)")) << cell;
      EXPECT_FALSE(contains(negative, cell + "o)")) << cell;
    }
  }
  for (const std::string control : {"(control xplayer)", "(control oplayer)"}) {
    EXPECT_FALSE(contains(positive, control));
    EXPECT_FALSE(contains(negative, control));
  }
  EXPECT_TRUE(latches->any_transition);
  EXPECT_FALSE(latches->from_base);
  EXPECT_GT(latches->clingo_seconds, 0.0);
  EXPECT_GE(latches->seconds, latches->clingo_seconds);
}

// A lamp that stays on once pressed, a clock that ticks, a key that never changes (its name has
// a '-' and a number, which ASP does not take as they are), and a step counter 1..3 that ends
// the game at 3. Worked out by hand from the rules:
constexpr const char* kLampSheet = R"(
  (role p)
  (init tick)
  (init (has-key 1))
  (init (step 1))
  (succ 1 2) (succ 2 3)
  (legal p press) (legal p wait)
  (<= (next lamp_on) (or (true lamp_on) (does p press)))
  (<= (next tick) (not (true tick)))
  (<= (next (has-key ?k)) (true (has-key ?k)))
  (<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
  (<= terminal (true (step 3)))
  (<= (goal p 100) (true lamp_on))
  (<= (goal p 0) (not (true lamp_on)))
)";

TEST(Latches, InlineSheetLatchesAreTheOnesTheRulesImply) {
  const auto description = read_text(kLampSheet);
  ASSERT_TRUE(description);
  TermPool pool;
  auto latches = find_latches(*description, pool, quick());
  ASSERT_TRUE(latches) << latches.error();
  EXPECT_EQ(kif(latches->fluents, pool, *description),
            (std::vector<std::string>{"(has-key 1)", "(step 1)", "(step 2)", "(step 3)", "lamp_on",
                                      "tick"}));
  // lamp_on: kept once on. (has-key 1): never changes. (step 3): only in terminal states, which
  // have no successor.
  EXPECT_EQ(kif(latches->positive, pool, *description),
            (std::vector<std::string>{"(has-key 1)", "(step 3)", "lamp_on"}));
  // (has-key 1) only follows itself; no step comes before (step 1).
  EXPECT_EQ(kif(latches->negative, pool, *description),
            (std::vector<std::string>{"(has-key 1)", "(step 1)"}));
}

TEST(Latches, BaseFactsAreTheCandidatesWhenTheSheetStatesThem) {
  const auto description = read_text(std::string(kLampSheet) +
                                     "(base lamp_on) (base tick) (base (has-key 1))"
                                     "(base (has-key 2)) (<= (base (step ?x)) (succ ?x ?y))"
                                     "(base (step 3))");
  ASSERT_TRUE(description);
  TermPool pool;
  auto latches = find_latches(*description, pool, quick());
  ASSERT_TRUE(latches) << latches.error();
  EXPECT_TRUE(latches->from_base);
  EXPECT_TRUE(latches->outside_base.empty());
  EXPECT_EQ(kif(latches->fluents, pool, *description),
            (std::vector<std::string>{"(has-key 1)", "(has-key 2)", "(step 1)", "(step 2)",
                                      "(step 3)", "lamp_on", "tick"}));
  // (has-key 2) never holds but is a candidate: it is a latch both ways, like (has-key 1).
  EXPECT_TRUE(contains(kif(latches->positive, pool, *description), "(has-key 2)"));
  EXPECT_TRUE(contains(kif(latches->negative, pool, *description), "(has-key 2)"));
  LatchOptions no_base = quick();
  no_base.use_base = false;
  auto relaxed = find_latches(*description, pool, no_base);
  ASSERT_TRUE(relaxed) << relaxed.error();
  EXPECT_FALSE(relaxed->from_base);
  EXPECT_EQ(relaxed->fluents.size(), 6u);  // as without the base facts
}

// A base that misses a fluent the rules make proves nothing: relaxed reachability replaces it.
TEST(Latches, IncompleteBaseFallsBackToRelaxedReachability) {
  const auto description =
      read_text(std::string(kLampSheet) + "(base tick) (base (has-key 1)) (base (step 1))");
  ASSERT_TRUE(description);
  TermPool pool;
  auto latches = find_latches(*description, pool, quick());
  ASSERT_TRUE(latches) << latches.error();
  EXPECT_FALSE(latches->from_base);
  EXPECT_TRUE(contains(kif(latches->outside_base, pool, *description), "lamp_on"));
  EXPECT_TRUE(contains(kif(latches->outside_base, pool, *description), "(step 2)"));
  EXPECT_EQ(latches->fluents.size(), 6u);
  EXPECT_TRUE(contains(kif(latches->positive, pool, *description), "lamp_on"));
}

// `guard` holds in no successor state (no next rule makes it), but base lets an arbitrary state
// hold it, and with it `kept` is dropped: only the two-step examination sees `kept` is a latch.
TEST(Latches, TwoStepRulesOutStatesNoTransitionReaches) {
  const auto description = read_text(R"(
    (role p) (legal p go)
    (base kept) (base guard) (base clock)
    (init kept)
    (<= (next kept) (true kept) (not (true guard)))
    (<= (next clock) (not (true clock)))
  )");
  ASSERT_TRUE(description);
  TermPool pool;
  auto one_step = find_latches(*description, pool, quick());
  ASSERT_TRUE(one_step) << one_step.error();
  EXPECT_FALSE(contains(kif(one_step->positive, pool, *description), "kept"));
  LatchOptions options = quick();
  options.two_step = true;
  auto two_step = find_latches(*description, pool, options);
  ASSERT_TRUE(two_step) << two_step.error();
  EXPECT_TRUE(contains(kif(two_step->positive, pool, *description), "kept"));
  EXPECT_FALSE(contains(kif(two_step->positive, pool, *description), "clock"));
  EXPECT_TRUE(contains(kif(two_step->negative, pool, *description), "guard"));
}

TEST(Latches, MissingClingoIsAClearError) {
  const auto description = read_text(kLampSheet);
  ASSERT_TRUE(description);
  TermPool pool;
  LatchOptions options = quick();
  options.clingo = "/nonexistent/arena-test/clingo";
  auto latches = find_latches(*description, pool, options);
  ASSERT_FALSE(latches);
  EXPECT_NE(latches.error().find("/nonexistent/arena-test/clingo"), std::string::npos)
      << latches.error();
  EXPECT_NE(latches.error().find("apt-get install gringo"), std::string::npos) << latches.error();
}

TEST(Latches, ClingoFailureIsAnError) {
  const auto description = read_text(kLampSheet);
  ASSERT_TRUE(description);
  TermPool pool;
  LatchOptions options = quick();
  options.clingo = "false";  // runs, prints nothing, exits 1
  auto latches = find_latches(*description, pool, options);
  ASSERT_FALSE(latches);
  EXPECT_NE(latches.error().find("clingo"), std::string::npos) << latches.error();
}

TEST(Latches, ClingoPastItsTimeLimitIsKilled) {
  ClingoOptions options;
  options.program = "sh";  // a stand-in that never answers: sh -c 'exec sleep 30' sh FILE
  options.arguments = {"-c", "exec sleep 30", "sh"};
  options.timeout_seconds = 0.3;
  auto run = run_clingo("", options);
  ASSERT_FALSE(run);
  EXPECT_NE(run.error().find("time limit"), std::string::npos) << run.error();
}

TEST(AspTranslation, EverySymbolGetsASafeNameAndComesBack) {
  const auto description = read_text(R"(
    (role white-king) (init (at 1 a.b +x))
    (<= (legal ?r (go ?x)) (role ?r) (true (at ?x ?y ?z)) (distinct ?y ?z))
    (<= (next (at 1 a.b +x)) (does white-king (go 1)))
    (<= terminal (not (true (at 1 a.b +x))))
    (goal white-king 100)
  )");
  ASSERT_TRUE(description);
  auto program = rules_to_asp(*description);
  ASSERT_TRUE(program) << program.error();
  EXPECT_EQ(program->find("white-king"), std::string::npos) << *program;
  EXPECT_EQ(program->find("a.b"), std::string::npos) << *program;
  EXPECT_NE(program->find("!="), std::string::npos) << *program;
  EXPECT_NE(program->find("g_1"), std::string::npos) << *program;
  TermPool pool;
  const Rule& fact = description->rules[1];  // (init (at 1 a.b +x))
  const TermId fluent = pool.from_term(fact.head.args[0]);
  const std::string text = asp_term(fluent, pool, description->symbols);
  auto back = parse_asp_term(text, description->symbols, pool);
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(*back, fluent) << text;
  EXPECT_FALSE(parse_asp_term("g_nosuchsymbol", description->symbols, pool));
  EXPECT_FALSE(parse_asp_term("g_at(g_1", description->symbols, pool));
  EXPECT_FALSE(parse_asp_term("h999999999999", description->symbols, pool));
}

TEST(AspTranslation, OrGivesOneRulePerAlternative) {
  const auto description = read_text(R"(
    (role p) (init a)
    (<= (next b) (or (true a) (true c) (not (true d))) (or (true e) (true f)))
  )");
  ASSERT_TRUE(description);
  auto program = rules_to_asp(*description);
  ASSERT_TRUE(program) << program.error();
  EXPECT_EQ(std::count(program->begin(), program->end(), '\n'), 2 + 3 * 2) << *program;
  AspRuleOptions relaxed;
  relaxed.drop_negation = true;
  auto without = rules_to_asp(*description, relaxed);
  ASSERT_TRUE(without) << without.error();
  EXPECT_EQ(without->find("not "), std::string::npos) << *without;
}

// Every latch found holds along random playouts of the prover: a positive latch true in a
// state is true in the next; a negative latch false in a state is false in the next.
void check_on_playouts(const std::string& path, int playouts, unsigned seed) {
  SCOPED_TRACE(path);
  const auto description = read_sheet(path);
  ASSERT_TRUE(description);
  auto machine = make_prover(description);
  ASSERT_TRUE(machine);
  TermPool& pool = machine->pool();
  auto latches = find_latches(*description, pool, quick());
  ASSERT_TRUE(latches) << latches.error();
  std::mt19937 rng(seed);
  int checked = 0;
  for (int game = 0; game < playouts; ++game) {
    State state = machine->initial_state();
    for (int step = 0; step < 300 && !machine->is_terminal(state); ++step) {
      JointMove moves;
      for (std::size_t role = 0; role < machine->roles().size(); ++role) {
        const auto legal = machine->legal_moves(state, static_cast<int>(role));
        ASSERT_FALSE(legal.empty());
        moves.push_back(
            legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)]);
      }
      const State next = machine->next_state(state, moves);
      const auto holds = [](const State& s, TermId f) {
        return std::binary_search(s.begin(), s.end(), f);
      };
      for (TermId f : latches->positive) {
        if (!holds(state, f)) continue;
        ASSERT_TRUE(holds(next, f))
            << "positive latch broken: " << pool.to_kif(f, description->symbols);
        ++checked;
      }
      for (TermId f : latches->negative) {
        if (holds(state, f)) continue;
        ASSERT_FALSE(holds(next, f))
            << "negative latch broken: " << pool.to_kif(f, description->symbols);
        ++checked;
      }
      if (!latches->from_base) {  // relaxed reachability covers every fluent that can hold
        for (TermId f : next)
          ASSERT_TRUE(std::binary_search(latches->fluents.begin(), latches->fluents.end(), f))
              << "not a candidate: " << pool.to_kif(f, description->symbols);
      }
      state = next;
    }
  }
  EXPECT_GT(checked, 0);
}

TEST(Latches, HoldOnRandomPlayouts) {
  check_on_playouts(ARENA_TEST_DATA_DIR "/gdl/ticTacToe.kif", 20, 1);
  check_on_playouts(ARENA_TEST_DATA_DIR "/gdl/connectFour.kif", 5, 2);
  for (const char* sheet : {"breakthroughSmall.kif", "nim1.kif", "hanoi.kif", "knightsTour.kif",
                            "eightPuzzle.kif", "3pttc.kif"})
    check_on_playouts(std::string(ARENA_GDL_SHEETS_DIR) + "/" + sheet, 3, 3);
}

}  // namespace
}  // namespace arena::gdl
