-- The heuristic lab's measures (arena analyze --db, bots/lab/measures.h): one run measures the
-- heuristics of one game kind along a set of games. Per heuristic: how many games and positions,
-- its move invariance (|h(after) - h(before)| along the moves played, raw and divided by the
-- spread, the standard deviation of h) and its outcome determination over all positions; per
-- bucket of plies to the end, the outcome determination there. NULL where a measure is undefined
-- (no position with a nonzero value, h constant).
CREATE TABLE lab_runs (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  measured_at INTEGER NOT NULL,
  source TEXT NOT NULL,      -- where the positions came from, in words
  parameters TEXT NOT NULL   -- the run's settings (JSON: player, games, seed, ...)
);
CREATE INDEX lab_runs_by_kind ON lab_runs(kind, id);

CREATE TABLE lab_heuristics (
  run_id INTEGER NOT NULL REFERENCES lab_runs(id),
  heuristic TEXT NOT NULL,
  games INTEGER NOT NULL CHECK (games >= 0),
  positions INTEGER NOT NULL CHECK (positions >= 0),
  moves INTEGER NOT NULL CHECK (moves >= 0),
  spread REAL,
  mean_change REAL, median_change REAL, p90_change REAL, max_change REAL,
  mean_norm REAL, median_norm REAL, p90_norm REAL, max_norm REAL,
  unchanged REAL CHECK (unchanged IS NULL OR (unchanged >= 0 AND unchanged <= 1)),
  sign_agreement REAL CHECK (sign_agreement IS NULL OR (sign_agreement >= 0 AND sign_agreement <= 1)),
  correlation REAL,
  PRIMARY KEY (run_id, heuristic)
) WITHOUT ROWID;

CREATE TABLE lab_outcome (
  run_id INTEGER NOT NULL,
  heuristic TEXT NOT NULL,
  bucket INTEGER NOT NULL CHECK (bucket >= 0),  -- the buckets' order, nearest the end first
  min_plies INTEGER NOT NULL CHECK (min_plies >= 0),
  max_plies INTEGER CHECK (max_plies IS NULL OR max_plies >= min_plies),  -- NULL: no bound
  positions INTEGER NOT NULL CHECK (positions >= 0),
  sign_agreement REAL CHECK (sign_agreement IS NULL OR (sign_agreement >= 0 AND sign_agreement <= 1)),
  correlation REAL,
  PRIMARY KEY (run_id, heuristic, bucket),
  FOREIGN KEY (run_id, heuristic) REFERENCES lab_heuristics(run_id, heuristic)
) WITHOUT ROWID;
