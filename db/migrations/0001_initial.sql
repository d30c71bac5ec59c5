-- 0001_initial: the first schema. Applied once, in one transaction, when PRAGMA user_version < 1.
-- Times are unix milliseconds (INTEGER). Text columns hold what the protocol and the games use.

-- One row per store file: written at every open as the probe that the file is writable.
CREATE TABLE store_meta (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  created_at INTEGER NOT NULL,
  last_opened_at INTEGER NOT NULL
);

-- People and bots. A bot authenticates with a token of which only the SHA-256 hex is kept.
CREATE TABLE players (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  is_bot INTEGER NOT NULL DEFAULT 0,
  token_hash TEXT UNIQUE,
  created_at INTEGER NOT NULL
);

-- What a bot was when it played: search, heuristic and its parameters/weights (and their hash,
-- so two runs with the same weights are recognised as the same version).
CREATE TABLE bot_versions (
  id INTEGER PRIMARY KEY,
  player_id INTEGER NOT NULL REFERENCES players(id),
  search TEXT NOT NULL,
  heuristic TEXT NOT NULL,
  parameters TEXT NOT NULL DEFAULT '',
  parameters_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (player_id, search, heuristic, parameters_hash)
);

CREATE TABLE tournaments (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  format TEXT NOT NULL,           -- "round-robin", "swiss", "gauntlet", ...
  options TEXT NOT NULL DEFAULT '',
  time_control TEXT NOT NULL DEFAULT 'none',
  created_at INTEGER NOT NULL,
  finished_at INTEGER
);

CREATE TABLE games (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  options TEXT NOT NULL DEFAULT '',
  start_position TEXT NOT NULL DEFAULT '',
  first_id INTEGER REFERENCES players(id),
  second_id INTEGER REFERENCES players(id),
  first_version_id INTEGER REFERENCES bot_versions(id),
  second_version_id INTEGER REFERENCES bot_versions(id),
  time_control TEXT NOT NULL DEFAULT 'none',
  seed INTEGER NOT NULL DEFAULT 0,
  tournament_id INTEGER REFERENCES tournaments(id),
  result TEXT,                    -- NULL while the game is live
  reason TEXT,
  final_position TEXT,
  started_at INTEGER NOT NULL,
  ended_at INTEGER
);
CREATE INDEX games_kind ON games(kind, id);
CREATE INDEX games_first ON games(first_id);
CREATE INDEX games_second ON games(second_id);
CREATE INDEX games_unfinished ON games(id) WHERE result IS NULL;

CREATE TABLE moves (
  game_id INTEGER NOT NULL REFERENCES games(id),
  ply INTEGER NOT NULL,
  move TEXT NOT NULL,
  time_used_ms INTEGER NOT NULL DEFAULT 0,
  clock_left_ms INTEGER NOT NULL DEFAULT -1,
  depth INTEGER NOT NULL DEFAULT 0,
  nodes INTEGER NOT NULL DEFAULT 0,
  score INTEGER,
  pv TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;

-- Current rating of a player in one game kind by one method ("elo", "glicko2").
CREATE TABLE ratings (
  player_id INTEGER NOT NULL REFERENCES players(id),
  kind TEXT NOT NULL,
  method TEXT NOT NULL,
  rating REAL NOT NULL,
  deviation REAL NOT NULL,
  volatility REAL NOT NULL,
  games INTEGER NOT NULL DEFAULT 0,
  wins INTEGER NOT NULL DEFAULT 0,
  losses INTEGER NOT NULL DEFAULT 0,
  draws INTEGER NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (player_id, kind, method)
);

-- Every change of a rating, with the game that caused it.
CREATE TABLE rating_history (
  id INTEGER PRIMARY KEY,
  player_id INTEGER NOT NULL REFERENCES players(id),
  kind TEXT NOT NULL,
  method TEXT NOT NULL,
  game_id INTEGER NOT NULL REFERENCES games(id),
  rating_before REAL NOT NULL,
  rating_after REAL NOT NULL,
  deviation_after REAL NOT NULL,
  volatility_after REAL NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX rating_history_player ON rating_history(player_id, kind, method, id);

CREATE TABLE pairings (
  id INTEGER PRIMARY KEY,
  tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
  round INTEGER NOT NULL,
  first_id INTEGER NOT NULL REFERENCES players(id),
  second_id INTEGER REFERENCES players(id),  -- NULL = a bye
  game_id INTEGER REFERENCES games(id),
  created_at INTEGER NOT NULL
);
CREATE INDEX pairings_tournament ON pairings(tournament_id, round);

CREATE TABLE puzzle_attempts (
  id INTEGER PRIMARY KEY,
  player_id INTEGER NOT NULL REFERENCES players(id),
  kind TEXT NOT NULL,
  options TEXT NOT NULL DEFAULT '',
  instance TEXT NOT NULL,
  solved INTEGER NOT NULL,
  length INTEGER NOT NULL,
  optimal_length INTEGER,         -- NULL where unknown
  time_ms INTEGER NOT NULL,
  solution TEXT NOT NULL DEFAULT '',
  game_id INTEGER REFERENCES games(id),
  created_at INTEGER NOT NULL
);
CREATE INDEX puzzle_attempts_kind ON puzzle_attempts(kind, player_id);
