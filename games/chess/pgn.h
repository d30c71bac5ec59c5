#pragma once
// PGN (Portable Game Notation) out and in, for records and replays.
//
// write_pgn prints the Seven Tag Roster (Event, Site, Date, Round, White, Black, Result) in
// order, then SetUp "1" and FEN when the game does not start from the initial position, then
// any other tags, then SAN movetext wrapped below 80 columns, ending with the result.
//
// read_pgn reads tag pairs and SAN movetext; comments ({...} and ;...), NAGs ($n), move-suffix
// annotations (!, ?), recursive variations ((...)) and escape lines (%...) are skipped. The
// game starts from the FEN tag when one is present. Errors name the bad token and where it is.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "games/chess/chess.h"
#include "games/core/expected.h"

namespace arena::chess {

struct PgnGame {
  std::vector<std::pair<std::string, std::string>> tags;  // as read, or extra tags to write
  std::string start_fen;                                  // empty: the initial position
  std::vector<Move> moves;   // legal moves from the start position, in order
  std::string result = "*";  // "1-0", "0-1", "1/2-1/2" or "*"

  // The value of a tag, or "" when absent.
  std::string tag(std::string_view name) const;
  // The start position (the initial one when start_fen is empty).
  Expected<Chess> start_position() const;
};

// The PGN text of `game`. Moves must be legal in sequence; an illegal one ends the movetext
// with a comment naming it.
std::string write_pgn(const PgnGame& game);

// The first game of `text`.
Expected<PgnGame> read_pgn(std::string_view text);
// Every game of `text`, in order.
Expected<std::vector<PgnGame>> read_pgn_games(std::string_view text);

// The PGN result token for an outcome ("1-0", "0-1", "1/2-1/2", "*").
std::string pgn_result(const Outcome& outcome);

}  // namespace arena::chess
