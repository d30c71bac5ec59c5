#pragma once
// Stage: the library (file and process I/O): sheets on disk.
// The table of every sheet of a folder: whether it loads (or why it is refused), whether it
// compiles, how fast random playouts run, and whether they end well (terminal or the step
// bound, with goals in 0..100). `arena gdl table` writes it into games/gdl/README.md, so the
// README says what Arena does with each sheet as the code is now.
//
// Every sheet is bounded: the reader is bounded by construction, grounding by `limits`, and
// the playouts by `seconds_per_sheet`.

#include <string>
#include <vector>

#include "games/gdl/ground/ground.h"

namespace arena::gdl {

struct SheetReport {
  std::string name;           // file stem
  bool loaded = false;        // read and checked
  std::string refused;        // why not, when !loaded (the reader's message, path stripped)
  int roles = 0;
  bool compiled = false;      // the compiled reasoner was built
  std::string not_compiled;   // why not, when loaded && !compiled
  std::vector<int> bound_by_demand;  // lines of unsafe rules bound by demand (demand.h)
  double load_seconds = 0;    // reading and checking
  double compile_seconds = 0; // grounding and compiling (or the time until refused)
  double states_per_second = 0;  // random playout states per second (the reasoner used)
  std::string reasoner;          // "compiled" or "prover"
  int playouts = 0;              // playouts run
  int playouts_ended = 0;        // ended in a terminal state (others hit the step bound)
  bool goals_ok = true;          // every terminal state gave each role one goal in 0..100
  std::string goal_problem;      // the first problem seen, when !goals_ok
};

struct SheetReportOptions {
  double seconds_per_sheet = 0.5;  // random playouts per sheet
  int max_steps = 500;             // a playout stops here if no terminal state came
  GroundLimits limits{.max_rules = 1'500'000, .max_seconds = 10.0};
};

SheetReport report_sheet(const std::string& path, const SheetReportOptions& options);

// Every *.kif in `dir`, sorted by name.
std::vector<SheetReport> report_sheets(const std::string& dir, const SheetReportOptions& options);

// The table in Markdown, with a summary line above it.
std::string sheet_table_markdown(const std::vector<SheetReport>& reports);

// Replaces the text between "<!-- sheet-table -->" and "<!-- /sheet-table -->" in the file at
// `readme` (appends both markers and the table when they are missing).
Expected<void> write_sheet_table(const std::string& readme, const std::string& table);

}  // namespace arena::gdl
