// Every literal SQL statement in src/ compiles against the migrated schema. Statements are compiled on first use
// (src/db/sqlite-store.ts), so a typo in one a test never runs would otherwise surface only in production.
import { expect, test } from "bun:test";
import { Glob } from "bun";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { openDb } from "../../src/db/open";
import { statementsOf } from "../../scripts/pg-statements";

const ROOT = resolve(import.meta.dir, "../..");

/** Statements that are not SQLite's to prepare, each with why (scripts/pg-statements.ts checks PostgreSQL's). */
const NOT_SQLITE: Array<[file: string, sql: RegExp, why: string]> = [
  ["src/modules/search/fulltext-pg-repo.ts", /./, "PostgreSQL's keyword index"],
  ["src/modules/agent/proposals-repo.ts", /./, "PostgreSQL's rows (migrations/pg 0011); SQLite keeps them in memory"],
  ["src/modules/sign-in/failures-repo.ts", /./, "PostgreSQL's rows (migrations/pg 0011); SQLite keeps them in memory"],
  ["src/modules/import/sources/memos.ts", /./, "a Memos database's tables, opened by the importer"],
  ["src/auth/rate-limiter.ts", /set_config\('synchronous_commit'/, "PostgreSQL's shared limiter (SQLite counts in memory)"],
  ["src/db/database-size.ts", /pg_database_size/, "PostgreSQL's size"],
  ["src/modules/search/fulltext-sqlite-repo.ts", /temp\.ideas_fts_/, "fts5vocab tables made on the connection at run time"],
];

test("every literal .query() statement in src/ prepares on a migrated SQLite database", () => {
  const db = openDb(":memory:");
  const failed: string[] = [];
  let prepared = 0;
  for (const f of [...new Glob("src/**/*.ts").scanSync(ROOT)].filter((f) => !f.startsWith("src/web/")).sort()) {
    for (const sql of statementsOf(readFileSync(join(ROOT, f), "utf8"))) {
      if (NOT_SQLITE.some(([file, re]) => file === f && re.test(sql.trim()))) continue;
      try {
        db.prepare(sql).finalize();
        prepared++;
      } catch (e) {
        failed.push(`${f}: ${(e as Error).message}: ${sql.replace(/\s+/g, " ").trim().slice(0, 120)}`);
      }
    }
  }
  db.close();
  expect(failed).toEqual([]);
  // The extractor still finds them (267 when this was written): a change in how repos write SQL would show here.
  expect(prepared).toBeGreaterThan(200);
});
