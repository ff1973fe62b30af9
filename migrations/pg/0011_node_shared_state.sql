-- What nodes on one database must agree on that a single SQLite process keeps in memory (docs/architecture.md, "What a
-- node keeps in memory and why it stays true"). PostgreSQL only: one process owns a SQLite file.

-- An agent proposal waiting for the person (GET /agent/ws): the turn runs on the node whose socket asked, the answer may
-- come through a socket on any node. A row lives from the proposal until its turn settles it; `decision` is set by a
-- confirm that reached another node, and read by the waiting node.
CREATE TABLE agent_proposals (
  user_id    text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  call_id    text NOT NULL,
  decision   text CHECK (decision IN ('approved', 'declined')),
  expires_at text NOT NULL,
  created_at text NOT NULL,
  PRIMARY KEY (user_id, call_id)
);

-- The sign-in brake's failed attempts per e-mail address (lower-cased), so every node counts the same ones.
CREATE TABLE sign_in_failures (
  email     text NOT NULL,
  failed_at bigint NOT NULL
);
CREATE INDEX sign_in_failures_by_email ON sign_in_failures (email, failed_at);
