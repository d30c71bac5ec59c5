#include "bots/eval/pattern_database.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "games/core/fnv1a.h"

namespace arena::eval {
namespace {

constexpr int kCells = SlidingPatternDatabase::kCells;
constexpr std::uint8_t kUnseen = 0xFF;

std::uint64_t placements(int k) {
  std::uint64_t n = 1;
  for (int i = 0; i < k; ++i) n *= static_cast<std::uint64_t>(kCells - i);
  return n;
}

// Rank of k distinct cells as a partial permutation of 16 (mixed radix 16, 15, ...).
std::uint64_t rank_cells(const int* cells, int k) {
  std::uint64_t rank = 0;
  std::uint32_t used = 0;
  for (int i = 0; i < k; ++i) {
    const int below = __builtin_popcount(used & ((1u << cells[i]) - 1));
    rank = rank * static_cast<std::uint64_t>(kCells - i) +
           static_cast<std::uint64_t>(cells[i] - below);
    used |= 1u << cells[i];
  }
  return rank;
}

void unrank_cells(std::uint64_t rank, int k, int* cells) {
  int digit[kCells];
  for (int i = k - 1; i >= 0; --i) {
    digit[i] = static_cast<int>(rank % static_cast<std::uint64_t>(kCells - i));
    rank /= static_cast<std::uint64_t>(kCells - i);
  }
  std::uint32_t used = 0;
  for (int i = 0; i < k; ++i) {
    int c = 0;
    for (int seen = -1;; ++c) {
      if (!(used & (1u << c)) && ++seen == digit[i]) break;
    }
    cells[i] = c;
    used |= 1u << c;
  }
}

constexpr std::array<std::uint32_t, kCells> kNeighbours = [] {
  std::array<std::uint32_t, kCells> n{};
  for (int c = 0; c < kCells; ++c) {
    if (c >= 4) n[c] |= 1u << (c - 4);
    if (c < 12) n[c] |= 1u << (c + 4);
    if (c % 4 > 0) n[c] |= 1u << (c - 1);
    if (c % 4 < 3) n[c] |= 1u << (c + 1);
  }
  return n;
}();

// The cells the blank reaches from `start` through `free` cells.
std::uint32_t flood(std::uint32_t free, int start) {
  std::uint32_t r = 1u << start;
  for (;;) {
    const std::uint32_t grown =
        (r | (r << 4) | (r >> 4) | ((r << 1) & ~0x1111u) | ((r >> 1) & ~0x8888u)) & free & 0xFFFFu;
    const std::uint32_t next = grown | r;
    if (next == r) return r;
    r = next;
  }
}

int lowest(std::uint32_t mask) {
  return __builtin_ctz(mask);
}

struct FileHeader {
  char magic[8];
  std::uint32_t version;
  std::uint32_t num_tiles;
  std::int32_t tiles[16];
  std::uint64_t entries;
  std::uint64_t checksum;
};

}  // namespace

std::string default_cache_dir() {
  if (const char* dir = std::getenv("ARENA_CACHE_DIR"); dir && *dir) return dir;
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::string(home) + "/.cache/arena";
  return ".arena-cache";
}

Expected<SlidingPatternDatabase> SlidingPatternDatabase::build(const std::vector<int>& tiles) {
  const int k = static_cast<int>(tiles.size());
  if (k < 1 || k > 6) return make_error("a pattern needs 1 to 6 tiles, got " + std::to_string(k));
  for (int t : tiles)
    if (t < 1 || t > 15) return make_error("pattern tile " + std::to_string(t) + " is not 1..15");
  SlidingPatternDatabase db;
  db.tiles_ = tiles;
  const std::uint64_t ranks = placements(k);
  std::vector<std::uint8_t> dist(ranks * kCells, kUnseen);

  // Step 1. The goal: tile t on cell t, blank region around cell 0.
  int cells[kCells];
  std::uint32_t occupied = 0;
  for (int i = 0; i < k; ++i) {
    cells[i] = tiles[i];
    occupied |= 1u << tiles[i];
  }
  dist[rank_cells(cells, k) * kCells + lowest(flood(~occupied, 0))] = 0;

  // Step 2. Layer by layer: every state at depth d moves one pattern tile into the blank's
  // region, which costs one; the blank's wandering is free.
  for (int d = 0;; ++d) {
    bool grew = false;
    for (std::uint64_t r = 0; r < ranks; ++r) {
      const std::uint8_t* row = &dist[r * kCells];
      bool any = false;
      for (int c = 0; c < kCells; ++c) any |= row[c] == d;
      if (!any) continue;
      unrank_cells(r, k, cells);
      occupied = 0;
      for (int i = 0; i < k; ++i) occupied |= 1u << cells[i];
      for (int rep = 0; rep < kCells; ++rep) {
        if (row[rep] != d) continue;
        const std::uint32_t region = flood(~occupied, rep);
        for (int i = 0; i < k; ++i) {
          const int from = cells[i];
          std::uint32_t targets = kNeighbours[from] & region;
          while (targets) {
            const int to = lowest(targets);
            targets &= targets - 1;
            cells[i] = to;
            const std::uint32_t occ = (occupied & ~(1u << from)) | (1u << to);
            const std::uint64_t next = rank_cells(cells, k) * kCells + lowest(flood(~occ, from));
            if (dist[next] == kUnseen) {
              dist[next] = static_cast<std::uint8_t>(d + 1);
              grew = true;
            }
            cells[i] = from;
          }
        }
      }
    }
    if (!grew) break;
  }

  // Step 3. The value of a placement is its best over the blank's regions.
  db.dense_.assign(ranks, kUnseen);
  for (std::uint64_t r = 0; r < ranks; ++r)
    for (int c = 0; c < kCells; ++c) db.dense_[r] = std::min(db.dense_[r], dist[r * kCells + c]);
  db.fill_sparse();
  return db;
}

void SlidingPatternDatabase::fill_sparse() {
  const int k = static_cast<int>(tiles_.size());
  sparse_.assign(std::size_t{1} << (4 * k), 0);
  int cells[kCells];
  for (std::uint64_t r = 0; r < dense_.size(); ++r) {
    unrank_cells(r, k, cells);
    std::uint32_t index = 0;
    for (int i = 0; i < k; ++i) index |= static_cast<std::uint32_t>(cells[i]) << (4 * i);
    sparse_[index] = dense_[r];
  }
}

std::uint32_t SlidingPatternDatabase::index_of(const puzzles::SlidingPuzzle& p) const {
  std::array<int, 16> cell_of{};
  for (int c = 0; c < kCells; ++c) cell_of[p.tile_at(c)] = c;
  std::uint32_t index = 0;
  for (std::size_t i = 0; i < tiles_.size(); ++i)
    index |= static_cast<std::uint32_t>(cell_of[tiles_[i]]) << (4 * i);
  return index;
}

std::string SlidingPatternDatabase::cache_file(const std::vector<int>& tiles,
                                               const std::string& cache_dir) {
  std::string name = "sliding4-pdb";
  for (int t : tiles) name += "-" + std::to_string(t);
  return cache_dir + "/" + name + ".bin";
}

Expected<SlidingPatternDatabase> SlidingPatternDatabase::load_or_build(
    const std::vector<int>& tiles, const std::string& cache_dir, std::string* how) {
  const std::string path = cache_file(tiles, cache_dir);
  std::string reason = "no cache file";
  if (std::ifstream in{path, std::ios::binary}) {
    FileHeader h{};
    in.read(reinterpret_cast<char*>(&h), sizeof h);
    const bool header_ok = in && std::memcmp(h.magic, "ARENAPDB", 8) == 0 &&
                           h.version == kVersion && h.num_tiles == tiles.size() &&
                           h.entries == placements(static_cast<int>(tiles.size())) &&
                           std::equal(tiles.begin(), tiles.end(), h.tiles);
    if (header_ok) {
      SlidingPatternDatabase db;
      db.tiles_ = tiles;
      db.dense_.resize(h.entries);
      in.read(reinterpret_cast<char*>(db.dense_.data()), static_cast<std::streamsize>(h.entries));
      if (in && fnv1a(db.dense_) == h.checksum) {
        db.fill_sparse();
        if (how) *how = "loaded " + path;
        return db;
      }
      reason = "checksum mismatch or short file";
    } else {
      reason = "bad header";
    }
  }
  auto db = build(tiles);
  if (!db) return db;
  std::error_code ec;
  std::filesystem::create_directories(cache_dir, ec);
  FileHeader h{};
  std::memcpy(h.magic, "ARENAPDB", 8);
  h.version = kVersion;
  h.num_tiles = static_cast<std::uint32_t>(tiles.size());
  std::copy(tiles.begin(), tiles.end(), h.tiles);
  h.entries = db->dense_.size();
  h.checksum = fnv1a(db->dense_);
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out{tmp, std::ios::binary};
    out.write(reinterpret_cast<const char*>(&h), sizeof h);
    out.write(reinterpret_cast<const char*>(db->dense_.data()),
              static_cast<std::streamsize>(db->dense_.size()));
    if (!out) reason += "; could not write the cache (" + tmp + ")";
  }
  std::filesystem::rename(tmp, path, ec);
  if (how) *how = (reason == "no cache file" ? "built " : "rebuilt (" + reason + ") ") + path;
  return db;
}

std::vector<std::vector<int>> AdditivePatternDatabase::partition_tiles(const std::string& name) {
  if (name == "6-6-3") return {{1, 4, 5, 8, 9, 12}, {2, 3, 6, 7, 10, 11}, {13, 14, 15}};
  if (name == "5-5-5") return {{1, 2, 3, 5, 6}, {4, 8, 9, 12, 13}, {7, 10, 11, 14, 15}};
  if (name == "3x5") return {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}, {10, 11, 12}, {13, 14, 15}};
  return {};
}

Expected<AdditivePatternDatabase> AdditivePatternDatabase::load_or_build(
    const std::string& partition, const std::string& cache_dir, std::string* how) {
  const auto parts = partition_tiles(partition);
  if (parts.empty())
    return make_error("unknown pattern partition '" + partition + "' (known: 6-6-3, 5-5-5, 3x5)");
  AdditivePatternDatabase out;
  for (const auto& tiles : parts) {
    std::string part_how;
    auto db = SlidingPatternDatabase::load_or_build(tiles, cache_dir, &part_how);
    if (!db) return make_error(db.error());
    if (how) *how += (how->empty() ? "" : "; ") + part_how;
    out.parts_.push_back(std::move(*db));
  }
  return out;
}

int AdditivePatternDatabase::operator()(const puzzles::SlidingPuzzle& p) const {
  int sum = 0;
  for (const auto& part : parts_) sum += part.lookup(p);
  return sum;
}

}  // namespace arena::eval
