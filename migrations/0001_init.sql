-- Why: the whole data model of the spec in one place, so every feature (graph, search, mail, BYOK) has its tables from day one.
-- Timestamps are TEXT 'YYYY-MM-DD HH:MM:SS' UTC, written by the application clock so tests can inject time.

CREATE TABLE users (
  id                 TEXT PRIMARY KEY,
  email              TEXT NOT NULL UNIQUE COLLATE NOCASE,
  display_name       TEXT NOT NULL,
  avatar_url         TEXT NOT NULL DEFAULT '',
  plan               TEXT NOT NULL DEFAULT 'free' CHECK (plan IN ('free', 'pro')),
  settings_json      TEXT NOT NULL DEFAULT '{}',
  password_hash      TEXT,
  provider_a_key_enc TEXT,
  provider_b_key_enc TEXT,
  provider_c_key_enc TEXT,
  trial_ends_at      TEXT,
  trial_used         INTEGER NOT NULL DEFAULT 0,
  subscription_id    TEXT,
  idea_seq           INTEGER NOT NULL DEFAULT 0, -- last display number handed out; numbers are never reused
  created_at         TEXT NOT NULL,
  updated_at         TEXT NOT NULL
);

CREATE TABLE sessions (
  token_hash   TEXT PRIMARY KEY,              -- SHA-256 hex of the token; the token itself is never stored
  user_id      TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  expires_at   TEXT NOT NULL,
  last_used_at TEXT,
  created_at   TEXT NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);

CREATE TABLE api_keys (
  id           TEXT PRIMARY KEY,              -- 32 hex chars, shown in lists; not the key
  user_id      TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  key_hash     TEXT NOT NULL UNIQUE,          -- SHA-256 hex of the key
  label        TEXT NOT NULL DEFAULT 'default',
  scopes       TEXT,                          -- NULL = full access; MCP tokens: space-separated scopes
  source       TEXT NOT NULL DEFAULT 'manual' CHECK (source IN ('manual', 'mcp')),
  last_used_at TEXT,
  created_at   TEXT NOT NULL
);
CREATE INDEX api_keys_user ON api_keys(user_id, created_at);

CREATE TABLE ideas (
  id             INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id        TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  number         INTEGER NOT NULL,
  title          TEXT NOT NULL,
  body           TEXT NOT NULL DEFAULT '',
  status         TEXT NOT NULL DEFAULT 'captured'
                 CHECK (status IN ('captured', 'exploring', 'building', 'shipped', 'shelved')),
  source         TEXT NOT NULL DEFAULT 'api',
  source_url     TEXT,
  source_summary TEXT,
  parent_id      INTEGER REFERENCES ideas(id) ON DELETE SET NULL,
  vectorize_id   TEXT,
  is_archived    INTEGER NOT NULL DEFAULT 0,
  created_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL,
  UNIQUE (user_id, number)
);
CREATE INDEX ideas_user_created ON ideas(user_id, is_archived, created_at DESC, id DESC);
CREATE INDEX ideas_user_status ON ideas(user_id, status, is_archived);

CREATE TABLE tags (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id      TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name         TEXT NOT NULL,
  color        TEXT,
  vectorize_id TEXT,
  created_at   TEXT NOT NULL,
  UNIQUE (user_id, name)
);

CREATE TABLE idea_tags (
  idea_id INTEGER NOT NULL REFERENCES ideas(id) ON DELETE CASCADE,
  tag_id  INTEGER NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
  PRIMARY KEY (idea_id, tag_id)
) WITHOUT ROWID;
CREATE INDEX idea_tags_tag ON idea_tags(tag_id, idea_id);

CREATE TABLE links (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  idea_id    INTEGER NOT NULL REFERENCES ideas(id) ON DELETE CASCADE,
  url        TEXT NOT NULL,
  title      TEXT,
  link_type  TEXT NOT NULL DEFAULT 'url'
             CHECK (link_type IN ('url', 'assistant-chat', 'code-repo', 'code-issue', 'attachment')),
  created_at TEXT NOT NULL
);
CREATE INDEX links_idea ON links(idea_id, created_at DESC);

CREATE TABLE relations (
  id             INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id        TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  source_idea_id INTEGER NOT NULL REFERENCES ideas(id) ON DELETE CASCADE,
  target_idea_id INTEGER NOT NULL REFERENCES ideas(id) ON DELETE CASCADE,
  relation_type  TEXT NOT NULL
                 CHECK (relation_type IN ('related', 'parent', 'blocks', 'inspires', 'supersedes', 'duplicate')),
  score          REAL,
  note           TEXT,
  created_by     TEXT NOT NULL CHECK (created_by IN ('user', 'system')),
  created_at     TEXT NOT NULL,
  CHECK (source_idea_id <> target_idea_id)
);
-- The spec's uniqueness: one relation per ordered pair per creator, whatever its type.
CREATE UNIQUE INDEX relations_pair ON relations(source_idea_id, target_idea_id, created_by);
CREATE INDEX relations_target ON relations(target_idea_id);
CREATE INDEX relations_user_created ON relations(user_id, created_at);

CREATE TABLE duplicate_detections (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id          TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  idea_id          INTEGER NOT NULL REFERENCES ideas(id) ON DELETE CASCADE,
  duplicate_of_id  INTEGER NOT NULL REFERENCES ideas(id) ON DELETE CASCADE,
  similarity_score REAL NOT NULL,
  status           TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'dismissed', 'merged')),
  created_at       TEXT NOT NULL,
  resolved_at      TEXT,
  -- The unordered pair, so a dismissed pair is never detected again in either direction.
  pair_lo          INTEGER NOT NULL,
  pair_hi          INTEGER NOT NULL,
  UNIQUE (pair_lo, pair_hi)
);
CREATE INDEX duplicate_detections_user ON duplicate_detections(user_id, status);

-- Per-user counters: daily API requests ('requests', 'YYYY-MM-DD') and monthly semantic searches ('semantic', 'YYYY-MM').
CREATE TABLE usage_counters (
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind    TEXT NOT NULL,
  period  TEXT NOT NULL,
  count   INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (user_id, kind, period)
) WITHOUT ROWID;

-- Durable background work. One pending row per (kind, idea) is enough: a newer change supersedes the older one.
CREATE TABLE jobs (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  kind       TEXT NOT NULL,                  -- 'full' | 'light' | 'tag-embed' | ...
  idea_id    INTEGER,
  payload    TEXT,
  attempts   INTEGER NOT NULL DEFAULT 0,
  run_after  TEXT NOT NULL,
  locked_at  TEXT,
  last_error TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX jobs_ready ON jobs(locked_at, run_after);
CREATE UNIQUE INDEX jobs_one_pending ON jobs(kind, idea_id) WHERE locked_at IS NULL;

-- Instance-wide key/value state (embedding model identity, digest bookkeeping, ...).
CREATE TABLE app_state (
  key        TEXT PRIMARY KEY,
  value      TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

-- Keyword index over title and body, kept in sync by triggers so no write path can forget it.
CREATE VIRTUAL TABLE ideas_fts USING fts5(
  title, body,
  content = 'ideas', content_rowid = 'id',
  tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER ideas_fts_insert AFTER INSERT ON ideas BEGIN
  INSERT INTO ideas_fts(rowid, title, body) VALUES (new.id, new.title, new.body);
END;
CREATE TRIGGER ideas_fts_delete AFTER DELETE ON ideas BEGIN
  INSERT INTO ideas_fts(ideas_fts, rowid, title, body) VALUES ('delete', old.id, old.title, old.body);
END;
CREATE TRIGGER ideas_fts_update AFTER UPDATE OF title, body ON ideas BEGIN
  INSERT INTO ideas_fts(ideas_fts, rowid, title, body) VALUES ('delete', old.id, old.title, old.body);
  INSERT INTO ideas_fts(rowid, title, body) VALUES (new.id, new.title, new.body);
END;
