-- Why: capture by e-mail (docs/email.md). Each account has one plus-address token (a credential: whoever knows the
-- address can file ideas into the account; regenerating replaces the row, so the old address stops at once), and every
-- message already filed is remembered by its Message-ID (or a hash of the raw message) per account, so a restart
-- between committing the idea and moving the message, or the same message delivered twice, files one idea. The rows
-- also count an account's captures of the last hour (the flood limit).
CREATE TABLE capture_addresses (
  user_id    TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  token      TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE mail_captures (
  user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  message_key TEXT NOT NULL,
  idea_id     INTEGER REFERENCES ideas(id) ON DELETE SET NULL,
  captured_at TEXT NOT NULL,
  PRIMARY KEY (user_id, message_key)
) WITHOUT ROWID;
CREATE INDEX mail_captures_recent ON mail_captures(user_id, captured_at);
CREATE INDEX mail_captures_idea ON mail_captures(idea_id);
