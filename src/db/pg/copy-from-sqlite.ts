// Copies every row of a SQLite store (a snapshot file, not the live one) into an empty, migrated PostgreSQL database.
import type { Database } from "bun:sqlite";
import { SQL } from "bun";
import { OperatorError } from "../../lib/operator-error";
import type { Generation } from "../../vectors/generation";
import { readState } from "../../vectors/generations";
import { generationDdl, tagIdColumn, upgradeIdeaTable } from "../../vectors/layout";
import { tagTable } from "../../vectors/tables";
import { sqliteStore } from "../sqlite-store";
import { migratePg } from "./migrate";
import { scrubber } from "./store";

/**
 * SQLite tables that are not data but what the data builds (or SQLite's own bookkeeping): FTS5's index tables (the
 * PostgreSQL keyword index is rebuilt from the ideas), sqlite_sequence (read for the identity columns below, not
 * copied) and sqlite_stat*. Vector tables (vec_*) are copied when they belong to a generation of the embedding state
 * (made on PostgreSQL first, then copied as any table); others are what a crash left of an abandoned build. Any other
 * SQLite table without a PostgreSQL counterpart stops the copy before it writes: its rows would be lost.
 */
const DERIVED = /^(ideas_fts(_cjk)?(_(data|idx|docsize|config|content))?|sqlite_(sequence|stat\d+))$/;
const VECTOR = /^vec_/;

/**
 * Columns PostgreSQL has and SQLite has not: the account of rows SQLite keys through a parent (migrations/pg/0001).
 * On PostgreSQL a trigger fills them from the parent; triggers are off during the copy, so the copy reads the account
 * from the parent in SQLite by the column that names it.
 */
const ACCOUNT_THROUGH: Record<string, string> = { idea_id: "ideas", conversation_id: "agent_conversations" };

/** Rows per INSERT, and the JSON text per INSERT at most (whichever comes first). */
const BATCH_ROWS = 1_000;
const BATCH_BYTES = 4 * 1024 * 1024;

export interface CopyProgress {
  (table: string, rows: number): void;
}

export interface CopyReport {
  /** Rows copied per table, in the order copied (a parent before the tables that reference it). */
  tables: Record<string, number>;
  rows: number;
  /** Identity columns moved past the copied ids (table.column → the last id handed out). */
  sequences: Record<string, number>;
}

interface PgColumn { name: string; notnull: boolean; hasdef: boolean; identity: boolean }
interface PgTable { name: string; columns: PgColumn[]; parents: Set<string>; selfRefs: string[]; key: string[] }

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The copy's words for a failure: the URL's parts struck out, and what was not written said plainly. */
class CopyError extends OperatorError {}

/** One SQLite value as PostgreSQL's json_populate_recordset reads it into the column's type. */
function jsonValue(v: unknown): unknown {
  if (v instanceof Uint8Array) return `\\x${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("hex")}`;
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number" && !Number.isFinite(v)) return v > 0 ? "Infinity" : "-Infinity";
  return v;
}

async function readSchema(tx: SQL): Promise<Map<string, PgTable>> {
  const cols = await tx.unsafe<{ table: string; column: string; notnull: boolean; hasdef: boolean; identity: string }[]>(
    `SELECT c.relname AS table, a.attname AS column, a.attnotnull AS notnull, a.atthasdef AS hasdef, a.attidentity AS identity
     FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
     WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
     ORDER BY c.relname, a.attnum`,
  );
  const tables = new Map<string, PgTable>();
  for (const c of cols) {
    if (!tables.has(c.table)) tables.set(c.table, { name: c.table, columns: [], parents: new Set(), selfRefs: [], key: [] });
    tables.get(c.table)!.columns.push({ name: c.column, notnull: c.notnull, hasdef: c.hasdef || c.identity !== "", identity: c.identity !== "" });
  }
  const cons = await tx.unsafe<{ type: string; child: string; parent: string | null; cols: string[] }[]>(
    `SELECT c.contype AS type, cr.relname AS child, pr.relname AS parent,
       ARRAY(SELECT a.attname::text FROM unnest(c.conkey) k JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k) AS cols
     FROM pg_constraint c JOIN pg_class cr ON cr.oid = c.conrelid LEFT JOIN pg_class pr ON pr.oid = c.confrelid
     WHERE c.contype IN ('f', 'p') AND c.connamespace = current_schema()::regnamespace`,
  );
  for (const c of cons) {
    const t = tables.get(c.child);
    if (!t) continue;
    if (c.type === "p") t.key = c.cols;
    else if (c.parent === c.child) t.selfRefs.push(...c.cols);
    else if (c.parent) t.parents.add(c.parent);
  }
  return tables;
}

/** Parents before children (the foreign keys are checked per statement); a table's own references are set after it. */
function copyOrder(tables: PgTable[]): PgTable[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const done = new Set<string>();
  const out: PgTable[] = [];
  const visit = (t: PgTable, path: Set<string>) => {
    if (done.has(t.name)) return;
    if (path.has(t.name)) throw new CopyError(`the PostgreSQL schema has a cycle of foreign keys through ${t.name}; the copy cannot order it`);
    path.add(t.name);
    for (const p of [...t.parents].sort()) {
      const parent = byName.get(p);
      if (parent) visit(parent, path);
    }
    path.delete(t.name);
    done.add(t.name);
    out.push(t);
  };
  for (const t of [...tables].sort((a, b) => a.name.localeCompare(b.name))) visit(t, new Set());
  return out;
}

interface Plan {
  table: PgTable;
  /** The SQLite SELECT that yields the PostgreSQL columns, by name. */
  select: string;
  columns: string[];
}

/** What to read from SQLite for each PostgreSQL table; refuses (before any write) what the copy would lose. */
function plan(source: Database, pg: Map<string, PgTable>, tagTables: Set<string>): Plan[] {
  const liteTables = source
    .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all()
    .map((r) => r.name);
  const lost = liteTables.filter((n) => !pg.has(n) && !DERIVED.test(n) && !VECTOR.test(n) && !isVectorShadow(n));
  if (lost.length > 0) {
    throw new CopyError(`the SQLite tables ${lost.join(", ")} have no counterpart in the PostgreSQL schema of this build; nothing was copied`);
  }
  const plans: Plan[] = [];
  for (const table of copyOrder([...pg.values()].filter((t) => liteTables.includes(t.name)))) {
    const lite = new Set(source.query<{ name: string }, []>(`PRAGMA table_info(${q(table.name)})`).all().map((c) => c.name));
    // vec0 lists its rowid as a column; the PostgreSQL tag table names it id (read below).
    if (tagTables.has(table.name)) lite.delete("rowid");
    const missing = [...lite].filter((c) => !table.columns.some((p) => p.name === c));
    if (missing.length > 0) throw new CopyError(`${table.name} has columns PostgreSQL lacks (${missing.join(", ")}); nothing was copied`);
    const exprs: string[] = [];
    const columns: string[] = [];
    for (const col of table.columns) {
      if (lite.has(col.name)) {
        exprs.push(`t.${q(col.name)}`);
        columns.push(col.name);
        continue;
      }
      // A rowid column stands for SQLite's implicit one (migrations/pg/0005), which PRAGMA table_info does not list;
      // so does a tag vector's id (vec0 keys its rows by rowid: vectors/layout.ts tagIdColumn).
      if (col.name === "rowid" || (tagTables.has(table.name) && col.name === tagIdColumn({ dialect: "postgres" }))) {
        exprs.push(`t.rowid AS ${q(col.name)}`);
        columns.push(col.name);
        continue;
      }
      const via = col.name === "user_id" ? Object.keys(ACCOUNT_THROUGH).find((c) => lite.has(c)) : undefined;
      if (via) {
        exprs.push(`(SELECT p.user_id FROM ${q(ACCOUNT_THROUGH[via])} p WHERE p.id = t.${q(via)}) AS user_id`);
        columns.push(col.name);
      } else if (col.notnull && !col.hasdef) {
        throw new CopyError(`${table.name}.${col.name} exists only on PostgreSQL and the copy does not know how to fill it; nothing was copied`);
      }
    }
    plans.push({ table, columns, select: `SELECT ${exprs.join(", ")} FROM ${q(table.name)} t` });
  }
  return plans;
}

/** sqlite-vec's shadow tables of a vec0 table (vec_tags_g1_chunks, …_rowids, …_vector_chunks00, …_auxiliary, …_info). */
const isVectorShadow = (name: string) => /^vec_.*_(chunks|rowids|vector_chunks\d+|auxiliary|info|metadata\w*)$/.test(name);

/**
 * Copies `source` (opened on a snapshot: nothing writes it meanwhile) into the database at `url`: migrations first,
 * then, in one transaction, a check that every table is empty, every table's rows in batches (ids, numbers and
 * timestamps as they are; triggers off, so no version or list entry is made anew), the counts compared, the identity
 * columns moved past the copied ids. A failure rolls everything back: the target stays empty. `url` is never quoted.
 */
export async function copySqliteToPg(source: Database, url: string, progress: CopyProgress = () => {}): Promise<CopyReport> {
  if (!/^postgres(ql)?:\/\//.test(url)) throw new CopyError("the target must be a postgres:// or postgresql:// URL");
  const scrub = scrubber(url);
  const failed = (e: unknown): never => {
    if (e instanceof OperatorError) throw e;
    throw new CopyError(`the copy into PostgreSQL failed and was rolled back (the target holds nothing of it): ${scrub(String((e as Error)?.message ?? e))}`);
  };
  await migratePg(url).catch((e: unknown) => {
    if (e instanceof OperatorError) throw e;
    throw new CopyError(`PostgreSQL could not be reached or migrated: ${scrub(String((e as Error)?.message ?? e))}`);
  });
  const sql = new SQL({ url, max: 1, connectionTimeout: 10, connection: { synchronous_commit: "on", application_name: "idearepo store copy" } });
  const report: CopyReport = { tables: {}, rows: 0, sequences: {} };
  const generations = await vectorGenerations(source);
  try {
    await sql.begin(async (tx) => {
      // The vector tables are made per generation at run time (vectors/layout.ts), here as the server would make them.
      for (const g of generations) for (const ddl of generationDdl({ dialect: "postgres" }, g)) await tx.unsafe(ddl);
      const plans = plan(source, await readSchema(tx), new Set(generations.map((g) => tagTable(g.gen))));
      for (const { table } of plans) {
        const [{ any }] = await tx.unsafe(`SELECT EXISTS (SELECT 1 FROM ${q(table.name)}) AS any`);
        if (any) {
          throw new CopyError(`the target database is not empty (table ${table.name} has rows); the copy goes into an empty database only, nothing was written`);
        }
      }
      // Triggers would write what the copy brings as it was (versions, list entries) or fill what it reads (accounts).
      for (const { table } of plans) await tx.unsafe(`ALTER TABLE ${q(table.name)} DISABLE TRIGGER USER`);
      for (const p of plans) {
        const n = await copyTable(source, tx, p).catch((e: unknown) => {
          if (e instanceof OperatorError) throw e;
          throw new Error(`table ${p.table.name}: ${(e as Error)?.message ?? e}`);
        });
        report.tables[p.table.name] = n;
        report.rows += n;
        progress(p.table.name, n);
      }
      for (const p of plans) {
        const [{ n }] = await tx.unsafe(`SELECT count(*)::bigint AS n FROM ${q(p.table.name)}`);
        if (Number(n) !== report.tables[p.table.name]) {
          throw new CopyError(`${p.table.name}: ${report.tables[p.table.name]} rows read but ${n} in PostgreSQL; rolled back`);
        }
      }
      Object.assign(report.sequences, await moveSequences(source, tx, plans));
      for (const { table } of plans) await tx.unsafe(`ALTER TABLE ${q(table.name)} ENABLE TRIGGER USER`);
      // The keyword index is built from the ideas (the copied triggers did not queue them): every idea queued in the
      // copy's own transaction, so a copy is never left unsearchable; the command indexes the queue right after.
      await tx.unsafe("INSERT INTO keyword_pending (idea_id, user_id) SELECT id, user_id FROM ideas");
    });
  } catch (e) {
    failed(e);
  } finally {
    await sql.close();
  }
  // The planner's statistics, so the first queries on the copy are planned as on a database that grew by use.
  const after = new SQL({ url, max: 1, connectionTimeout: 10 });
  try {
    await after.unsafe("ANALYZE");
  } catch {
    // autovacuum analyzes the tables soon anyway; the copy itself is committed
  } finally {
    await after.close();
  }
  return report;
}

/**
 * The generations of the embedding state (the one answering searches and one being built, if any): their vectors are
 * copied as they are, so nothing is embedded again. An idea table of an older build (vec0) is converted first, on the
 * snapshot, as the server would at its start.
 */
async function vectorGenerations(source: Database): Promise<Generation[]> {
  const lite = sqliteStore(source);
  const state = await readState(lite);
  const gens = [state.active, state.building].filter((g): g is Generation => g !== null);
  for (const g of gens) await upgradeIdeaTable(lite, g.gen);
  return gens.filter((g, i) => gens.findIndex((o) => o.gen === g.gen) === i);
}

async function copyTable(source: Database, tx: SQL, p: Plan): Promise<number> {
  const name = q(p.table.name);
  // A reference to the table itself (an idea's parent) may point to a row copied later: set once every row is in.
  const later = p.table.selfRefs.filter((c) => p.columns.includes(c));
  const firstCols = p.columns.filter((c) => !later.includes(c)).map(q).join(", ");
  const insert = `INSERT INTO ${name} (${firstCols}) SELECT ${firstCols} FROM json_populate_recordset(NULL::${name}, $1::text::json)`;
  const key = p.table.key;
  const update = later.length > 0 && key.length > 0
    ? `UPDATE ${name} SET ${later.map((c) => `${q(c)} = v.${q(c)}`).join(", ")} FROM json_populate_recordset(NULL::${name}, $1::text::json) v
       WHERE ${key.map((c) => `${name}.${q(c)} = v.${q(c)}`).join(" AND ")}`
    : null;
  if (later.length > 0 && update === null) throw new CopyError(`${p.table.name} references itself but has no primary key; nothing was copied`);
  const stmt = source.query<Record<string, unknown>, []>(p.select);
  stmt.safeIntegers(true);
  let batch: string[] = [];
  let bytes = 0;
  let n = 0;
  const pendingRefs: string[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const text = `[${batch.join(",")}]`;
    const out = await tx.unsafe(insert, [text]);
    if (out.count !== batch.length) throw new CopyError(`${p.table.name}: ${batch.length} rows sent, ${out.count} written`);
    n += batch.length;
    batch = [];
    bytes = 0;
  };
  for (const row of stmt.iterate()) {
    const obj: Record<string, unknown> = {};
    for (const c of p.columns) obj[c] = jsonValue(row[c]);
    const json = JSON.stringify(obj);
    batch.push(json);
    bytes += json.length;
    if (later.some((c) => row[c] !== null)) pendingRefs.push(JSON.stringify(Object.fromEntries([...key, ...later].map((c) => [c, obj[c]]))));
    if (batch.length >= BATCH_ROWS || bytes >= BATCH_BYTES) await flush();
  }
  await flush();
  for (let i = 0; i < pendingRefs.length; i += BATCH_ROWS) {
    await tx.unsafe(update!, [`[${pendingRefs.slice(i, i + BATCH_ROWS).join(",")}]`]);
  }
  return n;
}

/**
 * Each identity column continues past the highest id copied, or past SQLite's AUTOINCREMENT mark when that is higher
 * (ids of deleted rows are never handed out again there, so neither here).
 */
async function moveSequences(source: Database, tx: SQL, plans: Plan[]): Promise<Record<string, number>> {
  const marks = new Map<string, number>();
  const hasSeq = source.query<{ n: number }, []>("SELECT count(*) AS n FROM sqlite_master WHERE name = 'sqlite_sequence'").get()!.n > 0;
  if (hasSeq) for (const r of source.query<{ name: string; seq: number }, []>("SELECT name, seq FROM sqlite_sequence").all()) marks.set(r.name, Number(r.seq));
  const out: Record<string, number> = {};
  for (const { table } of plans) {
    for (const col of table.columns.filter((c) => c.identity)) {
      const [{ max }] = await tx.unsafe(`SELECT max(${q(col.name)})::bigint AS max FROM ${q(table.name)}`);
      const last = Math.max(Number(max ?? 0), marks.get(table.name) ?? 0);
      if (last <= 0) continue;
      await tx.unsafe(`SELECT setval(pg_get_serial_sequence($1, $2), $3::bigint, true)`, [q(table.name), col.name, last]);
      out[`${table.name}.${col.name}`] = last;
    }
  }
  return out;
}
