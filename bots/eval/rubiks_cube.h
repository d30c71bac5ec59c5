#pragma once
// Heuristics for the Rubik's cube (face-turn metric), named as in Korf's 1997 paper.
//
//   manhattan_3d(c)            the three-dimensional Manhattan distance: the sum over the 20
//                              cubies of the fewest face turns that bring each one alone to
//                              its home position and orientation (from an 18-move BFS over
//                              one cubie's 24 placements). Not admissible.
//   manhattan_3d_admissible(c) ceil(manhattan_3d / 8): a face turn moves 8 cubies (4 corners,
//                              4 edges) and changes each one's distance by at most one, so it
//                              lowers the sum by at most 8. Admissible.
//   CornerPatternDatabase      the exact face-turn distance of the corners alone, for all
//                              8! * 3^7 = 88,179,840 corner states, 4 bits each (44 MB).
//                              Built by BFS only on demand (tens of seconds in Release),
//                              cached on disk like the sliding-tile databases (header with
//                              magic, version, size and FNV-1a checksum; rebuilt if bad).
// The Heuristic<RubiksCube> scores are minus the estimate (heuristic.h: higher is better).

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "bots/eval/heuristic.h"
#include "games/puzzles/rubiks_cube.h"

namespace arena::eval {

int manhattan_3d(const puzzles::RubiksCube& c);
int manhattan_3d_admissible(const puzzles::RubiksCube& c);

class CornerPatternDatabase {
 public:
  static constexpr std::uint32_t kStates = 40320u * 2187u;  // 8! * 3^7
  static constexpr std::uint32_t kVersion = 1;

  // BFS from the solved corners to `max_depth` (11 = complete: the corners' diameter is 11).
  // Entries beyond max_depth read max_depth + 1, which is still a lower bound.
  static CornerPatternDatabase build(int max_depth = 11);
  static Expected<CornerPatternDatabase> load_or_build(const std::string& cache_dir,
                                                       std::string* how = nullptr);
  static std::string cache_file(const std::string& cache_dir);
  // 0 .. kStates-1: corner permutation rank * 3^7 + the first seven twists in base 3.
  static std::uint32_t index_of(const puzzles::RubiksCube& c);

  int lookup(const puzzles::RubiksCube& c) const { return at(index_of(c)); }
  int at(std::uint32_t index) const { return (nibbles_[index >> 1] >> ((index & 1) * 4)) & 0xF; }
  int max_depth() const { return max_depth_; }

 private:
  std::vector<std::uint8_t> nibbles_;
  int max_depth_ = 11;
};

using RubikCostHeuristic = std::function<int(const puzzles::RubiksCube&)>;

// "manhattan" (the admissible form), "corner_pdb" (max of the corner database and the
// admissible Manhattan; loads or builds the database in cache_dir).
Expected<RubikCostHeuristic> make_rubik_cost_heuristic(std::string_view name,
                                                       const std::string& cache_dir);

std::vector<HeuristicInfo> heuristics_for(std::type_identity<puzzles::RubiksCube>);
Expected<Heuristic<puzzles::RubiksCube>> make_heuristic(std::type_identity<puzzles::RubiksCube>,
                                                        std::string_view name,
                                                        const GameOptions& params);

}  // namespace arena::eval
