-- The agent's conversations (GET /api/v1/agent/ws): kept per account so they can be listed, reopened, exported and
-- deleted, and removed with the account (ON DELETE CASCADE). A message row holds one provider-neutral message as JSON
-- (src/ai/chat.ts): the person's question, an answer round with its tool calls, or the tool results with each
-- proposal's outcome; answer rounds carry their token usage, provider and model.
CREATE TABLE agent_conversations (
  id            TEXT PRIMARY KEY,
  user_id       TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  title         TEXT NOT NULL,
  input_tokens  INTEGER NOT NULL DEFAULT 0,
  output_tokens INTEGER NOT NULL DEFAULT 0,
  created_at    TEXT NOT NULL,
  updated_at    TEXT NOT NULL
);
CREATE INDEX agent_conversations_by_user ON agent_conversations (user_id, updated_at DESC, id);

CREATE TABLE agent_messages (
  id              INTEGER PRIMARY KEY,
  conversation_id TEXT NOT NULL REFERENCES agent_conversations(id) ON DELETE CASCADE,
  role            TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
  content_json    TEXT NOT NULL,
  input_tokens    INTEGER NOT NULL DEFAULT 0,
  output_tokens   INTEGER NOT NULL DEFAULT 0,
  provider        TEXT,
  model           TEXT,
  created_at      TEXT NOT NULL
);
CREATE INDEX agent_messages_by_conversation ON agent_messages (conversation_id, id);
