#include "games/tictactoe/tictactoe.h"

#include <bit>

#include "games/core/zobrist.h"

namespace arena::tictactoe {
namespace {

// Keys [0, 9) for X's marks, [9, 18) for O's. The side to move follows from the marks, so it
// needs no key of its own.
constexpr auto kKeys = make_zobrist_keys<2 * TicTacToe::kCells>(0x7C7AC70E0001ULL);
constexpr std::uint16_t kFull = 0x1FF;

bool mask_has_line(std::uint16_t m) {
  for (auto line : TicTacToe::kLines)
    if ((m & line) == line) return true;
  return false;
}

// A won position is reachable only if the winner's last mark completed every line it has:
// some mark of the winner, taken back, leaves the winner without a line.
bool some_mark_completes_all_lines(std::uint16_t m) {
  for (int c = 0; c < TicTacToe::kCells; ++c) {
    const auto bit = static_cast<std::uint16_t>(1u << c);
    if ((m & bit) && !mask_has_line(static_cast<std::uint16_t>(m & ~bit))) return true;
  }
  return false;
}

}  // namespace

Expected<TicTacToe> TicTacToe::create(const GameOptions& options) {
  if (!options.empty())
    return make_error("unknown option '" + options.begin()->first + "' (tictactoe has none)");
  return TicTacToe{};
}

Expected<TicTacToe> TicTacToe::deserialize(std::string_view text) {
  if (text.size() != kCells)
    return make_error("expected 9 cells of 'x', 'o' or '.', got " + std::to_string(text.size()) +
                      " characters");
  TicTacToe g;
  for (int c = 0; c < kCells; ++c) {
    const char ch = text[c];
    if (ch == 'x' || ch == 'X') {
      g.marks_[0] |= static_cast<std::uint16_t>(1u << c);
    } else if (ch == 'o' || ch == 'O') {
      g.marks_[1] |= static_cast<std::uint16_t>(1u << c);
    } else if (ch != '.') {
      return make_error("bad cell character '" + std::string(1, ch) + "' at position " +
                        std::to_string(c + 1) + " (expected x, o or .)");
    }
    if (ch != '.') g.hash_ ^= kKeys[(ch == 'x' || ch == 'X' ? 0 : kCells) + c];
  }
  const int xs = std::popcount(g.marks_[0]);
  const int os = std::popcount(g.marks_[1]);
  if (xs != os && xs != os + 1)
    return make_error("impossible counts: " + std::to_string(xs) + " x and " + std::to_string(os) +
                      " o (x moves first, so x = o or x = o + 1)");
  const bool x_line = g.has_line(Player::kFirst);
  const bool o_line = g.has_line(Player::kSecond);
  if (x_line && o_line) return make_error("both x and o have a line");
  if (x_line && (xs != os + 1 || !some_mark_completes_all_lines(g.marks_[0])))
    return make_error("play continued after x had won");
  if (o_line && (xs != os || !some_mark_completes_all_lines(g.marks_[1])))
    return make_error("play continued after o had won");
  return g;
}

Player TicTacToe::side_to_move() const {
  return std::popcount(marks_[0]) == std::popcount(marks_[1]) ? Player::kFirst : Player::kSecond;
}

bool TicTacToe::has_line(Player p) const {
  return mask_has_line(marks_[index(p)]);
}

void TicTacToe::generate_moves(MoveList& list) const {
  list.clear();
  if (outcome().is_terminal()) return;
  const auto empty = static_cast<std::uint16_t>(~(marks_[0] | marks_[1]) & kFull);
  for (int c = 0; c < kCells; ++c)
    if (empty & (1u << c)) list.push_back(Move{static_cast<std::uint8_t>(c)});
}

void TicTacToe::make_move(Move m) {
  const int side = index(side_to_move());
  marks_[side] |= static_cast<std::uint16_t>(1u << m.cell);
  hash_ ^= kKeys[side * kCells + m.cell];
}

void TicTacToe::unmake_move(Move m) {
  // The last mover is whoever owns the cell.
  const int side = (marks_[0] >> m.cell) & 1u ? 0 : 1;
  marks_[side] &= static_cast<std::uint16_t>(~(1u << m.cell));
  hash_ ^= kKeys[side * kCells + m.cell];
}

Outcome TicTacToe::outcome() const {
  if (has_line(Player::kFirst)) return Outcome::win_for(Player::kFirst, EndReason::kLine);
  if (has_line(Player::kSecond)) return Outcome::win_for(Player::kSecond, EndReason::kLine);
  if ((marks_[0] | marks_[1]) == kFull) return Outcome::draw(EndReason::kBoardFull);
  return Outcome::ongoing();
}

std::string TicTacToe::move_to_string(Move m) const {
  const int row = m.cell / 3;  // 0 = top
  const int col = m.cell % 3;
  return {static_cast<char>('a' + col), static_cast<char>('1' + (2 - row))};
}

std::optional<TicTacToe::Move> TicTacToe::parse_move(std::string_view text) const {
  int cell = -1;
  if (text.size() == 1 && text[0] >= '1' && text[0] <= '9') {
    cell = text[0] - '1';
  } else if (text.size() == 2 && text[0] >= 'a' && text[0] <= 'c' && text[1] >= '1' &&
             text[1] <= '3') {
    cell = (2 - (text[1] - '1')) * 3 + (text[0] - 'a');
  }
  if (cell < 0 || outcome().is_terminal()) return std::nullopt;
  if (((marks_[0] | marks_[1]) >> cell) & 1u) return std::nullopt;
  return Move{static_cast<std::uint8_t>(cell)};
}

std::string TicTacToe::serialize() const {
  std::string out(kCells, '.');
  for (int c = 0; c < kCells; ++c) {
    if ((marks_[0] >> c) & 1u) out[c] = 'x';
    if ((marks_[1] >> c) & 1u) out[c] = 'o';
  }
  return out;
}

std::string TicTacToe::render() const {
  const std::string cells = serialize();
  std::string out;
  for (int row = 0; row < 3; ++row) {
    out += static_cast<char>('3' - row);
    out += ' ';
    for (int col = 0; col < 3; ++col) out += cells[row * 3 + col];
    out += '\n';
  }
  out += "  abc\n";
  return out;
}

}  // namespace arena::tictactoe
