// A generation's vector tables on either store (plain idea rows with their codes, the accounts' shared sums, the tag
// vectors) and the one-time upgrade of SQLite idea tables from vec0.
import type { Database } from "bun:sqlite";
import type { Store } from "../db/store";
import type { Generation } from "./generation";
import { ideaCodesIndex, ideaTable, sharedTable, stampSequence, stampTable, tagTable, tagUserIndex } from "./tables";

/**
 * The tag table's id column: vec0 (SQLite) keys its rows by `rowid`; PostgreSQL's plain table calls it `id`. The only
 * name the vector statements write differently on the two stores.
 */
export const tagIdColumn = (store: Pick<Store, "dialect">) => (store.dialect === "sqlite" ? "rowid" : "id");

/** vec0 allocates vector storage a chunk at a time; the default 1024-vector chunk made every 1024th insert stall
 * the writer for 30–70 ms (2 MB written at once). 128 removes the stalls and scans as fast (measured at 100k). */
const CHUNK_SIZE = 128;

/**
 * One row per idea: the float32 vector the exact cosine is computed from, and its binary code (one bit per
 * dimension) that the coarse pass scans. A plain table because the exact pass reads a few hundred vectors by id: vec0
 * answers a point lookup in ~130 µs (a blob open per row), a plain row in ~6 µs. The (user_id, code) index lets an
 * account's codes be loaded without touching the vectors.
 */
const sqliteIdeaTable = (name: string) =>
  `CREATE TABLE IF NOT EXISTS ${name} (
    id INTEGER PRIMARY KEY, user_id TEXT NOT NULL, embedding BLOB NOT NULL, code BLOB NOT NULL, text_hash TEXT)`;

/**
 * The statements that make generation `g`'s tables (IF NOT EXISTS: run again on every start, so a database written
 * before a table existed gets it). SQLite: tag vectors in sqlite-vec's vec0, partitioned by account (a KNN scans only
 * the caller's vectors; the auxiliary `name` remembers what was embedded, so an unchanged tag is never re-embedded).
 * PostgreSQL: the same columns in plain tables (bytea vectors, float32 little-endian as SQLite's blobs, so a copy
 * between the stores moves the bytes as they are); Debian's server has no vector extension and the product's own
 * index does the KNN, so none is needed (issue 34). Made at run time rather than by a migration: a generation's
 * tables exist from the moment its model is first loaded until the switch to the next model drops them.
 */
export function generationDdl(store: Pick<Store, "dialect">, g: Pick<Generation, "gen" | "dim">): string[] {
  const [ideas, shared, tags] = [ideaTable(g.gen), sharedTable(g.gen), tagTable(g.gen)];
  if (store.dialect === "sqlite") {
    return [
      sqliteIdeaTable(ideas),
      `CREATE INDEX IF NOT EXISTS ${ideaCodesIndex(g.gen)} ON ${ideas} (user_id, code)`,
      // What each account's vectors share (calibration.ts): kept in step with the rows by the store's writes. A
      // missing row is computed from the rows on first use, so databases written before it need no upgrade step.
      `CREATE TABLE IF NOT EXISTS ${shared} (
        user_id TEXT PRIMARY KEY, n INTEGER NOT NULL, sum BLOB NOT NULL, scored_n INTEGER NOT NULL DEFAULT 0)`,
      `CREATE VIRTUAL TABLE IF NOT EXISTS ${tags} USING vec0(
        user_id text partition key, embedding float[${g.dim}] distance_metric=cosine, +name text, chunk_size=${CHUNK_SIZE})`,
    ];
  }
  return [
    `CREATE TABLE IF NOT EXISTS ${ideas} (
      id bigint PRIMARY KEY, user_id text NOT NULL, embedding bytea NOT NULL, code bytea NOT NULL, text_hash text)`,
    `CREATE INDEX IF NOT EXISTS ${ideaCodesIndex(g.gen)} ON ${ideas} (user_id, code)`,
    `CREATE TABLE IF NOT EXISTS ${shared} (
      user_id text PRIMARY KEY, n bigint NOT NULL, sum bytea NOT NULL, scored_n bigint NOT NULL DEFAULT 0)`,
    `CREATE TABLE IF NOT EXISTS ${tags} (id bigint PRIMARY KEY, user_id text NOT NULL, embedding bytea NOT NULL, name text)`,
    `CREATE INDEX IF NOT EXISTS ${tagUserIndex(g.gen)} ON ${tags} (user_id)`,
    // Each account's stamp (account-vectors.ts): what keeps every process's in-memory copy of its vectors true.
    `CREATE SEQUENCE IF NOT EXISTS ${stampSequence(g.gen)}`,
    `CREATE TABLE IF NOT EXISTS ${stampTable(g.gen)} (user_id text PRIMARY KEY, stamp bigint NOT NULL, prev bigint)`,
  ];
}

/** Makes generation `g`'s tables when missing (inside the caller's transaction when there is one). */
export async function createGenerationTables(store: Store, g: Pick<Generation, "gen" | "dim">): Promise<void> {
  for (const sql of generationDdl(store, g)) await store.exec(sql);
}

export async function dropGenerationTables(store: Store, gen: number): Promise<void> {
  for (const t of [ideaTable(gen), tagTable(gen), sharedTable(gen)]) await store.exec(`DROP TABLE IF EXISTS ${t}`);
  if (store.dialect === "postgres") {
    await store.exec(`DROP TABLE IF EXISTS ${stampTable(gen)}`);
    await store.exec(`DROP SEQUENCE IF EXISTS ${stampSequence(gen)}`);
  }
}

const isVec0 = (db: Database, gen: number) =>
  /USING\s+vec0/i.test(
    db.query<{ sql: string }, [string]>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(ideaTable(gen))?.sql ?? "",
  );

/**
 * SQLite databases written before the quantized index kept idea vectors in a vec0 table. Copies them into the plain
 * table with their codes (sqlite-vec's vec_quantize_binary: the same sign bits as binaryCode), then drops the vec0
 * table, all in one IMMEDIATE transaction: a crash leaves either the old table or the new one, and a second process
 * that raced us finds the work done. Returns how many vectors moved (0 when there was nothing to upgrade, and always
 * on PostgreSQL, which never had vec0).
 */
export async function upgradeIdeaTable(store: Store, gen: number): Promise<number> {
  const db = store.sqlite;
  if (!db || !isVec0(db, gen)) return 0;
  return store.tx(async () => {
    if (!isVec0(db, gen)) return 0;
    const tmp = `${ideaTable(gen)}_upgrade`;
    db.exec(`DROP TABLE IF EXISTS ${tmp}`);
    db.exec(sqliteIdeaTable(tmp));
    const moved = db.query(
      `INSERT INTO ${tmp} (id, user_id, embedding, code, text_hash)
       SELECT rowid, user_id, embedding, vec_quantize_binary(embedding), text_hash FROM ${ideaTable(gen)}`,
    ).run().changes;
    db.exec(`DROP TABLE ${ideaTable(gen)}`);
    db.exec(`ALTER TABLE ${tmp} RENAME TO ${ideaTable(gen)}`);
    db.exec(`CREATE INDEX IF NOT EXISTS ${ideaCodesIndex(gen)} ON ${ideaTable(gen)} (user_id, code)`);
    return moved;
  }, { immediate: true });
}

/**
 * Every vector table in the database by kind, whatever generations exist (live, building or left over by a crash):
 * what account deletion clears. Found by name (tables.ts): sqlite_master on SQLite, the catalog on PostgreSQL.
 */
export async function vectorTables(store: Store): Promise<{ ideas: string[]; shared: string[]; tags: string[]; stamps: string[] }> {
  const sql =
    store.dialect === "sqlite"
      ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'vec\\_%' ESCAPE '\\'"
      : "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name LIKE 'vec\\_%' ESCAPE '\\'";
  const names = (await store.query<{ name: string }, []>(sql).all()).map((r) => r.name);
  return {
    ideas: names.filter((n) => /^vec_ideas_g\d+$/.test(n)),
    shared: names.filter((n) => /^vec_shared_g\d+$/.test(n)),
    tags: names.filter((n) => /^vec_tags_g\d+$/.test(n)),
    stamps: names.filter((n) => /^vec_stamps_g\d+$/.test(n)),
  };
}
