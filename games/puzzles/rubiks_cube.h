#pragma once
// The 3x3x3 Rubik's cube at the cubie level: corner and edge permutation plus orientation
// (Kociemba's conventions: corners URF UFL ULB UBR DFR DLF DBL DRB, edges UR UF UL UB DR DF DL
// DB FR FL BL BR; a corner's twist counts its U/D sticker's turns clockwise from the U/D
// face, an edge's flip is 1 when its reference sticker is off the reference face).
//
// Moves: the face-turn metric in Singmaster notation, U U' U2 D D' D2 F F' F2 B B' B2 L L' L2
// R R' R2 (a quarter turn clockwise as seen facing that face), generated in that order.
// Text: serialize() prints Reid's cubie notation, the stickers of the twenty cubies at
// the positions UF UR UB UL DF DR DB DL FR FL BR BL UFR URB UBL ULF DRF DFL DLB DBR, each read
// in the position's face order; the solved cube is exactly that list. deserialize() reads the
// same and validates it: every cubie once, sticker order possible, corner twists summing to
// 0 mod 3, edge flips to 0 mod 2, and equal corner and edge permutation parity.
// Options: scramble=N random face turns (default 20, 0 = solved), seed=N (default 1); no
// two successive turns of the same face.
// A solved cube is terminal (a win for kFirst, kSolved) but still has moves.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "games/core/expected.h"
#include "games/core/move_list.h"
#include "games/core/types.h"

namespace arena::puzzles {

// Faces in Kociemba's order; CubeMove::face indexes it.
enum class Face : std::uint8_t { kU = 0, kR = 1, kF = 2, kD = 3, kL = 4, kB = 5 };

struct CubeMove {
  std::uint8_t face = 0;   // Face as an integer
  std::uint8_t turns = 1;  // clockwise quarter turns: 1, 2, or 3 (= ')
  constexpr bool operator==(const CubeMove&) const = default;
};

class RubiksCube {
 public:
  static constexpr std::string_view kName = "rubik";
  static constexpr std::string_view kTitle = "Rubik's cube 3x3x3";
  static constexpr std::string_view kOptionsHelp =
      "scramble=N random face turns (default 20; 0 = solved); seed=N (default 1)";
  static constexpr int kNumPlayers = 1;
  static constexpr bool kTerminalIffNoMoves = false;
  static constexpr int kCorners = 8;
  static constexpr int kEdges = 12;

  using Move = CubeMove;
  using MoveList = arena::MoveList<CubeMove, 18>;

  RubiksCube();  // the solved cube
  static Expected<RubiksCube> create(const GameOptions& options);
  static Expected<RubiksCube> deserialize(std::string_view text);
  static RubiksCube solved() { return RubiksCube(); }
  // `length` random face turns from the solved cube, from `seed`.
  static RubiksCube scrambled(int length, std::uint64_t seed);
  // Applies a move sequence in Singmaster notation ("R U R' U'"); error names a bad token.
  Expected<void> apply_sequence(std::string_view moves);

  Player side_to_move() const { return Player::kFirst; }
  void generate_moves(MoveList& list) const;
  void make_move(Move m);
  void unmake_move(Move m) { make_move(Move{m.face, static_cast<std::uint8_t>(4 - m.turns)}); }
  Outcome outcome() const;
  std::uint64_t hash() const { return hash_; }
  std::string move_to_string(Move m) const;
  std::optional<Move> parse_move(std::string_view text) const;
  std::string serialize() const;

  bool is_solved() const;
  bool operator==(const RubiksCube& o) const {
    return cp_ == o.cp_ && co_ == o.co_ && ep_ == o.ep_ && eo_ == o.eo_;
  }
  // cp[i] = the corner cubie at position i; co[i] its twist; likewise for edges.
  const std::array<std::uint8_t, kCorners>& corner_permutation() const { return cp_; }
  const std::array<std::uint8_t, kCorners>& corner_orientation() const { return co_; }
  const std::array<std::uint8_t, kEdges>& edge_permutation() const { return ep_; }
  const std::array<std::uint8_t, kEdges>& edge_orientation() const { return eo_; }

 private:
  void quarter_turn(int face);
  std::uint64_t compute_hash() const;

  std::array<std::uint8_t, kCorners> cp_{};
  std::array<std::uint8_t, kCorners> co_{};
  std::array<std::uint8_t, kEdges> ep_{};
  std::array<std::uint8_t, kEdges> eo_{};
  std::uint64_t hash_ = 0;
};

}  // namespace arena::puzzles
