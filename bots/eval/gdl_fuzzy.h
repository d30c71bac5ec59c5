#pragma once
// The fuzzy goal heuristic of any GDL game, derived from its own goal rules (after Schiffel and
// Thielscher's Fluxplayer; the hand-written tic-tac-toe version is bots/eval/tictactoe.h).
//
// Degrees. Over the ground program (games/gdl/ground/ground.h), in a state s:
//   (true f)        tau if f holds in s, else 1 - tau
//   (not L)         1 - degree(L)
//   a rule's body   the t-norm T' folded over its literals from the first (an empty body is 1)
//   an atom         the co-norm S(a, b) = 1 - T'(1-a, 1-b) folded over its rules' bodies (an
//                   atom with no rule is 0: static facts are crisp 1/0 and the grounder has
//                   already evaluated them away)
// T' is the product or Yager's t-norm, with the threshold theta (bots/eval/fuzzy_logic.h: T', S
// and S* are fuzzy_and, fuzzy_or and fuzzy_combine there). Recursion is cut: an atom met again
// on the path that compiles it counts 0 there, and every atom is compiled once (its first path
// decides the cut).
//
// Value. value(role) = 100 * S*(over the role's goal levels v of (v/100) * degree(goal(role, v)))
// where S* is the co-norm of T without the threshold: for the product, the probabilistic sum
// 1 - prod(1 - (v/100) d_v); for tic-tac-toe this is the chapter's 100*[g100 + 0.5 g50 -
// 0.5 g100 g50]. (With Yager q the hand-written version keeps the product's formula for the
// value; the degrees agree, the value does not. The threshold is left out of S* because
// 1 - max(T, theta) would cap every value at 100 (1 - theta) whenever two levels are unlikely.)
//
// Arena's reading of the chapter: goal rules are read in terminal states only. The chapter's
// tic-tac-toe has goal(x,100) <= line(x) & not line(o) and goal(x,50) <= not line(x) & not
// line(o); ggp-base's sheets write goal(x,100) <= line(x) and goal(x,50) <= not line(x) & not
// line(o) & not open. Mid-game, `not open` is near 0 and `line(x)` alone ignores o's lines, so
// evaluated literally these sheets give other figures. Both sheets say the same thing about the
// states where goals are read, and so Arena evaluates each goal level by a formula that agrees
// with the rules exactly there:
//   * the atoms are those that occur in the bodies of the goal and terminal rules ("(line x)",
//     "(line o)", "open"); the rules are read as Boolean functions of these atoms;
//   * the care set is the assignments where terminal holds; there, goal(r, v) holds where the
//     rules give role r the value v and no other (GDL requires exactly one value per role in a
//     terminal state, so an assignment that gives two, like line(x) & line(o), is no state of
//     the game, and no level is credited there);
//   * non-terminal assignments are don't-cares (goals are never read there);
//   * each goal rule's body, in order, becomes the fewest cubes that cover its part of the level's
//     care-true set and stay inside care-true or don't-care: a minterm of it grows by dropping
//     first the literals the body does not state, then the body's own literals in order, while
//     the cube stays allowed. So a literal implied by the rest of the body and terminal is
//     dropped (`not open` of the draw), a literal the other levels force is added (`not (line
//     o)` of the win), and a rule that is never the sole value in a terminal state disappears.
// On the chapter's own rules this changes nothing; on both ggp-base tic-tac-toe sheets it gives
// the chapter's formulas and figures. It is done when there are at most kMaxGoalAtoms atoms (a
// truth table of 2^n rows); otherwise, or when the role would lose every level, the rules are
// evaluated as written. explain() says which.
//
// Latches (games/gdl/library/latches.h; optional, set_latches): a fluent that is a positive latch and
// holds in s holds in every state that follows, so its (true f) has degree 1, not tau; a fluent
// that is a negative latch and does not hold in s never holds again: degree 0, not 1 - tau (a
// fluent latched both ways never changes: 1 or 0). Everything above it is unchanged, so a goal
// level whose every alternative needs a fluent latched false has degree 0: a conjunction with a
// 0 operand is 0 under the product and under Yager (1 - (1 + (1-b)^q)^(1/q) <= 0), theta does
// not lift it (T' = max(T, theta) only when both operands are > 0.5), and a disjunction of 0s
// is 0. The latched leaves feed the same formulas, read under terminal or as written: a literal
// the terminal reading dropped (ggp-base's `not open` of the draw) is not consulted, latched or
// not. Latches are sound (every one holds in the game), so a latched degree never claims more
// than the game guarantees; without set_latches the degrees are as above.
//
// Speed: make() compiles every goal level into one flat array of nodes in evaluation order;
// a state is evaluated by one pass over it (and remembered, so the roles of one state cost one
// pass). Not thread-safe (scratch buffers): one owner at a time, like the TermPool.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "bots/eval/fuzzy_logic.h"
#include "games/core/expected.h"
#include "games/core/types.h"
#include "games/gdl/ground/ground.h"
#include "games/gdl/library/latches.h"
#include "games/gdl/prover/state_machine.h"
#include "games/gdl/reader/term.h"

namespace arena::eval {

// The logic's tau, theta and q (tau: the degree of a fluent that holds), and how goals are read.
struct FuzzyGoalParams : FuzzyParams {
  bool read_under_terminal = true;  // false: goal rules evaluated as written
};

// tau=, theta=, q=, reading=terminal|written from --params or a player spec; errors name a bad
// key or value.
Expected<FuzzyGoalParams> parse_fuzzy_goal_params(const GameOptions& params);

inline constexpr int kMaxGoalAtoms = 16;

// One literal of a goal level's formula: an atom of the goal/terminal bodies, maybe negated.
struct FuzzyLiteral {
  gdl::TermId atom = 0;
  bool negated = false;
};
using FuzzyCube = std::vector<FuzzyLiteral>;  // a conjunction; empty = true

struct FuzzyGoalExplanation {
  struct Level {
    int value = 0;                 // 0..100
    double degree = 0;             // degree of goal(role, value) in the state
    std::vector<FuzzyCube> cubes;  // the formula evaluated: OR of ANDs
  };
  struct Role {
    gdl::TermId role = 0;
    std::vector<Level> levels;  // highest value first
    double value = 0;           // 0..100
  };
  struct Atom {
    gdl::TermId atom = 0;
    double degree = 0;
  };
  struct Latched {
    gdl::TermId fluent = 0;
    double degree = 0;  // 1: a positive latch that holds; 0: a negative latch that does not
  };
  std::vector<Role> roles;
  std::vector<Atom> atoms;  // the atoms of the goal and terminal bodies, first use first
  bool latches = false;     // set_latches gave some; then `latched` lists the formulas'
  std::vector<Latched> latched;  // fluents they fix in the state, first use first
  bool simplified = false;  // goal rules read under terminal (see above) or as written
  std::string note;         // why not simplified, when not
};

// Lines of text: the parameters, with latches the fluents they fixed ("latched (mark 1 1 x) = 1,
// ..." or "latched none"), each atom's degree, then per role each level's formula and degree and
// the value.
std::string format_explanation(const FuzzyGoalExplanation& e, const FuzzyGoalParams& p,
                               const gdl::TermPool& pool, const gdl::SymbolTable& symbols);

// What `arena eval --game gdl:NAME --eval fuzzy_goal [--explain]` prints for `description`:
// the position (its fluents as KIF, sorted as text), each role's value and, with `explain`, the
// explanation. `position` is the state's fluents in KIF ("(cell 1 1 x) (control oplayer)"), as
// a GDL game's serialize() writes them; empty: the initial state. Errors name a fluent the game
// does not have, a bad parameter, or why the sheet cannot be ground. With `latches`, the game's
// latches are found first (clingo, gdl::find_latches with these options; its errors are
// returned), given to the heuristic, and counted on a line "latches P positive, N negative".
Expected<std::string> fuzzy_goal_report(const gdl::Description& description,
                                        std::string_view position, const FuzzyGoalParams& params,
                                        bool explain,
                                        const gdl::LatchOptions* latches = nullptr);

class FuzzyGoalHeuristic {
 public:
  // Compiles `program`'s goal formulas. `pool` and `symbols` are those the program was ground
  // with (goal values are read from the symbols' names). Errors: a goal value that is not an
  // integer in 0..100, formulas too large. Goals of terms that are not roles are never read and
  // are left out; a role with no goal rule has value 0.
  static Expected<FuzzyGoalHeuristic> make(const gdl::GroundProgram& program,
                                           const gdl::TermPool& pool,
                                           const gdl::SymbolTable& symbols,
                                           const FuzzyGoalParams& params = {});
  // Grounds `description` into `pool` first (ground.h's limits; `max_seconds` when given,
  // for a caller on a clock), then make().
  static Expected<FuzzyGoalHeuristic> from_description(
      const gdl::Description& description, gdl::TermPool& pool,
      const FuzzyGoalParams& params = {}, std::optional<double> max_seconds = std::nullopt);

  // Uses `latches` from now on (see above; found in the pool the program was ground with, so
  // their ids are the states' fluents). Fluents the goal formulas do not read are ignored; an
  // empty Latches turns them off again.
  void set_latches(const gdl::Latches& latches);
  // How many of the goal formulas' fluents are latched (either way).
  std::size_t num_latched() const { return num_latched_; }

  // The value of roles()[role] in `state` (sorted fluent ids), 0..100.
  double value(const gdl::State& state, int role);
  // Every role's value, in role order.
  std::vector<double> values(const gdl::State& state);
  // The degree of goal(roles()[role], level_value) in `state`; 0 for a level the role lacks.
  double goal_degree(const gdl::State& state, int role, int level_value);
  // The degree of `atom` (an atom of the goal/terminal bodies or one they depend on, like
  // "(line x)"), or -1 when the goal formulas do not use it.
  double atom_degree(const gdl::State& state, gdl::TermId atom);
  FuzzyGoalExplanation explain(const gdl::State& state);

  const std::vector<gdl::TermId>& roles() const { return roles_; }
  const FuzzyGoalParams& params() const { return params_; }
  bool simplified() const { return simplified_; }
  std::size_t num_nodes() const { return nodes_.size(); }

  // A compiled formula node (public for the compiler in gdl_fuzzy.cpp).
  enum class Op : std::uint8_t { kZero, kOne, kLeaf, kAnd, kOr };
  struct Node {
    Op op = Op::kZero;
    std::uint32_t first = 0;  // kAnd/kOr: first child in children_
    std::uint32_t count = 0;
  };
  using Lit = std::uint32_t;  // node << 1 | negated

 private:
  struct Level {
    int value = 0;
    Lit lit = 0;
    std::vector<FuzzyCube> cubes;
  };
  friend class FuzzyCompiler;

  void evaluate(const gdl::State& state);
  double lit_value(Lit lit) const;
  double role_value(std::size_t role) const;  // of the state evaluated last

  FuzzyGoalParams params_;
  std::vector<gdl::TermId> roles_;
  std::vector<std::vector<Level>> levels_;  // per role, highest value first
  std::vector<Node> nodes_;                 // children before parents
  std::vector<Lit> children_;
  std::vector<std::uint32_t> leaves_;                       // kLeaf nodes
  std::vector<gdl::TermId> leaf_fluents_;                   // their fluents, as leaves_
  std::vector<std::uint8_t> latch_;  // per leaves_ entry: kLatchTrue | kLatchFalse; empty = none
  std::size_t num_latched_ = 0;
  bool latches_set_ = false;
  std::unordered_map<gdl::TermId, std::uint32_t> leaf_of_;  // fluent -> kLeaf node
  std::unordered_map<gdl::TermId, Lit> atom_lit_;           // compiled atoms
  std::vector<gdl::TermId> goal_atoms_;
  bool simplified_ = false;
  std::string note_;
  std::vector<double> val_;  // scratch: node values of last_state_
  gdl::State last_state_;
  bool evaluated_ = false;
};

}  // namespace arena::eval
