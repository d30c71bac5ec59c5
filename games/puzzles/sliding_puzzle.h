#pragma once
// Sliding-tile puzzles from 3x3 (8-puzzle) to 5x5 (24-puzzle).
//
// Board: the tiles in row order, 0 for the blank. Goal: the blank first, then 1..n-1 in row
// order ("0 1 2 / 3 4 5 / 6 7 8"), the goal of Korf's 100 instances and of the 8-puzzle facts
// in tests/data (korf100.txt, eight_puzzle.txt).
// Moves: the direction the blank moves, U D L R; generated in the order U L R D (Korf's order,
// which the published IDA* node counts depend on).
// Text: serialize() prints the tiles separated by spaces ("1 2 0 3 ..."); deserialize() reads
// 9, 16 or 25 numbers separated by spaces, commas or slashes (the size is inferred).
// Options: size=3|4|5 (default 4), seed=N (a seeded uniformly random solvable instance),
// tiles=... (a given instance, as deserialize reads it). Without seed and tiles, create() gives
// the instance of seed 1, so that a new game is never already solved.
// A solved state is terminal (outcome = win for kFirst, kSolved) but still has moves.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "games/core/expected.h"
#include "games/core/move_list.h"
#include "games/core/types.h"

namespace arena::puzzles {

// Where the blank goes. The values index kDeltaRow/kDeltaCol and opposite().
enum class Direction : std::uint8_t { kUp = 0, kLeft = 1, kRight = 2, kDown = 3 };

constexpr Direction opposite(Direction d) {
  return static_cast<Direction>(3 - static_cast<int>(d));
}

struct SlidingMove {
  Direction dir = Direction::kUp;
  constexpr bool operator==(const SlidingMove&) const = default;
};

class SlidingPuzzle {
 public:
  static constexpr std::string_view kName = "sliding";
  static constexpr std::string_view kTitle = "Sliding-tile puzzle (8, 15, 24)";
  static constexpr std::string_view kOptionsHelp =
      "size=3|4|5 (default 4); seed=N for a seeded random solvable instance (default 1); "
      "scramble=N: instead, N random moves from the goal (drawn with seed); "
      "tiles=t0/t1/... in row order (spaces, commas or slashes), 0 = blank (goal: blank first)";
  static constexpr int kNumPlayers = 1;
  static constexpr bool kTerminalIffNoMoves = false;
  static constexpr int kMinSize = 3;
  static constexpr int kMaxSize = 5;
  static constexpr int kMaxCells = kMaxSize * kMaxSize;

  using Move = SlidingMove;
  using MoveList = arena::MoveList<SlidingMove, 4>;
  using Tiles = std::array<std::uint8_t, kMaxCells>;

  static Expected<SlidingPuzzle> create(const GameOptions& options);
  static Expected<SlidingPuzzle> deserialize(std::string_view text);
  // The goal state of the given size (3..5).
  static SlidingPuzzle solved(int size);
  // A uniformly random solvable instance of the given size (3..5), from `seed`.
  static SlidingPuzzle random(int size, std::uint64_t seed);
  // `moves` random moves from the goal, never undoing the previous one, drawn with `seed`.
  static SlidingPuzzle scrambled(int size, int moves, std::uint64_t seed);
  // Whether `tiles` (size*size cells, a permutation of 0..n-1) can reach the goal.
  static bool is_solvable(const Tiles& tiles, int size);

  Player side_to_move() const { return Player::kFirst; }
  void generate_moves(MoveList& list) const;
  void make_move(Move m);
  void unmake_move(Move m) { make_move(Move{opposite(m.dir)}); }
  Outcome outcome() const;
  std::uint64_t hash() const { return hash_; }
  std::string move_to_string(Move m) const;
  std::optional<Move> parse_move(std::string_view text) const;
  std::string serialize() const;
  std::string render() const;

  int size() const { return size_; }
  int cells() const { return size_ * size_; }
  int blank() const { return blank_; }
  // The tile at `cell` (row-major), 0 for the blank.
  int tile_at(int cell) const { return tiles_[cell]; }
  const Tiles& tiles() const { return tiles_; }
  bool is_solved() const;
  // Whether the blank can move in `d`.
  bool can_move(Direction d) const;

 private:
  SlidingPuzzle(const Tiles& tiles, int size);
  std::uint64_t compute_hash() const;

  Tiles tiles_{};
  std::uint8_t size_ = 4;
  std::uint8_t blank_ = 0;
  std::uint64_t hash_ = 0;
};

}  // namespace arena::puzzles
