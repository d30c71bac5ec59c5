#pragma once
// Rendering the lab's measures: a text table, JSON, and plain SVG charts (one per measure).
// Pure functions from rows to text; the caller writes files.

#include <optional>
#include <string>
#include <vector>

#include "bots/lab/measures.h"

namespace arena::lab {

struct ReportRow {
  std::string name;              // heuristic or comparison name
  std::string positions;         // where the positions came from
  std::optional<double> rating;  // the store's rating of the bot using it, if any
  InvarianceStats invariance;
  std::vector<OutcomeBucket> outcome;
};

// Two blocks: move invariance (raw and normalised) and outcome determination by plies left.
std::string report_table(const std::string& title, const std::vector<ReportRow>& rows);
// {"title": ..., "rows": [{"name", "positions", "rating", "move_invariance": {...},
//   "outcome_determination": [{"plies_left", "positions", "sign_agreement", "correlation"}]}]}
// NaN and missing values are null.
std::string report_json(const std::string& title, const std::vector<ReportRow>& rows);
// A horizontal bar chart of normalised |delta h| (mean bar, p90 tick) per row.
std::string move_invariance_svg(const std::string& title, const std::vector<ReportRow>& rows);
// Sign agreement (games) or correlation (when sign agreement is undefined, as for puzzles)
// against plies left, one line per row.
std::string outcome_determination_svg(const std::string& title, const std::vector<ReportRow>& rows);

}  // namespace arena::lab
