#include "games/tictactoe/qubic.h"

#include <bit>

#include "games/core/zobrist.h"

namespace arena::tictactoe {
namespace {

constexpr auto kKeys = make_zobrist_keys<2 * kQubicCells>(0x9B1C4444ULL);

// The indices of the lines through each cell (4 for most cells, 7 for corners and the 8
// centre cells), so a move checks only its own lines for a win.
struct CellLines {
  std::array<std::uint8_t, 7> line{};
  std::uint8_t count = 0;
};
constexpr std::array<CellLines, kQubicCells> kCellLines = [] {
  std::array<CellLines, kQubicCells> out{};
  for (int l = 0; l < kQubicLineCount; ++l)
    for (int c = 0; c < kQubicCells; ++c)
      if ((kQubicLines[l] >> c) & 1u) out[c].line[out[c].count++] = static_cast<std::uint8_t>(l);
  return out;
}();

bool mask_has_line(std::uint64_t m) {
  for (auto line : kQubicLines)
    if ((m & line) == line) return true;
  return false;
}

bool cell_completes_line(std::uint64_t m, int cell) {
  const auto& cl = kCellLines[cell];
  for (int i = 0; i < cl.count; ++i)
    if ((m & kQubicLines[cl.line[i]]) == kQubicLines[cl.line[i]]) return true;
  return false;
}

// Some mark of the winner, taken back, leaves the winner without a line.
bool some_mark_completes_all_lines(std::uint64_t m) {
  for (std::uint64_t rest = m; rest; rest &= rest - 1) {
    const std::uint64_t bit = rest & (~rest + 1);
    if (!mask_has_line(m & ~bit)) return true;
  }
  return false;
}

// Text order: level 1..4; in a level rank 4 down to rank 1, files a..d.
int cell_of_text_index(int i) {
  const int level = i / 16;
  const int row = (i % 16) / 4;  // 0 = rank 4
  return level * 16 + (3 - row) * 4 + i % 4;
}

}  // namespace

Expected<Qubic> Qubic::create(const GameOptions& options) {
  if (!options.empty())
    return make_error("unknown option '" + options.begin()->first + "' (qubic has none)");
  return Qubic{};
}

Expected<Qubic> Qubic::deserialize(std::string_view text) {
  if (text.size() != 67 || text[16] != '/' || text[33] != '/' || text[50] != '/')
    return make_error("expected four levels of 16 cells (x, o or .) separated by '/'");
  Qubic g;
  for (int i = 0; i < kQubicCells; ++i) {
    const char ch = text[std::size_t(i + i / 16)];
    const int cell = cell_of_text_index(i);
    if (ch == '.') continue;
    if (ch != 'x' && ch != 'o')
      return make_error("bad cell character '" + std::string(1, ch) + "' at " +
                        g.move_to_string(Move{static_cast<std::uint8_t>(cell)}) +
                        " (expected x, o or .)");
    const int p = ch == 'x' ? 0 : 1;
    g.marks_[p] |= std::uint64_t{1} << cell;
    g.hash_ ^= kKeys[p * kQubicCells + cell];
  }
  const int xs = std::popcount(g.marks_[0]);
  const int os = std::popcount(g.marks_[1]);
  if (xs != os && xs != os + 1)
    return make_error("impossible counts: " + std::to_string(xs) + " x and " + std::to_string(os) +
                      " o (x moves first, so x = o or x = o + 1)");
  const bool x_line = mask_has_line(g.marks_[0]);
  const bool o_line = mask_has_line(g.marks_[1]);
  if (x_line && o_line) return make_error("both x and o have a line");
  if (x_line && (xs != os + 1 || !some_mark_completes_all_lines(g.marks_[0])))
    return make_error("play continued after x had won");
  if (o_line && (xs != os || !some_mark_completes_all_lines(g.marks_[1])))
    return make_error("play continued after o had won");
  g.won_ = x_line || o_line;
  return g;
}

Player Qubic::side_to_move() const {
  return std::popcount(marks_[0]) == std::popcount(marks_[1]) ? Player::kFirst : Player::kSecond;
}

void Qubic::generate_moves(MoveList& list) const {
  list.clear();
  if (won_) return;
  for (std::uint64_t empty = ~(marks_[0] | marks_[1]); empty; empty &= empty - 1)
    list.push_back(Move{static_cast<std::uint8_t>(std::countr_zero(empty))});
}

void Qubic::make_move(Move m) {
  const int side = index(side_to_move());
  marks_[side] |= std::uint64_t{1} << m.cell;
  hash_ ^= kKeys[side * kQubicCells + m.cell];
  won_ = cell_completes_line(marks_[side], m.cell);
}

void Qubic::unmake_move(Move m) {
  const int side = (marks_[0] >> m.cell) & 1u ? 0 : 1;
  marks_[side] &= ~(std::uint64_t{1} << m.cell);
  hash_ ^= kKeys[side * kQubicCells + m.cell];
  won_ = false;  // moves are only made in positions that were not yet won
}

Outcome Qubic::outcome() const {
  if (won_) return Outcome::win_for(opponent(side_to_move()), EndReason::kLine);
  if ((marks_[0] | marks_[1]) == ~std::uint64_t{0}) return Outcome::draw(EndReason::kBoardFull);
  return Outcome::ongoing();
}

std::string Qubic::move_to_string(Move m) const {
  return {static_cast<char>('1' + m.cell / 16), static_cast<char>('a' + m.cell % 4),
          static_cast<char>('1' + (m.cell % 16) / 4)};
}

std::optional<Qubic::Move> Qubic::parse_move(std::string_view text) const {
  if (text.size() != 3) return std::nullopt;
  const int level = text[0] - '1';
  const int file = text[1] - 'a';
  const int rank = text[2] - '1';
  if (level < 0 || level > 3 || file < 0 || file > 3 || rank < 0 || rank > 3) return std::nullopt;
  const int cell = level * 16 + rank * 4 + file;
  if (won_ || (((marks_[0] | marks_[1]) >> cell) & 1u)) return std::nullopt;
  return Move{static_cast<std::uint8_t>(cell)};
}

std::string Qubic::serialize() const {
  std::string out;
  for (int i = 0; i < kQubicCells; ++i) {
    if (i > 0 && i % 16 == 0) out += '/';
    const int cell = cell_of_text_index(i);
    char c = '.';
    if ((marks_[0] >> cell) & 1u) c = 'x';
    if ((marks_[1] >> cell) & 1u) c = 'o';
    out += c;
  }
  return out;
}

std::string Qubic::render() const {
  const std::string text = serialize();
  std::string out;
  for (int level = 3; level >= 0; --level) {
    out += "level " + std::to_string(level + 1) + "\n";
    for (int row = 0; row < 4; ++row) {
      out += static_cast<char>('4' - row);
      out += ' ';
      out += text.substr(std::size_t(level * 17 + row * 4), 4);
      out += '\n';
    }
  }
  out += "  abcd\n";
  return out;
}

}  // namespace arena::tictactoe
