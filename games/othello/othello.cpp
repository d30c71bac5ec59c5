#include "games/othello/othello.h"

#include <cctype>
#include <cstring>
#include <type_traits>

#if defined(__AVX2__) || defined(__SSE2__)
#include <immintrin.h>
#endif

#include "games/core/zobrist.h"

namespace arena::othello {
namespace {

constexpr Bitboard kInnerFiles = 0x7E7E7E7E7E7E7E7EULL;  // b..g: a horizontal run stays inside

// Rays from each square to the board edge, for the eight directions as (file, row) steps.
// Directions 0..3 go towards higher square indices, 4..7 towards lower ones.
constexpr int kDirFile[8] = {1, 0, 1, -1, -1, 0, -1, 1};
constexpr int kDirRow[8] = {0, 1, 1, 1, 0, -1, -1, -1};

using RayTable = std::array<std::array<Bitboard, 8>, 64>;  // [square][direction]
constexpr RayTable make_rays() {
  RayTable rays{};
  for (int sq = 0; sq < 64; ++sq) {
    for (int dir = 0; dir < 8; ++dir) {
      Bitboard ray = 0;
      for (int f = sq % 8 + kDirFile[dir], r = sq / 8 + kDirRow[dir];
           f >= 0 && f < 8 && r >= 0 && r < 8; f += kDirFile[dir], r += kDirRow[dir]) {
        ray |= Bitboard{1} << (r * 8 + f);
      }
      rays[sq][dir] = ray;
    }
  }
  return rays;
}
alignas(64) constexpr RayTable kRays = make_rays();

#if defined(__AVX2__)
// x86-64-v3 build. Legal moves: the four direction pairs (shifts by 1, 8, 7 and 9 squares) run side
// by side in the four 64-bit lanes of one AVX2 register, each lane with its own shift count.

inline __m256i shifts() {
  return _mm256_set_epi64x(9, 7, 8, 1);
}
// The opponent discs a run may pass through in each lane: horizontal and diagonal runs must
// not reach the a or h file, or the next shift would wrap to the other side of the board.
inline __m256i run_masks(Bitboard opp) {
  const auto inner = static_cast<long long>(opp & kInnerFiles);
  return _mm256_set_epi64x(inner, inner, static_cast<long long>(opp), inner);
}
inline Bitboard or_lanes(__m256i v) {
  __m128i x = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  x = _mm_or_si128(x, _mm_unpackhi_epi64(x, x));
  return static_cast<Bitboard>(_mm_cvtsi128_si64(x));
}

inline Bitboard legal_moves_impl(Bitboard own, Bitboard opp) {
  const __m256i s = shifts();
  const __m256i s2 = _mm256_add_epi64(s, s);
  const __m256i p = _mm256_set1_epi64x(static_cast<long long>(own));
  const __m256i m = run_masks(opp);
  // Doubling fill from the own discs over opponent runs, both ways along each lane's line.
  __m256i l = _mm256_and_si256(m, _mm256_sllv_epi64(p, s));
  __m256i r = _mm256_and_si256(m, _mm256_srlv_epi64(p, s));
  l = _mm256_or_si256(l, _mm256_and_si256(m, _mm256_sllv_epi64(l, s)));
  r = _mm256_or_si256(r, _mm256_and_si256(m, _mm256_srlv_epi64(r, s)));
  const __m256i ml = _mm256_and_si256(m, _mm256_sllv_epi64(m, s));
  const __m256i mr = _mm256_and_si256(m, _mm256_srlv_epi64(m, s));
  l = _mm256_or_si256(l, _mm256_and_si256(ml, _mm256_sllv_epi64(l, s2)));
  r = _mm256_or_si256(r, _mm256_and_si256(mr, _mm256_srlv_epi64(r, s2)));
  l = _mm256_or_si256(l, _mm256_and_si256(ml, _mm256_sllv_epi64(l, s2)));
  r = _mm256_or_si256(r, _mm256_and_si256(mr, _mm256_srlv_epi64(r, s2)));
  const __m256i moves = _mm256_or_si256(_mm256_sllv_epi64(l, s), _mm256_srlv_epi64(r, s));
  return or_lanes(moves) & ~(own | opp);
}

// The four rays towards higher indices in one register, and in another the four on the
// vertically mirrored board (a byte swap), where south, south-west and south-east go towards
// higher indices too (its east ray repeats the board's, harmlessly). Each lane's run ends at
// the lowest square that is not an opponent disc and counts when that is an own disc; west
// takes the highest such square in 64-bit code.
inline Bitboard flips_impl(int square, Bitboard own, Bitboard opp) {
  const __m256i p = _mm256_set1_epi64x(static_cast<long long>(own));
  const __m256i o = _mm256_set1_epi64x(static_cast<long long>(opp));
  const __m256i mp = _mm256_set1_epi64x(static_cast<long long>(__builtin_bswap64(own)));
  const __m256i mo = _mm256_set1_epi64x(static_cast<long long>(__builtin_bswap64(opp)));
  const auto runs = [](__m256i rays, __m256i own_v, __m256i opp_v) {
    const __m256i stop = _mm256_andnot_si256(opp_v, rays);
    const __m256i end = _mm256_and_si256(
        _mm256_and_si256(stop, _mm256_sub_epi64(_mm256_setzero_si256(), stop)), own_v);
    const __m256i open = _mm256_cmpeq_epi64(end, _mm256_setzero_si256());
    return _mm256_andnot_si256(
        open, _mm256_and_si256(_mm256_add_epi64(end, _mm256_set1_epi64x(-1)), rays));
  };
  const __m256i up =
      runs(_mm256_load_si256(reinterpret_cast<const __m256i*>(kRays[square].data())), p, o);
  const __m256i down =
      runs(_mm256_load_si256(reinterpret_cast<const __m256i*>(kRays[square ^ 56].data())), mp, mo);
  const Bitboard west = kRays[square][4];
  const Bitboard stop = (west & ~opp) | 1;
  const Bitboard end = (Bitboard{1} << (63 - std::countl_zero(stop))) & own & west;
  return or_lanes(up) | __builtin_bswap64(or_lanes(down)) | ((Bitboard{0} - (end << 1)) & west);
}

#else
// Portable build.

// Candidate moves along one direction pair (shift +dir and -dir) by a doubling fill: `mask`
// holds the opponent discs a run may pass through, already cut at the edges that would wrap.
inline Bitboard moves_along(Bitboard own, Bitboard mask, int dir) {
  const int dir2 = dir + dir;
  Bitboard left = mask & (own << dir);
  Bitboard right = mask & (own >> dir);
  left |= mask & (left << dir);
  right |= mask & (right >> dir);
  const Bitboard mask_left = mask & (mask << dir);
  const Bitboard mask_right = mask & (mask >> dir);
  left |= mask_left & (left << dir2);
  right |= mask_right & (right >> dir2);
  left |= mask_left & (left << dir2);
  right |= mask_right & (right >> dir2);
  return (left << dir) | (right >> dir);
}

#if defined(__SSE2__)
// x86-64 baseline (SSE2): the two 64-bit lanes of a register hold the board and its vertical
// mirror (rows in reverse order: a byte swap). Towards higher squares by 8, 9 or 7 in the
// mirror is towards lower squares by 8, 7 or 9 on the board, so three one-way fills over both
// lanes cover six directions; the horizontal pair stays in 64-bit code.

inline Bitboard mirror(Bitboard b) {
  return __builtin_bswap64(b);
}
inline __m128i with_mirror(Bitboard b) {
  return _mm_set_epi64x(static_cast<long long>(mirror(b)), static_cast<long long>(b));
}
// Lane 0 or-ed with lane 1 mirrored back.
inline Bitboard unmirror_lanes(__m128i v) {
  return static_cast<Bitboard>(_mm_cvtsi128_si64(v)) |
         mirror(static_cast<Bitboard>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v))));
}

// The runs of `m` that start one shift above a disc of `from`, by a doubling fill.
template <int kShift>
inline __m128i fill_up(__m128i from, __m128i m) {
  __m128i run = _mm_and_si128(m, _mm_slli_epi64(from, kShift));
  run = _mm_or_si128(run, _mm_and_si128(m, _mm_slli_epi64(run, kShift)));
  const __m128i pairs = _mm_and_si128(m, _mm_slli_epi64(m, kShift));
  run = _mm_or_si128(run, _mm_and_si128(pairs, _mm_slli_epi64(run, 2 * kShift)));
  run = _mm_or_si128(run, _mm_and_si128(pairs, _mm_slli_epi64(run, 2 * kShift)));
  return run;
}

inline Bitboard legal_moves_impl(Bitboard own, Bitboard opp) {
  const __m128i p = with_mirror(own);
  const __m128i o = with_mirror(opp);
  const __m128i inner = _mm_and_si128(o, _mm_set1_epi64x(static_cast<long long>(kInnerFiles)));
  const __m128i moves = _mm_or_si128(_mm_slli_epi64(fill_up<8>(p, o), 8),
                                     _mm_or_si128(_mm_slli_epi64(fill_up<7>(p, inner), 7),
                                                  _mm_slli_epi64(fill_up<9>(p, inner), 9)));
  return (unmirror_lanes(moves) | moves_along(own, opp & kInnerFiles, 1)) & ~(own | opp);
}

#else
// Plain 64-bit code.

inline Bitboard legal_moves_impl(Bitboard own, Bitboard opp) {
  const Bitboard inner = opp & kInnerFiles;
  const Bitboard moves = moves_along(own, inner, 1) | moves_along(own, opp, 8) |
                         moves_along(own, inner, 7) | moves_along(own, inner, 9);
  return moves & ~(own | opp);
}

#endif

// The discs of `ray` (from a square towards higher indices) between its start and the first
// square that is not an opponent disc, when that square holds an own disc.
inline Bitboard closed_run_up(Bitboard ray, Bitboard own, Bitboard opp) {
  const Bitboard stop = ray & ~opp;
  const Bitboard end = stop & (Bitboard{0} - stop) & own;
  return (end - (end != 0)) & ray;
}

// flips_impl: towards higher indices the first square that is not an opponent disc is the
// lowest set bit of the ray without opponent discs. Three of the four rays towards lower
// indices (south, south-west, south-east) are rays towards higher indices on the vertically
// mirrored board (a byte swap); the fourth (west) takes the highest set bit instead.
#if defined(__SSE2__)
// With SSE2 two rays per register: the four rays towards higher indices on the board, then
// the three on the mirrored board; west in 64-bit code. closed_run_up lane by lane:
inline __m128i closed_runs_up(__m128i rays, __m128i own, __m128i opp) {
  const __m128i stop = _mm_andnot_si128(opp, rays);
  const __m128i end =
      _mm_and_si128(_mm_and_si128(stop, _mm_sub_epi64(_mm_setzero_si128(), stop)), own);
  const __m128i below = _mm_add_epi64(end, _mm_set1_epi64x(-1));
  // below has its top bit set exactly when end is 0 (no own disc closes the run).
  const __m128i open = _mm_shuffle_epi32(_mm_srai_epi32(below, 31), 0xF5);
  return _mm_andnot_si128(open, _mm_and_si128(below, rays));
}

inline Bitboard flips_impl(int square, Bitboard own, Bitboard opp) {
  const Bitboard* rays = kRays[square].data();
  const Bitboard* mirrored_rays = kRays[square ^ 56].data();
  const __m128i p = _mm_set1_epi64x(static_cast<long long>(own));
  const __m128i o = _mm_set1_epi64x(static_cast<long long>(opp));
  const __m128i mp = _mm_set1_epi64x(static_cast<long long>(__builtin_bswap64(own)));
  const __m128i mo = _mm_set1_epi64x(static_cast<long long>(__builtin_bswap64(opp)));
  const __m128i up = _mm_or_si128(
      closed_runs_up(_mm_load_si128(reinterpret_cast<const __m128i*>(rays)), p, o),
      closed_runs_up(_mm_load_si128(reinterpret_cast<const __m128i*>(rays + 2)), p, o));
  const __m128i down = _mm_or_si128(
      closed_runs_up(_mm_loadu_si128(reinterpret_cast<const __m128i*>(mirrored_rays + 1)), mp, mo),
      closed_runs_up(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(mirrored_rays + 3)), mp, mo));
  const __m128i up1 = _mm_or_si128(up, _mm_unpackhi_epi64(up, up));
  const __m128i down1 = _mm_or_si128(down, _mm_unpackhi_epi64(down, down));
  const Bitboard west = rays[4];
  const Bitboard stop = (west & ~opp) | 1;
  const Bitboard end = (Bitboard{1} << (63 - std::countl_zero(stop))) & own & west;
  return static_cast<Bitboard>(_mm_cvtsi128_si64(up1)) |
         __builtin_bswap64(static_cast<Bitboard>(_mm_cvtsi128_si64(down1))) |
         ((Bitboard{0} - (end << 1)) & west);
}
#else
inline Bitboard flips_impl(int square, Bitboard own, Bitboard opp) {
  const Bitboard* rays = kRays[square].data();
  const Bitboard* mirrored_rays = kRays[square ^ 56].data();
  const Bitboard mirrored_own = __builtin_bswap64(own);
  const Bitboard mirrored_opp = __builtin_bswap64(opp);
  const Bitboard up = closed_run_up(rays[0], own, opp) | closed_run_up(rays[1], own, opp) |
                      closed_run_up(rays[2], own, opp) | closed_run_up(rays[3], own, opp);
  const Bitboard down = closed_run_up(mirrored_rays[1], mirrored_own, mirrored_opp) |
                        closed_run_up(mirrored_rays[2], mirrored_own, mirrored_opp) |
                        closed_run_up(mirrored_rays[3], mirrored_own, mirrored_opp);
  // West: bit 0 stands in when the ray has no stop; it is outside the ray or not own.
  const Bitboard west = rays[4];
  const Bitboard stop = (west & ~opp) | 1;
  const Bitboard end = (Bitboard{1} << (63 - std::countl_zero(stop))) & own & west;
  return up | __builtin_bswap64(down) | ((Bitboard{0} - (end << 1)) & west);
}
#endif

#endif

// Zobrist keys: one per square for each colour, one for White to move. The byte tables hold,
// for byte `i` of a bitboard and its value `v`, the XOR of the keys of the squares set in `v`,
// so the full hash takes 16 lookups.
constexpr std::uint64_t kZobristSeed = 0x07E11000ULL;
constexpr auto kSquareKeys = make_zobrist_keys<129>(kZobristSeed);
constexpr std::uint64_t kSideKey = kSquareKeys[128];

using ByteTable = std::array<std::array<std::uint64_t, 256>, 16>;
constexpr ByteTable make_byte_table() {
  ByteTable table{};
  for (int colour = 0; colour < 2; ++colour) {
    for (int byte = 0; byte < 8; ++byte) {
      for (int value = 0; value < 256; ++value) {
        std::uint64_t key = 0;
        for (int bit = 0; bit < 8; ++bit) {
          if (value & (1 << bit)) key ^= kSquareKeys[colour * 64 + byte * 8 + bit];
        }
        table[colour * 8 + byte][value] = key;
      }
    }
  }
  return table;
}
constexpr ByteTable kByteKeys = make_byte_table();

// For each 8-bit row of a mask, its set bits' file numbers, packed one per byte from the
// lowest (the rest zero), and their count.
constexpr std::array<std::uint64_t, 256> make_row_squares() {
  std::array<std::uint64_t, 256> table{};
  for (int bits = 0; bits < 256; ++bits) {
    int n = 0;
    for (int file = 0; file < 8; ++file) {
      if (bits & (1 << file)) table[bits] |= static_cast<std::uint64_t>(file) << (8 * n++);
    }
  }
  return table;
}
constexpr std::array<std::uint64_t, 256> kRowSquares = make_row_squares();
constexpr std::array<std::uint8_t, 256> make_row_counts() {
  std::array<std::uint8_t, 256> table{};
  for (int bits = 0; bits < 256; ++bits)
    table[bits] = static_cast<std::uint8_t>(std::popcount(static_cast<unsigned>(bits)));
  return table;
}
constexpr std::array<std::uint8_t, 256> kRowCounts = make_row_counts();

constexpr int kCentre[4] = {27, 28, 35, 36};  // d4, e4, d5, e5

std::string square_name(int square) {
  return {static_cast<char>('a' + square % 8), static_cast<char>('1' + square / 8)};
}

}  // namespace

Bitboard legal_moves_mask(Bitboard own, Bitboard opp) {
  return legal_moves_impl(own, opp);
}

Bitboard flips_for(int square, Bitboard own, Bitboard opp) {
  return flips_impl(square, own, opp);
}

namespace {

// Without the POPCNT instruction std::popcount is a call into libgcc; inline bit arithmetic
// is faster in the perft loop.
inline int count_squares(Bitboard b) {
#if defined(__POPCNT__)
  return std::popcount(b);
#else
  b -= (b >> 1) & 0x5555555555555555ULL;
  b = (b & 0x3333333333333333ULL) + ((b >> 2) & 0x3333333333333333ULL);
  b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  return static_cast<int>((b * 0x0101010101010101ULL) >> 56);
#endif
}

// `depth` >= 1 plies below a position where `own` is to move.
std::uint64_t perft_from(Bitboard own, Bitboard opp, int depth) {
  Bitboard moves = legal_moves_impl(own, opp);
  if (moves == 0) {
    // A pass is one move; with no move on either side the game is over, one leaf.
    if (depth == 1 || legal_moves_impl(opp, own) == 0) return 1;
    return perft_from(opp, own, depth - 1);
  }
  if (depth == 1) return static_cast<std::uint64_t>(count_squares(moves));
  std::uint64_t nodes = 0;
  if (depth == 2) {
    // Each child counts its moves, or 1 when it has none (a pass, or a game over).
    do {
      const int square = std::countr_zero(moves);
      moves &= moves - 1;
      const Bitboard flips = flips_impl(square, own, opp);
      const Bitboard replies = legal_moves_impl(opp ^ flips, own ^ flips ^ (Bitboard{1} << square));
      nodes += replies ? static_cast<std::uint64_t>(count_squares(replies)) : 1;
    } while (moves);
    return nodes;
  }
  do {
    const int square = std::countr_zero(moves);
    moves &= moves - 1;
    const Bitboard flips = flips_impl(square, own, opp);
    nodes += perft_from(opp ^ flips, own ^ flips ^ (Bitboard{1} << square), depth - 1);
  } while (moves);
  return nodes;
}

}  // namespace

std::uint64_t fast_perft(const Othello& game, int depth) {
  if (depth <= 0) return 1;
  const Player side = game.side_to_move();
  return perft_from(game.discs(side), game.discs(opponent(side)), depth);
}

Expected<Othello> Othello::create(const GameOptions& options) {
  if (!options.empty()) {
    return make_error("othello takes no options; unknown option '" + options.begin()->first + "'");
  }
  Othello game;
  game.discs_[index(Player::kFirst)] = (Bitboard{1} << 35) | (Bitboard{1} << 28);   // d5, e4
  game.discs_[index(Player::kSecond)] = (Bitboard{1} << 27) | (Bitboard{1} << 36);  // d4, e5
  return game;
}

Expected<Othello> Othello::deserialize(std::string_view text) {
  if (text.size() != 66 || text[64] != ' ') {
    return make_error("othello position '" + std::string(text) +
                      "': expected 64 squares of 'X', 'O' or '-', a space and the side to "
                      "move ('X' or 'O')");
  }
  Othello game;
  for (int sq = 0; sq < 64; ++sq) {
    const char c = text[sq];
    const Bitboard bit = Bitboard{1} << sq;
    if (c == 'X') {
      game.discs_[0] |= bit;
    } else if (c == 'O') {
      game.discs_[1] |= bit;
    } else if (c != '-') {
      return make_error("othello position: square " + square_name(sq) + " holds '" +
                        std::string(1, c) + "'; expected 'X', 'O' or '-'");
    }
  }
  for (int sq : kCentre) {
    if (!((game.discs_[0] | game.discs_[1]) & (Bitboard{1} << sq)))
      return make_error("othello position: centre square " + square_name(sq) +
                        " is empty, which no game can reach");
  }
  if (text[65] == 'X') {
    game.side_ = Player::kFirst;
  } else if (text[65] == 'O') {
    game.side_ = Player::kSecond;
  } else {
    return make_error("othello position: side to move '" + std::string(1, text[65]) +
                      "'; expected 'X' or 'O'");
  }
  return game;
}

Expected<Othello> Othello::from_opening(std::string_view moves) {
  Othello game = *create({});
  std::size_t i = 0;
  int ply = 1;
  while (i < moves.size()) {
    if (moves[i] == ' ') {
      ++i;
      continue;
    }
    const std::string_view text =
        moves.substr(i, moves.substr(i, 4) == "pass" || moves.substr(i, 4) == "PASS" ? 4 : 2);
    auto move = game.parse_move(text);
    if (!move) {
      return make_error("opening '" + std::string(moves) + "': move " + std::to_string(ply) + " '" +
                        std::string(text) + "' is not legal");
    }
    game.make_move(*move);
    i += text.size();
    ++ply;
  }
  return game;
}

void Othello::generate_moves(MoveList& list) const {
  list.clear();
  const Bitboard own = discs_[index(side_)];
  const Bitboard opp = discs_[index(opponent(side_))];
  const Bitboard moves = legal_moves_impl(own, opp);
  if (moves == 0) {
    if (legal_moves_impl(opp, own) != 0) list.push_back(Move{});
    return;
  }
  // Eight bytes of square numbers per row of the mask, from a table, without a branch per
  // move (a Move is one trivially copyable byte): row k's squares go to [n, n + 8), and
  // n <= 8k, so the write stays inside the list.
  static_assert(sizeof(Move) == 1 && std::is_trivially_copyable_v<Move> &&
                Othello::MoveList::kCapacity >= 64);
  std::size_t n = 0;
  for (int row = 0; row < 8; ++row) {
    const unsigned bits = static_cast<unsigned>(moves >> (8 * row)) & 0xFF;
    const std::uint64_t squares =
        kRowSquares[bits] + static_cast<std::uint64_t>(8 * row) * 0x0101010101010101ULL;
    std::memcpy(static_cast<void*>(list.begin() + n), &squares, 8);
    n += static_cast<std::size_t>(kRowCounts[bits]);
  }
  list.resize(n);
}

void Othello::make_move(Move m) {
  if (!m.is_pass()) {
    Bitboard& own = discs_[index(side_)];
    Bitboard& opp = discs_[index(opponent(side_))];
    const Bitboard flips = flips_impl(m.square, own, opp);
    own ^= flips | (Bitboard{1} << m.square);
    opp ^= flips;
    undo_[undo_size_++] = flips;
  }
  side_ = opponent(side_);
}

void Othello::unmake_move(Move m) {
  side_ = opponent(side_);
  if (!m.is_pass()) {
    const Bitboard flips = undo_[--undo_size_];
    discs_[index(side_)] ^= flips | (Bitboard{1} << m.square);
    discs_[index(opponent(side_))] ^= flips;
  }
}

Outcome Othello::outcome() const {
  const Bitboard black = discs_[0];
  const Bitboard white = discs_[1];
  if (legal_moves_mask(black, white) != 0 || legal_moves_mask(white, black) != 0)
    return Outcome::ongoing();
  const int b = std::popcount(black);
  const int w = std::popcount(white);
  if (b == w) return Outcome::draw(EndReason::kDiscCount);
  return Outcome::win_for(b > w ? Player::kFirst : Player::kSecond, EndReason::kDiscCount);
}

std::uint64_t Othello::hash() const {
  std::uint64_t h = side_ == Player::kSecond ? kSideKey : 0;
  for (int colour = 0; colour < 2; ++colour) {
    const Bitboard b = discs_[colour];
    for (int byte = 0; byte < 8; ++byte)
      h ^= kByteKeys[colour * 8 + byte][(b >> (8 * byte)) & 0xFF];
  }
  return h;
}

std::string Othello::move_to_string(Move m) const {
  return m.is_pass() ? "pass" : square_name(m.square);
}

std::optional<Move> Othello::parse_move(std::string_view text) const {
  Move wanted;
  if (text.size() == 4) {
    std::string lower;
    for (char c : text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower != "pass") return std::nullopt;
  } else if (text.size() == 2) {
    const int file = std::tolower(static_cast<unsigned char>(text[0])) - 'a';
    const int row = text[1] - '1';
    if (file < 0 || file > 7 || row < 0 || row > 7) return std::nullopt;
    wanted.square = static_cast<std::uint8_t>(row * 8 + file);
  } else {
    return std::nullopt;
  }
  MoveList list;
  generate_moves(list);
  for (const Move& m : list) {
    if (m == wanted) return m;
  }
  return std::nullopt;
}

std::string Othello::serialize() const {
  std::string out(66, '-');
  for (int sq = 0; sq < 64; ++sq) {
    const Bitboard bit = Bitboard{1} << sq;
    if (discs_[0] & bit) out[sq] = 'X';
    if (discs_[1] & bit) out[sq] = 'O';
  }
  out[64] = ' ';
  out[65] = side_ == Player::kFirst ? 'X' : 'O';
  return out;
}

std::string Othello::render() const {
  std::string out = "  a b c d e f g h\n";
  for (int row = 0; row < 8; ++row) {
    out += static_cast<char>('1' + row);
    for (int file = 0; file < 8; ++file) {
      const Bitboard bit = Bitboard{1} << (row * 8 + file);
      out += ' ';
      out += (discs_[0] & bit) ? 'X' : (discs_[1] & bit) ? 'O' : '.';
    }
    out += '\n';
  }
  out += side_ == Player::kFirst ? "X (Black) to move\n" : "O (White) to move\n";
  return out;
}

}  // namespace arena::othello
