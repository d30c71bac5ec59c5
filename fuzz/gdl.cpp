// The GDL reader and GDL positions and moves. A sheet is text a person supplies (`arena serve
// --gdl FILE`, `arena gdl check`), and a GDL game's position and moves come from clients
// (puzzle_start's state, move frames).
//
// Input: a first line "kif", then the text of a sheet; or a first line naming one of the
// project's sheets (tictactoe, ticTacToeParallel, 3pttc, connectFour), then the position as
// serialize() prints it ("" for the start), then one turn per line: the movers' moves
// separated by '|'.
//
// Promises (games/gdl/reader/description.h: "It never crashes or hangs on any input"): no crash,
// leak, hang or undefined behaviour; a sheet that is read names its roles; a GDL position that
// is accepted reads back to the same text; a turn played is recorded and can be undone.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_check.h"
#include "games/catalog/catalog.h"
#include "games/gdl/reader/description.h"

namespace {

std::vector<std::string> split(std::string_view text, char sep) {
  std::vector<std::string> out;
  while (true) {
    auto at = text.find(sep);
    out.emplace_back(text.substr(0, at));
    if (at == std::string_view::npos) break;
    text.remove_prefix(at + 1);
  }
  return out;
}

void fuzz_position(const std::string& sheet, std::string_view rest) {
  auto lines = split(rest, '\n');
  auto game = lines.front().empty() ? arena::make_game("gdl:" + sheet)
                                    : arena::load_game("gdl:" + sheet, lines.front());
  if (!game) return;
  auto& g = **game;
  const std::string start = g.serialize();
  auto again = arena::load_game("gdl:" + sheet, start);
  FUZZ_CHECK(again.has_value() && (*again)->serialize() == start);
  int played = 0;
  for (std::size_t i = 1; i < lines.size() && i < 64; ++i) {
    if (g.movers().empty()) break;
    auto turn = g.play_turn(split(lines[i], '|'));
    if (turn) ++played;
  }
  FUZZ_CHECK(static_cast<int>(g.history().size()) == played);
  while (played-- > 0) FUZZ_CHECK(g.undo());
  FUZZ_CHECK(g.serialize() == start);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 65536) return -1;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto nl = text.find('\n');
  if (nl == std::string_view::npos) return 0;
  const std::string first(text.substr(0, nl));
  const std::string_view rest = text.substr(nl + 1);
  if (first == "kif") {
    auto description = arena::gdl::read_description(rest, "fuzz.kif");
    if (description)
      FUZZ_CHECK(!description->roles().empty());
    else
      FUZZ_CHECK(!description.error().empty());
    return 0;
  }
  if (first == "tictactoe" || first == "ticTacToeParallel" || first == "3pttc" ||
      first == "connectFour")
    fuzz_position(first, rest);
  return 0;
}
