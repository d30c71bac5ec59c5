#pragma once
// Opening books: line seed % size of a book of move lines is the start of a pair's games. A
// game that reads opening lines itself (a static `from_opening(std::string_view)`: Othello,
// whose XOT lists write the moves back to back) reads the line; any other game plays the line's
// space-separated moves from its start. Reading a book file is its callers'
// (tournament/pairing/fair_start.h).

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "games/core/expected.h"

namespace arena {

template <class G>
concept OpeningLines = requires(std::string_view line) {
  { G::from_opening(line) } -> std::same_as<Expected<G>>;
};

// The start after line seed % book.size() of a non-empty `book`; the error names the bad line
// (and, for moves played from `start`, the first move that is not legal).
template <class G>
Expected<G> book_opening(const G& start, const std::vector<std::string>& book,
                         std::uint64_t seed) {
  const std::string& line = book[seed % book.size()];
  if constexpr (OpeningLines<G>) {
    auto g = G::from_opening(line);
    if (!g) return make_error("opening book line '" + line + "': " + g.error());
    return *g;
  } else {
    G g = start;
    std::size_t at = 0;
    while (true) {
      at = line.find_first_not_of(" \t\n\v\f\r", at);
      if (at == std::string::npos) break;
      const std::size_t end = std::min(line.find_first_of(" \t\n\v\f\r", at), line.size());
      const std::string word = line.substr(at, end - at);
      at = end;
      auto m = g.parse_move(word);
      if (!m) return make_error("opening book line '" + line + "': '" + word + "' is not legal");
      g.make_move(*m);
    }
    return g;
  }
}

}  // namespace arena
