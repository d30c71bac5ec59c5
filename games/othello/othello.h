#pragma once
// Othello (Reversi) on 8x8 with bitboards.
//
// Rules: the standard start (d5, e4 Black; d4, e5 White), Black (Player::kFirst) moves first.
// A move places a disc that flanks at least one line of opponent discs, which flip. When the
// side to move has no such move but the opponent has, its only legal move is an explicit
// `pass`. When neither side can move the game is over: generate_moves() gives nothing and the
// side with more discs wins (EndReason::kDiscCount; equal counts draw). Empty squares are not
// awarded to anyone.
//
// Squares: a1..h8, file letter then row digit, index = (row - 1) * 8 + file (a1 = 0, h8 = 63).
// Othello diagrams put row 1 at the top; the rules are symmetric, so only the names matter.
// Move text: "a1".."h8" and "pass" (parse_move is case-insensitive).
//
// Position text (serialize/deserialize): the 64 squares a1, b1, ..., h1, a2, ..., h8 as
// 'X' (Black), 'O' (White) or '-' (empty), a space, then the side to move 'X' or 'O', e.g. the
// start is "---------------------------OX------XO--------------------------- X". The four
// centre squares are never empty in a real game, so deserialize() rejects that.
//
// Perft: a pass counts as a ply and a game over reached early counts as one leaf, as in
// Bik's published figures (tests/data/othello_perft.txt).
//
// The hash is the Zobrist hash (one key per square and colour, one for White to move),
// computed on demand from byte-wise tables, so make/unmake stay cheap.

#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "games/core/expected.h"
#include "games/core/move_list.h"
#include "games/core/types.h"

namespace arena::othello {

using Bitboard = std::uint64_t;

struct Move {
  static constexpr std::uint8_t kPass = 64;
  std::uint8_t square = kPass;  // 0..63, or kPass

  constexpr bool is_pass() const { return square == kPass; }
  constexpr bool operator==(const Move&) const = default;
};

// The squares where the player owning `own` may play against `opp` (Kogge-Stone style fills).
Bitboard legal_moves_mask(Bitboard own, Bitboard opp);
// The opponent discs that a disc placed on `square` by `own` flips (0 if the move is illegal).
Bitboard flips_for(int square, Bitboard own, Bitboard opp);
// In an x86-64-v3 build (ARENA_NATIVE_X86_64_V3, or any build with AVX2) both run the four
// direction pairs side by side in the lanes of one AVX2 register. In a portable x86-64 build
// legal_moves_mask runs six directions in SSE2 over the board and its vertical mirror and
// flips_for is 64-bit code; elsewhere both are 64-bit code. All give the same bitboards.

class Othello {
 public:
  static constexpr std::string_view kName = "othello";
  static constexpr std::string_view kTitle = "Othello (8x8)";
  static constexpr std::string_view kOptionsHelp = "no options";
  static constexpr int kNumPlayers = 2;
  static constexpr bool kPerftCountsGameOverAsLeaf = true;
  using Move = othello::Move;
  // At most 33 moves are ever legal in a reachable position; 64 covers any position text.
  using MoveList = arena::MoveList<Move, 64>;

  static Expected<Othello> create(const GameOptions& options);
  static Expected<Othello> deserialize(std::string_view text);
  // The start position after the moves in `moves`, written back to back ("f5d6c3d3") or
  // separated by spaces, as in the XOT opening lists; an error names the first illegal move.
  static Expected<Othello> from_opening(std::string_view moves);

  Player side_to_move() const { return side_; }
  void generate_moves(MoveList& list) const;
  void make_move(Move m);
  void unmake_move(Move m);
  Outcome outcome() const;
  std::uint64_t hash() const;
  std::string move_to_string(Move m) const;
  std::optional<Move> parse_move(std::string_view text) const;
  std::string serialize() const;
  std::string render() const;

  // For heuristics: the discs of `p`, their number, and the number of squares `p` could play
  // on if it were to move (passes are not counted).
  Bitboard discs(Player p) const { return discs_[index(p)]; }
  int disc_count(Player p) const { return std::popcount(discs_[index(p)]); }
  int mobility(Player p) const {
    return std::popcount(legal_moves_mask(discs_[index(p)], discs_[index(opponent(p))]));
  }
  Bitboard empty_squares() const { return ~(discs_[0] | discs_[1]); }

 private:
  Othello() = default;

  std::array<Bitboard, 2> discs_{};  // indexed by Player
  Player side_ = Player::kFirst;
  // Flipped discs of each placing move still on the board, for unmake. A game places at most
  // 64 discs, so the stack never overflows; passes push nothing.
  std::array<Bitboard, 64> undo_{};
  int undo_size_ = 0;
};

// Perft from `game` by copy-make of the two bitboards, counting the last ply by popcount: the
// same counts as arena::perft (a pass is a ply, a game over before `depth` one leaf) without
// the move list and unmake of the Game interface, as reference engines count. bench_perft
// times both against Edax.
std::uint64_t fast_perft(const Othello& game, int depth);

}  // namespace arena::othello
