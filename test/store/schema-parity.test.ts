// Both stores' migrations describe the same tables and columns (names and type families), but for the listed exceptions.
import { beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { migrate } from "../../src/db/migrate";
import { migratedDatabase, requirePostgres } from "../support/postgres";

const run = requirePostgres();

/**
 * SQLite-only: FTS5 virtual tables, their shadow tables and the view that feeds one, and SQLite's own bookkeeping.
 * PostgreSQL's keyword index is its own tables (PG_ONLY below), BM25 from their statistics.
 */
const SQLITE_ONLY = new Set([
  "ideas_fts", "ideas_fts_data", "ideas_fts_idx", "ideas_fts_docsize", "ideas_fts_config", "ideas_fts_content",
  "ideas_fts_cjk", "ideas_fts_cjk_data", "ideas_fts_cjk_idx", "ideas_fts_cjk_docsize", "ideas_fts_cjk_config",
  "sqlite_sequence",
]);

/**
 * PostgreSQL-only tables: the schema version (SQLite keeps it in PRAGMA user_version) and the keyword index in plain
 * tables (migrations/pg/0008), where SQLite has FTS5's; and the state many nodes share (0011).
 */
const PG_ONLY = new Set([
  "idearepo_schema", "keyword_pending", "keyword_docs", "keyword_postings", "keyword_terms", "keyword_totals",
  // What nodes on one database share, where one SQLite process keeps it in memory (migrations/pg/0011).
  "agent_proposals", "sign_in_failures",
]);

/**
 * PostgreSQL-only columns: the account of rows SQLite keys through a parent, so every account's rows carry user_id
 * there (filled by a trigger from the parent: migrations/pg/0001_init.sql). Adding them to SQLite would add a write
 * to its hot paths for a distribution SQLite cannot have.
 */
const PG_ONLY_COLUMNS = new Set([
  "idea_tags.user_id", "links.user_id", "jobs.user_id", "idea_nudges.user_id", "agent_messages.user_id",
  "ideas_fts_cjk_pending.user_id", "idea_versions.user_id",
  // SQLite's implicit rowid, made a column where a statement orders by it (migrations/pg/0005).
  "api_keys.rowid",
]);

/** SQLite's declared types and PostgreSQL's, by family. */
function family(type: string): string {
  const t = type.toLowerCase();
  if (t === "" ) return "any";
  if (/int/.test(t)) return "integer";
  if (/real|double|float|numeric/.test(t)) return "real";
  if (/blob|bytea/.test(t)) return "blob";
  return "text";
}

type Shape = Map<string, Map<string, string>>;

function sqliteShape(): Shape {
  const db = new Database(":memory:", { strict: true });
  migrate(db);
  const shape: Shape = new Map();
  const tables = db.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name").all();
  for (const { name } of tables) {
    if (SQLITE_ONLY.has(name)) continue;
    const cols = db.query<{ name: string; type: string }, []>(`PRAGMA table_info("${name}")`).all();
    shape.set(name, new Map(cols.map((c) => [c.name, family(c.type)])));
  }
  db.close();
  return shape;
}

async function pgShape(url: string): Promise<Shape> {
  const sql = new SQL({ url, max: 1 });
  try {
    const rows = await sql.unsafe<{ table_name: string; column_name: string; data_type: string }[]>(
      "SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position",
    );
    const shape: Shape = new Map();
    for (const r of rows) {
      if (PG_ONLY.has(r.table_name) || PG_ONLY_COLUMNS.has(`${r.table_name}.${r.column_name}`)) continue;
      if (!shape.has(r.table_name)) shape.set(r.table_name, new Map());
      shape.get(r.table_name)!.set(r.column_name, family(r.data_type));
    }
    return shape;
  } finally {
    await sql.close();
  }
}

describe.skipIf(!run)("schema parity", () => {
  let lite: Shape;
  let pg: Shape;
  beforeAll(async () => {
    lite = sqliteShape();
    pg = await pgShape((await migratedDatabase()).url);
  });

  test("the same tables and views", () => {
    expect(lite.size).toBeGreaterThan(25);
    expect([...pg.keys()].sort()).toEqual([...lite.keys()].sort());
  });

  test("the same columns, of the same type family (a view's untyped expression matches any)", () => {
    const differ: string[] = [];
    for (const [table, cols] of lite) {
      const other = pg.get(table);
      if (!other) continue;
      const names = [...new Set([...cols.keys(), ...other.keys()])].sort();
      for (const c of names) {
        const a = cols.get(c);
        const b = other.get(c);
        if (a === undefined || b === undefined) differ.push(`${table}.${c}: ${a === undefined ? "only on PostgreSQL" : "only on SQLite"}`);
        else if (a !== "any" && a !== b) differ.push(`${table}.${c}: SQLite ${a}, PostgreSQL ${b}`);
      }
    }
    expect(differ).toEqual([]);
  });

  test("every table that holds an account's rows carries user_id on PostgreSQL", async () => {
    // Not an account's: clients registered by OAuth, the billing provider's event ids, instance state, the version,
    // the keyword index's instance-wide figures (BM25's document counts per term and totals are the instance's),
    // the nodes' own coordination (scheduled runs claimed, run-once duties held: migrations/pg/0010), and the sign-in
    // brake's attempts (keyed by the address typed, which may name no account: 0011).
    const global = new Set([
      "oauth_clients", "billing_events", "app_state", "idearepo_schema", "users", "keyword_terms", "keyword_totals", "scheduled_runs", "node_leases", "sign_in_failures",
    ]);
    const sql = new SQL({ url: (await migratedDatabase()).url, max: 1 });
    try {
      const rows = await sql.unsafe<{ table_name: string }[]>(
        `SELECT t.table_name FROM information_schema.tables t WHERE t.table_schema = 'public' AND t.table_type = 'BASE TABLE'
         AND NOT EXISTS (SELECT 1 FROM information_schema.columns c WHERE c.table_schema = 'public' AND c.table_name = t.table_name AND c.column_name = 'user_id')`,
      );
      expect(rows.map((r) => r.table_name).filter((t) => !global.has(t))).toEqual([]);
    } finally {
      await sql.close();
    }
  });
});
