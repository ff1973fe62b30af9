// Applies the PostgreSQL migrations forward-only, tracked in idearepo_schema; refuses a database newer than this build.
import { SQL } from "bun";
import { SchemaTooNewError } from "../migrate";
import { PG_MIGRATIONS } from "./migrations";

/** Any number: the advisory lock that keeps two processes starting at once from migrating twice. */
const MIGRATION_LOCK = 0x1dea0001;

/**
 * Runs on a connection of its own, in one transaction per migration, under an advisory lock held for the whole run.
 * The SQL is PostgreSQL's own (not translated: the dialect serves the repos' statements).
 */
export async function migratePg(url: string): Promise<{ from: number; to: number }> {
  const sql = new SQL({ url, max: 1, connectionTimeout: 5 });
  try {
    return await sql.begin(async (tx) => {
      await tx.unsafe(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
      const [{ present }] = await tx.unsafe("SELECT to_regclass('idearepo_schema') IS NOT NULL AS present");
      const from = present ? Number((await tx.unsafe("SELECT max(version) AS v FROM idearepo_schema"))[0]?.v ?? 0) : 0;
      const latest = PG_MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);
      if (from > latest) {
        throw new SchemaTooNewError(
          `The database schema is version ${from}, newer than this idearepo build supports (${latest}). Upgrade idearepo; do not downgrade a database.`,
        );
      }
      for (const m of [...PG_MIGRATIONS].sort((a, b) => a.version - b.version)) {
        if (m.version <= from) continue;
        await tx.savepoint(async (sp) => {
          await sp.unsafe(m.sql).simple();
          await sp.unsafe("DELETE FROM idearepo_schema");
          await sp.unsafe(`INSERT INTO idearepo_schema (version) VALUES (${m.version})`);
        });
      }
      return { from, to: Math.max(from, latest) };
    });
  } finally {
    await sql.close();
  }
}
