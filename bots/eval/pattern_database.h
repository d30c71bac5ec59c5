#pragma once
// Additive pattern databases for the 15-puzzle (Korf & Felner 2002; Felner, Korf & Hanan
// 2004), and the Rubik's cube corner pattern database lives in bots/eval/rubiks_cube.h.
//
// A pattern is a set of tiles; its database holds, for every placement of those tiles, the
// fewest moves OF THOSE TILES needed to bring them home (the blank goes anywhere for free).
// Because each move moves one tile, the values of disjoint patterns add up admissibly.
// Built by breadth-first search in the pattern space, where the blank is abstracted to the
// connected region of free cells it can reach without moving a pattern tile.
//
// Index of a placement: sum over the pattern's tiles i of cell(tile i) << 4*i (a sparse
// 16^k table, one byte per entry, so that a move updates the index with one add).
// Disk cache: <dir>/sliding4-pdb-<tiles>.bin, a header (magic, version, tiles, entry count,
// FNV-1a checksum of the data) and the dense table; a file whose header or checksum does not
// match is rebuilt and rewritten. Default dir: $ARENA_CACHE_DIR, else $HOME/.cache/arena.
// Thread safety: a built database is immutable and may be shared by threads.

#include <cstdint>
#include <string>
#include <vector>

#include "games/core/expected.h"
#include "games/puzzles/sliding_puzzle.h"

namespace arena::eval {

// The cache directory from the environment ($ARENA_CACHE_DIR, else $HOME/.cache/arena,
// else ./.arena-cache).
std::string default_cache_dir();

class SlidingPatternDatabase {
 public:
  static constexpr int kCells = 16;  // the 15-puzzle only
  static constexpr std::uint32_t kVersion = 1;

  // Builds by BFS (seconds for 6 tiles in a Release build).
  static Expected<SlidingPatternDatabase> build(const std::vector<int>& tiles);
  // Loads from `cache_dir` if a valid file is there, else builds and writes it. `how` (if
  // given) receives "loaded", "built" or "rebuilt (<reason>)".
  static Expected<SlidingPatternDatabase> load_or_build(const std::vector<int>& tiles,
                                                        const std::string& cache_dir,
                                                        std::string* how = nullptr);
  static std::string cache_file(const std::vector<int>& tiles, const std::string& cache_dir);

  const std::vector<int>& tiles() const { return tiles_; }
  // Moves of the pattern's tiles needed from the placement with sparse index `index`.
  int at(std::uint32_t index) const { return sparse_[index]; }
  const std::uint8_t* table() const { return sparse_.data(); }
  // The sparse index of the pattern's placement in `p` (a 4x4 puzzle).
  std::uint32_t index_of(const puzzles::SlidingPuzzle& p) const;
  int lookup(const puzzles::SlidingPuzzle& p) const { return at(index_of(p)); }

 private:
  std::vector<int> tiles_;
  std::vector<std::uint8_t> dense_;   // by partial-permutation rank; what the file holds
  std::vector<std::uint8_t> sparse_;  // 16^k bytes, for the search
  void fill_sparse();
};

// Disjoint patterns covering tiles 1..15; h = the sum of the parts.
class AdditivePatternDatabase {
 public:
  // "6-6-3": {1,4,5,8,9,12} {2,3,6,7,10,11} {13,14,15}; "5-5-5": {1,2,3,5,6} {4,8,9,12,13}
  // {7,10,11,14,15}; "3x5" (five 3-tile patterns, cheap: for tests).
  static Expected<AdditivePatternDatabase> load_or_build(const std::string& partition,
                                                         const std::string& cache_dir,
                                                         std::string* how = nullptr);
  static std::vector<std::vector<int>> partition_tiles(const std::string& partition);

  const std::vector<SlidingPatternDatabase>& parts() const { return parts_; }
  int operator()(const puzzles::SlidingPuzzle& p) const;

 private:
  std::vector<SlidingPatternDatabase> parts_;
};

}  // namespace arena::eval
