-- Why: scheduled e-mail must survive restarts without repeating itself. mail_log remembers each digest/nudge mail
-- per user and period (claimed before sending, so a crash mid-send errs towards not sending twice);
-- idea_nudges remembers when each idea was last nudged, so it is nudged at most once per stale_threshold_days.

CREATE TABLE mail_log (
  user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind       TEXT NOT NULL CHECK (kind IN ('digest', 'nudge')),
  period_key TEXT NOT NULL,                   -- digest: ISO week 'YYYY-Www' (UTC); nudge: UTC day 'YYYY-MM-DD'
  status     TEXT NOT NULL DEFAULT 'sending' CHECK (status IN ('sending', 'sent')),
  sent_at    TEXT NOT NULL,
  PRIMARY KEY (user_id, kind, period_key)
) WITHOUT ROWID;

CREATE TABLE idea_nudges (
  idea_id   INTEGER PRIMARY KEY REFERENCES ideas(id) ON DELETE CASCADE,
  nudged_at TEXT NOT NULL
);
