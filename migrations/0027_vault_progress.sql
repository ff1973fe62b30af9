-- Why: a first sync of a large folder takes tens of seconds (docs/performance.md) and the person watching Settings
-- should see how far it is (issue 37). The syncing node may not be the one answering the web app (several nodes on one
-- database), so the progress lives with the binding: the phase (reading, importing, writing), the notes or files of
-- that phase done and to do, when the first sync started and when the progress was last written. NULL phase: none running.
ALTER TABLE vault_bindings ADD COLUMN progress_phase TEXT;
ALTER TABLE vault_bindings ADD COLUMN progress_done INTEGER NOT NULL DEFAULT 0;
ALTER TABLE vault_bindings ADD COLUMN progress_total INTEGER NOT NULL DEFAULT 0;
ALTER TABLE vault_bindings ADD COLUMN progress_started_at TEXT;
ALTER TABLE vault_bindings ADD COLUMN progress_at TEXT;
