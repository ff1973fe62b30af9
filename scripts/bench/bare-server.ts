// Raw baselines for the HTTP benchmarks, each a bare Bun.serve in its own process (prints `listening <url>`):
//
//   bun scripts/bench/bare-server.ts json FILE     answers every request with FILE's bytes as application/json
//   bun scripts/bench/bare-server.ts capture DIR   parses a JSON body and INSERTs one idea row (same schema, same
//                                                  migrations, same PRAGMAs, FTS triggers included) per request
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { openDb } from "../../src/db/open";

const [mode, arg] = process.argv.slice(2);

if (mode === "json") {
  const body = readFileSync(arg);
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => new Response(body, { headers: { "content-type": "application/json" } }),
  });
  console.log(`listening http://127.0.0.1:${server.port}`);
} else if (mode === "capture") {
  const db = openDb(join(arg, "raw.db"));
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
      return Response.json({ id: row.id, title: b.title }, { status: 201 });
    },
  });
  console.log(`listening http://127.0.0.1:${server.port}`);
} else {
  console.error("usage: bare-server.ts json FILE | capture DIR");
  process.exit(2);
}
