#include "games/isolation/isolation.h"

#include <charconv>

#include "games/core/zobrist.h"

namespace arena::isolation {
namespace {

constexpr int kSizes = Isolation::kMaxSize - Isolation::kMinSize + 1;
using KnightTable = std::array<Mask, Isolation::kMaxSquares>;

constexpr KnightTable make_knight_table(int size) {
  constexpr int kDeltas[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                 {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
  KnightTable table{};
  for (int sq = 0; sq < size * size; ++sq) {
    const int f = sq % size;
    const int r = sq / size;
    for (const auto& d : kDeltas) {
      const int nf = f + d[0];
      const int nr = r + d[1];
      if (nf >= 0 && nf < size && nr >= 0 && nr < size) table[sq] |= Mask{1} << (nr * size + nf);
    }
  }
  return table;
}

constexpr std::array<KnightTable, kSizes> kKnight = [] {
  std::array<KnightTable, kSizes> out{};
  for (int i = 0; i < kSizes; ++i) out[i] = make_knight_table(Isolation::kMinSize + i);
  return out;
}();

// Keys: [0, 81) visited squares, [81, 162) first piece, [162, 243) second piece, 243 side to
// move, [244, 249) board size.
constexpr auto kKeys = make_zobrist_keys<3 * Isolation::kMaxSquares + 1 + kSizes>(0x150A7104ULL);
constexpr int kPieceKey = Isolation::kMaxSquares;
constexpr int kSideKey = 3 * Isolation::kMaxSquares;
constexpr int kSizeKey = kSideKey + 1;

constexpr Mask bit(int sq) {
  return Mask{1} << sq;
}

}  // namespace

Expected<Isolation> Isolation::create(const GameOptions& options) {
  Isolation g;
  for (const auto& [key, value] : options) {
    if (key != "size")
      return make_error("unknown option '" + key + "' (isolation knows: size=5..9)");
    int size = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), size);
    if (ec != std::errc() || end != value.data() + value.size() || size < kMinSize ||
        size > kMaxSize)
      return make_error("option size='" + value + "' must be a whole number from 5 to 9");
    g.size_ = static_cast<std::uint8_t>(size);
  }
  g.hash_ = kKeys[kSizeKey + g.size_ - kMinSize];
  return g;
}

Mask Isolation::board_mask() const {
  const int n = size_ * size_;
  return (Mask{1} << n) - 1;
}

Mask Isolation::move_targets(Player p) const {
  const int sq = pos_[index(p)];
  if (sq == kNoSquare) return board_mask() & ~visited_;
  return kKnight[size_ - kMinSize][sq] & ~visited_;
}

int Isolation::num_moves_for(Player p) const {
  return popcount(move_targets(p));
}

void Isolation::generate_moves(MoveList& list) const {
  list.clear();
  const std::uint8_t from = pos_[index(side_)];
  for (Mask m = move_targets(side_); m; m &= m - 1)
    list.push_back(Move{from, static_cast<std::uint8_t>(lowest_square(m))});
}

void Isolation::make_move(Move m) {
  const int s = index(side_);
  visited_ |= bit(m.to);
  hash_ ^= kKeys[m.to] ^ kKeys[kPieceKey * (1 + s) + m.to] ^ kKeys[kSideKey];
  if (m.from != kNoSquare) hash_ ^= kKeys[kPieceKey * (1 + s) + m.from];
  pos_[s] = m.to;
  side_ = opponent(side_);
}

void Isolation::unmake_move(Move m) {
  side_ = opponent(side_);
  const int s = index(side_);
  visited_ &= ~bit(m.to);
  hash_ ^= kKeys[m.to] ^ kKeys[kPieceKey * (1 + s) + m.to] ^ kKeys[kSideKey];
  if (m.from != kNoSquare) hash_ ^= kKeys[kPieceKey * (1 + s) + m.from];
  pos_[s] = m.from;
}

Outcome Isolation::outcome() const {
  if (move_targets(side_) == 0) return Outcome::win_for(opponent(side_), EndReason::kNoMoves);
  return Outcome::ongoing();
}

std::string Isolation::square_name(int square) const {
  return {static_cast<char>('a' + file_of(square, size_)),
          static_cast<char>('1' + rank_of(square, size_))};
}

std::string Isolation::move_to_string(Move m) const {
  return square_name(m.to);
}

std::optional<int> Isolation::parse_square(std::string_view text) const {
  if (text.size() != 2) return std::nullopt;
  const int f = text[0] - 'a';
  const int r = text[1] - '1';
  if (f < 0 || f >= size_ || r < 0 || r >= size_) return std::nullopt;
  return r * size_ + f;
}

std::optional<Isolation::Move> Isolation::parse_move(std::string_view text) const {
  auto sq = parse_square(text);
  if (!sq || !(move_targets(side_) & bit(*sq))) return std::nullopt;
  return Move{pos_[index(side_)], static_cast<std::uint8_t>(*sq)};
}

std::string Isolation::serialize() const {
  std::string out;
  for (int r = size_ - 1; r >= 0; --r) {
    for (int f = 0; f < size_; ++f) {
      const int sq = r * size_ + f;
      char c = (visited_ & bit(sq)) ? '#' : '.';
      if (pos_[0] == sq) c = 'x';
      if (pos_[1] == sq) c = 'o';
      out += c;
    }
    if (r > 0) out += '/';
  }
  out += side_ == Player::kFirst ? " x" : " o";
  return out;
}

Expected<Isolation> Isolation::deserialize(std::string_view text) {
  const auto space = text.find(' ');
  if (space == std::string_view::npos || space + 2 != text.size())
    return make_error("expected '<rows separated by /> <side x|o>', got '" + std::string(text) +
                      "'");
  const std::string_view board = text.substr(0, space);
  const char side = text[space + 1];
  if (side != 'x' && side != 'o')
    return make_error("side to move must be 'x' or 'o', not '" + std::string(1, side) + "'");
  int size = 1;
  for (char c : board) size += c == '/';
  if (size < kMinSize || size > kMaxSize || board.size() != std::size_t(size * size + size - 1))
    return make_error("board must be 5..9 rows of as many cells each, separated by '/'");
  auto made = create({{"size", std::to_string(size)}});
  if (!made) return made;
  Isolation g = *made;
  for (int r = size - 1, i = 0; r >= 0; --r, ++i) {  // i: row index in the text
    const std::string_view row = board.substr(std::size_t(i * (size + 1)), std::size_t(size));
    if (i < size - 1 && board[std::size_t(i * (size + 1) + size)] != '/')
      return make_error("row " + std::to_string(r + 1) + " must have " + std::to_string(size) +
                        " cells");
    for (int f = 0; f < size; ++f) {
      const char c = row[std::size_t(f)];
      const int sq = r * size + f;
      if (c == '.') continue;
      if (c != '#' && c != 'x' && c != 'o')
        return make_error("bad cell '" + std::string(1, c) + "' at " + g.square_name(sq) +
                          " (expected . # x o)");
      g.visited_ |= bit(sq);
      g.hash_ ^= kKeys[sq];
      if (c == '#') continue;
      const int p = c == 'x' ? 0 : 1;
      if (g.pos_[p] != kNoSquare) return make_error("more than one '" + std::string(1, c) + "'");
      g.pos_[p] = static_cast<std::uint8_t>(sq);
      g.hash_ ^= kKeys[kPieceKey * (1 + p) + sq];
    }
  }
  // Each move blocks exactly one new square, so the visited count is the ply count.
  const int plies = popcount(g.visited_);
  if ((g.pos_[0] != kNoSquare) != (plies >= 1) || (g.pos_[1] != kNoSquare) != (plies >= 2))
    return make_error("impossible position: x places first, then o, before any knight move");
  g.side_ = plies % 2 == 0 ? Player::kFirst : Player::kSecond;
  if ((side == 'x') != (g.side_ == Player::kFirst))
    return make_error("side to move '" + std::string(1, side) + "' does not match " +
                      std::to_string(plies) + " plies played");
  if (g.side_ == Player::kSecond) g.hash_ ^= kKeys[kSideKey];
  return g;
}

std::string Isolation::render() const {
  std::string out;
  const std::string text = serialize();
  for (int r = size_ - 1, i = 0; r >= 0; --r, ++i) {
    out += static_cast<char>('1' + r);
    out += ' ';
    out += text.substr(std::size_t(i * (size_ + 1)), size_);
    out += '\n';
  }
  out += "  ";
  for (int f = 0; f < size_; ++f) out += static_cast<char>('a' + f);
  out += '\n';
  return out;
}

}  // namespace arena::isolation
