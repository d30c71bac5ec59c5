#include "games/puzzles/rubiks_cube.h"

#include <algorithm>
#include <charconv>
#include <vector>

#include "games/core/zobrist.h"

namespace arena::puzzles {
namespace {

struct CubieMove {
  std::array<std::uint8_t, 8> cp, co;
  std::array<std::uint8_t, 12> ep, eo;
};

// Clockwise quarter turns in Kociemba's "replaced by" form: after the turn, position i holds
// the cubie that was at cp[i], twisted by co[i].
constexpr std::array<CubieMove, 6> kQuarterTurns = {{
    {{3, 0, 1, 2, 4, 5, 6, 7},
     {0, 0, 0, 0, 0, 0, 0, 0},  // U
     {3, 0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11},
     {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {{4, 1, 2, 0, 7, 5, 6, 3},
     {2, 0, 0, 1, 1, 0, 0, 2},  // R
     {8, 1, 2, 3, 11, 5, 6, 7, 4, 9, 10, 0},
     {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {{1, 5, 2, 3, 0, 4, 6, 7},
     {1, 2, 0, 0, 2, 1, 0, 0},  // F
     {0, 9, 2, 3, 4, 8, 6, 7, 1, 5, 10, 11},
     {0, 1, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0}},
    {{0, 1, 2, 3, 5, 6, 7, 4},
     {0, 0, 0, 0, 0, 0, 0, 0},  // D
     {0, 1, 2, 3, 5, 6, 7, 4, 8, 9, 10, 11},
     {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {{0, 2, 6, 3, 4, 1, 5, 7},
     {0, 1, 2, 0, 0, 2, 1, 0},  // L
     {0, 1, 10, 3, 4, 5, 9, 7, 8, 2, 6, 11},
     {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {{0, 1, 3, 7, 4, 5, 2, 6},
     {0, 0, 1, 2, 0, 0, 2, 1},  // B
     {0, 1, 2, 11, 4, 5, 6, 10, 8, 9, 3, 7},
     {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 1}},
}};

constexpr char kFaceLetters[] = {'U', 'R', 'F', 'D', 'L', 'B'};
// Generation order of the faces: U D F B L R, each as X, X', X2.
constexpr int kFaceOrder[] = {0, 3, 2, 5, 4, 1};
constexpr int kTurnOrder[] = {1, 3, 2};

// Stickers of each cubie in Kociemba's facelet order (the position of the same name).
constexpr std::string_view kCornerNames[] = {"URF", "UFL", "ULB", "UBR",
                                             "DFR", "DLF", "DBL", "DRB"};
constexpr std::string_view kEdgeNames[] = {"UR", "UF", "UL", "UB", "DR", "DF",
                                           "DL", "DB", "FR", "FL", "BL", "BR"};
// Reid's position order, as Kociemba indices; Reid reads corners in the order (0, 2, 1) of
// Kociemba's facelets (UFR for URF), edges in the same order.
constexpr int kReidEdges[] = {1, 0, 3, 2, 5, 4, 7, 6, 8, 9, 11, 10};
constexpr int kReidCorners[] = {0, 3, 2, 1, 4, 5, 6, 7};
constexpr int kReidCornerFacelet[] = {0, 2, 1};

constexpr auto kKeys = make_zobrist_keys<8 * 8 * 3 + 12 * 12 * 2>(0xC0BE3ULL);

template <std::size_t N>
int parity(const std::array<std::uint8_t, N>& p) {
  int inversions = 0;
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = i + 1; j < N; ++j) inversions += p[j] < p[i];
  return inversions % 2;
}

// "'text'" (GCC 12 at -O3 warns falsely on "'" + std::string(...)).
std::string quoted(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out.push_back('\'');
  out.append(text);
  out.push_back('\'');
  return out;
}

// True when `a` is a permutation of `b` ("FU" of "UF"; not "UU" nor "RRF" of "URF").
bool same_letters(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::is_permutation(a.begin(), a.end(), b.begin());
}

}  // namespace

RubiksCube::RubiksCube() {
  for (int i = 0; i < kCorners; ++i) cp_[i] = static_cast<std::uint8_t>(i);
  for (int i = 0; i < kEdges; ++i) ep_[i] = static_cast<std::uint8_t>(i);
  hash_ = compute_hash();
}

std::uint64_t RubiksCube::compute_hash() const {
  std::uint64_t h = 0;
  for (int i = 0; i < kCorners; ++i) h ^= kKeys[(i * 8 + cp_[i]) * 3 + co_[i]];
  for (int i = 0; i < kEdges; ++i) h ^= kKeys[192 + (i * 12 + ep_[i]) * 2 + eo_[i]];
  return h;
}

void RubiksCube::quarter_turn(int face) {
  const CubieMove& m = kQuarterTurns[face];
  const auto cp = cp_, co = co_;
  const auto ep = ep_, eo = eo_;
  for (int i = 0; i < kCorners; ++i) {
    cp_[i] = cp[m.cp[i]];
    co_[i] = static_cast<std::uint8_t>((co[m.cp[i]] + m.co[i]) % 3);
  }
  for (int i = 0; i < kEdges; ++i) {
    ep_[i] = ep[m.ep[i]];
    eo_[i] = static_cast<std::uint8_t>((eo[m.ep[i]] + m.eo[i]) % 2);
  }
}

void RubiksCube::make_move(Move m) {
  for (int t = 0; t < m.turns; ++t) quarter_turn(m.face);
  hash_ = compute_hash();
}

void RubiksCube::generate_moves(MoveList& list) const {
  list.clear();
  for (int f : kFaceOrder)
    for (int t : kTurnOrder)
      list.push_back(Move{static_cast<std::uint8_t>(f), static_cast<std::uint8_t>(t)});
}

bool RubiksCube::is_solved() const {
  return *this == RubiksCube();
}

Outcome RubiksCube::outcome() const {
  return is_solved() ? Outcome::win_for(Player::kFirst, EndReason::kSolved) : Outcome::ongoing();
}

std::string RubiksCube::move_to_string(Move m) const {
  // Built from a buffer: appending to a one-char string trips GCC 12's -Wrestrict at -O3.
  const char text[2] = {kFaceLetters[m.face], m.turns == 2 ? '2' : '\''};
  return std::string(text, m.turns == 1 ? 1 : 2);
}

std::optional<CubeMove> RubiksCube::parse_move(std::string_view text) const {
  if (text.empty() || text.size() > 2) return std::nullopt;
  int face = -1;
  for (int f = 0; f < 6; ++f)
    if (text[0] == kFaceLetters[f]) face = f;
  if (face < 0) return std::nullopt;
  int turns = 1;
  if (text.size() == 2) {
    if (text[1] == '2') {
      turns = 2;
    } else if (text[1] == '\'') {
      turns = 3;
    } else {
      return std::nullopt;
    }
  }
  return Move{static_cast<std::uint8_t>(face), static_cast<std::uint8_t>(turns)};
}

Expected<void> RubiksCube::apply_sequence(std::string_view moves) {
  std::size_t i = 0;
  while (i < moves.size()) {
    if (moves[i] == ' ') {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < moves.size() && moves[j] != ' ') ++j;
    auto m = parse_move(moves.substr(i, j - i));
    if (!m) return make_error(quoted(moves.substr(i, j - i)) + " is not a face turn");
    make_move(*m);
    i = j;
  }
  return {};
}

RubiksCube RubiksCube::scrambled(int length, std::uint64_t seed) {
  RubiksCube cube;
  std::uint64_t state = seed ^ 0xC0BEC0BEULL;
  int last_face = -1;
  for (int i = 0; i < length; ++i) {
    int face = 0;
    do {
      face = static_cast<int>(splitmix64(state) % 6);
    } while (face == last_face);
    const int turns = static_cast<int>(splitmix64(state) % 3) + 1;
    cube.make_move(Move{static_cast<std::uint8_t>(face), static_cast<std::uint8_t>(turns)});
    last_face = face;
  }
  return cube;
}

Expected<RubiksCube> RubiksCube::create(const GameOptions& options) {
  int length = 20;
  std::uint64_t seed = 1;
  for (const auto& [k, v] : options) {
    std::uint64_t x = 0;
    auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
    const bool ok = ec == std::errc() && ptr == v.data() + v.size() && !v.empty();
    if (k == "scramble") {
      if (!ok || x > 10000) return make_error("option scramble='" + v + "' must be 0..10000");
      length = static_cast<int>(x);
    } else if (k == "seed") {
      if (!ok) return make_error("option seed='" + v + "' is not a non-negative integer");
      seed = x;
    } else {
      return make_error("unknown option '" + k + "' (known: scramble, seed)");
    }
  }
  return scrambled(length, seed);
}

std::string RubiksCube::serialize() const {
  std::string out;
  for (int i : kReidEdges) {
    std::string s(2, ' ');
    for (int n = 0; n < 2; ++n) s[(n + eo_[i]) % 2] = kEdgeNames[ep_[i]][n];
    out += s + ' ';
  }
  for (int i : kReidCorners) {
    char f[3];
    for (int n = 0; n < 3; ++n) f[(n + co_[i]) % 3] = kCornerNames[cp_[i]][n];
    for (int k : kReidCornerFacelet) out += f[k];
    out += ' ';
  }
  out.pop_back();
  return out;
}

Expected<RubiksCube> RubiksCube::deserialize(std::string_view text) {
  std::vector<std::string_view> tokens;
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] == ' ') {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < text.size() && text[j] != ' ') ++j;
    tokens.push_back(text.substr(i, j - i));
    i = j;
  }
  if (tokens.size() != 20)
    return make_error("expected 20 cubies (12 edges, 8 corners, Reid's order), got " +
                      std::to_string(tokens.size()));
  RubiksCube c;
  std::array<bool, 12> seen_edge{};
  std::array<bool, 8> seen_corner{};
  for (int r = 0; r < 12; ++r) {
    const std::string_view s = tokens[r];
    const int pos = kReidEdges[r];
    int cubie = -1;
    for (int j = 0; j < 12; ++j)
      if (same_letters(s, kEdgeNames[j])) cubie = j;
    if (cubie < 0) return make_error(quoted(s) + " is not an edge cubie");
    if (seen_edge[cubie]) return make_error("edge " + std::string(s) + " appears twice");
    seen_edge[cubie] = true;
    c.ep_[pos] = static_cast<std::uint8_t>(cubie);
    c.eo_[pos] = s[0] == kEdgeNames[cubie][0] ? 0 : 1;
  }
  for (int r = 0; r < 8; ++r) {
    const std::string_view s = tokens[12 + r];
    const int pos = kReidCorners[r];
    int cubie = -1;
    for (int j = 0; j < 8; ++j)
      if (same_letters(s, kCornerNames[j])) cubie = j;
    if (cubie < 0) return make_error(quoted(s) + " is not a corner cubie");
    if (seen_corner[cubie]) return make_error("corner " + std::string(s) + " appears twice");
    seen_corner[cubie] = true;
    char f[3];
    for (int k = 0; k < 3; ++k) f[kReidCornerFacelet[k]] = s[k];
    int ori = 0;
    while (f[ori] != kCornerNames[cubie][0]) ++ori;
    for (int n = 0; n < 3; ++n)
      if (f[(n + ori) % 3] != kCornerNames[cubie][n])
        return make_error("corner " + quoted(s) + " has its stickers in mirror order");
    c.cp_[pos] = static_cast<std::uint8_t>(cubie);
    c.co_[pos] = static_cast<std::uint8_t>(ori);
  }
  int twist = 0, flip = 0;
  for (auto o : c.co_) twist += o;
  for (auto o : c.eo_) flip += o;
  if (twist % 3 != 0)
    return make_error("corner twists sum to " + std::to_string(twist) +
                      ", not a multiple of 3 (a twisted corner)");
  if (flip % 2 != 0) return make_error("an odd number of flipped edges (a flipped edge)");
  if (parity(c.cp_) != parity(c.ep_))
    return make_error("corner and edge permutations differ in parity (two cubies swapped)");
  c.hash_ = c.compute_hash();
  return c;
}

}  // namespace arena::puzzles
