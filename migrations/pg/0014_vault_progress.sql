-- Why: SQLite's migration 0027 (issue 37, where the why is): how far a folder's first sync is, kept with its binding
-- so any node can answer it. Here as there.
ALTER TABLE vault_bindings ADD COLUMN progress_phase text;
ALTER TABLE vault_bindings ADD COLUMN progress_done bigint NOT NULL DEFAULT 0;
ALTER TABLE vault_bindings ADD COLUMN progress_total bigint NOT NULL DEFAULT 0;
ALTER TABLE vault_bindings ADD COLUMN progress_started_at text;
ALTER TABLE vault_bindings ADD COLUMN progress_at text;
