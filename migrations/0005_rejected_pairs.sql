-- Why: deleting an automatic `related` relation is how a user rejects a connection (the review queue's action);
-- the background pass must remember that and never create the pair again on a later edit.
CREATE TABLE rejected_pairs (
  user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  pair_lo    INTEGER NOT NULL REFERENCES ideas(id) ON DELETE CASCADE,
  pair_hi    INTEGER NOT NULL REFERENCES ideas(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  PRIMARY KEY (pair_lo, pair_hi)
) WITHOUT ROWID;
