#pragma once
// AnyGame: the uniform, type-erased face of a game for the server, the protocol and the
// CLI. Only strings cross this boundary. GameAdapter<G> turns any Game into an AnyGame.
// Not thread-safe: one owner (a match's strand) at a time.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "games/core/expected.h"
#include "games/core/game.h"
#include "games/core/types.h"

namespace arena {

class AnyGame {
 public:
  virtual ~AnyGame() = default;

  virtual std::string_view name() const = 0;
  virtual int num_players() const = 0;
  virtual Player side_to_move() const = 0;
  // Legal moves in the game's own notation, in generation order.
  virtual std::vector<std::string> legal_moves() const = 0;
  // Plays `move` if it is legal; otherwise returns an error naming it and changes nothing.
  // On success returns the move in canonical notation (e.g. "e2e4" for input "e4").
  virtual Expected<std::string> play(std::string_view move) = 0;
  // Takes back the last move played through this object; false if there is none.
  virtual bool undo() = 0;
  virtual Outcome outcome() const = 0;
  virtual std::uint64_t hash() const = 0;
  virtual std::string serialize() const = 0;
  // Moves played through this object, in canonical notation.
  virtual const std::vector<std::string>& history() const = 0;
  virtual std::unique_ptr<AnyGame> clone() const = 0;

  // Seats and simultaneous moves. The hand-written games take turns between two seats (or
  // one, a puzzle) and keep these defaults. A GDL game may have 1 to 6 seats, and in a turn
  // every seat in movers() chooses a move at the same time; seats with a single legal move
  // (GDL's "noop" while another role moves) are not movers and have it played for them.
  // Seat i is Player index i for two-seat games.
  virtual int num_seats() const { return num_players(); }
  // A name per seat for people ("white", "xplayer"); empty: the server's defaults.
  virtual std::vector<std::string> seat_names() const { return {}; }
  // The seats that must choose a move now; empty once the game is over.
  virtual std::vector<int> movers() const {
    if (outcome().is_terminal() && num_players() > 1) return {};
    return {index(side_to_move())};
  }
  // True when a turn may have more than one mover (the server then collects one move per
  // mover before playing the turn).
  virtual bool simultaneous() const { return false; }
  // The legal moves of `seat` now (empty for a seat that is not a mover).
  virtual std::vector<std::string> legal_moves_of(int seat) const {
    auto m = movers();
    return std::find(m.begin(), m.end(), seat) != m.end() ? legal_moves()
                                                           : std::vector<std::string>{};
  }
  // Plays one turn: `moves[k]` is the move of movers()[k]. On success the turn's record in
  // canonical notation (for a one-mover turn, the move itself; otherwise the movers' moves
  // joined as the game's history writes them). Errors name the seat and the move.
  virtual Expected<std::string> play_turn(const std::vector<std::string>& moves) {
    if (moves.size() != 1) return make_error("this game takes one move per turn");
    return play(moves.front());
  }
  // Per-seat scores 0..100 once the game is over (GDL goals; 100/0 or 50/50 for the others).
  virtual std::vector<int> scores() const {
    const Outcome o = outcome();
    if (num_players() == 1) return {o.is_terminal() ? 100 : 0};
    if (o.result == Result::kFirstWins) return {100, 0};
    if (o.result == Result::kSecondWins) return {0, 100};
    if (o.result == Result::kDraw) return {50, 50};
    return {0, 0};
  }
  // Once the game is over: why the rules ended it there when the outcome's reason alone does
  // not say, such as a GDL sheet's bug (no goal value, a role without a legal move) or a
  // reasoner stopped at its limits; empty for the hand-written games.
  virtual std::string end_note() const { return {}; }
};

template <Game G>
class GameAdapter final : public AnyGame {
 public:
  explicit GameAdapter(G game) : game_(std::move(game)) {}

  std::string_view name() const override { return G::kName; }
  int num_players() const override { return G::kNumPlayers; }
  Player side_to_move() const override { return game_.side_to_move(); }

  std::vector<std::string> legal_moves() const override {
    typename G::MoveList list;
    game_.generate_moves(list);
    std::vector<std::string> out;
    out.reserve(list.size());
    for (const auto& m : list) out.push_back(game_.move_to_string(m));
    return out;
  }

  Expected<std::string> play(std::string_view text) override {
    if (game_.outcome().is_terminal() && G::kNumPlayers > 1)
      return make_error("the game is over; no move can be played");
    auto move = game_.parse_move(text);
    if (!move) return make_error("illegal or unknown move '" + std::string(text) + "'");
    std::string canonical = game_.move_to_string(*move);
    game_.make_move(*move);
    moves_.push_back(*move);
    history_.push_back(canonical);
    return canonical;
  }

  bool undo() override {
    if (moves_.empty()) return false;
    game_.unmake_move(moves_.back());
    moves_.pop_back();
    history_.pop_back();
    return true;
  }

  Outcome outcome() const override { return game_.outcome(); }
  std::uint64_t hash() const override { return game_.hash(); }
  std::string serialize() const override { return game_.serialize(); }
  const std::vector<std::string>& history() const override { return history_; }
  std::unique_ptr<AnyGame> clone() const override {
    return std::make_unique<GameAdapter<G>>(*this);
  }

  const G& game() const { return game_; }

 private:
  G game_;
  std::vector<typename G::Move> moves_;
  std::vector<std::string> history_;
};

}  // namespace arena
