#pragma once
// Korf's 100 fifteen-puzzle instances (tests/data/korf100.txt: id | tiles | Manhattan | optimal
// length | IDA* nodes Korf published), parsed from the file's text for the puzzle tests and
// bench_korf100; games/puzzles/io/korf100_file.h reads the file.

#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace arena::puzzles {

struct KorfInstance {
  int id = 0;
  std::string tiles;  // "14 13 15 7 ..." as SlidingPuzzle::deserialize reads
  int manhattan = 0;
  int optimal_length = 0;
  std::uint64_t published_nodes = 0;  // Korf 1985, IDA* + Manhattan
};

inline std::vector<KorfInstance> parse_korf100(std::string_view text) {
  std::vector<KorfInstance> out;
  std::istringstream in{std::string(text)};
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    for (char& c : line)
      if (c == '|') c = ' ';
    std::istringstream fields(line);
    KorfInstance k;
    fields >> k.id;
    for (int i = 0; i < 16; ++i) {
      int t = 0;
      fields >> t;
      k.tiles += (i ? " " : "") + std::to_string(t);
    }
    fields >> k.manhattan >> k.optimal_length >> k.published_nodes;
    if (fields) out.push_back(k);
  }
  return out;
}

}  // namespace arena::puzzles
