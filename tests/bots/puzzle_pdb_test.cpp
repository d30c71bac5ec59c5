// Additive pattern databases for the 15-puzzle: exact values on one-tile patterns, dominance
// over Manhattan, optimal solutions of Korf instances, and the verified disk cache.

#include "bots/eval/pattern_database.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "bots/eval/sliding_puzzle.h"
#include "bots/search/sliding_puzzle_ida.h"
#include "games/puzzles/io/korf100_file.h"

namespace arena::eval {
namespace {

using puzzles::SlidingPuzzle;

std::string fresh_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("arena-pdb-test-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  return dir.string();
}

TEST(PatternDatabase, OneTilePatternIsThatTilesManhattanDistance) {
  for (int tile : {1, 6, 15}) {
    auto db = SlidingPatternDatabase::build({tile});
    ASSERT_TRUE(db) << db.error();
    for (int seed = 0; seed < 200; ++seed) {
      const auto p = SlidingPuzzle::random(4, static_cast<std::uint64_t>(seed));
      int cell = 0;
      while (p.tile_at(cell) != tile) ++cell;
      const int md = std::abs(cell / 4 - tile / 4) + std::abs(cell % 4 - tile % 4);
      EXPECT_EQ(db->lookup(p), md) << "tile " << tile << " on cell " << cell;
    }
  }
}

TEST(PatternDatabase, AdditiveSumDominatesManhattanAndIsZeroAtGoal) {
  const std::string dir = fresh_dir("dominance");
  auto pdb = AdditivePatternDatabase::load_or_build("3x5", dir);
  ASSERT_TRUE(pdb) << pdb.error();
  EXPECT_EQ((*pdb)(SlidingPuzzle::solved(4)), 0);
  int strictly_better = 0;
  for (int seed = 0; seed < 500; ++seed) {
    const auto p = SlidingPuzzle::random(4, static_cast<std::uint64_t>(seed));
    const int h = (*pdb)(p);
    EXPECT_GE(h, manhattan_distance(p)) << p.serialize();
    EXPECT_EQ(h % 2, manhattan_distance(p) % 2) << "tile moves keep the parity";
    strictly_better += h > manhattan_distance(p);
  }
  EXPECT_GT(strictly_better, 0) << "the databases should see interactions Manhattan misses";
  std::filesystem::remove_all(dir);
}

TEST(PatternDatabase, SolvesKorfInstancesOptimallyWithFewerNodes) {
  const std::string dir = fresh_dir("korf");
  auto pdb = AdditivePatternDatabase::load_or_build("3x5", dir);
  ASSERT_TRUE(pdb) << pdb.error();
  auto all = puzzles::read_korf100(std::string(ARENA_TEST_DATA_DIR) + "/korf100.txt");
  ASSERT_EQ(all.size(), 100u);
  std::sort(all.begin(), all.end(),
            [](const auto& a, const auto& b) { return a.published_nodes < b.published_nodes; });
  for (std::size_t i = 0; i < 10; ++i) {
    const auto start = *SlidingPuzzle::deserialize(all[i].tiles);
    const auto r = search::solve_sliding_pdb(start, *pdb);
    ASSERT_TRUE(r.solved) << "instance " << all[i].id;
    EXPECT_EQ(static_cast<int>(r.moves.size()), all[i].optimal_length) << "instance " << all[i].id;
    EXPECT_LT(r.nodes, all[i].published_nodes) << "instance " << all[i].id;
  }
  std::filesystem::remove_all(dir);
}

TEST(PatternDatabase, CacheIsReusedAndRebuiltWhenCorrupt) {
  const std::string dir = fresh_dir("cache");
  const std::vector<int> tiles{1, 2, 3};
  std::string how;
  auto first = SlidingPatternDatabase::load_or_build(tiles, dir, &how);
  ASSERT_TRUE(first) << first.error();
  EXPECT_EQ(how.rfind("built", 0), 0u) << how;
  auto second = SlidingPatternDatabase::load_or_build(tiles, dir, &how);
  ASSERT_TRUE(second);
  EXPECT_EQ(how.rfind("loaded", 0), 0u) << how;

  const std::string file = SlidingPatternDatabase::cache_file(tiles, dir);
  {  // flip one byte of the data: the checksum must catch it
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(-1, std::ios::end);
    f.put('\x7f');
  }
  auto third = SlidingPatternDatabase::load_or_build(tiles, dir, &how);
  ASSERT_TRUE(third);
  EXPECT_NE(how.find("rebuilt (checksum"), std::string::npos) << how;
  {  // a wrong magic number: the header check must catch it
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.put('X');
  }
  auto fourth = SlidingPatternDatabase::load_or_build(tiles, dir, &how);
  ASSERT_TRUE(fourth);
  EXPECT_NE(how.find("rebuilt (bad header"), std::string::npos) << how;
  for (int seed = 0; seed < 50; ++seed) {
    const auto p = SlidingPuzzle::random(4, static_cast<std::uint64_t>(seed));
    EXPECT_EQ(fourth->lookup(p), first->lookup(p));
  }
  std::filesystem::remove_all(dir);
}

TEST(PatternDatabase, RejectsUnknownPartitionAndBadTiles) {
  auto bad = AdditivePatternDatabase::load_or_build("9-6", fresh_dir("bad"));
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("9-6"), std::string::npos);
  auto tile = SlidingPatternDatabase::build({0, 3});
  ASSERT_FALSE(tile);
  EXPECT_NE(tile.error().find("tile 0"), std::string::npos);
}

}  // namespace
}  // namespace arena::eval
