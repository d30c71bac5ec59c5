#pragma once
// Stage: the library (file and process I/O): sheets on disk.
// The GDL library: where `gdl:NAME` finds its sheet, and loading a sheet into a reasoner.
//
// Sheets: NAME.kif in the GDL folder (default: the project's games/gdl/sheets, fixed at build
// time; `arena serve --gdl-dir DIR` changes it), and files added one by one (`--gdl FILE`,
// named by their stem, found before the folder's sheet of the same name). A name matches a
// file's stem exactly, else case-insensitively when exactly one stem matches ("gdl:TicTacToe"
// finds tictactoe.kif).
//
// Loading: the description is read and checked once per sheet and kept (a changed file is read
// again). A reasoner is the compiled one when the sheet compiles, else the prover; a sheet that
// did not compile is remembered, so it is not compiled again.
//
// Thread-safe: every function may be called from any thread.

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "games/core/any_game.h"
#include "games/core/expected.h"
#include "games/gdl/reader/description.h"
#include "games/gdl/game/gdl_game.h"
#include "games/gdl/prover/state_machine.h"

namespace arena::gdl {

// The project's sheets folder (a compile definition).
std::string default_gdl_directory();
// The folder `gdl:NAME` looks in; set_gdl_directory("") restores the default.
void set_gdl_directory(std::string dir);
std::string gdl_directory();
// Adds the sheet at `path`; it is then `gdl:STEM`. Errors: no such file, not a .kif name, or a
// stem with characters other than letters, digits, '_', '-', '.'. Returns STEM.
Expected<std::string> add_gdl_file(const std::string& path);
// Forgets the added files (tests).
void clear_gdl_files();

struct GdlSheet {
  std::string name;  // the stem: "connectFour"
  std::string path;
  int roles = 0;  // `(role ...)` facts counted in the text (a cheap scan, no reading); 0: none seen
};

// The added files and the folder's sheets, by name; listed again when the folder changes.
std::vector<GdlSheet> gdl_sheets();
// The sheet called `name` (without "gdl:"); the error names the folder and the added files.
Expected<GdlSheet> find_gdl_sheet(std::string_view name);

// The sheets the reader refuses (gdl_sheets()'s names) with its reason, for a catalog to mark
// them. Each sheet is read once per version of its file and not kept (the first call reads
// every sheet: under 0.3 s for the project's 200 in a Release build); a sheet whose first
// state is too large is not found here, only when a game of it starts.
std::map<std::string, std::string> gdl_refused_sheets();

// The checked description of sheet `name`, read once.
Expected<std::shared_ptr<const Description>> load_gdl_description(std::string_view name);

enum class Reasoner { kAuto, kCompiled, kProver };
std::string_view to_string(Reasoner r);
Expected<Reasoner> parse_reasoner(std::string_view text);  // "auto", "compiled", "prover"

// A new reasoner for sheet `name` (kAuto: compiled when it compiles, else the prover). Each
// call makes a machine of its own, for one owner (a player, a perft).
Expected<std::unique_ptr<StateMachine>> make_gdl_machine(std::string_view name,
                                                         Reasoner reasoner = Reasoner::kAuto);

// A new context over a new machine (players own theirs).
Expected<std::shared_ptr<GdlContext>> make_gdl_context(std::string_view name,
                                                       Reasoner reasoner = Reasoner::kAuto);
// The context the catalog's games of sheet `name` share (made once per sheet).
Expected<std::shared_ptr<GdlContext>> shared_gdl_context(std::string_view name);

// Until sheet `name`'s shared context is made (shared_gdl_context, which compiles: over 20 s
// for the largest sheets), make_gdl_game and load_gdl_game of it use a shared prover context,
// made at once, instead of compiling first. A server calls this before a sheet's first game,
// then shared_gdl_context off its I/O threads; games made after that use the compiled one.
// Nothing for an unknown sheet or one already made.
void defer_gdl_compile(std::string_view name);

// The catalog's entry points: `gdl:NAME` (the prefix is optional here); the shared context,
// or its prover while defer_gdl_compile holds.
Expected<std::unique_ptr<AnyGame>> make_gdl_game(std::string_view name);
Expected<std::unique_ptr<AnyGame>> load_gdl_game(std::string_view name, std::string_view position);

}  // namespace arena::gdl
