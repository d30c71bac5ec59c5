#pragma once
// arena analyze --db FILE: the lab's measures of one run written into the store (db::LabRun,
// migrations/0006_lab_measures.sql), where /api/stats serves them to the game kind's page.

#include <cstdint>
#include <string>
#include <vector>

#include "bots/lab/measures.h"
#include "bots/lab/report.h"
#include "games/core/expected.h"

namespace arena::cli {

// How much one heuristic's measures rest on: games (trajectories) and positions along them.
struct LabCount {
  int games = 0;
  std::int64_t positions = 0;
};

LabCount lab_count(const std::vector<lab::Trajectory>& trajectories);

// One run of arena analyze on game kind `kind`: `rows` and `counts` in the same order
// (one per heuristic), `parameters` the run's settings as JSON text.
struct LabRecord {
  std::string kind;
  std::string source;
  std::string parameters;
  std::vector<lab::ReportRow> rows;
  std::vector<LabCount> counts;
};

// Writes `record` into the SQLite store at `db_path` (created, with its schema, when there is
// none); returns the run's id, or an error naming the file.
Expected<std::int64_t> record_lab_run(const std::string& db_path, const LabRecord& record);

}  // namespace arena::cli
