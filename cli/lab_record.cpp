#include "cli/lab_record.h"

#include <cmath>
#include <optional>

#include "db/sqlite_store.h"

namespace arena::cli {
namespace {

// A measure the lab left undefined (NaN) is none in the store.
std::optional<double> defined(double x) {
  return std::isfinite(x) ? std::optional(x) : std::nullopt;
}

db::LabMeasures measures_of(const lab::ReportRow& row, const LabCount& count) {
  db::LabMeasures m;
  m.heuristic = row.name;
  m.games = count.games;
  m.positions = count.positions;
  const lab::InvarianceStats& s = row.invariance;
  m.moves = s.moves;
  if (s.moves > 0) {  // else move_invariance left every figure at 0: none was measured
    m.spread = defined(s.spread);
    m.mean_change = defined(s.mean);
    m.median_change = defined(s.median);
    m.p90_change = defined(s.p90);
    m.max_change = defined(s.max);
    m.mean_norm = defined(s.mean_norm);
    m.median_norm = defined(s.median_norm);
    m.p90_norm = defined(s.p90_norm);
    m.max_norm = defined(s.max_norm);
    m.unchanged = defined(s.unchanged);
  }
  for (const lab::OutcomeBucket& b : row.outcome) {
    if (b.label == "all") {
      m.sign_agreement = defined(b.sign_agreement);
      m.correlation = defined(b.correlation);
      continue;
    }
    db::LabOutcomeBucket out;
    out.min_plies = b.min_plies;
    if (b.max_plies >= 0) out.max_plies = b.max_plies;
    out.positions = b.positions;
    out.sign_agreement = defined(b.sign_agreement);
    out.correlation = defined(b.correlation);
    m.outcome.push_back(out);
  }
  return m;
}

}  // namespace

LabCount lab_count(const std::vector<lab::Trajectory>& trajectories) {
  LabCount c;
  c.games = static_cast<int>(trajectories.size());
  for (const lab::Trajectory& t : trajectories) c.positions += static_cast<std::int64_t>(t.h.size());
  return c;
}

Expected<std::int64_t> record_lab_run(const std::string& db_path, const LabRecord& record) {
  if (record.rows.size() != record.counts.size())
    return make_error("the lab's rows and counts differ in number");
  db::LabRun run;
  run.kind = record.kind;
  run.source = record.source;
  run.parameters = record.parameters;
  for (std::size_t i = 0; i < record.rows.size(); ++i)
    run.heuristics.push_back(measures_of(record.rows[i], record.counts[i]));
  auto store = db::open_sqlite_store(db_path);
  if (!store) return make_error(store.error());
  auto id = (*store)->record_lab_run(run);
  if (!id) return make_error("cannot record the measures in '" + db_path + "': " + id.error());
  return id;
}

}  // namespace arena::cli
