-- Why: the mind map remembers where each idea sits, per account (issue 27), so a second visit or another device opens
-- already settled and only ideas new since then are placed. One row per idea; an archived idea keeps its row (it may
-- come back) but it is never returned; an idea or account removed for good takes its rows with it.
CREATE TABLE map_positions (
  user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  idea_id    INTEGER NOT NULL REFERENCES ideas(id) ON DELETE CASCADE,
  x          REAL NOT NULL,
  y          REAL NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (user_id, idea_id)
) WITHOUT ROWID;
CREATE INDEX map_positions_idea ON map_positions(idea_id);
