-- Why the rules ended a game when that is not the usual way (a GDL sheet's bug such as a role
-- without a goal value, a reasoner's limit): game_end's note. NULL for every other game.
ALTER TABLE games ADD COLUMN note TEXT;
