-- Why: SQLite's migration 0025 (issue 37, where the why is): an account bound to a folder of Markdown, each synced
-- file's state (the idea's version as the merge base), and the conflicts and skipped files the person sees. Here as there.
CREATE TABLE vault_bindings (
  user_id         text PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  path            text NOT NULL UNIQUE,
  created_at      text NOT NULL,
  initial_done_at text,
  last_sync_at    text,
  last_error      text
);

CREATE TABLE vault_files (
  user_id         text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  idea_id         bigint NOT NULL REFERENCES ideas(id) ON DELETE CASCADE,
  path            text NOT NULL,
  version         bigint NOT NULL,
  idea_updated_at text NOT NULL,
  meta            text NOT NULL,
  hash            text NOT NULL,
  size            bigint NOT NULL,
  mtime_ms        bigint NOT NULL,
  synced_at       text NOT NULL,
  PRIMARY KEY (user_id, idea_id)
);
CREATE UNIQUE INDEX vault_files_path ON vault_files(user_id, path);
CREATE INDEX vault_files_idea ON vault_files(idea_id);

CREATE TABLE vault_issues (
  user_id  text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  path     text NOT NULL,
  kind     text NOT NULL CHECK (kind IN ('conflict', 'skipped', 'error')),
  idea_id  bigint,
  message  text NOT NULL,
  at       text NOT NULL,
  PRIMARY KEY (user_id, path, kind)
);
