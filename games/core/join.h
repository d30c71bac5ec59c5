#pragma once
// join: words (a principal variation, an opening's moves) as one text, separated by `sep`.

#include <string>
#include <string_view>
#include <vector>

namespace arena {

inline std::string join(const std::vector<std::string>& words, std::string_view sep = " ") {
  std::string out;
  for (const auto& w : words) {
    if (!out.empty()) out += sep;
    out += w;
  }
  return out;
}

}  // namespace arena
