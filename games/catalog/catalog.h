#pragma once
// The catalog of games: what exists, and how to create one by name for the server and the
// CLI. The list itself is AllGames in game_types.h.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "games/core/any_game.h"
#include "games/core/expected.h"
#include "games/core/types.h"

namespace arena {

struct GameInfo {
  std::string name;          // catalog name, e.g. "isolation"
  std::string title;         // for people, e.g. "Isolation (knight moves)"
  int num_players = 2;       // 1 = puzzle
  std::string options_help;  // e.g. "size=5..9 (default 7)"
  std::string refused;       // a GDL sheet the reader refuses: its reason (else empty)
};

// The hand-written games (every one has presets, house bots and a native engine).
std::vector<GameInfo> game_catalog();
// The GDL sheets as games "gdl:NAME", listed without loading them (see below); with
// `check_sheets`, those the reader refuses carry its reason (gdl::gdl_refused_sheets: every
// sheet read once, under 0.3 s for the project's 200 at the first call in a Release build).
std::vector<GameInfo> gdl_game_catalog(bool check_sheets = false);

// Canonical name for `name` and the options an alias implies ("8-puzzle" -> "sliding",
// size=3; "qubic" stays "qubic"). Unknown names are returned unchanged.
std::string resolve_game_name(std::string_view name, GameOptions& options);

// resolve_game_name, then the options of `options_text` ("k=v,...") over those the alias
// implies. The error is parse_game_options'; `options` is filled on success.
Expected<std::string> resolve_game(std::string_view name, std::string_view options_text,
                                   GameOptions& options);

// The start position of game `name`; errors name an unknown game or a bad option.
Expected<std::unique_ptr<AnyGame>> make_game(std::string_view name,
                                             const GameOptions& options = {});

// A GDL game's first make compiles its sheet (seconds; over 20 s for the largest). A server
// that must answer at once calls defer_game_compile(name) first, so that make_game and
// load_game make the sheet's games on its prover at once, then compile_game(name) off its I/O
// threads (it blocks while compiling); the games made after it use the compiled reasoner.
// Nothing for the other games.
void defer_game_compile(std::string_view name);
void compile_game(std::string_view name);

// Game `name` at `position` (as serialize() prints it); errors name the problem.
Expected<std::unique_ptr<AnyGame>> load_game(std::string_view name, std::string_view position);

// Parses "key=value,key=value" into options; errors name the malformed part.
Expected<GameOptions> parse_game_options(std::string_view text);

// "tictactoe, qubic, ..., gdl:NAME (NAME.kif in DIR)" for messages that list what exists;
// without `with_gdl`, the catalog's games only (for commands that do not take a GDL sheet).
std::string known_game_names(bool with_gdl = true);

// GDL games (games/gdl/library/library.h): `gdl:NAME` is the sheet NAME.kif of the GDL folder (default
// the project's games/gdl/sheets) or a file added with add_gdl_file. gdl_game_catalog() lists
// the sheets without loading them (num_players from a scan of their role facts: 0 when none is
// seen); make_game and load_game load a sheet on first use (and refuse one that does not load,
// with the reader's error). GDL games take no options. game_catalog() leaves them out: its
// callers (house bots, the roster's coverage, conformance tests) expect every game listed there
// to have presets and to load in microseconds.
bool is_gdl_game(std::string_view name);  // "gdl:..."
// True when `name` is "gdl:NAME" and sheet NAME exists (in the folder or added), without loading
// it.
bool has_gdl_sheet(std::string_view name);
void set_gdl_directory(std::string dir);  // "" restores the default
// Adds a sheet file; returns its catalog name "gdl:STEM". Errors name the file.
Expected<std::string> add_gdl_file(const std::string& path);

}  // namespace arena
