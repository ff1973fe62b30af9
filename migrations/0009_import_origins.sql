-- Why: importing the same export twice must not make copies. Each imported note is remembered by where it came from
-- (the source reader and its stable id inside that source) with a hash of what was read, per account: a second import
-- skips unchanged notes and updates the idea of a changed one. An idea deleted by its user takes its row with it, so
-- importing again brings that note back as a new idea.
CREATE TABLE import_origins (
  user_id      TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  source       TEXT NOT NULL,
  origin       TEXT NOT NULL,
  idea_id      INTEGER NOT NULL REFERENCES ideas(id) ON DELETE CASCADE,
  content_hash TEXT NOT NULL,
  imported_at  TEXT NOT NULL,
  PRIMARY KEY (user_id, source, origin)
) WITHOUT ROWID;
CREATE INDEX import_origins_idea ON import_origins(idea_id);
