// What keeping [[wikilinks]] in step costs a capture and an edit (issue 36), in process, pipeline off: an account of
// N ideas of ~1 KB, a third of whose bodies hold links, then POST /ideas with an ASCII title (the linking bodies are
// narrowed by LIKE), with a title beyond ASCII (every body holding `[[` is parsed), with a body of links, and PATCH
// of a title. --root DIR measures another checkout (a worktree of the commit before) with the same seeding.
// Run: bun scripts/bench/wikilink-capture.ts [--ideas 10000] [--rounds 200] [--root DIR]
import { join } from "node:path";
import { ROOT, flag } from "./lib";

const i = process.argv.indexOf("--root");
const root = i === -1 ? ROOT : process.argv[i + 1];
const N = flag("ideas", 10_000);
const ROUNDS = flag("rounds", 200);
const from = (p: string) => import(join(root, p));
const { loadConfig } = await from("src/config.ts");
const { openDb } = await from("src/db/open.ts");
const { sqliteStore } = await from("src/db/sqlite-store.ts");
const { noEngines } = await from("src/deps.ts");
const { createApp } = await from("src/app.ts");
const { createLogger } = await from("src/lib/log.ts");
const { createUsersService } = await from("src/modules/users/service.ts");

const config = loadConfig({ IDEAREPO_DATA_DIR: "/tmp/idearepo-bench-unused", IDEAREPO_ENV: "test" }, { log_level: "silent", durability: "crash-safe" });
const db = openDb(":memory:", config.durability);
const deps = { config, db, store: sqliteStore(db), clock: () => new Date(), log: createLogger("silent"), engines: noEngines() };
const { app } = createApp(deps);
const { user, api_key: key } = await createUsersService(deps).createUser({ email: "bench@example.com", plan: "pro", password: null });

// Seeded in SQL (the triggers still write versions and list entries): captures one by one would take minutes.
const words = "water garden compost solar kettle barrel seed library bike trailer roof gutter pond shed".split(" ");
const text = (n: number) => Array.from({ length: 160 }, (_, k) => words[(n * 7 + k * 3) % words.length]).join(" ");
const insert = db.query(
  `INSERT INTO ideas (user_id, number, title, body, status, source, created_at, updated_at)
   VALUES (?, ?, ?, ?, 'captured', 'api', '2026-01-01 00:00:00', '2026-01-01 00:00:00')`,
);
db.transaction(() => {
  for (let n = 1; n <= N; n++) insert.run(user.id, n, `Seeded idea ${n}`, n % 3 === 0 ? `${text(n)} see [[Seeded idea ${n - 1}]] and [[Not there ${n}]]` : text(n));
  db.query("UPDATE users SET idea_seq = ? WHERE id = ?").run(N, user.id);
})();

const post = (path: string, method: string, body: unknown) =>
  app.handle(new Request(`http://localhost/api/v1${path}`, { method, headers: { "content-type": "application/json", "x-api-key": key }, body: JSON.stringify(body) }));

async function time(name: string, make: (r: number) => [string, string, unknown]) {
  const ms: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const [path, method, body] = make(r);
    const t0 = performance.now();
    const res = await post(path, method, body);
    ms.push(performance.now() - t0);
    if (res.status >= 300) throw new Error(`${name}: ${res.status} ${await res.text()}`);
  }
  ms.sort((a, b) => a - b);
  console.log(JSON.stringify({ case: name, ideas: N, rounds: ROUNDS, p50_ms: +ms[Math.floor(ROUNDS / 2)].toFixed(2), p95_ms: +ms[Math.floor(ROUNDS * 0.95)].toFixed(2) }));
}

await time("capture, plain body, ASCII title", (r) => ["/ideas", "POST", { title: `Bench plain ${r}`, body: "no links here" }]);
await time("capture, plain body, title beyond ASCII", (r) => ["/ideas", "POST", { title: `Bänch ${r}`, body: "no links here" }]);
await time("capture, body with 3 links", (r) => ["/ideas", "POST", { title: `Bench links ${r}`, body: `[[Seeded idea ${r + 1}]] [[Seeded idea ${r + 2}]] [[Nowhere ${r}]]` }]);
const made = (await (await post("/ideas", "POST", { title: "Renamed often", body: "" })).json()).id;
await time("PATCH title", (r) => [`/ideas/${made}`, "PATCH", { title: `Renamed ${r}` }]);
