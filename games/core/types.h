#pragma once
// Basic vocabulary shared by every game: players, outcomes, options and error values.
// Standard library only.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace arena {

// The player to move. Puzzles have one player, kFirst.
enum class Player : std::uint8_t { kFirst = 0, kSecond = 1 };

constexpr Player opponent(Player p) {
  return p == Player::kFirst ? Player::kSecond : Player::kFirst;
}
constexpr int index(Player p) {
  return static_cast<int>(p);
}

enum class Result : std::uint8_t { kOngoing, kFirstWins, kSecondWins, kDraw };

// Why a game ended, as far as the rules are concerned. Endings that belong to a match
// (time, resignation, agreement, abandonment) are the server's business, not the rules'.
enum class EndReason : std::uint8_t {
  kNone,
  kLine,       // tic-tac-toe: a completed line
  kBoardFull,  // tic-tac-toe: no empty cell, no line
  kNoMoves,    // Isolation, checkers: the side to move cannot move and loses
  kDiscCount,  // Othello: neither side can move; most discs wins
  kCheckmate,
  kStalemate,
  kThreefoldRepetition,
  kFiftyMoveRule,
  kInsufficientMaterial,
  kNoProgress,  // checkers: the stated no-progress rule
  kSolved,      // puzzles: the goal state is reached
  kGoals,       // GDL: the game reached a terminal state; the rules' goal values decide
};

struct Outcome {
  Result result = Result::kOngoing;
  EndReason reason = EndReason::kNone;

  constexpr bool is_terminal() const { return result != Result::kOngoing; }
  constexpr bool operator==(const Outcome&) const = default;

  static constexpr Outcome ongoing() { return {}; }
  static constexpr Outcome win_for(Player p, EndReason why) {
    return {p == Player::kFirst ? Result::kFirstWins : Result::kSecondWins, why};
  }
  static constexpr Outcome draw(EndReason why) { return {Result::kDraw, why}; }
};

std::string_view to_string(Result r);
// The result as game records write it: "1-0", "0-1", "1/2-1/2"; "" while the game goes on.
std::string_view result_notation(Result r);
std::string_view to_string(EndReason r);  // as the protocol spells it: board_full, no_moves

// Options a game is created with (size, seed, variant ...), as text. Each game validates its
// own options and rejects unknown keys with a message that names them.
using GameOptions = std::map<std::string, std::string, std::less<>>;

}  // namespace arena
