-- A tournament run by the server keeps its whole configuration (the league config as JSON:
-- players, games per pairing, openings, error policy, seed...) so that a restarted server can
-- continue it. Empty for tournaments recorded by other means (the in-process league runner).
ALTER TABLE tournaments ADD COLUMN config TEXT NOT NULL DEFAULT '';
