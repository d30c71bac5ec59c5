-- The seat that made each move. A GDL sheet whose roles move at once stores a turn as one row
-- per mover, so the seat cannot be told from the ply; rows stored before this are NULL.
ALTER TABLE moves ADD COLUMN seat INTEGER;
