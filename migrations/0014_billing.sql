-- Why: an operator can charge for Pro through a payment provider (docs/billing.md). An account remembers its
-- provider customer (reused for every later checkout and the billing portal) and its subscription's last known status
-- (subscription_id, from 0001, is set only while the subscription keeps the account on Pro); each provider event is
-- applied once (its id is kept); and every plan change, whoever made it, is written to the account's history for the
-- operator's pages.
ALTER TABLE users ADD COLUMN billing_customer_id TEXT;
ALTER TABLE users ADD COLUMN subscription_status TEXT;
CREATE UNIQUE INDEX users_billing_customer ON users(billing_customer_id) WHERE billing_customer_id IS NOT NULL;

CREATE TABLE billing_events (
  event_id    TEXT PRIMARY KEY,                -- the provider's event id (evt_…): a replay finds it here
  type        TEXT NOT NULL,
  received_at TEXT NOT NULL
);

CREATE TABLE account_history (
  id          INTEGER PRIMARY KEY,
  user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  source      TEXT NOT NULL CHECK (source IN ('operator', 'cli', 'billing')),
  plan_before TEXT NOT NULL CHECK (plan_before IN ('free', 'pro')),
  plan_after  TEXT NOT NULL CHECK (plan_after IN ('free', 'pro')),
  note        TEXT NOT NULL,                   -- what happened, in words ("Subscription active", "Trial of 14 days")
  created_at  TEXT NOT NULL
);
CREATE INDEX account_history_user ON account_history(user_id, id);
