#pragma once
// The one list of every game type. Compile-time dispatch by name (perft, search, match)
// and the run-time catalog (make_game) are both built from it, so a game is added here once.

#include <string_view>
#include <type_traits>

#include "games/checkers/checkers.h"
#include "games/chess/chess.h"
#include "games/isolation/isolation.h"
#include "games/othello/othello.h"
#include "games/puzzles/rubiks_cube.h"
#include "games/puzzles/sliding_puzzle.h"
#include "games/tictactoe/qubic.h"
#include "games/tictactoe/tictactoe.h"

namespace arena {

template <class... Gs>
struct GameList {};

// Every game, in the order the catalog lists them.
using AllGames = GameList<tictactoe::TicTacToe, tictactoe::Qubic, isolation::Isolation,
                          othello::Othello, checkers::Checkers, chess::Chess,
                          puzzles::SlidingPuzzle, puzzles::RubiksCube>;

namespace detail {
template <class F, class... Gs>
bool visit_game_type([[maybe_unused]] std::string_view name, [[maybe_unused]] F& f,
                     GameList<Gs...>) {
  return ((Gs::kName == name ? (f(std::type_identity<Gs>{}), true) : false) || ...);
}
template <class F, class... Gs>
void for_each_game_type([[maybe_unused]] F& f, GameList<Gs...>) {
  (f(std::type_identity<Gs>{}), ...);
}
}  // namespace detail

// Calls f(std::type_identity<G>{}) for the game named `name`; false if there is none.
template <class F>
bool visit_game_type(std::string_view name, F&& f) {
  return detail::visit_game_type(name, f, AllGames{});
}

// Calls f(std::type_identity<G>{}) for every game.
template <class F>
void for_each_game_type(F&& f) {
  detail::for_each_game_type(f, AllGames{});
}

}  // namespace arena
