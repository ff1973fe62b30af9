// The schema after every migration: each column that points at another row has an index led by it, so lookups by it
// and the cascades of a delete never scan the table (a soak found the background pass scanning every duplicate
// detection per idea; migrations/0010).
import { afterAll, expect, test } from "bun:test";
import { makeApp } from "../helpers";

const t = makeApp();
afterAll(() => t.close());

test("every foreign key column leads an index (or the primary key)", () => {
  const db = t.deps.db;
  const tables = db
    .query<{ name: string }, []>("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .all()
    .map((r) => r.name);
  const unindexed: string[] = [];
  let checked = 0;
  for (const table of tables) {
    const fks = db.query<{ from: string; table: string }, []>(`SELECT "from", "table" FROM pragma_foreign_key_list('${table}')`).all();
    if (fks.length === 0) continue;
    // First column of every index, the primary key's included (WITHOUT ROWID tables and autoindexes list it too).
    const leading = new Set<string>();
    for (const idx of db.query<{ name: string }, []>(`SELECT name FROM pragma_index_list('${table}')`).all()) {
      const first = db.query<{ name: string }, []>(`SELECT name FROM pragma_index_info('${idx.name}') WHERE seqno = 0`).get();
      if (first) leading.add(first.name);
    }
    const pk = db.query<{ name: string }, []>(`SELECT name FROM pragma_table_info('${table}') WHERE pk = 1`).get();
    if (pk) leading.add(pk.name);
    for (const fk of fks) {
      checked++;
      if (!leading.has(fk.from)) unindexed.push(`${table}.${fk.from} → ${fk.table}`);
    }
  }
  expect(checked).toBeGreaterThan(20);
  expect(unindexed).toEqual([]);
});
