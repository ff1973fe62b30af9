-- Why: the PostgreSQL store (IDEAREPO_DATABASE_URL, issue 34) starts from the schema SQLite's migrations 0001–0019
-- build, so the same repos read and write the same tables and columns (test/store/schema-parity.test.ts holds the two
-- to each other). Types: SQLite's INTEGER is bigint (64-bit, as SQLite's), REAL double precision, BLOB bytea, TEXT
-- text; timestamps stay the 'YYYY-MM-DD HH:MM:SS' text the services compute, so both stores compare them the same.
-- An INTEGER PRIMARY KEY (SQLite's rowid) is an identity column that still takes an explicit id (the copy command).
-- Differences, each on purpose:
-- - Every table holding an account's rows carries user_id, so the data could later be distributed by account. The
--   tables that SQLite keys through a parent (idea_tags, links, idea_nudges, jobs, agent_messages,
--   ideas_fts_cjk_pending) get it from that parent in a BEFORE INSERT trigger, so the repos' SQL stays the same.
-- - Full-text search (SQLite's FTS5 tables ideas_fts, ideas_fts_cjk and their shadow tables) and the vector tables
--   (made per model generation at run time: src/vectors) have no counterpart yet: keyword and semantic search on
--   PostgreSQL are a later step of issue 34, which adds their plain tables.
-- - The schema version is a row of idearepo_schema (SQLite keeps it in PRAGMA user_version).

-- SQLite compatibility: what the dialect (src/db/pg/dialect.ts) cannot say in a statement alone.
-- users.email is COLLATE NOCASE on SQLite: equal and unique ignoring case. An ICU collation does the same here.
CREATE COLLATION nocase (provider = icu, locale = 'und-u-ks-level2', deterministic = false);

-- json_each(?) becomes jsonb_array_elements: its `value` is jsonb, which SQLite compares with an id or a name as
-- the number or text it holds. These operators do the same (inlined SQL, so an index on the column still serves).
CREATE FUNCTION sqlite_eq(a bigint, b jsonb) RETURNS boolean LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS 'SELECT a = (b #>> ''{}'')::bigint';
CREATE FUNCTION sqlite_eq(a jsonb, b bigint) RETURNS boolean LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS 'SELECT (a #>> ''{}'')::bigint = b';
CREATE FUNCTION sqlite_eq(a text, b jsonb) RETURNS boolean LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS 'SELECT a = (b #>> ''{}'')';
CREATE FUNCTION sqlite_eq(a jsonb, b text) RETURNS boolean LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS 'SELECT (a #>> ''{}'') = b';
-- json_extract(x, '$.k') becomes ->> 'k', a text: compared with an id it is the number it spells.
CREATE FUNCTION sqlite_eq(a bigint, b text) RETURNS boolean LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS 'SELECT a = b::bigint';
CREATE FUNCTION sqlite_eq(a text, b bigint) RETURNS boolean LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS 'SELECT a::bigint = b';
CREATE OPERATOR = (LEFTARG = bigint, RIGHTARG = jsonb, FUNCTION = sqlite_eq, COMMUTATOR = =);
CREATE OPERATOR = (LEFTARG = text, RIGHTARG = jsonb, FUNCTION = sqlite_eq, COMMUTATOR = =);
CREATE OPERATOR = (LEFTARG = bigint, RIGHTARG = text, FUNCTION = sqlite_eq, COMMUTATOR = =);
-- round(x, n) of a double: PostgreSQL has it for numeric only.
CREATE FUNCTION round(x double precision, n integer) RETURNS double precision LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS 'SELECT round(x::numeric, n)::double precision';

CREATE TABLE idearepo_schema (version integer NOT NULL);

CREATE TABLE users (
  id                  text PRIMARY KEY,
  email               text COLLATE nocase NOT NULL UNIQUE,
  display_name        text NOT NULL,
  avatar_url          text NOT NULL DEFAULT '',
  plan                text NOT NULL DEFAULT 'free' CHECK (plan IN ('free', 'pro')),
  settings_json       text NOT NULL DEFAULT '{}',
  password_hash       text,
  provider_a_key_enc  text,
  provider_b_key_enc  text,
  provider_c_key_enc  text,
  trial_ends_at       text,
  trial_used          bigint NOT NULL DEFAULT 0,
  subscription_id     text,
  idea_seq            bigint NOT NULL DEFAULT 0, -- last display number handed out; numbers are never reused
  created_at          text NOT NULL,
  updated_at          text NOT NULL,
  is_operator         bigint NOT NULL DEFAULT 0,
  disabled_at         text,
  billing_customer_id text,
  subscription_status text
);
CREATE UNIQUE INDEX users_billing_customer ON users(billing_customer_id) WHERE billing_customer_id IS NOT NULL;

CREATE TABLE sessions (
  token_hash   text PRIMARY KEY,
  user_id      text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  expires_at   text NOT NULL,
  last_used_at text,
  created_at   text NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);

CREATE TABLE api_keys (
  id           text PRIMARY KEY,
  user_id      text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  key_hash     text NOT NULL UNIQUE,
  label        text NOT NULL DEFAULT 'default',
  scopes       text,
  source       text NOT NULL DEFAULT 'manual' CHECK (source IN ('manual', 'mcp')),
  last_used_at text,
  created_at   text NOT NULL
);
CREATE INDEX api_keys_user ON api_keys(user_id, created_at);

CREATE TABLE ideas (
  id             bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  user_id        text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  number         bigint NOT NULL,
  title          text NOT NULL,
  body           text NOT NULL DEFAULT '',
  status         text NOT NULL DEFAULT 'captured'
                 CHECK (status IN ('captured', 'exploring', 'building', 'shipped', 'shelved')),
  source         text NOT NULL DEFAULT 'api',
  source_url     text,
  source_summary text,
  parent_id      bigint REFERENCES ideas(id) ON DELETE SET NULL,
  vectorize_id   text,
  is_archived    bigint NOT NULL DEFAULT 0,
  created_at     text NOT NULL,
  updated_at     text NOT NULL,
  list_json      text,
  UNIQUE (user_id, number)
);
CREATE INDEX ideas_user_created ON ideas(user_id, is_archived, created_at DESC, id DESC);
CREATE INDEX ideas_user_status ON ideas(user_id, status, is_archived);
CREATE INDEX ideas_embedding_state ON ideas(vectorize_id) WHERE is_archived = 0;
CREATE INDEX ideas_parent ON ideas(parent_id) WHERE parent_id IS NOT NULL;

CREATE TABLE tags (
  id           bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  user_id      text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name         text NOT NULL,
  color        text,
  vectorize_id text,
  created_at   text NOT NULL,
  UNIQUE (user_id, name)
);
CREATE INDEX tags_embedding_state ON tags(vectorize_id);

-- The account of a row SQLite keys through its idea: filled from the idea, so an INSERT need not name it.
CREATE FUNCTION user_from_idea() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.user_id IS NULL AND NEW.idea_id IS NOT NULL THEN
    NEW.user_id := (SELECT user_id FROM ideas WHERE id = NEW.idea_id);
  END IF;
  RETURN NEW;
END $$;

CREATE TABLE idea_tags (
  idea_id bigint NOT NULL REFERENCES ideas(id) ON DELETE CASCADE,
  tag_id  bigint NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  PRIMARY KEY (idea_id, tag_id)
);
CREATE INDEX idea_tags_tag ON idea_tags(tag_id, idea_id);
CREATE TRIGGER idea_tags_user BEFORE INSERT ON idea_tags FOR EACH ROW EXECUTE FUNCTION user_from_idea();

CREATE TABLE links (
  id         bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  idea_id    bigint NOT NULL REFERENCES ideas(id) ON DELETE CASCADE,
  url        text NOT NULL,
  title      text,
  link_type  text NOT NULL DEFAULT 'url'
             CHECK (link_type IN ('url', 'assistant-chat', 'code-repo', 'code-issue', 'attachment')),
  created_at text NOT NULL,
  user_id    text NOT NULL REFERENCES users(id) ON DELETE CASCADE
);
CREATE INDEX links_idea ON links(idea_id, created_at DESC);
CREATE TRIGGER links_user BEFORE INSERT ON links FOR EACH ROW EXECUTE FUNCTION user_from_idea();

CREATE TABLE relations (
  id             bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  user_id        text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  source_idea_id bigint NOT NULL REFERENCES ideas(id) ON DELETE CASCADE,
  target_idea_id bigint NOT NULL REFERENCES ideas(id) ON DELETE CASCADE,
  relation_type  text NOT NULL
                 CHECK (relation_type IN ('related', 'parent', 'blocks', 'inspires', 'supersedes', 'duplicate')),
  score          double precision,
  note           text,
  created_by     text NOT NULL CHECK (created_by IN ('user', 'system')),
  created_at     text NOT NULL,
  imported       bigint NOT NULL DEFAULT 0,
  CHECK (source_idea_id <> target_idea_id)
);
CREATE UNIQUE INDEX relations_pair ON relations(source_idea_id, target_idea_id, created_by);
CREATE INDEX relations_target ON relations(target_idea_id);
CREATE INDEX relations_user_created ON relations(user_id, created_at);

CREATE TABLE duplicate_detections (
  id               bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  user_id          text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  idea_id          bigint NOT NULL REFERENCES ideas(id) ON DELETE CASCADE,
  duplicate_of_id  bigint NOT NULL REFERENCES ideas(id) ON DELETE CASCADE,
  similarity_score double precision NOT NULL,
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'dismissed', 'merged')),
  created_at       text NOT NULL,
  resolved_at      text,
  pair_lo          bigint NOT NULL,
  pair_hi          bigint NOT NULL,
  UNIQUE (pair_lo, pair_hi)
);
CREATE INDEX duplicate_detections_user ON duplicate_detections(user_id, status);
CREATE INDEX duplicate_detections_idea ON duplicate_detections(idea_id);
CREATE INDEX duplicate_detections_of ON duplicate_detections(duplicate_of_id);

CREATE TABLE usage_counters (
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind    text NOT NULL,
  period  text NOT NULL,
  count   bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (user_id, kind, period)
);

-- A job's account: its idea's when it has one (a tag job names its tag in the payload; user_id stays NULL there).
CREATE TABLE jobs (
  id         bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  kind       text NOT NULL,
  idea_id    bigint,
  payload    text,
  attempts   bigint NOT NULL DEFAULT 0,
  run_after  text NOT NULL,
  locked_at  text,
  last_error text,
  created_at text NOT NULL,
  user_id    text REFERENCES users(id) ON DELETE CASCADE
);
CREATE INDEX jobs_ready ON jobs(locked_at, run_after);
CREATE UNIQUE INDEX jobs_one_pending ON jobs(kind, idea_id) WHERE locked_at IS NULL;
CREATE INDEX jobs_idea ON jobs(idea_id);
CREATE TRIGGER jobs_user BEFORE INSERT ON jobs FOR EACH ROW EXECUTE FUNCTION user_from_idea();

CREATE TABLE app_state (
  key        text PRIMARY KEY,
  value      text NOT NULL,
  updated_at text NOT NULL
);

CREATE TABLE mail_log (
  user_id    text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind       text NOT NULL CHECK (kind IN ('digest', 'nudge')),
  period_key text NOT NULL,
  status     text NOT NULL DEFAULT 'sending' CHECK (status IN ('sending', 'sent')),
  sent_at    text NOT NULL,
  PRIMARY KEY (user_id, kind, period_key)
);

CREATE TABLE idea_nudges (
  idea_id   bigint PRIMARY KEY REFERENCES ideas(id) ON DELETE CASCADE,
  nudged_at text NOT NULL,
  user_id   text NOT NULL REFERENCES users(id) ON DELETE CASCADE
);
CREATE TRIGGER idea_nudges_user BEFORE INSERT ON idea_nudges FOR EACH ROW EXECUTE FUNCTION user_from_idea();

CREATE TABLE oauth_clients (
  id            text PRIMARY KEY,
  client_name   text NOT NULL,
  redirect_uris text NOT NULL,
  created_at    text NOT NULL,
  authorized_at text
);

CREATE TABLE oauth_codes (
  code_hash      text PRIMARY KEY,
  client_id      text NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  user_id        text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  redirect_uri   text NOT NULL,
  code_challenge text NOT NULL,
  scopes         text NOT NULL,
  expires_at     text NOT NULL,
  used_at        text,
  token_id       text,
  created_at     text NOT NULL
);
CREATE INDEX oauth_codes_expiry ON oauth_codes(expires_at);
CREATE INDEX oauth_codes_client ON oauth_codes(client_id);
CREATE INDEX oauth_codes_user ON oauth_codes(user_id);

CREATE TABLE rejected_pairs (
  user_id    text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  pair_lo    bigint NOT NULL REFERENCES ideas(id) ON DELETE CASCADE,
  pair_hi    bigint NOT NULL REFERENCES ideas(id) ON DELETE CASCADE,
  created_at text NOT NULL,
  PRIMARY KEY (pair_lo, pair_hi)
);
CREATE INDEX rejected_pairs_hi ON rejected_pairs(pair_hi);
CREATE INDEX rejected_pairs_user ON rejected_pairs(user_id);

CREATE TABLE idea_specs (
  idea_id       bigint PRIMARY KEY REFERENCES ideas(id) ON DELETE CASCADE,
  user_id       text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  spec          text NOT NULL,
  provider      text NOT NULL,
  model         text NOT NULL,
  input_tokens  bigint NOT NULL,
  output_tokens bigint NOT NULL,
  created_at    text NOT NULL
);
CREATE INDEX idea_specs_user ON idea_specs(user_id);

CREATE TABLE invitations (
  token_hash text PRIMARY KEY,
  user_id    text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_by text REFERENCES users(id) ON DELETE SET NULL,
  expires_at text NOT NULL,
  used_at    text,
  created_at text NOT NULL
);
CREATE INDEX invitations_user ON invitations(user_id);
CREATE INDEX invitations_created_by ON invitations(created_by) WHERE created_by IS NOT NULL;

-- Ideas whose CJK text waits for the bigram index (SQLite: migrations/0008); the index itself is the search step's.
CREATE TABLE ideas_fts_cjk_pending (
  idea_id bigint PRIMARY KEY,
  user_id text REFERENCES users(id) ON DELETE CASCADE
);
CREATE TRIGGER ideas_fts_cjk_pending_user BEFORE INSERT ON ideas_fts_cjk_pending FOR EACH ROW EXECUTE FUNCTION user_from_idea();

CREATE TABLE import_origins (
  user_id      text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  source       text NOT NULL,
  origin       text NOT NULL,
  idea_id      bigint NOT NULL REFERENCES ideas(id) ON DELETE CASCADE,
  content_hash text NOT NULL,
  imported_at  text NOT NULL,
  PRIMARY KEY (user_id, source, origin)
);
CREATE INDEX import_origins_idea ON import_origins(idea_id);

CREATE TABLE billing_events (
  event_id    text PRIMARY KEY,
  type        text NOT NULL,
  received_at text NOT NULL
);

CREATE TABLE account_history (
  id          bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  user_id     text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  source      text NOT NULL CHECK (source IN ('operator', 'cli', 'billing')),
  plan_before text NOT NULL CHECK (plan_before IN ('free', 'pro')),
  plan_after  text NOT NULL CHECK (plan_after IN ('free', 'pro')),
  note        text NOT NULL,
  created_at  text NOT NULL
);
CREATE INDEX account_history_user ON account_history(user_id, id);

CREATE TABLE agent_conversations (
  id            text PRIMARY KEY,
  user_id       text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  title         text NOT NULL,
  input_tokens  bigint NOT NULL DEFAULT 0,
  output_tokens bigint NOT NULL DEFAULT 0,
  created_at    text NOT NULL,
  updated_at    text NOT NULL
);
CREATE INDEX agent_conversations_by_user ON agent_conversations (user_id, updated_at DESC, id);

CREATE TABLE agent_messages (
  id              bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  conversation_id text NOT NULL REFERENCES agent_conversations(id) ON DELETE CASCADE,
  role            text NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
  content_json    text NOT NULL,
  input_tokens    bigint NOT NULL DEFAULT 0,
  output_tokens   bigint NOT NULL DEFAULT 0,
  provider        text,
  model           text,
  created_at      text NOT NULL,
  user_id         text NOT NULL REFERENCES users(id) ON DELETE CASCADE
);
CREATE INDEX agent_messages_by_conversation ON agent_messages (conversation_id, id);
CREATE FUNCTION user_from_conversation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.user_id IS NULL THEN
    NEW.user_id := (SELECT user_id FROM agent_conversations WHERE id = NEW.conversation_id);
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER agent_messages_user BEFORE INSERT ON agent_messages FOR EACH ROW EXECUTE FUNCTION user_from_conversation();

CREATE TABLE capture_addresses (
  user_id    text PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  token      text NOT NULL UNIQUE,
  created_at text NOT NULL
);

CREATE TABLE mail_captures (
  user_id     text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  message_key text NOT NULL,
  idea_id     bigint REFERENCES ideas(id) ON DELETE SET NULL,
  captured_at text NOT NULL,
  PRIMARY KEY (user_id, message_key)
);
CREATE INDEX mail_captures_recent ON mail_captures(user_id, captured_at);
CREATE INDEX mail_captures_idea ON mail_captures(idea_id);

CREATE TABLE map_positions (
  user_id    text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  idea_id    bigint NOT NULL REFERENCES ideas(id) ON DELETE CASCADE,
  x          double precision NOT NULL,
  y          double precision NOT NULL,
  updated_at text NOT NULL,
  PRIMARY KEY (user_id, idea_id)
);
CREATE INDEX map_positions_idea ON map_positions(idea_id);

-- Relations whose two ends are unarchived ideas of the relation's own account (SQLite: migrations/0013).
CREATE VIEW live_relations AS
SELECT r.id, r.user_id, r.source_idea_id, r.target_idea_id, r.relation_type, r.score, r.note, r.created_by, r.created_at,
  r.imported
FROM relations r
JOIN ideas s ON s.id = r.source_idea_id
JOIN ideas t ON t.id = r.target_idea_id
WHERE s.is_archived = 0 AND t.is_archived = 0 AND s.user_id = r.user_id AND t.user_id = r.user_id;

-- Each idea's list entry as JSON text, kept by triggers in the same transaction as every change it depends on
-- (SQLite: migrations/0011, where the why is). Keys in the same order; tags sorted by code point (COLLATE "C").
CREATE VIEW idea_list_entries AS
SELECT i.id, json_build_object(
  'id', i.id, 'number', i.number, 'title', i.title, 'body', i.body, 'status', i.status, 'source', i.source,
  'source_url', i.source_url, 'source_summary', i.source_summary, 'parent_id', i.parent_id,
  'vectorize_id', i.vectorize_id, 'is_archived', i.is_archived,
  'tags', COALESCE((SELECT json_agg(t.name ORDER BY t.name COLLATE "C") FROM idea_tags it JOIN tags t ON t.id = it.tag_id
                    WHERE it.idea_id = i.id), '[]'::json),
  'created_at', i.created_at, 'updated_at', i.updated_at)::text AS entry
FROM ideas i;

CREATE FUNCTION refresh_list_json(idea bigint) RETURNS void LANGUAGE sql AS $$
  UPDATE ideas SET list_json = (SELECT entry FROM idea_list_entries WHERE id = idea) WHERE id = idea;
$$;
-- The entry's own UPDATE sets list_json only, which the update trigger does not list, so it does not fire again.
CREATE FUNCTION ideas_list_json() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_list_json(NEW.id);
  RETURN NULL;
END $$;
CREATE TRIGGER ideas_list_json_insert AFTER INSERT ON ideas FOR EACH ROW EXECUTE FUNCTION ideas_list_json();
CREATE TRIGGER ideas_list_json_update
AFTER UPDATE OF id, number, title, body, status, source, source_url, source_summary, parent_id, vectorize_id,
  is_archived, created_at, updated_at ON ideas FOR EACH ROW EXECUTE FUNCTION ideas_list_json();

CREATE FUNCTION idea_tags_list_json() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN PERFORM refresh_list_json(OLD.idea_id); END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN PERFORM refresh_list_json(NEW.idea_id); END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER idea_tags_list_json AFTER INSERT OR UPDATE OR DELETE ON idea_tags FOR EACH ROW EXECUTE FUNCTION idea_tags_list_json();

CREATE FUNCTION tags_list_json_rename() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ideas SET list_json = (SELECT entry FROM idea_list_entries e WHERE e.id = ideas.id)
  WHERE id IN (SELECT idea_id FROM idea_tags WHERE tag_id = NEW.id);
  RETURN NULL;
END $$;
CREATE TRIGGER tags_list_json_rename AFTER UPDATE OF name ON tags FOR EACH ROW EXECUTE FUNCTION tags_list_json_rename();
