#pragma once
// Fair starts: both games of a colour-swapped pair begin from the same position, chosen from a
// seed that is stored with each game (NewGame::seed), so a pair is reproducible and resumable.
//
//   A game that starts from a book's lines (games/core/opening_book.h: Othello's XOT lines)
//     with a book: the line seed % book size.
//   Any other game: `plies` uniformly random legal moves from the start (arena::Rng(seed)); a
//     move that would end the game is taken back and the opening stops there.
// The seed of pair p of tournament t is pair_seed(t, p): a splitmix of both, never 0.

#include <cstdint>
#include <string>
#include <vector>

#include "games/core/random_opening.h"
#include "games/core/rng.h"
#include "games/core/expected.h"
#include "games/core/opening_book.h"

namespace arena::tournament {

inline std::uint64_t pair_seed(std::int64_t tournament, int pair) {
  std::uint64_t z = static_cast<std::uint64_t>(tournament) * 0x9E3779B97F4A7C15ULL +
                    static_cast<std::uint64_t>(pair) + 1;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  z ^= z >> 31;
  return z == 0 ? 1 : z;
}

// The seed of pairing row k of a tournament (rows in the order they were added). Schedules emit
// each pairing's games as one block of games_per_pairing rows (schedule.h), so row k belongs to
// pair k / gpp * ceil(gpp / 2) + (k % gpp) / 2, and both games of a pair get the same seed.
inline std::uint64_t row_seed(std::int64_t tournament, std::uint64_t config_seed, std::size_t k,
                              int games_per_pairing) {
  const auto g = static_cast<std::size_t>(games_per_pairing);
  const int pair = static_cast<int>(k / g * ((g + 1) / 2) + (k % g) / 2);
  const std::uint64_t mix = config_seed * 0x100000001B3ULL;
  return pair_seed(tournament ^ static_cast<std::int64_t>(mix & 0x7fffffffffffffffULL), pair);
}

// Reads an opening book: one line of moves per line, '#' comments and blank lines skipped.
Expected<std::vector<std::string>> read_opening_book(const std::string& path);

// The start position of a pair: the book's line for a game that reads opening lines when a
// book is given, else random plies. Errors name a bad book line.
template <class G>
Expected<G> fair_start(const G& start, int plies, std::uint64_t seed,
                       const std::vector<std::string>& book) {
  if constexpr (OpeningLines<G>) {
    if (!book.empty()) return book_opening(start, book, seed);
  }
  return random_opening(start, plies, seed);
}

}  // namespace arena::tournament
