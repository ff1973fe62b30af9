-- Why: SQLite's migration 0026 (issue 35, where the why is): job leases, scheduled runs claimed once, run-once
-- duties held by one node. Here also the wake-up across nodes: a job queued (INSERT) or handed back (locked_at
-- cleared) notifies channel idearepo_jobs when its transaction commits, and every node running the pipeline LISTENs
-- (src/pipeline/wake.ts), so a capture on a web node is picked up by a worker at once rather than at its next poll.
ALTER TABLE jobs ADD COLUMN locked_by text;
ALTER TABLE jobs ADD COLUMN lease_until text;
CREATE INDEX jobs_lease ON jobs(lease_until) WHERE lease_until IS NOT NULL;
CREATE TABLE scheduled_runs (
  job        text NOT NULL,
  slot       text NOT NULL,
  node       text NOT NULL,
  claimed_at text NOT NULL,
  PRIMARY KEY (job, slot)
);
CREATE TABLE node_leases (
  name   text PRIMARY KEY,
  holder text NOT NULL,
  until  text NOT NULL
);
CREATE FUNCTION jobs_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('idearepo_jobs', '');
  RETURN NULL;
END $$;
-- Once per statement: a bulk queueing (a re-scoring pass, an import) sends one notification, not one per row.
CREATE TRIGGER jobs_queued AFTER INSERT ON jobs FOR EACH STATEMENT EXECUTE FUNCTION jobs_notify();
-- Per row, but PostgreSQL folds identical notifications of one transaction into one.
CREATE TRIGGER jobs_handed_back AFTER UPDATE OF locked_at ON jobs FOR EACH ROW
  WHEN (OLD.locked_at IS NOT NULL AND NEW.locked_at IS NULL) EXECUTE FUNCTION jobs_notify();
