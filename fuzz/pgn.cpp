// PGN reading and writing: a PGN a person uploads or pastes (arena import, league openings) is
// read with read_pgn_games; each game read is written with write_pgn and read again.
// Promises: no crash, leak, hang or undefined behaviour for any text; every game read writes
// to a PGN that reads back as exactly one game with the same start, moves, result and tags
// (the roster's empty tags as their defaults), and writing that again gives the same text.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz/fuzz_check.h"
#include "games/chess/pgn.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace arena::chess;
  if (size > 16384) return -1;
  auto games = read_pgn_games(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!games) {
    FUZZ_CHECK(!games.error().empty());
    return 0;
  }
  for (const PgnGame& game : *games) {
    const std::string written = write_pgn(game);
    auto again = read_pgn_games(written);
    FUZZ_CHECK(again.has_value());
    FUZZ_CHECK(again->size() == 1);
    const PgnGame& back = again->front();
    FUZZ_CHECK(back.moves == game.moves);
    FUZZ_CHECK(back.result == game.result);
    const bool standard = game.start_fen.empty() || game.start_fen == Chess::kStartFen;
    FUZZ_CHECK(standard ? back.start_fen.empty() : back.start_fen == game.start_fen);
    for (const auto& [name, value] : game.tags) {
      if (name == "Result" || name == "SetUp" || name == "FEN") continue;
      const std::string expected = game.tag(name);
      const std::string got = back.tag(name);
      if (name == "Event" || name == "Site" || name == "Date" || name == "Round" ||
          name == "White" || name == "Black")
        FUZZ_CHECK(got == expected || (expected.empty() && !got.empty()));
      else
        FUZZ_CHECK(got == expected);
    }
    FUZZ_CHECK(write_pgn(back) == written);
  }
  return 0;
}
