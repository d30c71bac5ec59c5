#include "games/puzzles/sliding_puzzle.h"

#include <algorithm>
#include <charconv>
#include <vector>

#include "games/core/zobrist.h"

namespace arena::puzzles {
namespace {

// One key per (tile, cell) and one per size, so equal tile lists of different sizes differ.
constexpr int kCells = SlidingPuzzle::kMaxCells;
constexpr auto kKeys = make_zobrist_keys<kCells * kCells + 8>(0x5117D1E6ULL);

constexpr std::uint64_t key(int tile, int cell) {
  return kKeys[static_cast<std::size_t>(tile * kCells + cell)];
}

constexpr char kDirLetters[] = {'U', 'L', 'R', 'D'};

// Splits on spaces, commas and slashes; returns nullopt on a token that is not a number.
std::optional<std::vector<int>> parse_numbers(std::string_view text, std::string& bad) {
  std::vector<int> out;
  std::size_t i = 0;
  auto is_sep = [](char c) { return c == ' ' || c == ',' || c == '/' || c == '\t' || c == '\n'; };
  while (i < text.size()) {
    if (is_sep(text[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < text.size() && !is_sep(text[j])) ++j;
    const std::string_view token = text.substr(i, j - i);
    int value = 0;
    auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (ec != std::errc() || ptr != token.data() + token.size()) {
      bad = std::string(token);
      return std::nullopt;
    }
    out.push_back(value);
    i = j;
  }
  return out;
}

// Uniform in [0, n) by rejection (games/core/rng.h does not compile under -Wpedantic yet).
std::uint64_t below(std::uint64_t& state, std::uint64_t n) {
  const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % n);
  for (;;) {
    const std::uint64_t r = splitmix64(state);
    if (r < limit) return r % n;
  }
}

std::optional<std::uint64_t> parse_u64(std::string_view s) {
  std::uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

}  // namespace

SlidingPuzzle::SlidingPuzzle(const Tiles& tiles, int size)
    : tiles_(tiles), size_(static_cast<std::uint8_t>(size)) {
  for (int c = 0; c < size * size; ++c)
    if (tiles_[c] == 0) blank_ = static_cast<std::uint8_t>(c);
  hash_ = compute_hash();
}

std::uint64_t SlidingPuzzle::compute_hash() const {
  std::uint64_t h = kKeys[static_cast<std::size_t>(kCells * kCells + size_)];
  for (int c = 0; c < cells(); ++c) h ^= key(tiles_[c], c);
  return h;
}

SlidingPuzzle SlidingPuzzle::solved(int size) {
  Tiles t{};
  for (int c = 0; c < size * size; ++c) t[c] = static_cast<std::uint8_t>(c);
  return SlidingPuzzle(t, size);
}

bool SlidingPuzzle::is_solvable(const Tiles& tiles, int size) {
  // A horizontal move keeps the inversion count of the tiles (blank left out); a vertical one
  // changes it by size-1 and the blank's row by one. The goal has no inversion and the blank
  // in row 0, so for odd sizes the inversions must be even, for even sizes inversions + the
  // blank's row must be even.
  const int n = size * size;
  int inversions = 0;
  int blank_row = 0;
  for (int i = 0; i < n; ++i) {
    if (tiles[i] == 0) {
      blank_row = i / size;
      continue;
    }
    for (int j = i + 1; j < n; ++j)
      if (tiles[j] != 0 && tiles[j] < tiles[i]) ++inversions;
  }
  if (size % 2 == 1) return inversions % 2 == 0;
  return (inversions + blank_row) % 2 == 0;
}

SlidingPuzzle SlidingPuzzle::random(int size, std::uint64_t seed) {
  std::uint64_t state = seed ^ 0x9E3779B97F4A7C15ULL;
  const int n = size * size;
  Tiles t{};
  for (int c = 0; c < n; ++c) t[c] = static_cast<std::uint8_t>(c);
  for (int i = n - 1; i > 0; --i)
    std::swap(t[i], t[below(state, static_cast<std::uint64_t>(i + 1))]);
  if (!is_solvable(t, size)) {
    // Swapping two tiles flips the parity: half of all permutations are solvable.
    int a = t[0] == 0 ? 1 : 0;
    int b = (t[a + 1] == 0) ? a + 2 : a + 1;
    std::swap(t[a], t[b]);
  }
  return SlidingPuzzle(t, size);
}

SlidingPuzzle SlidingPuzzle::scrambled(int size, int moves, std::uint64_t seed) {
  std::uint64_t state = seed ^ 0x5C4A3B1EULL;
  SlidingPuzzle p = solved(size);
  std::optional<Direction> last;
  for (int i = 0; i < moves; ++i) {
    MoveList list;
    p.generate_moves(list);
    MoveList forward;
    for (const auto& m : list)
      if (!last || m.dir != opposite(*last)) forward.push_back(m);
    const Move m = forward[static_cast<std::size_t>(below(state, forward.size()))];
    p.make_move(m);
    last = m.dir;
  }
  return p;
}

Expected<SlidingPuzzle> SlidingPuzzle::create(const GameOptions& options) {
  int size = 4;
  std::uint64_t seed = 1;
  std::optional<int> scramble;
  std::optional<std::string> tiles;
  for (const auto& [k, v] : options) {
    if (k == "size") {
      if (v != "3" && v != "4" && v != "5")
        return make_error("option size='" + v + "' must be 3, 4 or 5");
      size = v[0] - '0';
    } else if (k == "seed") {
      auto s = parse_u64(v);
      if (!s) return make_error("option seed='" + v + "' is not a non-negative integer");
      seed = *s;
    } else if (k == "scramble") {
      auto n = parse_u64(v);
      if (!n || *n > 100000) return make_error("option scramble='" + v + "' must be 0..100000");
      scramble = static_cast<int>(*n);
    } else if (k == "tiles") {
      tiles = v;
    } else {
      return make_error("unknown option '" + k + "' (known: size, seed, scramble, tiles)");
    }
  }
  if (tiles && scramble) return make_error("options tiles and scramble exclude each other");
  if (scramble) return scrambled(size, *scramble, seed);
  if (tiles) {
    auto game = deserialize(*tiles);
    if (!game) return game;
    if (options.count("size") && game->size() != size)
      return make_error("option tiles has " + std::to_string(game->cells()) +
                        " cells but size=" + std::to_string(size));
    return game;
  }
  return random(size, seed);
}

Expected<SlidingPuzzle> SlidingPuzzle::deserialize(std::string_view text) {
  std::string bad;
  auto numbers = parse_numbers(text, bad);
  if (!numbers) return make_error("'" + bad + "' is not a tile number");
  const int n = static_cast<int>(numbers->size());
  int size = 0;
  for (int s = kMinSize; s <= kMaxSize; ++s)
    if (s * s == n) size = s;
  if (size == 0)
    return make_error("expected 9, 16 or 25 tiles (3x3 to 5x5), got " + std::to_string(n));
  Tiles t{};
  std::array<bool, kMaxCells> seen{};
  for (int c = 0; c < n; ++c) {
    const int v = (*numbers)[c];
    if (v < 0 || v >= n)
      return make_error("tile " + std::to_string(v) + " is out of range 0.." +
                        std::to_string(n - 1));
    if (seen[v]) return make_error("tile " + std::to_string(v) + " appears twice");
    seen[v] = true;
    t[c] = static_cast<std::uint8_t>(v);
  }
  if (!is_solvable(t, size))
    return make_error(
        "unsolvable instance: its permutation parity cannot reach the goal "
        "(blank first, then 1.." +
        std::to_string(n - 1) + ")");
  return SlidingPuzzle(t, size);
}

bool SlidingPuzzle::can_move(Direction d) const {
  const int row = blank_ / size_;
  const int col = blank_ % size_;
  switch (d) {
    case Direction::kUp:
      return row > 0;
    case Direction::kDown:
      return row < size_ - 1;
    case Direction::kLeft:
      return col > 0;
    case Direction::kRight:
      return col < size_ - 1;
  }
  return false;
}

void SlidingPuzzle::generate_moves(MoveList& list) const {
  list.clear();
  for (Direction d : {Direction::kUp, Direction::kLeft, Direction::kRight, Direction::kDown})
    if (can_move(d)) list.push_back(Move{d});
}

void SlidingPuzzle::make_move(Move m) {
  const int delta = m.dir == Direction::kUp     ? -size_
                    : m.dir == Direction::kDown ? size_
                    : m.dir == Direction::kLeft ? -1
                                                : 1;
  const int from = blank_;
  const int to = from + delta;
  const int tile = tiles_[to];
  hash_ ^= key(tile, to) ^ key(tile, from) ^ key(0, from) ^ key(0, to);
  tiles_[from] = static_cast<std::uint8_t>(tile);
  tiles_[to] = 0;
  blank_ = static_cast<std::uint8_t>(to);
}

bool SlidingPuzzle::is_solved() const {
  for (int c = 0; c < cells(); ++c)
    if (tiles_[c] != c) return false;
  return true;
}

Outcome SlidingPuzzle::outcome() const {
  return is_solved() ? Outcome::win_for(Player::kFirst, EndReason::kSolved) : Outcome::ongoing();
}

std::string SlidingPuzzle::move_to_string(Move m) const {
  return std::string(1, kDirLetters[static_cast<int>(m.dir)]);
}

std::optional<SlidingMove> SlidingPuzzle::parse_move(std::string_view text) const {
  if (text.size() != 1) return std::nullopt;
  for (int d = 0; d < 4; ++d) {
    const char c = text[0];
    if (c == kDirLetters[d] || c == kDirLetters[d] + ('a' - 'A')) {
      const Move m{static_cast<Direction>(d)};
      if (can_move(m.dir)) return m;
    }
  }
  return std::nullopt;
}

std::string SlidingPuzzle::serialize() const {
  std::string out;
  for (int c = 0; c < cells(); ++c) {
    if (c > 0) out += ' ';
    out += std::to_string(tiles_[c]);
  }
  return out;
}

std::string SlidingPuzzle::render() const {
  std::string out;
  for (int r = 0; r < size_; ++r) {
    for (int c = 0; c < size_; ++c) {
      const int t = tiles_[r * size_ + c];
      std::string cell = t == 0 ? "." : std::to_string(t);
      out += std::string(3 - cell.size(), ' ') + cell;
    }
    out += '\n';
  }
  return out;
}

}  // namespace arena::puzzles
