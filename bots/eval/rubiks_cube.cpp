#include "bots/eval/rubiks_cube.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>

#include "bots/eval/pattern_database.h"
#include "games/core/fnv1a.h"

namespace arena::eval {
namespace {

using puzzles::CubeMove;
using puzzles::RubiksCube;

// The 18 moves as cubie permutations: the solved cube after the move.
std::array<RubiksCube, 18> move_cubes() {
  std::array<RubiksCube, 18> out{};
  RubiksCube::MoveList list;
  RubiksCube::solved().generate_moves(list);
  for (std::size_t i = 0; i < list.size(); ++i) {
    out[i] = RubiksCube::solved();
    out[i].make_move(list[i]);
  }
  return out;
}

// dist[cubie][position * kOri + orientation]: face turns for that cubie alone to get home.
template <int kCount, int kOri, bool kCorner>
std::array<std::array<std::uint8_t, kCount * kOri>, kCount> single_cubie_distances() {
  const auto moves = move_cubes();
  std::array<std::array<std::uint8_t, kCount * kOri>, kCount> dist{};
  for (int cubie = 0; cubie < kCount; ++cubie) {
    auto& d = dist[cubie];
    d.fill(0xFF);
    d[cubie * kOri] = 0;
    for (int depth = 0; depth < kCount * kOri; ++depth) {
      for (int s = 0; s < kCount * kOri; ++s) {
        if (d[s] != depth) continue;
        const int pos = s / kOri, ori = s % kOri;
        for (const auto& m : moves) {
          // After the move, position q holds what was at perm[q], twisted by ori_delta[q].
          for (int q = 0; q < kCount; ++q) {
            const int from = kCorner ? m.corner_permutation()[q] : m.edge_permutation()[q];
            if (from != pos) continue;
            const int delta = kCorner ? m.corner_orientation()[q] : m.edge_orientation()[q];
            const int next = q * kOri + (ori + delta) % kOri;
            if (d[next] == 0xFF) d[next] = static_cast<std::uint8_t>(depth + 1);
          }
        }
      }
    }
  }
  return dist;
}

const auto& corner_distances() {
  static const auto table = single_cubie_distances<8, 3, true>();
  return table;
}
const auto& edge_distances() {
  static const auto table = single_cubie_distances<12, 2, false>();
  return table;
}

int rank_permutation8(const std::array<std::uint8_t, 8>& p) {
  int rank = 0;
  std::uint32_t used = 0;
  for (int i = 0; i < 8; ++i) {
    rank = rank * (8 - i) + p[i] - __builtin_popcount(used & ((1u << p[i]) - 1));
    used |= 1u << p[i];
  }
  return rank;
}

std::array<std::uint8_t, 8> unrank_permutation8(int rank) {
  int digit[8];
  for (int i = 7; i >= 0; --i) {
    digit[i] = rank % (8 - i);
    rank /= 8 - i;
  }
  std::array<std::uint8_t, 8> p{};
  std::uint32_t used = 0;
  for (int i = 0; i < 8; ++i) {
    int c = 0;
    for (int seen = -1;; ++c)
      if (!(used & (1u << c)) && ++seen == digit[i]) break;
    p[i] = static_cast<std::uint8_t>(c);
    used |= 1u << c;
  }
  return p;
}

int twist_coordinate(const std::array<std::uint8_t, 8>& co) {
  int x = 0;
  for (int i = 0; i < 7; ++i) x = x * 3 + co[i];
  return x;
}

std::array<std::uint8_t, 8> twists_of(int x) {
  std::array<std::uint8_t, 8> co{};
  int sum = 0;
  for (int i = 6; i >= 0; --i) {
    co[i] = static_cast<std::uint8_t>(x % 3);
    sum += co[i];
    x /= 3;
  }
  co[7] = static_cast<std::uint8_t>((3 - sum % 3) % 3);
  return co;
}

struct CornerFileHeader {
  char magic[8];
  std::uint32_t version;
  std::uint32_t max_depth;
  std::uint64_t states;
  std::uint64_t checksum;
};

}  // namespace

int manhattan_3d(const RubiksCube& c) {
  int sum = 0;
  for (int i = 0; i < 8; ++i)
    sum += corner_distances()[c.corner_permutation()[i]][i * 3 + c.corner_orientation()[i]];
  for (int i = 0; i < 12; ++i)
    sum += edge_distances()[c.edge_permutation()[i]][i * 2 + c.edge_orientation()[i]];
  return sum;
}

int manhattan_3d_admissible(const RubiksCube& c) {
  return (manhattan_3d(c) + 7) / 8;
}

std::uint32_t CornerPatternDatabase::index_of(const RubiksCube& c) {
  return static_cast<std::uint32_t>(rank_permutation8(c.corner_permutation())) * 2187u +
         static_cast<std::uint32_t>(twist_coordinate(c.corner_orientation()));
}

CornerPatternDatabase CornerPatternDatabase::build(int max_depth) {
  // Step 1. Move tables on the two coordinates, so that a child's index is two lookups.
  const auto moves = move_cubes();
  std::vector<std::uint16_t> perm_move(40320 * 18), twist_move(2187 * 18);
  for (int r = 0; r < 40320; ++r) {
    const auto p = unrank_permutation8(r);
    for (int m = 0; m < 18; ++m) {
      std::array<std::uint8_t, 8> q{};
      for (int i = 0; i < 8; ++i) q[i] = p[moves[m].corner_permutation()[i]];
      perm_move[r * 18 + m] = static_cast<std::uint16_t>(rank_permutation8(q));
    }
  }
  for (int x = 0; x < 2187; ++x) {
    const auto co = twists_of(x);
    for (int m = 0; m < 18; ++m) {
      std::array<std::uint8_t, 8> t{};
      for (int i = 0; i < 8; ++i)
        t[i] = static_cast<std::uint8_t>(
            (co[moves[m].corner_permutation()[i]] + moves[m].corner_orientation()[i]) % 3);
      twist_move[x * 18 + m] = static_cast<std::uint16_t>(twist_coordinate(t));
    }
  }
  // Step 2. Breadth-first, layer by layer over the nibble array (0xF = not reached yet).
  CornerPatternDatabase db;
  db.max_depth_ = max_depth;
  db.nibbles_.assign(kStates / 2, 0xFF);
  auto set = [&](std::uint32_t i, int v) {
    auto& b = db.nibbles_[i >> 1];
    const int shift = (i & 1) * 4;
    b = static_cast<std::uint8_t>((b & ~(0xF << shift)) | (v << shift));
  };
  set(index_of(RubiksCube::solved()), 0);
  for (int d = 0; d < max_depth; ++d) {
    bool grew = false;
    for (std::uint32_t b = 0; b < kStates / 2; ++b) {
      if (db.nibbles_[b] == 0xFF) continue;
      for (std::uint32_t i = b * 2; i < b * 2 + 2; ++i) {
        if (db.at(i) != d) continue;
        const std::uint32_t perm = i / 2187, twist = i % 2187;
        for (int m = 0; m < 18; ++m) {
          const std::uint32_t child = perm_move[perm * 18 + m] * 2187u + twist_move[twist * 18 + m];
          if (db.at(child) == 0xF) {
            set(child, d + 1);
            grew = true;
          }
        }
      }
    }
    if (!grew) break;
  }
  // Step 3. What was not reached within max_depth is at least max_depth + 1 away.
  if (max_depth < 11)
    for (std::uint32_t i = 0; i < kStates; ++i)
      if (db.at(i) == 0xF) set(i, max_depth + 1);
  return db;
}

std::string CornerPatternDatabase::cache_file(const std::string& cache_dir) {
  return cache_dir + "/rubik-corner-pdb.bin";
}

Expected<CornerPatternDatabase> CornerPatternDatabase::load_or_build(const std::string& cache_dir,
                                                                     std::string* how) {
  const std::string path = cache_file(cache_dir);
  std::string reason = "no cache file";
  if (std::ifstream in{path, std::ios::binary}) {
    CornerFileHeader h{};
    in.read(reinterpret_cast<char*>(&h), sizeof h);
    if (in && std::memcmp(h.magic, "ARENARCP", 8) == 0 && h.version == kVersion &&
        h.states == kStates && h.max_depth == 11) {
      CornerPatternDatabase db;
      db.nibbles_.resize(kStates / 2);
      in.read(reinterpret_cast<char*>(db.nibbles_.data()), kStates / 2);
      if (in && fnv1a(db.nibbles_) == h.checksum) {
        if (how) *how = "loaded " + path;
        return db;
      }
      reason = "checksum mismatch or short file";
    } else {
      reason = "bad header";
    }
  }
  CornerPatternDatabase db = build(11);
  std::error_code ec;
  std::filesystem::create_directories(cache_dir, ec);
  CornerFileHeader h{};
  std::memcpy(h.magic, "ARENARCP", 8);
  h.version = kVersion;
  h.max_depth = 11;
  h.states = kStates;
  h.checksum = fnv1a(db.nibbles_);
  {
    std::ofstream out{path + ".tmp", std::ios::binary};
    out.write(reinterpret_cast<const char*>(&h), sizeof h);
    out.write(reinterpret_cast<const char*>(db.nibbles_.data()), kStates / 2);
  }
  std::filesystem::rename(path + ".tmp", path, ec);
  if (how) *how = (reason == "no cache file" ? "built " : "rebuilt (" + reason + ") ") + path;
  return db;
}

Expected<RubikCostHeuristic> make_rubik_cost_heuristic(std::string_view name,
                                                       const std::string& cache_dir) {
  if (name == "manhattan" || name == "manhattan_3d")
    return RubikCostHeuristic(manhattan_3d_admissible);
  if (name == "corner_pdb") {
    auto db = CornerPatternDatabase::load_or_build(cache_dir);
    if (!db) return make_error(db.error());
    auto shared = std::make_shared<CornerPatternDatabase>(std::move(*db));
    return RubikCostHeuristic([shared](const RubiksCube& c) {
      return std::max(shared->lookup(c), manhattan_3d_admissible(c));
    });
  }
  return make_error("unknown Rubik's cube heuristic '" + std::string(name) +
                    "' (known: manhattan, corner_pdb)");
}

std::vector<HeuristicInfo> heuristics_for(std::type_identity<RubiksCube>) {
  return {{"manhattan_3d", "minus the 3-D Manhattan distance (sum over cubies)"},
          {"manhattan_3d_admissible", "minus ceil(3-D Manhattan / 8)"}};
}

Expected<Heuristic<RubiksCube>> make_heuristic(std::type_identity<RubiksCube>,
                                               std::string_view name, const GameOptions& params) {
  if (auto none = expect_no_params(name, params); !none) return make_error(none.error());
  if (name == "manhattan_3d")
    return Heuristic<RubiksCube>([](const RubiksCube& c) { return -manhattan_3d(c); });
  if (name == "manhattan_3d_admissible")
    return Heuristic<RubiksCube>([](const RubiksCube& c) { return -manhattan_3d_admissible(c); });
  return make_error("unknown Rubik's cube heuristic '" + std::string(name) +
                    "' (known: manhattan_3d, manhattan_3d_admissible)");
}

}  // namespace arena::eval
