// A GDL match in this process (bots/gdl/local_match.h): played to the end with the goals of the
// final state and every state shown to the observer, the player count checked, a seeded random
// opening, the step limit, a player's illegal move named, a role with one legal move not asked, and
// a final state where the rules give a role no goal named.

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "bots/gdl/gdl_player.h"
#include "bots/gdl/local_match.h"
#include "games/gdl/propnet/compiled.h"
#include "games/gdl/reader/description.h"
#include "games/gdl/library/library.h"
#include "games/gdl/prover/prover.h"

namespace arena::gdl {
namespace {

using std::chrono::milliseconds;

std::unique_ptr<StateMachine> tictactoe() {
  auto m = make_gdl_machine("tictactoe");
  EXPECT_TRUE(m) << m.error();
  return m ? std::move(*m) : nullptr;
}

// Plays the first legal move; counts the times it was asked and the times it was asked with
// a single legal move; or, when `illegal`, answers its role's term (never a legal move).
class ProbePlayer final : public GdlPlayer {
 public:
  explicit ProbePlayer(bool illegal = false) : illegal_(illegal) {}
  void start(StateMachine& machine, int role, Clock::time_point) override {
    machine_ = &machine;
    role_ = role;
  }
  Move choose(const State& state, Clock::time_point) override {
    ++asked;
    const auto legal = machine_->legal_moves(state, role_);
    asked_with_one += legal.size() == 1;
    return illegal_ ? machine_->roles()[static_cast<std::size_t>(role_)] : legal.front();
  }
  std::string_view name() const override { return "probe"; }
  int asked = 0, asked_with_one = 0;

 private:
  bool illegal_;
  StateMachine* machine_ = nullptr;
  int role_ = 0;
};

TEST(GdlLocalMatch, UctAgainstRandomPlaysToTheEndAndScoresTheFinalState) {
  auto m = tictactoe();
  ASSERT_TRUE(m);
  auto uct = make_gdl_player("uct:iterations=300");
  auto random = make_gdl_player("random:seed=5");
  ASSERT_TRUE(uct && random);
  LocalMatchConfig config;
  config.movetime = milliseconds(2000);  // the iterations stop UCT first
  std::vector<State> states;
  config.on_state = [&](const State& s) { states.push_back(s); };
  auto r = play_local_match(*m, {uct->get(), random->get()}, config);
  ASSERT_TRUE(r) << r.error();
  ASSERT_EQ(states.size(), r->moves.size() + 1);  // the start, then one per step
  EXPECT_EQ(states.front(), m->initial_state());
  EXPECT_TRUE(m->is_terminal(states.back()));
  EXPECT_TRUE(r->terminal);
  EXPECT_EQ(r->roles, (std::vector<std::string>{"xplayer", "oplayer"}));
  ASSERT_EQ(r->goals.size(), 2u);
  EXPECT_EQ(r->goals[0] + r->goals[1], 100) << r->goals[0] << " " << r->goals[1];
  EXPECT_GE(r->moves.size(), 5u);
  EXPECT_LE(r->moves.size(), 9u);
  for (const auto& joint : r->moves) EXPECT_EQ(joint.size(), 2u);
  EXPECT_EQ(r->opening_steps, 0);
}

TEST(GdlLocalMatch, APlayerPerRoleIsRequired) {
  auto m = tictactoe();
  ASSERT_TRUE(m);
  ProbePlayer one;
  auto r = play_local_match(*m, {&one}, {});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("2 roles; 1 players"), std::string::npos) << r.error();
}

TEST(GdlLocalMatch, TheOpeningIsRandomMovesFromTheSeed) {
  auto m = tictactoe();
  ASSERT_TRUE(m);
  auto opening = [&](std::uint64_t seed) {
    ProbePlayer x, o;
    LocalMatchConfig config;
    config.opening_steps = 4;
    config.seed = seed;
    auto r = play_local_match(*m, {&x, &o}, config);
    EXPECT_TRUE(r) << r.error();
    EXPECT_EQ(r->opening_steps, 4);
    // The players are not asked during the opening.
    EXPECT_LE(x.asked + o.asked, static_cast<int>(r->moves.size()) - 4);
    return std::vector<std::vector<std::string>>(r->moves.begin(), r->moves.begin() + 4);
  };
  const auto a = opening(7), again = opening(7), other = opening(8);
  EXPECT_EQ(a, again);
  EXPECT_NE(a, other);
}

TEST(GdlLocalMatch, TheStepLimitStopsTheMatchWhereItIs) {
  auto m = tictactoe();
  ASSERT_TRUE(m);
  ProbePlayer x, o;
  LocalMatchConfig config;
  config.max_steps = 3;
  auto r = play_local_match(*m, {&x, &o}, config);
  ASSERT_TRUE(r) << r.error();
  EXPECT_FALSE(r->terminal);
  EXPECT_EQ(r->moves.size(), 3u);
  EXPECT_EQ(r->goals.size(), 2u);
}

TEST(GdlLocalMatch, AnIllegalMoveEndsTheMatchNamingThePlayer) {
  auto m = tictactoe();
  ASSERT_TRUE(m);
  ProbePlayer cheat(true), o;
  auto r = play_local_match(*m, {&cheat, &o}, {});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("step 1: xplayer (probe) chose xplayer, which is not legal"),
            std::string::npos)
      << r.error();
}

TEST(GdlLocalMatch, ARoleWithOneLegalMoveIsNotAsked) {
  auto m = tictactoe();
  ASSERT_TRUE(m);
  ProbePlayer x, o;
  auto r = play_local_match(*m, {&x, &o}, {});
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(x.asked_with_one + o.asked_with_one, 0);
  EXPECT_GT(x.asked, 0);
  EXPECT_GT(o.asked, 0);
  // Tic-tac-toe: one role marks each step while the other can only noop.
  EXPECT_LE(x.asked + o.asked, static_cast<int>(r->moves.size()));
}

// A sheet whose end gives no goal value (a sheet's bug): the result says so, naming the role,
// with either reasoner.
TEST(GdlLocalMatch, AFinalStateWithoutAGoalIsNamed) {
  auto d = read_description(
      "(role a) (role b) (init (c 0)) (legal a go) (legal b go) "
      "(<= (next (c 1)) (does a go)) (<= terminal (true (c 1))) "
      "(<= (goal a 100) (true (c 0)))",
      "nogoal.kif");
  ASSERT_TRUE(d) << d.error();
  auto shared = std::make_shared<const Description>(std::move(*d));
  auto compiled = make_compiled(shared);
  ASSERT_TRUE(compiled) << compiled.error();
  std::vector<std::unique_ptr<StateMachine>> machines;
  machines.push_back(std::move(*compiled));
  machines.push_back(make_prover(shared));
  for (const auto& m : machines) {
    ProbePlayer x, o;
    auto r = play_local_match(*m, {&x, &o}, {});
    ASSERT_TRUE(r) << r.error();
    EXPECT_TRUE(r->terminal);
    EXPECT_EQ(r->goals, (std::vector<int>{-1, -1})) << m->kind();
    EXPECT_NE(r->problem.find("goal"), std::string::npos) << r->problem;
    EXPECT_NE(r->problem.find(" a"), std::string::npos) << r->problem;  // the first such role
  }
}

TEST(GdlLocalMatch, AFinalStateWithGoalsHasNoProblem) {
  auto m = tictactoe();
  ASSERT_TRUE(m);
  ProbePlayer x, o;
  auto r = play_local_match(*m, {&x, &o}, {});
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->problem, "");
}

}  // namespace
}  // namespace arena::gdl
