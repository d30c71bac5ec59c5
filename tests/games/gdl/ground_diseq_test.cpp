// Disequality projections (games/gdl/ground/ground_diseq.h): "some U other than C has B(U, R)"
// ground in linear size must answer as the prover does, with few and with many U per R
// (direct rules and prefix/suffix chains), and with C among the U or not.

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "games/gdl/propnet/compiled.h"
#include "games/gdl/propnet/propnet.h"
#include "games/gdl/prover/prover.h"

namespace arena::gdl {
namespace {

// Cells 1..7 hold x or b. Every x "sees" every other cell; (covered ?c ?t): some x other than
// the cell ?c sees ?t, with `other` a static relation that is a disequality over `pos` written
// as chess.kif writes different_cells (distinct plus domain literals, a rule per position).
// (covered ?c ?t) <= (sees ?u ?t) (other ?c ?u) is the shape ground_diseq.h grounds; with up to
// six x on the board a group holds more than three atoms (chains), with one or two it is direct.
constexpr const char* kSheet = R"(
(role p)
(pos 1) (pos 2) (pos 3) (pos 4) (pos 5) (pos 6) (pos 7)
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6) (succ 6 7) (succ 7 8)
(succ 8 9) (succ 9 10) (succ 10 11) (succ 11 12)
(init (cell 1 x)) (init (cell 2 b)) (init (cell 3 x)) (init (cell 4 b)) (init (cell 5 x))
(init (cell 6 b)) (init (cell 7 b)) (init (step 0))
(<= (other ?a ?b) (distinct ?a ?b) (pos ?a) (pos ?b))
(<= (sees ?u ?t) (true (cell ?u x)) (pos ?t) (distinct ?u ?t))
(<= (covered ?c ?t) (sees ?u ?t) (other ?c ?u))
(<= (legal p (flip ?c ?t)) (true (cell ?c x)) (true (cell ?t b)) (not (covered ?c ?t)))
(<= (legal p (flip ?c ?t)) (true (cell ?c b)) (pos ?t) (covered ?c ?t) (distinct ?c ?t))
(<= (legal p (fill ?t)) (true (cell ?t b)) (true (cell ?c x)) (covered ?c ?t))
(<= (legal p noop) (true (step ?n)))
(<= (next (cell ?c b)) (does p (flip ?c ?t)) (true (cell ?c x)))
(<= (next (cell ?c x)) (does p (flip ?c ?t)) (true (cell ?c b)))
(<= (next (cell ?t x)) (does p (flip ?c ?t)) (distinct ?c ?t))
(<= (next (cell ?t x)) (does p (fill ?t)))
(<= (touched ?c) (does p (flip ?c ?t)))
(<= (touched ?t) (does p (flip ?c ?t)))
(<= (touched ?t) (does p (fill ?t)))
(<= (next (cell ?c ?v)) (true (cell ?c ?v)) (not (touched ?c)))
(<= (next (step ?m)) (true (step ?n)) (succ ?n ?m))
(<= terminal (true (step 12)))
(<= (goal p 100) (true (cell 7 x)))
(<= (goal p 0) (not (true (cell 7 x))))
)";

TEST(GroundDisequality, ProjectionAnswersAsTheProver) {
  auto read = read_description(kSheet, "diseq.kif");
  ASSERT_TRUE(read) << read.error();
  auto d = std::make_shared<const Description>(std::move(*read));
  auto pool = std::make_shared<TermPool>();
  GroundLimits limits;
  limits.always_eliminate = true;  // the grounding that recognises the projection
  auto c = make_compiled(d, pool, limits);
  ASSERT_TRUE(c) << c.error();
  auto p = make_prover(d, pool);
  StateMachine& m = **c;
  std::mt19937 rng(23);
  int states = 0;
  for (int playout = 0; playout < 200; ++playout) {
    State s = m.initial_state();
    while (!m.is_terminal(s)) {
      SCOPED_TRACE("playout " + std::to_string(playout) + " state " + std::to_string(states));
      ASSERT_FALSE(p->is_terminal(s));
      const auto legal = m.legal_moves(s, 0);
      ASSERT_EQ(legal, p->legal_moves(s, 0));
      ASSERT_FALSE(legal.empty());
      const JointMove joint{legal[rng() % legal.size()]};
      const State next = m.next_state(s, joint);
      ASSERT_EQ(next, p->next_state(s, joint));
      s = next;
      ++states;
    }
    ASSERT_TRUE(p->is_terminal(s));
    const auto gc = m.goal(s, 0), gp = p->goal(s, 0);
    ASSERT_TRUE(gc && gp);
    ASSERT_EQ(*gc, *gp);
  }
  EXPECT_GT(states, 1000);
}

}  // namespace
}  // namespace arena::gdl
