-- Why: many app nodes on one database (issue 35). A claimed job names the node that holds it and until when
-- (locked_by, lease_until): the holder renews the lease while it works, a node that died stops renewing and its jobs
-- are handed back once the lease ran out, and a node releases only its own claims (src/jobs/queue.ts). SQLite has one
-- process per file, so there the columns only ever name that process; they exist so both stores share one queue.
ALTER TABLE jobs ADD COLUMN locked_by TEXT;
ALTER TABLE jobs ADD COLUMN lease_until TEXT;
CREATE INDEX jobs_lease ON jobs(lease_until) WHERE lease_until IS NOT NULL;
-- A scheduled job's run, claimed by the first node whose clock reaches it: each run of the schedule happens once
-- however many nodes keep the schedule (src/jobs/scheduler.ts).
CREATE TABLE scheduled_runs (
  job        TEXT NOT NULL,
  slot       TEXT NOT NULL,
  node       TEXT NOT NULL,
  claimed_at TEXT NOT NULL,
  PRIMARY KEY (job, slot)
);
-- Work that must run on one node at a time (the IMAP reader, the reindex backlog): held by one node until it stops
-- renewing (src/jobs/duty-lease.ts).
CREATE TABLE node_leases (
  name   TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  until  TEXT NOT NULL
);
