// Raw baselines for the HTTP benchmarks, each a bare Bun.serve in its own process (prints `listening <url>`):
//
//   bun scripts/bench/bare-server.ts json FILE     answers every request with FILE's bytes as application/json
//   bun scripts/bench/bare-server.ts capture DIR   parses a JSON body and INSERTs one idea row (same schema, same
//                                                  migrations, same PRAGMAs, FTS triggers included) per request;
//                                                  IDEAREPO_DURABILITY picks synchronous FULL (default) or NORMAL
//   BARE_GROUP_COMMIT=1 … capture DIR              NORMAL commits, and each answer waits for one fdatasync of the WAL
//                                                  shared by every commit before it (group commit's upper bound)
//   bun scripts/bench/bare-server.ts ws            accepts every WebSocket upgrade and echoes frames (agent socket memory)
//   bun scripts/bench/bare-server.ts sizing DB DIR the sizing bench's routes with the least SQL that answers each, read
//                                                  from idearepo's DB (read-only); the account comes from an
//                                                  x-bench-user header (no auth), captures go to DIR/raw.db; semantic
//                                                  search runs the keyword query (no model), MCP answers a list
//   bun scripts/bench/bare-server.ts sizing-pg URL RAWURL
//                                                  the same routes on PostgreSQL, one statement each (nodes-cost.ts):
//                                                  reads from URL (idearepo's database), captures into RAWURL (a
//                                                  migrated database of its own, so idearepo's keyword queue never
//                                                  sees them); connections named bare-baseline
import { join } from "node:path";
import { fdatasync, openSync, readFileSync } from "node:fs";
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { openDb, type Durability } from "../../src/db/open";

/** One fdatasync of the WAL at a time; a commit waits for the next one that starts after it (group commit). */
function groupSyncer(wal: string) {
  let fd: number | null = null;
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  const once = () => new Promise<void>((resolve, reject) => fdatasync((fd ??= openSync(wal, "r")), (e) => (e ? reject(e) : resolve())));
  const sync = (): Promise<void> => {
    if (!running) return (running = once().finally(() => (running = null)));
    return (next ??= running.then(() => ((next = null), sync())));
  };
  return sync;
}

const [mode, arg] = process.argv.slice(2);

if (mode === "ws") {
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req, srv) => (srv.upgrade(req) ? undefined : new Response("upgrade", { status: 426 })),
    websocket: { message: (ws, m) => void ws.send(m) },
  });
  console.log(`listening http://127.0.0.1:${server.port}`);
} else if (mode === "json") {
  const body = readFileSync(arg);
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => new Response(body, { headers: { "content-type": "application/json" } }),
  });
  console.log(`listening http://127.0.0.1:${server.port}`);
} else if (mode === "capture") {
  const group = process.env.BARE_GROUP_COMMIT === "1";
  const db = openDb(join(arg, "raw.db"), group ? "crash-safe" : ((process.env.IDEAREPO_DURABILITY ?? "power-safe") as Durability));
  const synced = group ? groupSyncer(join(arg, "raw.db-wal")) : null;
  db.query("INSERT INTO users (id, email, display_name, created_at, updated_at) VALUES ('u', 'raw@example.com', 'raw', '2026-01-01 00:00:00', '2026-01-01 00:00:00')").run();
  // The same two statements a capture needs at minimum: the next per-account number, then the row.
  const nextNumber = db.query<{ idea_seq: number }, []>("UPDATE users SET idea_seq = idea_seq + 1 WHERE id = 'u' RETURNING idea_seq");
  const insert = db.query<{ id: number }, [number, string, string, string, string]>(
    `INSERT INTO ideas (user_id, number, title, body, status, source, created_at, updated_at)
     VALUES ('u', ?1, ?2, ?3, 'captured', ?4, ?5, ?5) RETURNING id`,
  );
  const capture = db.transaction((title: string, body: string, source: string, now: string) =>
    insert.get(nextNumber.get()!.idea_seq, title, body, source, now)!,
  );
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const b = (await req.json()) as { title: string; body?: string; source?: string };
      const now = new Date().toISOString().slice(0, 19).replace("T", " ");
      const row = capture(b.title, b.body ?? "", b.source ?? "api", now);
      if (synced) await synced();
      return Response.json({ id: row.id, title: b.title }, { status: 201 });
    },
  });
  console.log(`listening http://127.0.0.1:${server.port}`);
} else if (mode === "sizing") {
  const read = new Database(arg, { readonly: true });
  const db = openDb(join(process.argv[4], "raw.db"), (process.env.IDEAREPO_DURABILITY ?? "power-safe") as Durability);
  db.query("INSERT INTO users (id, email, display_name, created_at, updated_at) VALUES ('u', 'raw@example.com', 'raw', '2026-01-01 00:00:00', '2026-01-01 00:00:00')").run();
  const nextNumber = db.query<{ idea_seq: number }, []>("UPDATE users SET idea_seq = idea_seq + 1 WHERE id = 'u' RETURNING idea_seq");
  const insert = db.query<{ id: number }, [number, string, string, string]>(
    `INSERT INTO ideas (user_id, number, title, body, status, source, created_at, updated_at)
     VALUES ('u', ?1, ?2, ?3, 'captured', 'api', ?4, ?4) RETURNING id`,
  );
  const capture = db.transaction((title: string, body: string, now: string) => insert.get(nextNumber.get()!.idea_seq, title, body, now)!);
  const list = read.query("SELECT * FROM ideas WHERE user_id = ? AND is_archived = 0 ORDER BY created_at DESC LIMIT 20");
  const one = read.query("SELECT * FROM ideas WHERE id = ? AND user_id = ?");
  const fts = read.query(
    `SELECT i.* FROM ideas_fts f JOIN ideas i ON i.id = f.rowid WHERE ideas_fts MATCH ?1 AND i.user_id = ?2 AND i.is_archived = 0
     ORDER BY bm25(ideas_fts, 2.0, 1.0) LIMIT 20`,
  );
  const stale = read.query("SELECT * FROM ideas WHERE user_id = ? AND status = 'captured' AND is_archived = 0 AND updated_at < ? ORDER BY updated_at LIMIT 100");
  const words = (q: string) => (q.toLowerCase().match(/[a-z0-9]{2,}/g) ?? []).map((w) => `"${w}"`).join(" OR ") || '""';
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      const user = req.headers.get("x-bench-user") ?? "";
      const p = url.pathname;
      if (req.method === "POST" && p === "/api/v1/ideas") {
        const b = (await req.json()) as { title: string; body?: string };
        const row = capture(b.title, b.body ?? "", new Date().toISOString().slice(0, 19).replace("T", " "));
        return Response.json({ id: row.id, title: b.title }, { status: 201 });
      }
      if (req.method === "POST" && p === "/mcp") {
        const b = (await req.json()) as { id: number };
        return Response.json({ jsonrpc: "2.0", id: b.id, result: { content: [{ type: "text", text: JSON.stringify(list.all(user)) }] } });
      }
      if (p === "/api/v1/ideas") return Response.json({ ideas: list.all(user), has_more: true });
      if (p === "/api/v1/ideas/search") return Response.json({ results: fts.all(words(url.searchParams.get("q") ?? ""), user) });
      if (p === "/api/v1/review") return Response.json({ stale: stale.all(user, new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 19).replace("T", " ")) });
      const m = /^\/api\/v1\/ideas\/(\d+)$/.exec(p);
      if (m) return Response.json(one.get(Number(m[1]), user));
      return Response.json({ error: "not found" }, { status: 404 });
    },
  });
  console.log(`listening http://127.0.0.1:${server.port}`);
} else if (mode === "sizing-pg") {
  const pool = (url: string) => new SQL({ url, max: 10, connection: { application_name: "bare-baseline", synchronous_commit: "on" } });
  const read = pool(arg);
  const raw = pool(process.argv[4]);
  const stamp = () => new Date().toISOString().slice(0, 19).replace("T", " ");
  await raw.unsafe("INSERT INTO users (id, email, display_name, created_at, updated_at) VALUES ('u', 'raw@example.com', 'raw', $1, $1) ON CONFLICT DO NOTHING", [stamp()]);
  const capture = `WITH n AS (UPDATE users SET idea_seq = idea_seq + 1 WHERE id = 'u' RETURNING idea_seq)
    INSERT INTO ideas (user_id, number, title, body, status, source, created_at, updated_at)
    SELECT 'u', idea_seq, $1, $2, 'captured', 'api', $3, $3 FROM n RETURNING id`;
  const list = "SELECT * FROM ideas WHERE user_id = $1 AND is_archived = 0 ORDER BY created_at DESC LIMIT 20";
  const one = "SELECT * FROM ideas WHERE id = $1 AND user_id = $2";
  // The account's postings of the query's words, summed as a crude rank: one statement over the same inverted index.
  const keyword = `SELECT i.* FROM ideas i JOIN (
      SELECT idea_id, sum(2 * title_n + body_n) AS s FROM keyword_postings
      WHERE ix = 0 AND user_id = $2 AND term = ANY (string_to_array($1, ' ')) GROUP BY idea_id ORDER BY s DESC LIMIT 20
    ) k ON k.idea_id = i.id WHERE i.is_archived = 0 ORDER BY k.s DESC`;
  const stale = "SELECT * FROM ideas WHERE user_id = $1 AND status = 'captured' AND is_archived = 0 AND updated_at < $2 ORDER BY updated_at LIMIT 100";
  const words = (q: string) => (q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(" ");
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      const user = req.headers.get("x-bench-user") ?? "";
      const p = url.pathname;
      if (req.method === "POST" && p === "/api/v1/ideas") {
        const b = (await req.json()) as { title: string; body?: string };
        const [row] = await raw.unsafe(capture, [b.title, b.body ?? "", stamp()]);
        return Response.json({ id: Number(row.id), title: b.title }, { status: 201 });
      }
      if (req.method === "POST" && p === "/mcp") {
        const b = (await req.json()) as { id: number };
        return Response.json({ jsonrpc: "2.0", id: b.id, result: { content: [{ type: "text", text: JSON.stringify(await read.unsafe(list, [user])) }] } });
      }
      if (p === "/api/v1/ideas") return Response.json({ ideas: await read.unsafe(list, [user]), has_more: true });
      if (p === "/api/v1/ideas/search") return Response.json({ results: await read.unsafe(keyword, [words(url.searchParams.get("q") ?? ""), user]) });
      if (p === "/api/v1/review") {
        const before = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 19).replace("T", " ");
        return Response.json({ stale: await read.unsafe(stale, [user, before]) });
      }
      const m = /^\/api\/v1\/ideas\/(\d+)$/.exec(p);
      if (m) return Response.json((await read.unsafe(one, [Number(m[1]), user]))[0] ?? null);
      return Response.json({ error: "not found" }, { status: 404 });
    },
  });
  console.log(`listening http://127.0.0.1:${server.port}`);
} else {
  console.error("usage: bare-server.ts json FILE | capture DIR | ws | sizing DB DIR | sizing-pg URL RAWURL");
  process.exit(2);
}
