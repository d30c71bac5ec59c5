#pragma once
// The result of a game of more than two seats is its seats' scores joined by '-' ("100-0-50",
// as protocol::result_from_scores writes it). Read here by the store (to check a result), the
// bot client (to count a game won or lost) and the lab (a stored game's value).

#include <optional>
#include <string_view>
#include <vector>

namespace arena {

// The scores of such a result, in seat order; nullopt when `result` is not one: fewer than three
// parts ("1-0", "1/2-1/2", "*") or a part that is not a whole number from 0 to 100.
inline std::optional<std::vector<int>> scores_of_result(std::string_view result) {
  std::vector<int> scores;
  for (std::size_t begin = 0;;) {
    const std::size_t dash = result.find('-', begin);
    const std::string_view part =
        result.substr(begin, dash == std::string_view::npos ? dash : dash - begin);
    if (part.empty() || part.size() > 3 ||
        part.find_first_not_of("0123456789") != std::string_view::npos)
      return std::nullopt;
    int value = 0;
    for (char c : part) value = value * 10 + (c - '0');
    if (value > 100) return std::nullopt;
    scores.push_back(value);
    if (dash == std::string_view::npos) break;
    begin = dash + 1;
  }
  if (scores.size() < 3) return std::nullopt;
  return scores;
}

}  // namespace arena
