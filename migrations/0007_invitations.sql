-- Why: an operator can create an account without choosing its password; the invitee sets it with a one-time token
-- (7 days, single use). Only the token's SHA-256 is stored, like sessions and API keys, so a copy of the database
-- cannot be used to take over an invited account.
CREATE TABLE invitations (
  token_hash TEXT PRIMARY KEY,
  user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_by TEXT REFERENCES users(id) ON DELETE SET NULL,
  expires_at TEXT NOT NULL,
  used_at    TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX invitations_user ON invitations(user_id);
