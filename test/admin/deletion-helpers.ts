// Account deletion tests' helpers: an account filled through the API with something in every kind of table, and a
// dump of every row of the database file, to show nothing of the deleted account remains and nothing else changed.
import { Database } from "bun:sqlite";
import { expect } from "bun:test";
import * as sqliteVec from "sqlite-vec";
import { api } from "../ops/harness";

/** Ideas (one in Japanese for the CJK index, one archived), tags, links, relations, map positions, a BYOK key, an API key. */
export async function fillAccount(base: string, key: string, marker: string): Promise<number[]> {
  const ids: number[] = [];
  const titles = [`${marker} solar bike lights`, `${marker} solar powered bicycle lamps`, `${marker} 日本語のアイデア`, `${marker} archived note`];
  for (const [i, title] of titles.entries()) {
    const r = await api(base, key, "POST", "/ideas", { title, body: `${marker} body ${i}: lamps that charge from the sun`, tags: [`${marker.toLowerCase()}-tag`, `t${i}`] });
    expect(r.status, r.text).toBe(201);
    ids.push(r.body.id);
  }
  expect((await api(base, key, "POST", `/ideas/${ids[0]}/links`, { url: `https://example.test/${marker}` })).status).toBe(201);
  expect((await api(base, key, "POST", "/map/relations", { source_idea_id: ids[0], target_idea_id: ids[2], relation_type: "blocks", note: marker })).status).toBe(201);
  expect((await api(base, key, "PUT", "/map/positions", { positions: [{ id: ids[0], x: 1, y: 2 }] })).status).toBe(200);
  expect((await api(base, key, "PUT", "/user/byok/provider_a", { api_key: `sk-${marker}-0123456789` })).status).toBe(200);
  expect((await api(base, key, "POST", "/user/api-keys", { label: `${marker} key` })).status).toBe(201);
  expect((await api(base, key, "PATCH", "/user/me", { settings_json: JSON.stringify({ stale_threshold_days: 12 }) })).status).toBe(200);
  expect((await api(base, key, "DELETE", `/ideas/${ids[3]}`)).status).toBe(200);
  return ids;
}

/** Waits (bounded) until the pipeline has embedded every live idea of the account: its vectors are in the tables. */
export async function waitForVectors(base: string, key: string, ids: number[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const rows = await Promise.all(ids.map(async (id) => (await api(base, key, "GET", `/ideas/${id}`)).body));
    if (rows.every((r) => r.vectorize_id !== null)) return;
    if (Date.now() > deadline) throw new Error(`ideas not embedded within 60 s: ${JSON.stringify(rows.map((r) => [r.id, r.vectorize_id]))}`);
    await Bun.sleep(100);
  }
}

type Rows = Map<string, string[]>;

/**
 * Every row of every table of the database file, as JSON text, read with sqlite-vec loaded (the tag vectors are in
 * vec0). Shadow tables of the FTS5 and vec0 indexes are left out: their blobs are rewritten by any delete, and their
 * tables themselves are read instead.
 */
export function dumpDatabase(file: string): Rows {
  const db = new Database(file, { readonly: true });
  db.loadExtension(sqliteVec.getLoadablePath());
  try {
    const all = db.query<{ name: string; sql: string | null }, []>("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name").all();
    const virtual = all.filter((t) => /CREATE VIRTUAL TABLE/i.test(t.sql ?? "")).map((t) => t.name);
    const rows: Rows = new Map();
    for (const { name } of all) {
      if (virtual.some((v) => name !== v && name.startsWith(`${v}_`))) continue;
      const sel = /^vec_tags_g\d+$/.test(name) ? `SELECT rowid, user_id, name FROM "${name}"` : `SELECT ${virtual.includes(name) ? "rowid, " : ""}* FROM "${name}"`;
      rows.set(name, db.query<Record<string, unknown>, []>(sel).all().map((r) => JSON.stringify(r, (_k, v) => (v instanceof Uint8Array ? `blob:${v.length}` : v))));
    }
    return rows;
  } finally {
    db.close();
  }
}

/** What ties a row to an account: its id, its FTS owner token, its e-mail or the marker in everything it wrote. */
export function traceOf(user: { id: string; email: string }, marker: string): (row: string) => boolean {
  const owner = `o${Buffer.from(user.id).toString("hex")}`;
  return (row) => row.includes(user.id) || row.includes(owner) || row.toLowerCase().includes(user.email.toLowerCase()) || row.toLowerCase().includes(marker.toLowerCase());
}

/** Tables where a row names one of `ideaIds` in a column that holds idea ids (no text names the account there). */
export function rowsNamingIdeas(rows: Rows, ideaIds: number[]): string[] {
  const found: string[] = [];
  const ideaColumns = /"(idea_id|source_idea_id|target_idea_id|duplicate_of_id|pair_lo|pair_hi)":(\d+)/g;
  for (const [table, list] of rows) {
    for (const row of list) {
      for (const m of row.matchAll(ideaColumns)) if (ideaIds.includes(Number(m[2]))) found.push(`${table}: ${row}`);
      if (/^(ideas|ideas_fts|ideas_fts_cjk|vec_ideas_g\d+)$/.test(table)) {
        const id = JSON.parse(row).id ?? JSON.parse(row).rowid;
        if (ideaIds.includes(Number(id))) found.push(`${table}: ${row}`);
      }
    }
  }
  return found;
}
