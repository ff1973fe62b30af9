-- Why: the MCP integration lets AI assistants connect through OAuth 2.1 (dynamic client registration, then the
-- authorization-code flow with PKCE). Registered clients and issued codes must outlive a restart between the consent
-- page and the token exchange. The access tokens themselves live in api_keys (source 'mcp'); nothing here grants access.

CREATE TABLE oauth_clients (
  id            TEXT PRIMARY KEY,             -- the client_id handed out at registration (32 random hex chars)
  client_name   TEXT NOT NULL,
  redirect_uris TEXT NOT NULL,                -- JSON array; a redirect_uri must match one of them exactly
  created_at    TEXT NOT NULL,
  authorized_at TEXT                          -- last time a user approved it; never-approved clients are pruned
);

CREATE TABLE oauth_codes (
  code_hash      TEXT PRIMARY KEY,            -- SHA-256 hex of the code; the code itself is never stored
  client_id      TEXT NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  user_id        TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  redirect_uri   TEXT NOT NULL,
  code_challenge TEXT NOT NULL,               -- PKCE S256 challenge (base64url SHA-256 of the verifier)
  scopes         TEXT NOT NULL,               -- approved scopes, space separated
  expires_at     TEXT NOT NULL,
  used_at        TEXT,                        -- set by the one successful exchange; a replay finds it set
  token_id       TEXT,                        -- api_keys.id minted from this code, revoked if the code is replayed
  created_at     TEXT NOT NULL
);
CREATE INDEX oauth_codes_expiry ON oauth_codes(expires_at);
