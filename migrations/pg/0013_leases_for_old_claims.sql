-- Why: a job claimed by a build older than 0010 carries no lease, and a PostgreSQL node hands back only claims whose
-- lease ran out (SQLite releases every claim when it starts): such a job would stay claimed for ever and its idea never
-- be embedded. Upgrading past 0012 stops every node first (docs/operations.md), so no holder of such a claim is alive:
-- its lease is taken to have ended when it was claimed, and the next claim of any node hands it back.
UPDATE jobs SET lease_until = locked_at WHERE locked_at IS NOT NULL AND lease_until IS NULL;
