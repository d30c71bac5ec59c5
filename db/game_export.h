#pragma once
// Stored games in the standard format of their kind, for `arena export` and the REST API:
// PGN for chess (SAN movetext, SetUp/FEN for other starts; games/chess/pgn.h writes it), PDN for
// checkers (the PGN-like format of draughts: Black, who moves first, is the first player; the
// result is written as stored, "1-0" meaning the first player won), and JSON for every kind.

#include <ostream>
#include <string>
#include <string_view>

#include "db/store.h"
#include "games/core/expected.h"

namespace arena::db {

enum class ExportFormat { kPgn, kPdn, kJson };

// "pgn", "pdn" or "json"; the error names the bad text.
Expected<ExportFormat> parse_export_format(std::string_view text);

// The one kind a format is for ("chess" for PGN, "checkers" for PDN), or "" for JSON (all).
std::string_view export_kind(ExportFormat format);

// One chess game as PGN. Errors name the game and a stored move that is not legal.
Expected<std::string> game_to_pgn(const GameDetail& game);
// One checkers game as PDN.
std::string game_to_pdn(const GameDetail& game);
// One game of any other kind as tagged plain text: PGN-like tags (Game, Options, First,
// Second, SeatN, Result, Scores, Start), a blank line, then one move per line.
std::string game_to_text(const GameDetail& game);
// A tag value as PGN's and PDN's standards allow it: printable characters only, so that a
// name cannot end its tag and start another. Control characters (C0, DEL, C1), bidirectional
// controls and bytes that are not UTF-8 become '?'; the quote and the backslash are left for
// the tag writer to escape (as PGN says: \" and \\). Names stored before the server checked
// them at the door (protocol/player_name.h) are made safe here.
std::string printable_tag_value(std::string_view value);

// One game as a JSON object (every stored field, moves with their search info and the seat
// that made each; the seat is null on rows stored before schema 4 recorded it).
std::string game_to_json(const GameDetail& game);

// Writes every stored game of `kind` (empty: every kind the format is for) to `out`, oldest
// first; JSON is one array. Returns the number of games written.
Expected<int> export_games(Store& store, ExportFormat format, const std::string& kind,
                           std::ostream& out);

}  // namespace arena::db
