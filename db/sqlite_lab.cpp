// The heuristic lab's measures in SQLite (schema 6, migrations/0006_lab_measures.sql): a run
// and its heuristics written in one job of the writer (one savepoint: all or nothing), read back
// as the newest measures of each heuristic of a kind.

#include <cmath>
#include <set>

#include "db/sqlite_store.h"

namespace arena::db {
namespace {

// NaN (an undefined measure that slipped through) is stored as NULL, as none is.
void bind_measure(Statement& s, int index, const std::optional<double>& x) {
  if (x && std::isfinite(*x)) s.bind(index, *x);
  else s.bind_null(index);
}

std::optional<double> measure(const Statement& s, int column) {
  if (s.is_null(column)) return std::nullopt;
  return s.real(column);
}

Expected<void> insert_heuristic(Connection& c, std::int64_t run, const LabMeasures& m) {
  auto stmt = c.prepare(
      "INSERT INTO lab_heuristics (run_id, heuristic, games, positions, moves, spread, "
      "mean_change, median_change, p90_change, max_change, mean_norm, median_norm, p90_norm, "
      "max_norm, unchanged, sign_agreement, correlation) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, "
      "?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)");
  if (!stmt) return Error{stmt.error()};
  stmt->bind(1, run).bind(2, m.heuristic).bind(3, m.games).bind(4, m.positions).bind(5, m.moves);
  int i = 6;
  for (const auto* x : {&m.spread, &m.mean_change, &m.median_change, &m.p90_change,
                        &m.max_change, &m.mean_norm, &m.median_norm, &m.p90_norm, &m.max_norm,
                        &m.unchanged, &m.sign_agreement, &m.correlation})
    bind_measure(*stmt, i++, *x);
  if (auto r = stmt->run(); !r)
    return make_error("cannot record the lab's measures of '" + m.heuristic + "': " + r.error());
  for (std::size_t b = 0; b < m.outcome.size(); ++b) {
    const LabOutcomeBucket& o = m.outcome[b];
    auto row = c.prepare(
        "INSERT INTO lab_outcome (run_id, heuristic, bucket, min_plies, max_plies, positions, "
        "sign_agreement, correlation) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
    if (!row) return Error{row.error()};
    row->bind(1, run).bind(2, m.heuristic).bind(3, static_cast<int>(b)).bind(4, o.min_plies);
    if (o.max_plies) row->bind(5, *o.max_plies);
    else row->bind_null(5);
    row->bind(6, o.positions);
    bind_measure(*row, 7, o.sign_agreement);
    bind_measure(*row, 8, o.correlation);
    if (auto r = row->run(); !r)
      return make_error("cannot record a bucket of '" + m.heuristic + "': " + r.error());
  }
  return {};
}

}  // namespace

Expected<std::int64_t> SqliteStore::record_lab_run(const LabRun& run) {
  if (auto ok = check_lab_run(run); !ok) return Error{ok.error()};
  std::int64_t id = 0;
  auto ok = writer_.run([&](Connection& c) -> Expected<void> {
    auto stmt = c.prepare(
        "INSERT INTO lab_runs (kind, measured_at, source, parameters) VALUES (?1, ?2, ?3, ?4)");
    if (!stmt) return Error{stmt.error()};
    stmt->bind(1, run.kind).bind(2, run.measured_at_ms ? run.measured_at_ms : now_unix_ms());
    stmt->bind(3, run.source).bind(4, run.parameters);
    if (auto r = stmt->run(); !r) return make_error("cannot record a lab run: " + r.error());
    id = c.last_insert_rowid();
    for (const LabMeasures& m : run.heuristics)
      if (auto r = insert_heuristic(c, id, m); !r) return r;
    return {};
  });
  if (!ok) return Error{ok.error()};
  return id;
}

namespace {

Expected<void> read_buckets(Connection& c, LabMeasuresRow& row) {
  auto stmt = c.prepare(
      "SELECT min_plies, max_plies, positions, sign_agreement, correlation FROM lab_outcome "
      "WHERE run_id = ?1 AND heuristic = ?2 ORDER BY bucket");
  if (!stmt) return Error{stmt.error()};
  stmt->bind(1, row.run).bind(2, row.measures.heuristic);
  for (;;) {
    auto more = stmt->step();
    if (!more) return Error{more.error()};
    if (!*more) return {};
    LabOutcomeBucket b;
    b.min_plies = stmt->int32(0);
    if (!stmt->is_null(1)) b.max_plies = stmt->int32(1);
    b.positions = stmt->int64(2);
    b.sign_agreement = measure(*stmt, 3);
    b.correlation = measure(*stmt, 4);
    row.measures.outcome.push_back(b);
  }
}

LabMeasuresRow lab_row(const Statement& s) {
  LabMeasuresRow row;
  row.run = s.int64(0);
  row.kind = s.text(1);
  row.measured_at_ms = s.int64(2);
  row.source = s.text(3);
  row.parameters = s.text(4);
  LabMeasures& m = row.measures;
  m.heuristic = s.text(5);
  m.games = s.int32(6);
  m.positions = s.int64(7);
  m.moves = s.int64(8);
  int i = 9;
  for (auto* x : {&m.spread, &m.mean_change, &m.median_change, &m.p90_change, &m.max_change,
                  &m.mean_norm, &m.median_norm, &m.p90_norm, &m.max_norm, &m.unchanged,
                  &m.sign_agreement, &m.correlation})
    *x = measure(s, i++);
  return row;
}

}  // namespace

Expected<std::vector<LabMeasuresRow>> SqliteStore::lab_measures(const std::string& kind) {
  std::lock_guard lock(read_mutex_);
  // Each heuristic's row from the newest run of `kind` that measured it.
  auto stmt = reader_.prepare(
      "SELECT r.id, r.kind, r.measured_at, r.source, r.parameters, h.heuristic, h.games, "
      "h.positions, h.moves, h.spread, h.mean_change, h.median_change, h.p90_change, "
      "h.max_change, h.mean_norm, h.median_norm, h.p90_norm, h.max_norm, h.unchanged, "
      "h.sign_agreement, h.correlation FROM lab_heuristics h JOIN lab_runs r ON r.id = h.run_id "
      "WHERE r.kind = ?1 AND r.id = (SELECT MAX(h2.run_id) FROM lab_heuristics h2 "
      "JOIN lab_runs r2 ON r2.id = h2.run_id WHERE r2.kind = ?1 AND h2.heuristic = h.heuristic) "
      "ORDER BY h.heuristic");
  if (!stmt) return Error{stmt.error()};
  stmt->bind(1, kind);
  std::vector<LabMeasuresRow> out;
  for (;;) {
    auto more = stmt->step();
    if (!more) return Error{more.error()};
    if (!*more) break;
    out.push_back(lab_row(*stmt));
  }
  for (auto& row : out)
    if (auto ok = read_buckets(reader_, row); !ok) return Error{ok.error()};
  return out;
}

namespace {

Expected<void> check_share(const std::string& where, const std::optional<double>& x) {
  if (x && std::isfinite(*x) && (*x < 0 || *x > 1))
    return make_error(where + " is " + std::to_string(*x) + ", not a share within 0..1");
  return {};
}

Expected<void> check_measures(const LabMeasures& m) {
  const std::string who = "lab measures of '" + m.heuristic + "': ";
  if (m.games < 0 || m.positions < 0 || m.moves < 0)
    return make_error(who + "games, positions and moves cannot be below zero");
  if (auto ok = check_share(who + "unchanged", m.unchanged); !ok) return ok;
  if (auto ok = check_share(who + "sign_agreement", m.sign_agreement); !ok) return ok;
  for (std::size_t b = 0; b < m.outcome.size(); ++b) {
    const LabOutcomeBucket& o = m.outcome[b];
    const std::string where = who + "bucket " + std::to_string(b) + " ";
    if (o.min_plies < 0 || o.positions < 0 || (o.max_plies && *o.max_plies < o.min_plies))
      return make_error(where + "has a negative count or max_plies below min_plies");
    if (auto ok = check_share(where + "sign_agreement", o.sign_agreement); !ok) return ok;
  }
  return {};
}

}  // namespace

Expected<void> check_lab_run(const LabRun& run) {
  if (run.kind.empty()) return make_error("a lab run needs a game kind");
  if (run.heuristics.empty())
    return make_error("a lab run of " + run.kind + " needs at least one heuristic");
  std::set<std::string> seen;
  for (const LabMeasures& m : run.heuristics) {
    if (m.heuristic.empty()) return make_error("a lab run of " + run.kind + " names no heuristic");
    if (!seen.insert(m.heuristic).second)
      return make_error("a lab run of " + run.kind + " measures '" + m.heuristic + "' twice");
    if (auto ok = check_measures(m); !ok) return ok;
  }
  return {};
}

}  // namespace arena::db
