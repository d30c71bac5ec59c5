#pragma once
// Korf's 100 fifteen-puzzle instances read from the file (tests/data/korf100.txt): the file
// I/O above games/puzzles/korf100.h, which parses the text. A missing file gives no instances.

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "games/puzzles/korf100.h"

namespace arena::puzzles {

inline std::vector<KorfInstance> read_korf100(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return parse_korf100(text.str());
}

}  // namespace arena::puzzles
