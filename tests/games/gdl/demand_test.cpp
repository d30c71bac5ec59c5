// Unsafe rules bound by their readers' demand (games/gdl/reader/demand.h): each sheet that states a
// relation "for any value" plays move for move as the same sheet with the value's domain
// written out by hand (a safe sheet, read without the rewriting), on both reasoners; the
// project's unsafe sheets load and play; and what cannot be bound is refused by the sheet's
// own rule, as before.

#include "games/gdl/reader/demand.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "games/gdl/propnet/compiled.h"
#include "games/gdl/reader/description.h"
#include "games/gdl/prover/prover.h"
#include "sheets.h"
#include "games/gdl/library/sheet_file.h"

namespace arena::gdl {
namespace {

std::shared_ptr<const Description> read(const std::string& text) {
  auto d = read_description(text, "t.kif");
  EXPECT_TRUE(d) << d.error();
  if (!d) return nullptr;
  return std::make_shared<const Description>(std::move(*d));
}

// One role's legal moves as KIF text, sorted, with their ids.
using Moves = std::vector<std::pair<std::string, Move>>;

Moves legal_texts(StateMachine& m, const State& s, int role) {
  Moves out;
  for (Move move : m.legal_moves(s, role))
    out.emplace_back(m.pool().to_kif(move, m.description().symbols), move);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> texts(const Moves& moves) {
  std::vector<std::string> out;
  for (const auto& [text, id] : moves) out.push_back(text);
  return out;
}

std::string goal_text(StateMachine& m, const State& s, int role) {
  const auto g = m.goal(s, role);
  return g ? std::to_string(*g) : "none";
}

// Compares the state of `a` with that of `b`: terminal, every goal, every role's legal moves.
// Returns each role's moves (of a, then b) when they agree.
std::optional<std::pair<std::vector<Moves>, std::vector<Moves>>> expect_same_state(
    StateMachine& a, const State& sa, StateMachine& b, const State& sb) {
  const std::string where = a.pool().to_kif(sa.empty() ? 0 : sa.front(), a.description().symbols);
  EXPECT_EQ(a.is_terminal(sa), b.is_terminal(sb)) << where;
  std::vector<Moves> ma, mb;
  for (int r = 0; r < static_cast<int>(a.roles().size()); ++r) {
    EXPECT_EQ(goal_text(a, sa, r), goal_text(b, sb, r)) << where;
    ma.push_back(legal_texts(a, sa, r));
    mb.push_back(legal_texts(b, sb, r));
    EXPECT_EQ(texts(ma.back()), texts(mb.back())) << where;
    if (texts(ma.back()) != texts(mb.back())) return std::nullopt;
  }
  return std::make_pair(std::move(ma), std::move(mb));
}

// Every state of the tree to `depth` plies agrees; returns how many states were compared.
std::size_t expect_same_tree(StateMachine& a, const State& sa, StateMachine& b, const State& sb,
                             int depth) {
  const auto moves = expect_same_state(a, sa, b, sb);
  if (!moves || depth == 0 || a.is_terminal(sa)) return 1;
  const auto& [ma, mb] = *moves;
  std::size_t count = 1;
  std::vector<std::size_t> pick(ma.size(), 0);
  for (;;) {
    JointMove ja, jb;
    for (std::size_t r = 0; r < ma.size(); ++r) {
      ja.push_back(ma[r][pick[r]].second);
      jb.push_back(mb[r][pick[r]].second);
    }
    count += expect_same_tree(a, a.next_state(sa, ja), b, b.next_state(sb, jb), depth - 1);
    std::size_t r = 0;
    while (r < pick.size() && ++pick[r] == ma[r].size()) pick[r++] = 0;
    if (r == pick.size()) return count;
  }
}

// Random games to their end (or `max_steps`), the same joint move in both; returns the
// number of games that reached a terminal state.
int expect_same_playouts(StateMachine& a, StateMachine& b, int games, int max_steps) {
  std::mt19937 rng(7);
  int ended = 0;
  for (int g = 0; g < games; ++g) {
    State sa = a.initial_state(), sb = b.initial_state();
    for (int step = 0; step <= max_steps; ++step) {
      const auto moves = expect_same_state(a, sa, b, sb);
      if (!moves) return ended;
      if (a.is_terminal(sa)) {
        ++ended;
        break;
      }
      const auto& [ma, mb] = *moves;
      JointMove ja, jb;
      for (std::size_t r = 0; r < ma.size(); ++r) {
        if (ma[r].empty()) return ended;  // no legal move: compared, nothing to play
        const std::size_t k = rng() % ma[r].size();
        ja.push_back(ma[r][k].second);
        jb.push_back(mb[r][k].second);
      }
      sa = a.next_state(sa, ja);
      sb = b.next_state(sb, jb);
    }
  }
  return ended;
}

// Both sheets on the prover, and on the compiled reasoner when `compiled`: the same tree.
void expect_same_game(const std::string& unsafe, const std::string& safe, int depth, bool compiled,
                      std::size_t states) {
  const auto du = read(unsafe), ds = read(safe);
  ASSERT_TRUE(du && ds);
  EXPECT_FALSE(du->demand_relations.empty()) << "the unsafe sheet was bound by demand";
  EXPECT_TRUE(ds->demand_relations.empty()) << "the safe sheet needs no rewriting";
  EXPECT_EQ(du->bound_by_demand.size(), 1u) << "its one unsafe rule";
  auto pu = make_prover(du), ps = make_prover(ds);
  EXPECT_EQ(expect_same_tree(*pu, pu->initial_state(), *ps, ps->initial_state(), depth), states);
  if (!compiled) return;
  auto cu = make_compiled(du);
  ASSERT_TRUE(cu) << cu.error();
  EXPECT_EQ(expect_same_tree(**cu, (*cu)->initial_state(), *ps, ps->initial_state(), depth),
            states);
}

// Addition by a recursive sum whose base case holds for "any" ?x, as colonelBlotto and
// attritionWar write it. legal asks (sum ?x ?y 2) with a constant; next asks it with the score
// of the state and then with the sum just found (a literal to the left that reads sum itself):
// so next's demand reads does and true, and legal, which may not depend on does, reads a
// version of sum of its own.
constexpr const char* kSumRules = R"(
(role a) (role b)
(init (score a 0)) (init (score b 1)) (init (round 0))
(index 0) (index 1) (index 2)
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6) (succ 6 7) (succ 7 8)
(<= (sum ?x ?y ?z) (succ ?y0 ?y) (succ ?z0 ?z) (sum ?x ?y0 ?z0))
(<= (legal ?r (put ?x ?y)) (role ?r) (index ?x) (index ?y) (sum ?x ?y 2))
(<= (next (score ?r ?n)) (does ?r (put ?x ?y)) (true (score ?r ?s)) (sum ?s ?x ?t) (sum ?t ?y ?n))
(<= (next (round ?n)) (true (round ?r)) (succ ?r ?n))
(<= terminal (true (round 3)))
(<= (goal ?r ?s) (true (score ?r ?s)))
)";

TEST(UnsafeRules, AnArithmeticBaseCaseForAnyValuePlaysAsItsDomainWrittenOut) {
  const std::string unsafe = std::string(kSumRules) + "(<= (sum ?x 0 ?x) (succ 0 1))\n";
  const std::string safe = std::string(kSumRules) +
                           "(<= (sum ?x 0 ?x) (number ?x))\n"
                           "(<= (number ?x) (succ ?x ?y)) (<= (number ?y) (succ ?x ?y))\n";
  // Three moves per role and ply (x + y = 2), three plies: 1 + 9 + 81 + 729 states.
  expect_same_game(unsafe, safe, 3, false, 820);
}

// As snakeParallel writes it: ?i occurs in the head and under not only; legal asks for it with
// a lane, and also with the constant 1.
constexpr const char* kOpenRules = R"(
(role p)
(init (cell 1 a)) (init (step 0))
(col a) (col b) (lane 1) (lane 2)
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)
(<= (legal p (fill ?i ?x)) (lane ?i) (col ?x) (not (true (cell ?i ?x))) (open ?i))
(<= (legal p wait) (not (open 1)))
(<= (next (cell ?i ?x)) (does p (fill ?i ?x)))
(<= (next (cell ?i ?x)) (true (cell ?i ?x)))
(<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))
(<= terminal (not (open 1)) (not (open 2)))
(<= terminal (true (step 4)))
(<= (goal p 100) (not (open 2)))
(<= (goal p 0) (open 2))
)";

TEST(UnsafeRules, AVariableOnlyUnderNotIsBoundByTheValuesItsReadersAsk) {
  const std::string unsafe =
      std::string(kOpenRules) + "(<= (open ?i) (col ?x) (not (true (cell ?i ?x))))\n";
  const std::string safe =
      std::string(kOpenRules) + "(<= (open ?i) (lane ?i) (col ?x) (not (true (cell ?i ?x))))\n";
  // 1 + 3 + 3*3 + 3*3*2 + ... : counted by the safe sheet, the same for the rewritten one.
  const auto ds = read(safe);
  ASSERT_TRUE(ds);
  auto ps = make_prover(ds);
  const std::size_t states =
      expect_same_tree(*ps, ps->initial_state(), *ps, ps->initial_state(), 4);
  EXPECT_GT(states, 10u);
  expect_same_game(unsafe, safe, 4, true, states);
}

// As sudoku writes exactlyOne and exactlyFirst: first's ?b is asked by one's rules only with
// one's own head variables, which good's rule binds. The demand passes through one's head.
constexpr const char* kOneRules = R"(
(role p)
(init (c 1 x))
(mark x) (mark o) (row 1) (row 2)
(<= (one ?z ?a ?b) (first ?z ?a ?b))
(<= (one ?z ?a ?b) (first ?z ?b ?a))
(<= (good ?z) (row ?z) (mark ?a) (mark ?b) (distinct ?a ?b) (one ?z ?a ?b))
(<= (legal p (put ?z ?m)) (row ?z) (mark ?m) (not (true (c ?z ?m))))
(<= (next (c ?z ?m)) (does p (put ?z ?m)))
(<= (next (c ?z ?m)) (true (c ?z ?m)))
(<= open (row ?z) (mark ?m) (not (true (c ?z ?m))))
(<= terminal (not open))
(<= both (good 1) (good 2))
(<= (goal p 100) both)
(<= (goal p 0) (not both))
)";

TEST(UnsafeRules, ADemandPassesThroughAReaderThatAsksWithItsOwnHead) {
  const std::string unsafe =
      std::string(kOneRules) + "(<= (first ?z ?a ?b) (true (c ?z ?a)) (not (true (c ?z ?b))))\n";
  const std::string safe =
      std::string(kOneRules) +
      "(<= (first ?z ?a ?b) (mark ?b) (true (c ?z ?a)) (not (true (c ?z ?b))))\n";
  // Three empty cells filled in any order: 1 + 3 + 6 + 6 states.
  expect_same_game(unsafe, safe, 3, true, 16);
}

// What cannot be bound is refused by the sheet's own rule, with the safety restriction's words.
void expect_refused(const std::string& text, int line) {
  const auto d = read_description(text, "t.kif");
  ASSERT_FALSE(d) << text;
  EXPECT_EQ(d.error().rfind("t.kif:" + std::to_string(line) + ": rule ", 0), 0u) << d.error();
  EXPECT_NE(d.error().find("(safety)"), std::string::npos) << d.error();
  EXPECT_EQ(d.error().find("_demand"), std::string::npos) << d.error();
}

constexpr const char* kGame =
    "(role r)\n(init s)\n(<= (legal r go) (true s))\n(<= (next s) (does r go))\n"
    "(<= (goal r 100) (true s))\n";  // lines 1-5

TEST(UnsafeRules, WhatNoReaderBindsIsRefusedByTheSheetsOwnRule) {
  // A keyword's head: the game itself asks (next ..) with nothing bound.
  expect_refused(std::string(kGame) + "(<= terminal (true s))\n(<= (next (w ?x)) (true s))\n", 7);
  // ?x occurs under distinct only, not in the head: no reader can ask for it.
  expect_refused(std::string(kGame) + "(<= p (true ?y) (distinct ?x ?y))\n(<= terminal p)\n", 6);
  // The only reader binds ?y by q itself, and its head is legal's.
  expect_refused(
      std::string(kGame) +
          "(<= (q ?x) (true s))\n(<= (legal r (go ?y)) (q ?y))\n(<= terminal (true s))\n",
      6);
  // Nothing reads p: a mistake of the sheet, not a relation for any value.
  expect_refused(std::string(kGame) + "(<= (p ?x) (true s))\n(<= terminal (true s))\n", 6);
  // Bound, but the sheet breaks another restriction (w depends on itself through not): the
  // refusal names the sheet's unsafe rule, as without the rewriting, not a rule it made.
  expect_refused(std::string(kGame) + "(<= (q ?x) (true s))\n(<= terminal (q s))\n(<= w (not w))\n",
                 6);
}

// `unsafe` unsafe rules of p, each read in `readers` places that bind its value.
std::string many_readers(int unsafe, int readers) {
  std::string text = std::string(kGame) + "(<= terminal (true s))\n";  // lines 1-6
  for (int i = 0; i < unsafe; ++i) text += "(<= (p ?x) (true s))\n";
  for (int i = 0; i < readers; ++i) {
    const std::string n = std::to_string(i);
    text += "(c " + n + " " + n + ")\n(<= terminal (c " + n + " ?y) (p ?y))\n";
  }
  return text;
}

TEST(UnsafeRules, ManyUnsafeRulesReadInManyPlacesAreRefusedInsteadOfRewrittenAtLength) {
  // 3 x 1,000 reading places make 3,000 demand rules: read.
  EXPECT_TRUE(read(many_readers(3, 1000)));
  // 300 x 1,000 would make 300,000, past kMaxDemandRules: refused by its first unsafe rule.
  expect_refused(many_readers(300, 1000), 7);
}

TEST(UnsafeRules, TheProjectsUnsafeSheetsLoadAndPlay) {
  struct Case {
    const char* name;
    std::size_t first_joint_moves;
  };
  // colonelBlotto: 10 troops over 3 fields of 0..10 each, C(12, 2) = 66 ways per player;
  // attritionWar: bids of 0..50 (the score) per player; sudoku: 729 cells and digits (81 x 9).
  for (const Case c :
       {Case{"colonelBlotto", 66 * 66}, Case{"attritionWar", 51 * 51}, Case{"sudoku", 729}}) {
    const auto d = test::sheet(c.name);
    ASSERT_TRUE(d) << c.name;
    auto m = make_prover(d);
    const State s = m->initial_state();
    std::size_t joint = 1;
    for (int r = 0; r < static_cast<int>(m->roles().size()); ++r)
      joint *= m->legal_moves(s, r).size();
    EXPECT_EQ(joint, c.first_joint_moves) << c.name;
  }
  for (const char* name : {"minichess", "endgame", "colonelBlottoVariant", "colonelBlottoVariant2",
                           "attritionWar", "colonelBlotto"}) {
    const auto d = test::sheet(name);
    ASSERT_TRUE(d) << name;
    auto m = make_prover(d);
    EXPECT_EQ(expect_same_playouts(*m, *m, 2, 200), 2) << name << ": games end";
  }
  // racetrackcorridor's (next (walls ?player ?walls)) misspells ?walls as walls: refused.
  const auto broken =
      read_description_file(std::string(ARENA_GDL_SHEETS_DIR) + "/racetrackcorridor.kif");
  ASSERT_FALSE(broken);
  EXPECT_NE(broken.error().find("racetrackcorridor.kif:104: rule (<= (next (walls"),
            std::string::npos)
      << broken.error();
}

TEST(UnsafeRules, ColonelBlottoPlaysAsItsSumWrittenOverItsNumbers) {
  const std::string path = std::string(ARENA_GDL_SHEETS_DIR) + "/colonelBlotto.kif";
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  // The base case, (<= (sum ?x 0 ?x) (succ 0 1)) over several lines, becomes safe.
  std::string safe = text.str();
  const auto head = safe.find("(sum ?x 0 ?x)");
  ASSERT_NE(head, std::string::npos);
  const auto rule = safe.rfind("(<=", head);
  const auto end = safe.find("(succ 0 1))", head);
  ASSERT_TRUE(rule != std::string::npos && end != std::string::npos);
  safe.replace(rule, end + 11 - rule, "(<= (sum ?x 0 ?x) (number ?x))");
  safe += "\n(<= (number ?x) (succ ?x ?y))\n(<= (number ?y) (succ ?x ?y))\n";
  const auto du = test::sheet("colonelBlotto");
  const auto ds = read(safe);
  ASSERT_TRUE(du && ds);
  auto pu = make_prover(du), ps = make_prover(ds);
  EXPECT_EQ(expect_same_playouts(*pu, *ps, 3, 200), 3);
}

}  // namespace
}  // namespace arena::gdl
