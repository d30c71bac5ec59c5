#include "tournament/pairing/fair_start.h"

#include <fstream>

namespace arena::tournament {

Expected<std::vector<std::string>> read_opening_book(const std::string& path) {
  std::ifstream in(path);
  if (!in) return make_error("cannot read opening book '" + path + "'");
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    lines.push_back(line);
  }
  if (lines.empty()) return make_error("opening book '" + path + "' has no lines");
  return lines;
}

}  // namespace arena::tournament
