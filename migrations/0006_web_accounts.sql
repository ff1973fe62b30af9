-- Why: the web app's first-run setup makes the instance owner an operator (the /api/v1/admin/* routes and the
-- operator's page are theirs alone), an operator can disable an account without deleting its ideas, and the idea
-- page keeps the last generated spec so reopening it does not cost another AI call.
ALTER TABLE users ADD COLUMN is_operator INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN disabled_at TEXT;

CREATE TABLE idea_specs (
  idea_id       INTEGER PRIMARY KEY REFERENCES ideas(id) ON DELETE CASCADE,
  user_id       TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  spec          TEXT NOT NULL,
  provider      TEXT NOT NULL,
  model         TEXT NOT NULL,
  input_tokens  INTEGER NOT NULL,
  output_tokens INTEGER NOT NULL,
  created_at    TEXT NOT NULL
);
