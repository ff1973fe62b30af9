// Nodes are upgraded one at a time (docs/operations.md): a PostgreSQL migration after the first may only add, so every
// statement of the previous version still runs beside the new one. One that removes, renames or tightens fails here.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const DIR = join(import.meta.dir, "../../migrations/pg");
/** What an old node's statements could trip on: a thing gone or renamed, a column it does not fill made required. */
const BREAKING = /\b(DROP\s+(TABLE|COLUMN|VIEW|INDEX|FUNCTION|TRIGGER|TYPE)|RENAME\b|SET\s+NOT\s+NULL|ALTER\s+COLUMN\s+\S+\s+(SET\s+DATA\s+)?TYPE|ADD\s+COLUMN\s+[^,;]*\bNOT\s+NULL\b(?![^,;]*\bDEFAULT\b))/i;

/**
 * Migrations that cannot run beside the previous version, each with why; docs/operations.md ("Upgrading nodes one at a
 * time") lists them, and an upgrade across one stops every node first.
 */
const STOP_ALL: Record<string, string> = {
  "0012_keyword_pairs.sql": "keyword_postings gains a required column (tokens) that an older node's indexer does not write",
};

test("docs/operations.md names every migration that needs every node stopped", () => {
  const ops = readFileSync(join(import.meta.dir, "../../docs/operations.md"), "utf8");
  for (const file of Object.keys(STOP_ALL)) expect(ops, file).toContain(file.replace(/\.sql$/, ""));
});

test("PostgreSQL migrations after 0001 only add (old and new nodes run side by side during an upgrade)", () => {
  const found: string[] = [];
  for (const file of readdirSync(DIR).filter((f) => f.endsWith(".sql") && !f.startsWith("0001_") && !STOP_ALL[f]).sort()) {
    const sql = readFileSync(join(DIR, file), "utf8").replace(/--[^\n]*/g, "");
    for (const stmt of sql.split(";")) {
      const m = BREAKING.exec(stmt);
      // Replacing a trigger function, or dropping a trigger to make it anew in the same migration, keeps the name.
      if (m && !/DROP\s+TRIGGER\s+IF\s+EXISTS/i.test(stmt) && !/CREATE\s+OR\s+REPLACE/i.test(stmt)) found.push(`${file}: ${m[0]}`);
    }
  }
  expect(found).toEqual([]);
});
