#pragma once
// The Game concept: what every rules class provides so that search templates can be
// instantiated per game, with no virtual call and no heap allocation per node.
//
// Contract, for a game class G:
//   G::kName            catalog name ("chess", "isolation", ...)
//   G::kNumPlayers      2, or 1 for a puzzle
//   G::Move             a small trivially-copyable value; one move is one whole turn
//                       (a checkers multi-jump, an Othello pass, an Isolation placement)
//   G::MoveList         a fixed-capacity arena::MoveList<Move, N>
//   G::create(options)  the start position, or an error naming a bad/unknown option
//   G::deserialize(s)   the position `s` (as serialize() prints it), or an error naming the
//                       problem (bad syntax, impossible position)
//   side_to_move()      whose turn it is (always kFirst in a puzzle)
//   generate_moves(l)   fills `l` with the legal moves only (clears it first)
//   make_move(m)        plays a legal move; keeps its own undo record
//   unmake_move(m)      takes back the last move made, which must be `m`
//   outcome()           ongoing, or the result and the rule that ended the game
//   hash()              Zobrist hash of everything that decides legal moves and outcome
//                       except history-only state (repetition counts)
//   move_to_string(m)   the game's own notation for a legal move in this position
//   parse_move(text)    the legal move `text` names in this position, or nullopt
//   serialize()         a FEN-like string that deserialize() reads back exactly
//
// A position is terminal exactly when it has no legal moves, unless the game's rules say
// otherwise (chess draws by rule, puzzles: solved states still have moves).

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "games/core/expected.h"
#include "games/core/move_list.h"
#include "games/core/types.h"

namespace arena {

template <class G>
concept Game = requires(G g, const G& cg, typename G::Move m, typename G::MoveList& list,
                        std::string_view text, const GameOptions& options) {
  { G::kName } -> std::convertible_to<std::string_view>;
  { G::kNumPlayers } -> std::convertible_to<int>;
  requires std::equality_comparable<typename G::Move>;
  { G::create(options) } -> std::same_as<Expected<G>>;
  { G::deserialize(text) } -> std::same_as<Expected<G>>;
  { cg.side_to_move() } -> std::same_as<Player>;
  cg.generate_moves(list);
  g.make_move(m);
  g.unmake_move(m);
  { cg.outcome() } -> std::same_as<Outcome>;
  { cg.hash() } -> std::same_as<std::uint64_t>;
  { cg.move_to_string(m) } -> std::same_as<std::string>;
  { cg.parse_move(text) } -> std::same_as<std::optional<typename G::Move>>;
  { cg.serialize() } -> std::same_as<std::string>;
};

// Optional capabilities, checked with `if constexpr` by the searches that can use them.

// Captures, promotions and other moves that change the evaluation sharply (quiescence).
template <class G>
concept HasNoisyMoves = Game<G> && requires(const G& cg, typename G::MoveList& list) {
  cg.generate_noisy_moves(list);
};

// A human-readable picture of the position (for the CLI and logs).
template <class G>
concept HasRender = Game<G> && requires(const G& cg) {
  { cg.render() } -> std::same_as<std::string>;
};

}  // namespace arena
