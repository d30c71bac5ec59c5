// The fuzzy goal heuristic read from GDL goal rules (bots/eval/gdl_fuzzy.h): the chapter's
// tic-tac-toe figures on both tic-tac-toe sheets, equal to the hand-written version
// (bots/eval/tictactoe.h), the terminal reading that makes them, Yager q, theta, latches, and
// the 15-puzzle sheet written for Arena.

#include "bots/eval/gdl_fuzzy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "bots/eval/tictactoe.h"
#include "games/gdl/reader/description.h"
#include "games/gdl/ground/ground.h"
#include "games/gdl/library/latches.h"
#include "games/gdl/prover/prover.h"
#include "games/tictactoe/tictactoe.h"
#include "games/gdl/library/sheet_file.h"

namespace arena::eval {
namespace {

using gdl::State;
using gdl::TermId;
using tictactoe::TicTacToe;

// A sheet read and ground, with a pool the heuristic and the test share.
struct Game {
  std::shared_ptr<gdl::Description> description;
  std::shared_ptr<gdl::TermPool> pool = std::make_shared<gdl::TermPool>();
  gdl::GroundProgram program;

  // The ground term of KIF-like words: {"cell", "1", "1", "x"} is (cell 1 1 x).
  TermId term(std::initializer_list<std::string_view> words) {
    std::vector<TermId> args;
    for (auto it = words.begin() + 1; it != words.end(); ++it)
      args.push_back(pool->constant(description->symbols.intern(*it)));
    return pool->make(description->symbols.intern(*words.begin()), args);
  }
  FuzzyGoalHeuristic heuristic(const FuzzyGoalParams& params = {}) {
    auto h = FuzzyGoalHeuristic::make(program, *pool, description->symbols, params);
    EXPECT_TRUE(h) << (h ? "" : h.error());
    return std::move(*h);
  }
};

Game load_text(std::string_view text, std::string_view source) {
  auto d = gdl::read_description(text, source);
  EXPECT_TRUE(d) << (d ? "" : d.error());
  Game g;
  g.description = std::make_shared<gdl::Description>(std::move(*d));
  auto p = gdl::ground(*g.description, *g.pool);
  EXPECT_TRUE(p) << (p ? "" : p.error());
  g.program = std::move(*p);
  return g;
}

Game load_file(const std::string& path) {
  auto d = gdl::read_description_file(path);
  EXPECT_TRUE(d) << (d ? "" : d.error());
  Game g;
  g.description = std::make_shared<gdl::Description>(std::move(*d));
  auto p = gdl::ground(*g.description, *g.pool);
  EXPECT_TRUE(p) << (p ? "" : p.error());
  g.program = std::move(*p);
  return g;
}

// The two tic-tac-toe sheets and how each writes a board as fluents.
enum class Sheet { kGgpBase, kTestData };

Game load_tictactoe(Sheet s) {
  return s == Sheet::kGgpBase ? load_file(std::string(ARENA_GDL_SHEETS_DIR) + "/tictactoe.kif")
                              : load_file(std::string(ARENA_TEST_DATA_DIR) + "/gdl/ticTacToe.kif");
}

// "x......ox" (the hand-written game's text, row by row from the top-left = (1 1)) as the
// sheet's state; X moves when the counts are equal.
State tictactoe_state(Game& g, Sheet s, std::string_view board) {
  State state;
  const auto xs = std::count(board.begin(), board.end(), 'x');
  const auto os = std::count(board.begin(), board.end(), 'o');
  for (int i = 0; i < 9; ++i) {
    const std::string row(1, static_cast<char>('1' + i / 3)), col(1, static_cast<char>('1' + i % 3));
    const char c = board[static_cast<std::size_t>(i)];
    const std::string mark = c == 'x' ? "x" : c == 'o' ? "o" : "b";
    if (s == Sheet::kTestData)
      state.push_back(g.term({"cell", row, col, mark}));
    else if (c != '.')
      state.push_back(g.term({"mark", row, col, mark}));
  }
  state.push_back(g.term({"control", xs == os ? "xplayer" : "oplayer"}));
  std::sort(state.begin(), state.end());
  return state;
}

class TicTacToeSheets : public ::testing::TestWithParam<Sheet> {};

// The chapter's figures on "x......ox" to 1e-6, as the hand-written version gives them.
TEST_P(TicTacToeSheets, ReproduceTheChaptersFigures) {
  Game g = load_tictactoe(GetParam());
  FuzzyGoalHeuristic h = g.heuristic();
  const State s = tictactoe_state(g, GetParam(), "x......ox");
  EXPECT_TRUE(h.simplified());
  EXPECT_NEAR(h.atom_degree(s, g.term({"line", "x"})), 0.116296, 1e-6);
  EXPECT_NEAR(h.atom_degree(s, g.term({"line", "o"})), 0.023797, 1e-6);
  EXPECT_NEAR(h.goal_degree(s, 0, 100), 0.113529, 1e-6);
  EXPECT_NEAR(h.goal_degree(s, 0, 50), 0.862674, 1e-6);
  EXPECT_NEAR(h.value(s, 0), 49.589684, 1e-6);
  const TicTacToe hand = *TicTacToe::deserialize("x......ox");
  EXPECT_NEAR(h.value(s, 1), fuzzy_goal_value(hand, Player::kSecond, {}), 1e-9);
}

// Evaluated as written, ggp-base's rules give other figures: the terminal reading (adding
// `not (line o)` to the win, dropping `not open` from the draw) is what makes the chapter's.
TEST_P(TicTacToeSheets, AsWrittenTheFiguresDiffer) {
  Game g = load_tictactoe(GetParam());
  FuzzyGoalParams written;
  written.read_under_terminal = false;
  FuzzyGoalHeuristic h = g.heuristic(written);
  const State s = tictactoe_state(g, GetParam(), "x......ox");
  EXPECT_FALSE(h.simplified());
  const double line_x = h.atom_degree(s, g.term({"line", "x"}));
  EXPECT_NEAR(line_x, 0.116296, 1e-6);
  EXPECT_NEAR(h.goal_degree(s, 0, 100), line_x, 1e-12) << "goal(x,100) <= (line x) as written";
  EXPECT_LT(h.goal_degree(s, 0, 50), 0.01) << "not open is near 0 mid-game";
  EXPECT_GT(std::abs(h.value(s, 0) - 49.589684), 1.0);
}

// The formulas the reading gives are the chapter's.
TEST_P(TicTacToeSheets, ExplanationShowsTheChaptersFormulas) {
  Game g = load_tictactoe(GetParam());
  FuzzyGoalHeuristic h = g.heuristic();
  const FuzzyGoalExplanation e = h.explain(tictactoe_state(g, GetParam(), "x......ox"));
  ASSERT_EQ(e.roles.size(), 2u);
  const TermId lx = g.term({"line", "x"}), lo = g.term({"line", "o"});
  const auto& x = e.roles[0];
  ASSERT_EQ(x.levels.size(), 3u);
  EXPECT_EQ(x.levels[0].value, 100);
  ASSERT_EQ(x.levels[0].cubes.size(), 1u);
  ASSERT_EQ(x.levels[0].cubes[0].size(), 2u);
  EXPECT_EQ(x.levels[0].cubes[0][0].atom, lx);
  EXPECT_FALSE(x.levels[0].cubes[0][0].negated);
  EXPECT_EQ(x.levels[0].cubes[0][1].atom, lo);
  EXPECT_TRUE(x.levels[0].cubes[0][1].negated);
  EXPECT_EQ(x.levels[1].value, 50);
  ASSERT_EQ(x.levels[1].cubes.size(), 1u);
  ASSERT_EQ(x.levels[1].cubes[0].size(), 2u);
  EXPECT_TRUE(x.levels[1].cubes[0][0].negated && x.levels[1].cubes[0][1].negated);
  EXPECT_NEAR(x.value, 49.589684, 1e-6);
  const std::string text = format_explanation(e, h.params(), *g.pool, g.description->symbols);
  EXPECT_NE(text.find("goal 100  0.113529  = (line x) and not (line o)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("value 49.589684"), std::string::npos) << text;
}

// Equal to the hand-written heuristic on random positions, for the product and Yager's q
// (degrees; with q the value is the Yager co-norm of the levels, see the header).
TEST_P(TicTacToeSheets, EqualsTheHandWrittenVersionOnRandomPositions) {
  Game g = load_tictactoe(GetParam());
  FuzzyGoalParams yager;
  yager.q = 2;
  FuzzyGoalParams threshold;
  threshold.theta = 0.6;
  std::mt19937 rng(23);
  for (int game = 0; game < 20; ++game) {
    TicTacToe t = *TicTacToe::create({});
    for (int ply = 0; ply < 8; ++ply) {
      TicTacToe::MoveList list;
      t.generate_moves(list);
      if (list.size() == 0) break;
      TicTacToe next = t;
      next.make_move(list[std::uniform_int_distribution<std::size_t>(0, list.size() - 1)(rng)]);
      if (next.outcome().is_terminal()) break;
      t = next;
      const State s = tictactoe_state(g, GetParam(), t.serialize());
      for (const FuzzyGoalParams& p : {FuzzyGoalParams{}, yager, threshold}) {
        FuzzyParams hp;
        hp.tau = p.tau;
        hp.theta = p.theta;
        hp.q = p.q;
        FuzzyGoalHeuristic h = g.heuristic(p);
        for (int role = 0; role < 2; ++role) {
          const Player pl = role == 0 ? Player::kFirst : Player::kSecond;
          const double win = fuzzy_goal_win(t, pl, hp), draw = fuzzy_goal_draw(t, pl, hp);
          SCOPED_TRACE(t.serialize() + " role " + std::to_string(role) + " q " +
                       std::to_string(p.q) + " theta " + std::to_string(p.theta));
          EXPECT_NEAR(h.goal_degree(s, role, 100), win, 1e-9);
          EXPECT_NEAR(h.goal_degree(s, role, 50), draw, 1e-9);
          const double value = 100 * fuzzy_combine(win, 0.5 * draw, p);
          EXPECT_NEAR(h.value(s, role), value, 1e-9);
          if (p.q == 0 && p.theta == 0) {
            EXPECT_NEAR(h.value(s, role), fuzzy_goal_value(t, pl, hp), 1e-9);
          }
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(BothSheets, TicTacToeSheets,
                         ::testing::Values(Sheet::kGgpBase, Sheet::kTestData),
                         [](const ::testing::TestParamInfo<Sheet>& sheet) {
                           return sheet.param == Sheet::kGgpBase ? "GgpBase" : "TestData";
                         });

// A small sheet: a win (a), a loss (b), a draw when full; the draw's `(true full)` is implied
// by terminal, the win must exclude b, and the last loss rule never holds in a terminal state.
constexpr std::string_view kSmallSheet = R"(
  (role r)
  (init s)
  (choice a) (choice b) (choice full)
  (<= (legal r (go ?x)) (true s) (choice ?x))
  (<= (next ?x) (does r (go ?x)))
  (<= (goal r 100) (true a))
  (<= (goal r 50) (not (true a)) (not (true b)) (true full))
  (<= (goal r 0) (true b))
  (<= (goal r 0) (not (true a)) (not (true b)) (not (true full)))
  (<= terminal (true a))
  (<= terminal (true b))
  (<= terminal (true full))
)";

TEST(GdlFuzzyGoal, ReadsGoalRulesUnderTerminalOnASmallSheet) {
  Game g = load_text(kSmallSheet, "small.kif");
  FuzzyGoalHeuristic h = g.heuristic();
  ASSERT_TRUE(h.simplified());
  const TermId a = g.term({"true", "a"}), b = g.term({"true", "b"});
  const FuzzyGoalExplanation e = h.explain({g.term({"a"})});
  ASSERT_EQ(e.roles.size(), 1u);
  const auto& levels = e.roles[0].levels;
  ASSERT_EQ(levels.size(), 3u);
  // goal 100: a and not b
  ASSERT_EQ(levels[0].cubes.size(), 1u);
  ASSERT_EQ(levels[0].cubes[0].size(), 2u);
  EXPECT_EQ(levels[0].cubes[0][0].atom, a);
  EXPECT_EQ(levels[0].cubes[0][1].atom, b);
  EXPECT_TRUE(levels[0].cubes[0][1].negated);
  // goal 50: not a and not b (full dropped)
  ASSERT_EQ(levels[1].cubes.size(), 1u);
  EXPECT_EQ(levels[1].cubes[0].size(), 2u);
  // goal 0: b and not a; the non-terminal rule is gone
  ASSERT_EQ(levels[2].cubes.size(), 1u);
  EXPECT_EQ(levels[2].cubes[0][0].atom, b);
  // Degrees in the state {a}: tau = 0.9.
  const double t = 0.9;
  EXPECT_NEAR(levels[0].degree, t * t, 1e-12);
  EXPECT_NEAR(levels[1].degree, (1 - t) * t, 1e-12);
  EXPECT_NEAR(e.roles[0].value, 100 * (1 - (1 - t * t) * (1 - 0.5 * (1 - t) * t)), 1e-9);
}

// A cycle p <= q, q <= p: q's rule through p counts 0 where p is met again on the path, so
// p = S(f, S(g, 0)) = 1 - (1 - 0.9)(1 - 0.1) in the state {f}; no loop, no hang.
TEST(GdlFuzzyGoal, RecursionIsCutOnThePath) {
  Game g = load_text(R"(
    (role r) (init s) (choice f) (choice g)
    (<= (legal r (go ?x)) (true s) (choice ?x))
    (<= (next ?x) (does r (go ?x)))
    (<= p (true f)) (<= p q)
    (<= q (true g)) (<= q p)
    (<= (goal r 100) p) (<= (goal r 0) (not p))
    (<= terminal p) (<= terminal (true g)))",
                     "cycle.kif");
  FuzzyGoalHeuristic h = g.heuristic();
  const State s{g.term({"f"})};
  EXPECT_NEAR(h.goal_degree(s, 0, 100), 1 - 0.1 * 0.9, 1e-12);
  EXPECT_NEAR(h.atom_degree(s, g.term({"q"})), 0.1, 1e-12);
  EXPECT_NEAR(h.value(s, 0), 100 * (1 - 0.1 * 0.9), 1e-9);
}

// More goal and terminal atoms than the truth table allows: evaluated as written, with a note.
TEST(GdlFuzzyGoal, ManyAtomsAreEvaluatedAsWritten) {
  std::string sheet = "(role r) (init s) (<= (legal r go) (true s)) (<= (next s) (does r go))\n";
  for (int i = 0; i < kMaxGoalAtoms + 1; ++i) {
    sheet += "(<= (goal r " + std::to_string(i) + ") (true (f " + std::to_string(i) + ")))\n";
    sheet += "(<= (next (f " + std::to_string(i) + ")) (does r go))\n";
  }
  sheet += "(<= terminal (true (f 0)))\n";
  Game g = load_text(sheet, "many.kif");
  FuzzyGoalHeuristic h = g.heuristic();
  EXPECT_FALSE(h.simplified());
  const FuzzyGoalExplanation e = h.explain({});
  EXPECT_NE(e.note.find("more than 16"), std::string::npos) << e.note;
  EXPECT_NEAR(h.goal_degree({g.term({"f", "3"})}, 0, 3), 0.9, 1e-12);
}

TEST(GdlFuzzyGoal, ParamsAreCheckedAndNamed) {
  auto ok = parse_fuzzy_goal_params({{"tau", "0.8"}, {"theta", "0.6"}, {"q", "2"}});
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->tau, 0.8);
  EXPECT_EQ(ok->theta, 0.6);
  EXPECT_EQ(ok->q, 2);
  auto unknown = parse_fuzzy_goal_params({{"tao", "0.9"}});
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().find("tao"), std::string::npos);
  auto range = parse_fuzzy_goal_params({{"tau", "0.3"}});
  ASSERT_FALSE(range);
  EXPECT_NE(range.error().find("tau"), std::string::npos);
  EXPECT_FALSE(parse_fuzzy_goal_params({{"q", "lots"}}));
  EXPECT_FALSE(parse_fuzzy_goal_params({{"reading", "maybe"}}));
  auto written = parse_fuzzy_goal_params({{"reading", "written"}});
  ASSERT_TRUE(written);
  EXPECT_FALSE(written->read_under_terminal);
}

TEST(GdlFuzzyGoal, YagerWithQOneIsLukasiewicz) {
  FuzzyGoalParams p;
  p.q = 1;
  EXPECT_NEAR(fuzzy_and(0.9, 0.9, p), 0.8, 1e-12);
  EXPECT_NEAR(fuzzy_or(0.3, 0.4, p), 0.7, 1e-12);
  EXPECT_NEAR(fuzzy_combine(0.7, 0.6, p), 1.0, 1e-12);
  p.q = 0;
  EXPECT_NEAR(fuzzy_combine(0.5, 0.5, p), 0.75, 1e-12);
}

TEST(GdlFuzzyGoal, BadGoalValuesAreErrors) {
  Game g = load_text("(role r) (init s) (<= (legal r go) (true s)) (<= (next s) (does r go))"
                     " (<= (goal r win) (true s)) (<= terminal (true s))",
                     "bad.kif");
  auto h = FuzzyGoalHeuristic::make(g.program, *g.pool, g.description->symbols);
  ASSERT_FALSE(h);
  EXPECT_NE(h.error().find("(goal r win)"), std::string::npos) << h.error();
}

// A sheet the grounder refuses (here a rule of 2^13 `or` choices, above its limit of 4,096): the
// heuristic's error says why, naming the sheet once (the grounder's message already names it).
TEST(GdlFuzzyGoal, ASheetTheGrounderRefusesIsNamedOnceInTheError) {
  std::string rule = "(<= (next s)";
  for (int i = 0; i < 13; ++i) rule += " (or (true s) (does r go))";
  rule += ")";
  auto d = gdl::read_description("(role r) (init s) (<= (legal r go) (true s)) " + rule +
                                     " (<= (goal r 100) (true s)) (<= terminal (true s))",
                                 "many_ors.kif");
  ASSERT_TRUE(d) << d.error();
  auto count = [](const std::string& text, std::string_view word) {
    std::size_t n = 0;
    for (auto at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) ++n;
    return n;
  };
  gdl::TermPool pool;
  auto h = FuzzyGoalHeuristic::from_description(*d, pool, {});
  ASSERT_FALSE(h);
  EXPECT_NE(h.error().find("combinations of `or` choices"), std::string::npos) << h.error();
  EXPECT_EQ(count(h.error(), "many_ors.kif"), 1u) << h.error();
  auto report = fuzzy_goal_report(*d, "", {}, false);
  ASSERT_FALSE(report);
  EXPECT_EQ(count(report.error(), "many_ors.kif"), 1u) << report.error();
}

// --- latches (games/gdl/library/latches.h) -------------------------------------------------------------

// A key that, once dropped, is never regained (a negative latch), a door that, once opened,
// stays open (a positive latch); the win needs both.
constexpr std::string_view kKeySheet = R"(
  (role r)
  (init (has key)) (init (step 1))
  (succ 1 2) (succ 2 3) (succ 3 4)
  (<= (legal r drop) (true (has key)))
  (legal r open) (legal r wait)
  (<= (next (has key)) (true (has key)) (not (does r drop)))
  (<= (next door_open) (true door_open))
  (<= (next door_open) (does r open))
  (<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
  (<= terminal (true (step 4)))
  (<= (goal r 100) (true (has key)) (true door_open))
  (<= (goal r 0) (not (true (has key))))
  (<= (goal r 0) (not (true door_open)))
)";

State sorted(State s) {
  std::sort(s.begin(), s.end());
  return s;
}

// The key sheet's latches as find_latches gives them (checked below when clingo is there).
gdl::Latches key_latches(Game& g) {
  gdl::Latches l;
  l.positive = {g.term({"door_open"})};
  l.negative = {g.term({"has", "key"})};
  return l;
}

// clingo's options, or nothing when it is not installed (the tests that need it skip).
std::optional<gdl::LatchOptions> clingo() {
  if (!std::filesystem::exists("/usr/bin/clingo")) return std::nullopt;
  gdl::LatchOptions options;
  options.clingo = "/usr/bin/clingo";
  options.timeout_seconds = 30;
  return options;
}

// The key dropped, the door open: the win has degree 0 with latches (no state that follows has
// the key), whatever the t-norm and threshold; without them it is merely unlikely.
TEST(GdlFuzzyGoalLatches, AGoalThatNeedsAFluentLatchedFalseHasDegreeZero) {
  Game g = load_text(kKeySheet, "key.kif");
  const State dropped = sorted({g.term({"door_open"}), g.term({"step", "2"})});
  FuzzyGoalParams threshold;
  threshold.theta = 0.6;
  FuzzyGoalParams yager;
  yager.q = 2;
  for (const FuzzyGoalParams& p : {FuzzyGoalParams{}, threshold, yager}) {
    SCOPED_TRACE("q " + std::to_string(p.q) + " theta " + std::to_string(p.theta));
    FuzzyGoalHeuristic h = g.heuristic(p);
    ASSERT_TRUE(h.simplified());
    const double plain = h.goal_degree(dropped, 0, 100);
    EXPECT_NEAR(plain, fuzzy_and(0.1, 0.9, p), 1e-12);
    EXPECT_GT(plain, 0.05);
    EXPECT_GT(h.value(dropped, 0), 5.0);
    h.set_latches(key_latches(g));
    EXPECT_EQ(h.num_latched(), 2u);
    EXPECT_EQ(h.goal_degree(dropped, 0, 100), 0.0);
    EXPECT_EQ(h.atom_degree(dropped, g.term({"has", "key"})), 0.0);
    EXPECT_EQ(h.value(dropped, 0), 0.0);
    EXPECT_EQ(h.goal_degree(dropped, 0, 0), 1.0);  // not key: 1 - 0
  }
}

// The key held and the door open: the door's degree is 1 (it stays open), the key's is tau (it
// may still be dropped); the explanation names what the latches fixed.
TEST(GdlFuzzyGoalLatches, APositiveLatchThatHoldsHasDegreeOne) {
  Game g = load_text(kKeySheet, "key.kif");
  const TermId key = g.term({"has", "key"}), door = g.term({"door_open"});
  const State both = sorted({key, door, g.term({"step", "2"})});
  FuzzyGoalHeuristic h = g.heuristic();
  EXPECT_NEAR(h.goal_degree(both, 0, 100), 0.81, 1e-12);
  EXPECT_NEAR(h.atom_degree(both, door), 0.9, 1e-12);
  EXPECT_FALSE(h.explain(both).latches);
  h.set_latches(key_latches(g));
  EXPECT_EQ(h.atom_degree(both, door), 1.0);
  EXPECT_NEAR(h.atom_degree(both, key), 0.9, 1e-12);
  EXPECT_NEAR(h.goal_degree(both, 0, 100), 0.9, 1e-12);
  const FuzzyGoalExplanation e = h.explain(both);
  EXPECT_TRUE(e.latches);
  ASSERT_EQ(e.latched.size(), 1u);
  EXPECT_EQ(e.latched[0].fluent, door);
  EXPECT_EQ(e.latched[0].degree, 1.0);
  const std::string text = format_explanation(e, h.params(), *g.pool, g.description->symbols);
  EXPECT_NE(text.find("latched door_open = 1\n"), std::string::npos) << text;
  const State dropped = sorted({door, g.term({"step", "2"})});
  const std::string text2 =
      format_explanation(h.explain(dropped), h.params(), *g.pool, g.description->symbols);
  EXPECT_NE(text2.find("latched (has key) = 0, door_open = 1\n"), std::string::npos) << text2;
  // No latch applies in the initial state (the key held, the door shut).
  const std::string text3 = format_explanation(h.explain(sorted({key, g.term({"step", "1"})})),
                                               h.params(), *g.pool, g.description->symbols);
  EXPECT_NE(text3.find("latched none\n"), std::string::npos) << text3;
  // An empty set turns them off: the remembered state is evaluated again.
  h.set_latches({});
  EXPECT_NEAR(h.goal_degree(both, 0, 100), 0.81, 1e-12);
  EXPECT_FALSE(h.explain(both).latches);
}

// clingo finds the latches the two tests above assume.
TEST(GdlFuzzyGoalLatches, ClingoFindsTheKeySheetsLatches) {
  const auto options = clingo();
  if (!options) GTEST_SKIP() << "clingo is not installed (/usr/bin/clingo)";
  Game g = load_text(kKeySheet, "key.kif");
  auto latches = gdl::find_latches(*g.description, *g.pool, *options);
  ASSERT_TRUE(latches) << latches.error();
  const auto has = [](const std::vector<TermId>& v, TermId t) {
    return std::find(v.begin(), v.end(), t) != v.end();
  };
  EXPECT_TRUE(has(latches->negative, g.term({"has", "key"})));
  EXPECT_FALSE(has(latches->positive, g.term({"has", "key"})));
  EXPECT_TRUE(has(latches->positive, g.term({"door_open"})));
  EXPECT_FALSE(has(latches->negative, g.term({"door_open"})));
  FuzzyGoalHeuristic h = g.heuristic();
  h.set_latches(*latches);
  EXPECT_EQ(h.goal_degree(sorted({g.term({"door_open"}), g.term({"step", "2"})}), 0, 100), 0.0);
}

// ggp-base's tic-tac-toe: clingo finds every mark a positive latch (a mark is never taken
// back), so the marks on the board have degree 1. A line of three marks is then certain: the
// other side's win and draw have degree 0 and its value is 0, where without latches they are
// merely unlikely. Without latches the chapter's figure is unchanged.
TEST(GdlFuzzyGoalLatches, TicTacToeMarksOnTheBoardAreCertain) {
  const auto options = clingo();
  if (!options) GTEST_SKIP() << "clingo is not installed (/usr/bin/clingo)";
  Game g = load_tictactoe(Sheet::kGgpBase);
  auto latches = gdl::find_latches(*g.description, *g.pool, *options);
  ASSERT_TRUE(latches) << latches.error();
  for (const std::string row : {"1", "2", "3"})
    for (const std::string col : {"1", "2", "3"})
      for (const std::string mark : {"x", "o"})
        EXPECT_TRUE(std::binary_search(latches->positive.begin(), latches->positive.end(),
                                       g.term({"mark", row, col, mark})))
            << row << col << mark;
  FuzzyGoalHeuristic h = g.heuristic();
  const State chapter = tictactoe_state(g, Sheet::kGgpBase, "x......ox");
  EXPECT_NEAR(h.value(chapter, 0), 49.589684, 1e-6);
  h.set_latches(*latches);
  EXPECT_EQ(h.atom_degree(chapter, g.term({"mark", "1", "1", "x"})), 1.0);
  EXPECT_EQ(h.atom_degree(chapter, g.term({"mark", "3", "2", "o"})), 1.0);
  // An empty cell is no latch either way: it may still get either mark.
  EXPECT_NEAR(h.atom_degree(chapter, g.term({"mark", "2", "2", "x"})), 0.1, 1e-12);
  // x's diagonal through (1 1), (2 2), (3 3) lacks one mark: 0.9 * 0.1 * 0.9 without latches,
  // 1 * 0.1 * 1 with them, so (line x) rises and x's value with it.
  const TermId line_x = g.term({"line", "x"});
  EXPECT_GT(h.atom_degree(chapter, line_x), 0.116296 + 0.015);
  EXPECT_GT(h.value(chapter, 0), 49.589684 + 0.1);
  // x's top row: (line x) is 1, o can neither win nor draw.
  const State won = tictactoe_state(g, Sheet::kGgpBase, "xxxoo....");
  FuzzyGoalHeuristic plain = g.heuristic();
  EXPECT_LT(plain.atom_degree(won, line_x), 0.99);
  EXPECT_GT(plain.goal_degree(won, 1, 100), 1e-3);
  EXPECT_GT(plain.goal_degree(won, 1, 50), 1e-3);
  EXPECT_GT(plain.value(won, 1), 0.1);
  EXPECT_NEAR(h.atom_degree(won, line_x), 1.0, 1e-12);
  EXPECT_NEAR(h.goal_degree(won, 1, 100), 0.0, 1e-12);
  EXPECT_NEAR(h.goal_degree(won, 1, 50), 0.0, 1e-12);
  EXPECT_NEAR(h.value(won, 1), 0.0, 1e-9);
  EXPECT_NEAR(h.goal_degree(won, 0, 100), 1 - h.atom_degree(won, g.term({"line", "o"})), 1e-12);
  EXPECT_GT(h.value(won, 0), plain.value(won, 0));
  // Turned off again, the chapter's figure comes back.
  h.set_latches({});
  EXPECT_NEAR(h.value(chapter, 0), 49.589684, 1e-6);
}

// What `arena eval --explain --latches` prints: the latches counted, the fixed marks named.
TEST(GdlFuzzyGoalLatches, TheReportNamesWhatTheLatchesFixed) {
  const auto options = clingo();
  if (!options) GTEST_SKIP() << "clingo is not installed (/usr/bin/clingo)";
  Game g = load_tictactoe(Sheet::kGgpBase);
  const std::string position = "(mark 1 1 x) (mark 3 2 o) (control xplayer)";
  auto with = fuzzy_goal_report(*g.description, position, {}, true, &*options);
  ASSERT_TRUE(with) << with.error();
  EXPECT_NE(with->find("\nlatches 18 positive, "), std::string::npos) << *with;
  EXPECT_NE(with->find("\nlatched (mark 1 1 x) = 1, (mark 3 2 o) = 1\n"), std::string::npos)
      << *with;
  auto without = fuzzy_goal_report(*g.description, position, {}, true);
  ASSERT_TRUE(without) << without.error();
  EXPECT_EQ(without->find("latche"), std::string::npos) << *without;
}

// --- the 15-puzzle sheet written for Arena ----------------------------------------------------

Game load_fifteen() { return load_file(std::string(ARENA_GDL_SHEETS_DIR) + "/fifteenPuzzle.kif"); }

State solved_fifteen(Game& g, int step = 7) {
  State s;
  for (int i = 0; i < 16; ++i) {
    const std::string row(1, static_cast<char>('1' + i / 4)), col(1, static_cast<char>('1' + i % 4));
    s.push_back(g.term({"cell", row, col, i == 15 ? "b" : std::to_string(i + 1)}));
  }
  s.push_back(g.term({"step", std::to_string(step)}));
  std::sort(s.begin(), s.end());
  return s;
}

TEST(GdlFuzzyGoal, FifteenPuzzleSolvedStateGivesTheChaptersFigures) {
  Game g = load_fifteen();
  const State solved = solved_fifteen(g);
  FuzzyGoalHeuristic plain = g.heuristic();
  EXPECT_NEAR(plain.goal_degree(solved, 0, 100), 0.205891, 1e-6);
  EXPECT_NEAR(plain.goal_degree(solved, 0, 100), std::pow(0.9, 15), 1e-12);
  FuzzyGoalParams threshold;
  threshold.theta = 0.6;
  FuzzyGoalHeuristic lifted = g.heuristic(threshold);
  EXPECT_NEAR(lifted.goal_degree(solved, 0, 100), 0.6, 1e-12);
  EXPECT_NEAR(lifted.value(solved, 0), 60.0, 1e-9);
}

TEST(GdlFuzzyGoal, FifteenPuzzleLoadsAndPlays) {
  auto d = gdl::read_description_file(std::string(ARENA_GDL_SHEETS_DIR) + "/fifteenPuzzle.kif");
  ASSERT_TRUE(d) << d.error();
  auto prover = gdl::make_prover(std::make_shared<gdl::Description>(std::move(*d)));
  gdl::State s = prover->initial_state();
  EXPECT_EQ(s.size(), 17u);
  EXPECT_FALSE(prover->is_terminal(s));
  // The blank starts at (3 1): it can go up, down or right.
  auto moves = prover->legal_moves(s, 0);
  ASSERT_EQ(moves.size(), 3u);
  s = prover->next_state(s, {moves[0]});
  EXPECT_EQ(s.size(), 17u);
  EXPECT_FALSE(prover->is_terminal(s));
  auto goal = prover->goal(s, 0);
  ASSERT_TRUE(goal) << goal.error();
  EXPECT_EQ(*goal, 0);
  // Random moves keep 15 tiles and one blank on the 16 cells.
  std::mt19937 rng(15);
  for (int ply = 0; ply < 30; ++ply) {
    moves = prover->legal_moves(s, 0);
    ASSERT_GE(moves.size(), 2u);
    ASSERT_LE(moves.size(), 4u);
    const auto pick = std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng);
    s = prover->next_state(s, {moves[pick]});
    ASSERT_EQ(s.size(), 17u);
  }
  // One move from solved: the move solves it, the game ends and the goal is 100.
  Game g = load_fifteen();
  State near = solved_fifteen(g);
  std::erase(near, g.term({"cell", "4", "3", "15"}));
  std::erase(near, g.term({"cell", "4", "4", "b"}));
  near.push_back(g.term({"cell", "4", "3", "b"}));
  near.push_back(g.term({"cell", "4", "4", "15"}));
  std::sort(near.begin(), near.end());
  auto near_prover = gdl::make_prover(g.description, g.pool);
  const State solved = near_prover->next_state(near, {g.term({"move", "4", "4"})});
  EXPECT_EQ(solved, solved_fifteen(g, 8));
  EXPECT_TRUE(near_prover->is_terminal(solved));
  EXPECT_EQ(*near_prover->goal(solved, 0), 100);
}

}  // namespace
}  // namespace arena::eval
