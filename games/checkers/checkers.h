#pragma once
// English checkers (American straight checkers) on 8x8 with 32-bit bitboards.
//
// Rules: Black (Player::kFirst) starts on squares 1-12 and moves first; White starts on 21-32.
// Men move one square diagonally forward (Black towards higher numbers); kings move one
// square diagonally either way. Captures are mandatory; a multi-jump is one move, and any
// capture sequence may be chosen (not necessarily the longest). A man that reaches the last
// row (29-32 for Black, 1-4 for White) is crowned and the move ends there. The side to move
// with no legal move loses (EndReason::kNoMoves).
// Draws: threefold repetition of a position with the same side to move (counted from the
// positions this object has seen), and the no-progress rule: 80 plies (40 moves by each side)
// in a row without a capture or a man's move (EndReason::kNoProgress). Those draws can leave
// legal moves, hence kTerminalIffNoMoves = false; outcome() checks "no moves" first.
//
// Duplicate captures: a move is identified by its start square, its end square and the set of
// pieces it captures. When a king can capture the same set of pieces and end on the same
// square along different paths, that is ONE move (the convention of dctl's perft, which is
// the second column of tests/data/checkers_perft.txt: 388617999 at depth 12, not Bik's
// 388623673). Both sources agree to depth 11.
//
// Squares: PDN numbering 1-32, row by row from Black's side, four dark squares per row;
// bit i of a bitboard is square i + 1.
// Move text: "11-15" for a step, "11x18x25" for a capture with every landing square.
// parse_move also accepts the short form "11x25" when exactly one capture goes from 11 to 25,
// and any valid path of a move whose duplicate paths were merged.
// Position text: PDN FEN "B:W21,22,...:B1,2,..." (side to move, White's squares, Black's
// squares, "K" before a king's square), with ":N<plies>" appended when the no-progress count
// is not zero. deserialize() also accepts ranges ("B1-12"), the sections in either order and
// a trailing '.'; it rejects squares outside 1-32, a square given twice, more than 12 pieces
// a side and men standing on their own crowning row.

#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "games/core/expected.h"
#include "games/core/move_list.h"
#include "games/core/types.h"

namespace arena::checkers {

using Bitboard = std::uint32_t;

struct Move {
  Bitboard captured = 0;  // squares of the pieces it captures (0 for a step)
  std::uint8_t from = 0;  // 0..31 = PDN square - 1
  std::uint8_t to = 0;

  constexpr bool is_capture() const { return captured != 0; }
  constexpr bool operator==(const Move&) const = default;
};

class Checkers {
 public:
  static constexpr std::string_view kName = "checkers";
  static constexpr std::string_view kTitle = "English checkers (8x8)";
  static constexpr std::string_view kOptionsHelp = "no options";
  static constexpr int kNumPlayers = 2;
  static constexpr bool kTerminalIffNoMoves = false;
  static constexpr int kNoProgressPlies = 80;
  using Move = checkers::Move;
  // Steps are at most 48 (12 kings, deserialize() allows no more); capture lists are far
  // shorter in any real position. Should a composed position have more than 64 captures, the
  // extra ones are dropped, never overrun. (A small list also keeps perft fast: every node
  // value-initialises one.)
  using MoveList = arena::MoveList<Move, 64>;

  static Expected<Checkers> create(const GameOptions& options);
  static Expected<Checkers> deserialize(std::string_view text);

  Player side_to_move() const { return side_; }
  void generate_moves(MoveList& list) const;
  void make_move(Move m);
  void unmake_move(Move m);
  Outcome outcome() const;
  std::uint64_t hash() const { return hash_; }
  std::string move_to_string(Move m) const;
  std::optional<Move> parse_move(std::string_view text) const;
  std::string serialize() const;
  std::string render() const;

  // For move ordering: the number of pieces a move captures.
  int capture_score(const Move& m) const { return std::popcount(m.captured); }

  // For heuristics: the pieces of `p`, its men and its kings as bitboards.
  Bitboard pieces(Player p) const { return pieces_[index(p)]; }
  Bitboard men(Player p) const { return pieces_[index(p)] & ~kings_; }
  Bitboard kings(Player p) const { return pieces_[index(p)] & kings_; }
  // Plies since the last capture or man's move.
  int no_progress_plies() const { return no_progress_; }

 private:
  struct Undo {
    std::uint64_t hash;  // before the move
    Bitboard captured_kings;
    std::uint16_t no_progress;  // before the move, capped at 65535
    std::uint16_t crowned;      // 1 when the move crowned a man
  };

  Checkers() = default;
  std::uint64_t compute_hash() const;
  void add_captures_from(int from, MoveList& list) const;
  std::string capture_path(Move m) const;
  bool is_repetition() const;

  Bitboard pieces_[2] = {0, 0};  // indexed by Player
  Bitboard kings_ = 0;
  Player side_ = Player::kFirst;
  int no_progress_ = 0;
  std::uint64_t hash_ = 0;
  std::vector<Undo> history_;  // one entry per move made, for unmake and repetitions
};

// Perft from `game` by copy-make of the bitboards, counting the last ply without listing it:
// the same counts as arena::perft (duplicate king captures merged; draws by repetition or no
// progress do not end a perft line) without the move list, hash and history of the Game
// interface, as reference engines count. bench_perft times both against DarkHorse.
std::uint64_t fast_perft(const Checkers& game, int depth);

}  // namespace arena::checkers
