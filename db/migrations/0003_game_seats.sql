-- Seats and scores. A game of more than two seats (a GDL game of 3 to 6 roles) has a row per
-- seat with its player; every finished game with scores (all but aborted ones, and puzzles)
-- has a row per seat with its score 0..100 (GDL goals; 100/0 or 50/50 for the hand-written
-- games). games.first_id and games.second_id stay the players of seats 0 and 1.
CREATE TABLE game_seats (
  game_id INTEGER NOT NULL REFERENCES games(id),
  seat INTEGER NOT NULL CHECK (seat >= 0 AND seat < 6),
  player_id INTEGER REFERENCES players(id),
  score INTEGER CHECK (score IS NULL OR (score >= 0 AND score <= 100)),
  PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
