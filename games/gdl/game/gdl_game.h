#pragma once
// Stage: the game (a sheet as an AnyGame).
// GdlGame: a GDL game as an AnyGame (games/core/any_game.h), so that the server, the CLI and
// the bots host and play a rule sheet like a hand-written game. games/gdl/library/library.h finds and
// loads sheets; the catalog names them `gdl:NAME`.
//
// Seats are the roles, in the sheet's order: num_players() = num_seats() = number of roles.
//
// Movers. GDL is simultaneous: every role does a move every turn, and a waiting role's only
// legal move is typically `noop`. movers() are the roles that have a choice (more than one
// legal move); the others have their single move played for them. When no role has a choice,
// the turn is still played (the game must progress): movers() is then one role, the first whose
// single move is a compound term like "(mark 3 3)" (a waiting move is almost always a constant
// such as `noop`), else the first role. A turn-taking game thus has one mover per turn, the
// role in control, and the server plays it as it plays chess.
//
// simultaneous() (may a turn have more than one mover?) is a property of all reachable states
// and is not decided from the rules exactly: GdlContext probes it with random playouts when the
// game is first loaded (a few hundred states at most, a quarter of a second at most), and it is
// also true whenever the current state has more than one mover. A game whose simultaneous turns
// are rare may be reported as turn-taking until one is met; movers() is always the truth. When
// the probe sees too few states to judge, a game with more than one role is called simultaneous.
//
// Notation. A move is its KIF text: "(mark 1 1)", "noop" (lower case, single spaces). A turn
// with several movers is written as the movers' moves in the order of movers(), separated by
// spaces: "rock paper"; play() accepts that text as well as play_turn() accepts the list, and
// history() records turns so. A position (serialize()) is the state's fluents as KIF, sorted
// as text and separated by spaces: "(cell 1 1 b) (cell 1 2 x) (control oplayer)".
//
// Outcome. A terminal state (or one where some role has no legal move, a sheet's bug that ends
// the game there, or one the reasoner could not answer about: a prover stopped at its limits)
// is over; scores() are the roles' goal values (0 where the rules give none or several, or the
// reasoner could not answer; noted in rules_problem(), which end_note() passes on).
// outcome() with reason kGoals: two roles: the higher goal wins, equal goals draw; one role:
// kFirstWins at goal 100, otherwise kSecondWins; more roles: kDraw (no two-sided result fits;
// scores() say who won).
//
// side_to_move() is the first mover as a Player (seat 0 kFirst, any other kSecond), meaningful
// for games of one or two roles; legal_moves() are the first mover's.
//
// Thread safety: GdlGames made from one GdlContext share its reasoner, and every call that
// touches it holds the context's mutex, so games of one context may be used from different
// threads (the server's matches). One GdlGame itself has one owner at a time.

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "games/core/any_game.h"
#include "games/core/expected.h"
#include "games/gdl/prover/state_machine.h"

namespace arena::gdl {

// One game's rules and reasoner, shared by the GdlGames (and players) that use it.
class GdlContext {
 public:
  // `name` is the sheet's name without "gdl:". Probes simultaneity (see above).
  static std::shared_ptr<GdlContext> make(std::string name, std::unique_ptr<StateMachine> machine);

  const std::string& game_name() const { return game_name_; }  // "gdl:NAME"
  const std::vector<std::string>& role_names() const { return role_names_; }
  bool probed_simultaneous() const { return simultaneous_; }

  // Hold mutex() while using machine() or its pool when the context is shared.
  std::mutex& mutex() const { return mutex_; }
  StateMachine& machine() { return *machine_; }

  // Reads a position: every fluent must be a ground term whose symbols occur in the sheet and
  // whose relation and arity are those of a fluent the rules make (init, next, base, true).
  // The caller holds mutex(). Errors name the fluent.
  Expected<State> parse_state(std::string_view text);
  // The canonical text of `state` (see above). The caller holds mutex().
  std::string state_text(const State& state);

 private:
  GdlContext() = default;
  void collect_fluent_signatures();
  void probe_simultaneous();

  std::string game_name_;
  std::unique_ptr<StateMachine> machine_;
  std::vector<std::string> role_names_;
  // (relation symbol, arity) of the fluents the rules make; any_fluent_: a rule makes a fluent
  // through a variable, so every relation may be one.
  std::vector<std::pair<std::uint32_t, std::size_t>> fluent_signatures_;
  bool any_fluent_ = false;
  bool simultaneous_ = false;
  mutable std::mutex mutex_;
};

class GdlGame final : public AnyGame {
 public:
  // The initial state; errors when it cannot be played: it is over with a problem (a role
  // without a legal move, no goal value, or a reasoner that could not answer about it, such as
  // a prover stopped at its limits), which the error names.
  static Expected<std::unique_ptr<GdlGame>> start(std::shared_ptr<GdlContext> context);
  // The game at `position` (serialize()'s text); errors name the bad fluent, or why the
  // reasoner could not answer about the position.
  static Expected<std::unique_ptr<GdlGame>> load(std::shared_ptr<GdlContext> context,
                                                 std::string_view position);

  std::string_view name() const override { return context_->game_name(); }
  int num_players() const override { return static_cast<int>(context_->role_names().size()); }
  Player side_to_move() const override;
  std::vector<std::string> legal_moves() const override;
  Expected<std::string> play(std::string_view move) override;
  bool undo() override;
  Outcome outcome() const override;
  std::uint64_t hash() const override;
  std::string serialize() const override;
  const std::vector<std::string>& history() const override { return history_; }
  std::unique_ptr<AnyGame> clone() const override { return std::make_unique<GdlGame>(*this); }

  int num_seats() const override { return num_players(); }
  std::vector<std::string> seat_names() const override { return context_->role_names(); }
  std::vector<int> movers() const override { return turn_.movers; }
  bool simultaneous() const override;
  std::vector<std::string> legal_moves_of(int seat) const override;
  Expected<std::string> play_turn(const std::vector<std::string>& moves) override;
  std::vector<int> scores() const override;
  std::string end_note() const override { return turn_.over ? turn_.problem : std::string{}; }

  // The reasoner's state and the context, for players and tools.
  const State& state() const { return state_; }
  const std::shared_ptr<GdlContext>& context() const { return context_; }
  // A sheet's bug met in this state (a role without a legal move, a missing goal), or "".
  const std::string& rules_problem() const { return turn_.problem; }

  GdlGame(const GdlGame&) = default;

 private:
  // What the reasoner says about the current state, computed once per state.
  struct Turn {
    bool over = false;
    std::vector<std::vector<Move>> legal;  // per role; empty once over
    std::vector<int> movers;
    std::vector<int> goals;  // per role, once over
    std::string problem;
    bool unanswered = false;  // over because the reasoner could not answer (problem says why)
  };
  struct Saved {
    State state;
    Turn turn;
  };

  explicit GdlGame(std::shared_ptr<GdlContext> context) : context_(std::move(context)) {}
  // Sets the state and its Turn; the caller holds the context's mutex.
  void enter(State state);
  // Plays the movers' moves (texts, one per mover); the caller holds the mutex.
  Expected<std::string> play_texts(const std::vector<std::string>& texts);

  std::shared_ptr<GdlContext> context_;
  State state_;
  Turn turn_;
  std::vector<Saved> saved_;
  std::vector<std::string> history_;
  mutable std::optional<std::uint64_t> hash_;
};

// Perft over turns: the number of joint-move sequences of length `depth` from `state` (a turn
// has the product over roles of their legal-move counts; a terminal state before the last
// turn counts nothing). Uses the machine alone; the caller owns it. An error, naming the
// reasoner's, when the reasoner could not answer about a state of the tree (a prover stopped
// at its limits): a count that took such a state as terminal would be wrong.
Expected<std::uint64_t> gdl_perft(StateMachine& machine, const State& state, int depth);

// Every turn `game` can play now: each combination of its movers' legal moves, a move per
// mover in the order of movers() (what play_turn takes). None when the game is over.
std::vector<std::vector<std::string>> all_turns(const AnyGame& game);

// Perft divided under each first turn of `game` (all_turns): the turn as history() writes it
// and gdl_perft of `depth - 1` after it, with `game`'s machine, each also given to `each` as
// soon as it is counted (a deep perft shows its progress). `game` is left as it was. Empty
// when depth < 1 or the game is over; gdl_perft's error, after which first turn, when the
// reasoner could not answer.
using PerftLine = std::pair<std::string, std::uint64_t>;
Expected<std::vector<PerftLine>> gdl_perft_divide(
    GdlGame& game, StateMachine& machine, int depth,
    const std::function<void(const PerftLine&)>& each = {});

// Reads the ground KIF terms of `text` ("(mark 1 1) noop") with the symbols of `symbols`,
// none made: errors name an unknown symbol, a variable, unbalanced parentheses, or a text
// longer than `max_bytes`.
Expected<std::vector<Term>> parse_ground_terms(std::string_view text, const SymbolTable& symbols,
                                               std::size_t max_bytes = std::size_t{1} << 20);

}  // namespace arena::gdl
