// Applies embedded migrations forward-only, tracked by PRAGMA user_version; refuses a database newer than this build.
import type { Database } from "bun:sqlite";
import { OperatorError } from "../lib/operator-error";
import { MIGRATIONS } from "./migrations";

export class SchemaTooNewError extends OperatorError {}

export function migrate(db: Database): { from: number; to: number } {
  const from = (db.query("PRAGMA user_version").get() as { user_version: number }).user_version;
  const latest = MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);
  if (from > latest) {
    throw new SchemaTooNewError(
      `The database schema is version ${from}, newer than this idearepo build supports (${latest}). Upgrade idearepo; do not downgrade a data directory.`,
    );
  }
  for (const m of [...MIGRATIONS].sort((a, b) => a.version - b.version)) {
    if (m.version <= from) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.exec(`PRAGMA user_version = ${m.version}`);
    })();
  }
  return { from, to: Math.max(from, latest) };
}
