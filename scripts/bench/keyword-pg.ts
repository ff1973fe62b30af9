// Keyword search on PostgreSQL beside SQLite, on the same ideas (STS-B sentences), query by query alternating which
// store goes first, in the same process: p50 / p99 per store and mode, and the results compared (same ids, same order).
// Also the PostgreSQL index's upkeep: indexing the whole corpus from its queue, and one capture's indexing.
//
//   bun scripts/bench/keyword-pg.ts [--ideas 10000] [--queries 300]
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadavg } from "node:os";
import { loadConfig } from "../../src/config";
import { openDb } from "../../src/db/open";
import { sqliteStore } from "../../src/db/sqlite-store";
import { pgStore } from "../../src/db/pg/store";
import type { Store } from "../../src/db/store";
import { noEngines, type Deps } from "../../src/deps";
import { createLogger } from "../../src/lib/log";
import { createSearchService } from "../../src/modules/search/service";
import { createSearchRepo } from "../../src/modules/search/repo";
import { createUsersService } from "../../src/modules/users/service";
import { STOP_WORDS } from "../../src/contract";
import { migratedDatabase, postgresMissing } from "../../test/support/postgres";
import { flag, machine } from "./lib";
import { ms, percentile } from "./search-lib";
import { parseSts } from "./stsb";
import { createRng } from "../fuzz/rng";
import { requireStsbDir } from "./stsb-data";

const IDEAS = flag("ideas", 10_000);
const QUERIES = flag("queries", 300);
const missing = postgresMissing();
if (missing) throw new Error(`PostgreSQL is needed: ${missing}`);

const stsDir = requireStsbDir();
const sentences = [...new Set(["sts-dev.csv", "sts-test.csv"].flatMap((f) => parseSts(readFileSync(join(stsDir, f), "utf8")).flatMap((p) => [p.a, p.b])))];
const rng = createRng(34);
const held = sentences.slice(0, 400);
const pool = sentences.slice(400);
const words = (s: string) => (s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 1 && !STOP_WORDS.has(w));
const queries = held.map((s) => words(s).slice(0, 1 + (s.length % 3)).join(" ")).filter((q) => q !== "").slice(0, QUERIES);
const phrases = held.map((s) => s.split(/\s+/).slice(1, 3).join(" ")).slice(0, Math.ceil(QUERIES / 3));

async function deps(store: Store, db = openDb(":memory:")): Promise<Deps> {
  const config = loadConfig({ IDEAREPO_DATA_DIR: "/tmp/idearepo-bench-unused", IDEAREPO_ENV: "test" }, { log_level: "silent" });
  return { config, db, store, clock: () => new Date(), log: createLogger("silent"), engines: noEngines() };
}

async function seed(d: Deps): Promise<{ id: string; plan: "pro" }> {
  const user = (await createUsersService(d).createUser({ email: "bench@example.com", plan: "pro", password: null })).user;
  const insert = d.store.query("INSERT INTO ideas (user_id, number, title, body, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?5)");
  const r = createRng(7);
  for (let from = 0; from < IDEAS; from += 1000) {
    await d.store.tx(async () => {
      for (let i = from; i < Math.min(IDEAS, from + 1000); i++) {
        const title = pool[Math.floor(r.next() * pool.length)].slice(0, 120);
        const body = [0, 1, 2].map(() => pool[Math.floor(r.next() * pool.length)]).join(" ");
        await insert.run(user.id, i + 1, title, body, "2026-01-01 00:00:00");
      }
    });
  }
  return { id: user.id, plan: "pro" };
}

const db = openDb(":memory:");
const lite = await deps(sqliteStore(db), db);
const { url } = await migratedDatabase();
const pg = await deps(pgStore(url));
const liteUser = await seed(lite);
const pgUser = await seed(pg);

// Upkeep on PostgreSQL: the whole corpus indexed from the queue (what a first search after a copy would do), then
// one capture's indexing as the next search finds it.
let began = performance.now();
await createSearchRepo(pg.store).indexPending("main");
const indexAll = performance.now() - began;
const one = pg.store.query("INSERT INTO ideas (user_id, number, title, body, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?5)");
const oneRepo = createSearchRepo(pg.store);
const perCapture: number[] = [];
for (let i = 0; i < 50; i++) {
  await one.run(pgUser.id, IDEAS + 1 + i, pool[i], pool[i + 1], "2026-01-01 00:00:00");
  await createSearchRepo(lite.store).indexPending("cjk");
  began = performance.now();
  await oneRepo.indexPending("main");
  perCapture.push(performance.now() - began);
}
// The same 50 on SQLite, so both hold the same ideas.
for (let i = 0; i < 50; i++) await lite.store.query("INSERT INTO ideas (user_id, number, title, body, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?5)").run(liteUser.id, IDEAS + 1 + i, pool[i], pool[i + 1], "2026-01-01 00:00:00");

const services = { lite: createSearchService(lite), pg: createSearchService(pg) };
const auth = (id: string) => ({ user: { id, settings_json: "{}" }, plan: "pro" as const }) as never;
const times: Record<string, { lite: number[]; pg: number[] }> = {};
let differ = 0;
const cases = [...queries.map((q) => ({ q, mode: "or" })), ...queries.map((q) => ({ q, mode: "and" })), ...phrases.map((q) => ({ q, mode: "exact" }))];
const loadBefore = loadavg()[0];
for (let round = 0; round < 2; round++) {
  for (const [i, c] of cases.entries()) {
    const query = { q: c.q, mode: "keyword" as const, fts_mode: c.mode as "or", limit: "20" };
    const got: Record<string, number[]> = {};
    const order = (i + round) % 2 === 0 ? (["lite", "pg"] as const) : (["pg", "lite"] as const);
    for (const which of order) {
      const t0 = performance.now();
      const r = await services[which].search(auth(which === "lite" ? liteUser.id : pgUser.id), query);
      const t = performance.now() - t0;
      if (round === 1) ((times[c.mode] ??= { lite: [], pg: [] })[which]).push(t);
      got[which] = r.results.map((x: { number: number }) => x.number);
    }
    if (round === 1 && JSON.stringify(got.lite) !== JSON.stringify(got.pg)) differ++;
  }
}
void rng;
console.log(`keyword search, ${IDEAS.toLocaleString("en")} ideas (one account), ${machine()}, load ${loadBefore.toFixed(1)} → ${loadavg()[0].toFixed(1)}`);
console.log("| mode | queries | SQLite p50 / p99 | PostgreSQL p50 / p99 |");
console.log("|---|---|---|---|");
for (const [mode, t] of Object.entries(times)) {
  console.log(`| ${mode} | ${t.lite.length} | ${ms(percentile(t.lite, 50))} / ${ms(percentile(t.lite, 99))} | ${ms(percentile(t.pg, 50))} / ${ms(percentile(t.pg, 99))} |`);
}
console.log(`results that differ between the stores: ${differ} of ${cases.length}`);
console.log(`PostgreSQL index upkeep: ${IDEAS.toLocaleString("en")} queued ideas indexed in ${(indexAll / 1000).toFixed(2)} s (${(indexAll / IDEAS).toFixed(2)} ms each); one capture indexed by the next search: p50 ${ms(percentile(perCapture, 50))}, p99 ${ms(percentile(perCapture, 99))}`);
await pg.store.close();
process.exit(0);
