// Memos: its SQLite database file (memos_prod.db, any schema from 0.18 on) or its API's JSON list of memos.
import { Database } from "bun:sqlite";
import type { ImportEntry, ImportInput, SkippedItem, SourceNote, SourceReader } from "./types";
import { baseName, decodeText, externalLinks, firstEntries, hashtags, isJsonEntry, isJunk, note, parseJsonOrSkip, peekText, titleFromText, validDate } from "./reader-kit";

const SQLITE_MAGIC = "SQLite format 3\0";

interface Memo {
  origin: string; content: string; archived: boolean; pinned: boolean; created?: Date; updated?: Date;
  tags: string[]; related: string[]; attachments: string[];
}

/** Memos has no titles: the first line of the memo stands for one; the whole memo stays the body. */
function memoNote(m: Memo): SourceNote {
  const content = m.content.replace(/\r\n?/g, "\n");
  const title = titleFromText(content.replace(/(^|\s)#[\p{L}\p{N}_\-/]+/gu, "$1")) || titleFromText(content) || "Untitled memo";
  return note({
    origin: m.origin, title, body: content,
    tags: [...new Set([...m.tags, ...hashtags(content)])],
    archived: m.archived, pinned: m.pinned, created_at: m.created, updated_at: m.updated ?? m.created,
    links: externalLinks(content), related: m.related,
  });
}

const fromSeconds = (v: unknown) => (typeof v === "number" || typeof v === "bigint" ? validDate(new Date(Number(v) * 1000)) : undefined);

/** Every table the import reads; any but memo may be missing. */
const READ_TABLES = ["memo", "user", "memo_relation", "attachment", "resource"];

/**
 * Why the uploaded file's tables are not plain stored rows, or null. The file is anyone's upload, and SQLite runs
 * whatever SQL a view, a virtual table or a generated column holds when it is read, on the server's own thread: an
 * endless recursive view named memo stopped the whole server, for every account, and a computed column can make
 * gigabytes out of nothing. Memos itself only ever makes plain tables.
 */
function notPlainTables(db: Database): string | null {
  for (const name of READ_TABLES) {
    const entry = db.query("SELECT type, sql FROM sqlite_master WHERE name = ? COLLATE NOCASE").get(name) as { type: string; sql: string | null } | null;
    if (entry === null) continue;
    if (entry.type !== "table") return `${name} is a ${entry.type}, not a table`;
    if (/^\s*CREATE\s+VIRTUAL\b/i.test(entry.sql ?? "")) return `${name} is a virtual table`;
    const columns = db.query("SELECT hidden FROM pragma_table_xinfo(?)").all(name) as { hidden: number }[];
    if (columns.some((c) => c.hidden !== 0)) return `${name} has computed columns`;
  }
  return null;
}

/** Reads the memo table of whichever schema the file has (uid since 0.22, resource_name 0.19–0.21, only id before). */
function* readDatabase(bytes: Uint8Array, file: string): Generator<SourceNote | SkippedItem> {
  let db: Database;
  try {
    db = Database.deserialize(bytes, { readonly: true } as never);
  } catch {
    yield { skipped: file, reason: "a SQLite file without a Memos memo table" };
    return;
  }
  // Functions with side effects stay out of the file's schema, whatever it declares (belt and braces).
  let problem: string | null;
  try {
    db.exec("PRAGMA trusted_schema = OFF");
    problem = notPlainTables(db);
    if (problem === null) db.query("SELECT 1 FROM memo LIMIT 1").get();
  } catch {
    problem = "";
  }
  if (problem !== null) {
    db.close();
    yield { skipped: file, reason: problem ? `not read: ${problem} (a Memos database holds plain tables only)` : "a SQLite file without a Memos memo table" };
    return;
  }
  try {
    const cols = new Set((db.query("PRAGMA table_info(memo)").all() as { name: string }[]).map((c) => c.name));
    const has = (table: string) => !!db.query("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?").get(table);
    const key = cols.has("uid") ? "uid" : cols.has("resource_name") ? "resource_name" : "id";
    const origin = (row: { k: unknown }) => `memo:${row.k}`;

    // A database holds every account of the instance: import one person's memos, the instance owner's when several wrote.
    const creators = db.query("SELECT creator_id AS id, COUNT(*) AS n FROM memo GROUP BY creator_id").all() as { id: number; n: number }[];
    let owner = creators[0]?.id;
    if (creators.length > 1 && has("user")) {
      const host = db.query("SELECT id FROM user WHERE role IN ('HOST','ADMIN') ORDER BY id LIMIT 1").get() as { id: number } | null;
      owner = host?.id ?? [...creators].sort((a, b) => b.n - a.n)[0].id;
    }
    const userName = (id: number) => {
      if (!has("user")) return `user ${id}`;
      const u = db.query("SELECT * FROM user WHERE id = ?").get(id) as Record<string, unknown> | null;
      return String(u?.username ?? u?.name ?? `user ${id}`);
    };

    const keyOf = new Map((db.query(`SELECT id, ${key} AS k FROM memo`).all() as { id: number; k: unknown }[]).map((r) => [r.id, origin(r)]));
    const comments = new Set<number>();
    const refs = new Map<number, string[]>();
    if (has("memo_relation")) {
      for (const r of db.query("SELECT memo_id AS a, related_memo_id AS b, type FROM memo_relation").all() as { a: number; b: number; type: string }[]) {
        if (r.type === "COMMENT") comments.add(r.a);
        else if (keyOf.has(r.b)) refs.set(r.a, [...(refs.get(r.a) ?? []), keyOf.get(r.b)!]);
      }
    }
    const attachTable = has("attachment") ? "attachment" : has("resource") ? "resource" : null;
    const attachments = new Map<number, string[]>();
    if (attachTable) {
      const rcols = new Set((db.query(`PRAGMA table_info(${attachTable})`).all() as { name: string }[]).map((c) => c.name));
      if (rcols.has("memo_id")) {
        for (const r of db.query(`SELECT memo_id AS m, filename AS f FROM ${attachTable} WHERE memo_id IS NOT NULL`).all() as { m: number; f: string }[]) {
          attachments.set(r.m, [...(attachments.get(r.m) ?? []), r.f]);
        }
      }
    }

    const select = [
      "id", `${key} AS k`, "creator_id", "created_ts", "updated_ts", "row_status", "content",
      cols.has("pinned") ? "pinned" : "0 AS pinned", cols.has("payload") ? "payload" : "'{}' AS payload",
    ].join(", ");
    let sinceGc = 0;
    for (const row of db.query(`SELECT ${select} FROM memo ORDER BY created_ts, id`).iterate() as Iterable<Record<string, any>>) {
      // A hint every ~4 MB of text: JavaScriptCore otherwise lets each memo's strings pile up until the end.
      if ((sinceGc += String(row.content ?? "").length) > 4_000_000) { Bun.gc(false); sinceGc = 0; }
      const o = origin(row as { k: unknown });
      if (row.creator_id !== owner) { yield { skipped: o, reason: `written by another Memos user (${userName(row.creator_id)})` }; continue; }
      if (comments.has(row.id)) { yield { skipped: o, reason: "a comment on another memo" }; continue; }
      let tags: string[] = [];
      try { tags = (JSON.parse(row.payload || "{}")?.property?.tags ?? JSON.parse(row.payload || "{}")?.tags ?? []).map(String); } catch { /* payload is optional */ }
      for (const f of attachments.get(row.id) ?? []) yield { skipped: `${o}: ${f}`, reason: "attachment not imported" };
      yield memoNote({
        origin: o, content: String(row.content ?? ""), archived: row.row_status === "ARCHIVED", pinned: Number(row.pinned) === 1,
        created: fromSeconds(row.created_ts), updated: fromSeconds(row.updated_ts), tags, related: refs.get(row.id) ?? [], attachments: [],
      });
    }
  } finally {
    db.close();
  }
}

interface ApiMemo {
  name?: string; uid?: string; id?: number; state?: string; rowStatus?: string; content?: string; pinned?: boolean;
  createTime?: string; updateTime?: string; displayTime?: string; tags?: string[]; parent?: string;
  relations?: { memo?: { name?: string } | string; relatedMemo?: { name?: string } | string; type?: string }[];
  attachments?: { filename?: string }[]; resources?: { filename?: string }[];
}

/** `memos/abc` (v0.22+), `memos/12` or a bare uid all name the same memo; the origin uses what follows `memos/`. */
const apiKey = (m: ApiMemo) => `memo:${(m.name ?? "").replace(/^memos\//, "") || m.uid || m.id}`;
const refName = (r: { name?: string } | string | undefined) => (typeof r === "string" ? r : r?.name ?? "");

function* readApiJson(text: string, file: string): Generator<SourceNote | SkippedItem> {
  const parsed = parseJsonOrSkip(text, file);
  if ("skipped" in parsed) { yield parsed; return; }
  const doc = parsed.doc;
  const memos = (Array.isArray(doc) ? doc : (doc as { memos?: unknown })?.memos) as ApiMemo[] | undefined;
  if (!Array.isArray(memos)) { yield { skipped: file, reason: "not a Memos API export (no memos list)" }; return; }
  for (const m of memos) {
    if (!m || typeof m !== "object") continue;
    const o = apiKey(m);
    if (m.parent) { yield { skipped: o, reason: "a comment on another memo" }; continue; }
    for (const a of m.attachments ?? m.resources ?? []) yield { skipped: `${o}: ${a.filename ?? "attachment"}`, reason: "attachment not imported" };
    const related = (m.relations ?? []).filter((r) => r.type === "REFERENCE" && refName(r.memo) === m.name && refName(r.relatedMemo))
      .map((r) => `memo:${refName(r.relatedMemo).replace(/^memos\//, "")}`);
    const state = m.state ?? m.rowStatus;
    yield memoNote({
      origin: o, content: m.content ?? "", archived: state === "ARCHIVED", pinned: m.pinned === true,
      created: validDate(m.createTime ? new Date(m.createTime) : m.displayTime ? new Date(m.displayTime) : undefined),
      updated: validDate(m.updateTime ? new Date(m.updateTime) : undefined), tags: m.tags ?? [], related, attachments: [],
    });
  }
}

const isApiJson = (head: string) => /^\s*(\{\s*"memos"\s*:\s*\[|\[\s*\{\s*"name"\s*:\s*"memos\/)/.test(head);

async function isDatabase(e: ImportEntry) {
  return e.size >= 512 && (await peekText(e, 16)) === SQLITE_MAGIC;
}

export const memosReader: SourceReader = {
  id: "memos",
  label: "Memos (memos_prod.db or API export)",
  async detect(input: ImportInput) {
    for (const e of await firstEntries(input, 20)) {
      if (isJunk(e.path)) continue;
      if (/^memos_(prod|dev|demo)\.db$/.test(baseName(e.path)) || await isDatabase(e)) return true;
      if (await isJsonEntry(e) && isApiJson(await peekText(e, 512))) return true;
    }
    return false;
  },
  async *read(input: ImportInput): AsyncIterable<SourceNote | SkippedItem> {
    for await (const e of input.entries()) {
      if (isJunk(e.path) || e.path.endsWith("/")) continue;
      if (/-(wal|shm|journal)$/.test(e.path)) {
        yield { skipped: e.path, reason: "SQLite journal: stop Memos (or copy the database while it is stopped) so recent memos are in the .db file itself" };
        continue;
      }
      if (await isDatabase(e)) { yield* readDatabase(await e.bytes(), e.path); continue; }
      if (await isJsonEntry(e)) { yield* readApiJson(decodeText(await e.bytes()).text, e.path); continue; }
      yield { skipped: e.path, reason: "not a Memos database or API export" };
    }
  },
};
