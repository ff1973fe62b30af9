-- Why: an account's ideas as a folder of Markdown, kept in step both ways (issue 37). vault_bindings binds an account
-- to its folder (one each, a folder to one account); vault_files is each synced file's state: which idea, where, and
-- what both sides looked like at the last sync (the idea's version number is the merge base, idea_versions holds its
-- text; meta the status, tags and title then; the file's hash, size and mtime). vault_issues holds what the person may
-- need to see: conflict files to resolve, files skipped and why (Settings and `vault status` read them).
CREATE TABLE vault_bindings (
  user_id         TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  path            TEXT NOT NULL UNIQUE,
  created_at      TEXT NOT NULL,
  initial_done_at TEXT,
  last_sync_at    TEXT,
  last_error      TEXT
);

CREATE TABLE vault_files (
  user_id         TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  idea_id         INTEGER NOT NULL REFERENCES ideas(id) ON DELETE CASCADE,
  path            TEXT NOT NULL,
  version         INTEGER NOT NULL,
  idea_updated_at TEXT NOT NULL,
  meta            TEXT NOT NULL,
  hash            TEXT NOT NULL,
  size            INTEGER NOT NULL,
  mtime_ms        INTEGER NOT NULL,
  synced_at       TEXT NOT NULL,
  PRIMARY KEY (user_id, idea_id)
);
CREATE UNIQUE INDEX vault_files_path ON vault_files(user_id, path);
CREATE INDEX vault_files_idea ON vault_files(idea_id);

CREATE TABLE vault_issues (
  user_id  TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  path     TEXT NOT NULL,
  kind     TEXT NOT NULL CHECK (kind IN ('conflict', 'skipped', 'error')),
  idea_id  INTEGER,
  message  TEXT NOT NULL,
  at       TEXT NOT NULL,
  PRIMARY KEY (user_id, path, kind)
);
