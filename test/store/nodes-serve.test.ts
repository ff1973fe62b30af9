// Several `idearepo serve` processes on one PostgreSQL, black box (test/store/nodes.test.ts: two apps in one process): captures spread over both, a node killed with -9
// mid-burst, a schedule kept by both, a web node beside a worker node.
import { afterAll, describe, expect, test } from "bun:test";
import { pgStore } from "../../src/db/pg/store";
import type { Store } from "../../src/db/store";
import { PG_MIGRATIONS } from "../../src/db/pg/migrations";
import { api, burst, listAllIdeas, processScope, runCommand, type ServerProcess } from "../ops/harness";
import { makeTestModels } from "../fixtures/ml/make-minilm";
import { freshDatabase, migratedDatabase, requirePostgres } from "../support/postgres";

const run = requirePostgres();
const { newDir, serveWith } = processScope("idearepo-nodes-serve-");
/** Short leases, so a dead node's jobs come back within seconds here (30 s by default). */
const LEASE_SECONDS = 4;
const stores: Store[] = [];
afterAll(async () => {
  for (const s of stores) await s.close();
});

/** A fresh migrated database, an account made there by the CLI, and a way to read the rows directly. */
async function cluster() {
  const { url } = await migratedDatabase();
  const env = { IDEAREPO_DATABASE_URL: url, IDEAREPO_LEASE_SECONDS: String(LEASE_SECONDS) };
  const created = runCommand(["users", "create", "--email", "nodes@example.com", "--plan", "pro"], { dataDir: newDir(), env });
  expect(created.code, created.stderr).toBe(0);
  const db = pgStore(url, { max: 2 });
  stores.push(db);
  // Each node has a data directory of its own (its pid file); they share the database.
  const node = (extra: Record<string, string> = {}) => serveWith(newDir(), { ...env, ...extra });
  return { url, env, key: JSON.parse(created.stdout).api_key as string, db, node };
}

/**
 * Waits until both nodes' /health say nothing is pending, re-scoring or fitting, and then that the queue is empty: the
 * pipeline's end state, after the re-scoring passes an account's calibration queues (settled alone can read the state
 * before them).
 */
async function quiet(db: Store, nodes: ServerProcess[], timeoutMs: number): Promise<void> {
  const began = Date.now();
  for (;;) {
    const states = await Promise.all(nodes.map(async (n) => (await api(n.base, null, "GET", "/health")).body.embeddings));
    const busy = states.filter((e) => e.pending !== 0 || e.rescoring !== 0 || e.subjects_fitting !== 0);
    if (busy.length === 0 && (await count(db, "SELECT count(*) AS n FROM jobs")) === 0) return;
    if (Date.now() - began > timeoutMs) throw new Error(`not quiet after ${timeoutMs} ms: ${JSON.stringify(states)}`);
    await Bun.sleep(200);
  }
}

const count = async (db: Store, sql: string) => (await db.query<{ n: number }>(sql).get())!.n;

/** Waits until every live idea has a vector and no job is left (or fails with what is left). */
async function settled(db: Store, timeoutMs: number): Promise<number> {
  const began = Date.now();
  for (;;) {
    const unembedded = await count(db, "SELECT count(*) AS n FROM ideas WHERE is_archived = 0 AND vectorize_id IS NULL");
    const jobs = await count(db, "SELECT count(*) AS n FROM jobs");
    if (unembedded === 0 && jobs === 0) return Date.now() - began;
    if (Date.now() - began > timeoutMs) throw new Error(`not settled after ${timeoutMs} ms: ${unembedded} ideas without a vector, ${jobs} jobs`);
    await Bun.sleep(200);
  }
}

/** Rows that say the same thing twice: a relation per unordered pair and creator, a detection, a tag on an idea. */
async function duplicatedRows(db: Store) {
  const rows = async (sql: string) => (await db.query(sql).all()).length;
  return {
    relations: await rows(
      `SELECT min(source_idea_id, target_idea_id) AS a, max(source_idea_id, target_idea_id) AS b, created_by FROM relations
       GROUP BY min(source_idea_id, target_idea_id), max(source_idea_id, target_idea_id), created_by HAVING count(*) > 1`,
    ),
    detections: await rows(
      `SELECT min(idea_id, duplicate_of_id) AS a, max(idea_id, duplicate_of_id) AS b FROM duplicate_detections
       GROUP BY min(idea_id, duplicate_of_id), max(idea_id, duplicate_of_id) HAVING count(*) > 1`,
    ),
    tags: await rows("SELECT idea_id, tag_id FROM idea_tags GROUP BY idea_id, tag_id HAVING count(*) > 1"),
  };
}

const titles = (ideas: Array<{ title: string }>) => ideas.map((i) => i.title).sort();
const nodeOf = (s: ServerProcess) => String(s.started.node);

describe.skipIf(!run)("nodes on one PostgreSQL", () => {
  test("100 concurrent captures spread over two nodes are listed on both, each embedded, no row duplicated; a search on B finds by meaning what A captured", async () => {
    const { key, db, node } = await cluster();
    const [a, b] = await Promise.all([node(), node()]);
    const subjects = ["solar panels on the roof", "sourdough bread starter", "bicycle commute in winter", "learning the cello", "rainwater tank for the garden"];
    const made = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        api(i % 2 === 0 ? a.base : b.base, key, "POST", "/ideas", { title: `${subjects[i % 5]} ${i}`, body: `note ${i} about ${subjects[i % 5]}` }),
      ),
    );
    expect(made.map((r) => r.status)).toEqual(Array(100).fill(201));
    const expected = made.map((r) => r.body.title).sort();
    expect(titles(await listAllIdeas(a.base, key))).toEqual(expected);
    expect(titles(await listAllIdeas(b.base, key))).toEqual(expected);
    await settled(db, 180_000);
    await quiet(db, [a, b], 120_000);
    expect(await duplicatedRows(db)).toEqual({ relations: 0, detections: 0, tags: 0 });
    // Both nodes ran the pipeline (their claims were spread), and the pipeline found relations to keep unique.
    expect(await count(db, "SELECT count(*) AS n FROM relations WHERE created_by = 'system'")).toBeGreaterThan(0);
    // Ideas captured on A are found by meaning on B: the best answers are the solar ones, some of them A's.
    const solarOnA = new Set(made.filter((r, i) => i % 2 === 0 && r.body.title.startsWith("solar")).map((r) => r.body.id));
    const found = await api(b.base, key, "GET", "/ideas/search?q=photovoltaic%20energy%20at%20home&mode=semantic&limit=20");
    expect(found.status).toBe(200);
    const top = found.body.results.slice(0, 5) as Array<{ id: number; title: string }>;
    expect(top.every((r) => r.title.startsWith("solar"))).toBe(true);
    expect(found.body.results.some((r: { id: number }) => solarOnA.has(r.id))).toBe(true);
    // Both health probes answer from the one database.
    for (const s of [a, b]) expect((await api(s.base, null, "GET", "/health")).body.embeddings.pending).toBe(0);
  }, 300_000);

  test("node A killed with -9 mid-burst loses no acknowledged capture, and B finishes A's claimed jobs once their lease runs out", async () => {
    const { key, db, node } = await cluster();
    const [a, b] = await Promise.all([node(), node()]);
    const onA = burst(a.base, key, 6);
    const onB = burst(b.base, key, 2);
    // Kill A once it acknowledged captures of its own and while it holds claims (jobs it took and has not finished).
    await onA.waitForAcks(1);
    const deadline = Date.now() + 60_000;
    let held = 0;
    while ((held = await count(db, `SELECT count(*) AS n FROM jobs WHERE locked_by = '${nodeOf(a)}'`)) === 0) {
      if (Date.now() > deadline) throw new Error("node A never held a claim");
      await Bun.sleep(20);
    }
    await a.kill9();
    const killedAt = Date.now();
    await onA.stop();
    await Bun.sleep(300);
    await onB.stop();
    expect(held).toBeGreaterThan(0);
    expect(onA.acked.length).toBeGreaterThan(0);
    // Every capture A acknowledged before it died is there, read through B.
    const listed = new Set((await listAllIdeas(b.base, key)).map((i) => i.id));
    for (const c of [...onA.acked, ...onB.acked]) expect(listed.has(c.id)).toBe(true);
    // A's claims come back within the lease and a third (its renewal period) and a second (stamps), plus the batch B
    // is finishing when they run out (seconds; more on a loaded CI machine, hence the margin); B finishes them. B runs
    // on A's host, so it sees A is gone and takes them sooner (within a third of the lease: src/jobs/queue.ts).
    const left = async () => count(db, `SELECT count(*) AS n FROM jobs WHERE locked_by = '${nodeOf(a)}'`);
    while ((await left()) > 0) {
      if (Date.now() - killedAt > ((LEASE_SECONDS * 4) / 3 + 1) * 1000 + 30_000) throw new Error(`A's claims still held ${Date.now() - killedAt} ms after the kill`);
      await Bun.sleep(100);
    }
    const takenOverMs = Date.now() - killedAt;
    await settled(db, 180_000);
    expect(await duplicatedRows(db)).toEqual({ relations: 0, detections: 0, tags: 0 });
    console.log(`A held ${held} claims at kill -9; B took them over ${takenOverMs} ms later (lease ${LEASE_SECONDS} s)`);
  }, 300_000);

  test("two nodes started at the same moment on an empty database: one migrates and makes the first embedding generation, the other uses them; both print the same setup code", async () => {
    const { url } = await freshDatabase();
    const db = pgStore(url, { max: 2 });
    stores.push(db);
    const env = { IDEAREPO_DATABASE_URL: url, IDEAREPO_LEASE_SECONDS: String(LEASE_SECONDS) };
    const [a, b] = await Promise.all([serveWith(newDir(), env), serveWith(newDir(), env)]);
    // The migrations ran once (one version row, the latest), and one generation was made: gen 1 active, 2 next.
    expect(await db.query("SELECT version FROM idearepo_schema").all()).toEqual([{ version: Math.max(...PG_MIGRATIONS.map((m) => m.version)) }]);
    const state = JSON.parse((await db.query<{ value: string }>("SELECT value FROM app_state WHERE key = 'embeddings'").get())!.value);
    expect({ active: state.active?.gen, building: state.building, next_gen: state.next_gen }).toEqual({ active: 1, building: null, next_gen: 2 });
    const tables = await db.query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE tablename LIKE 'vec\\_%' ORDER BY 1").all();
    expect(tables.map((t) => t.name)).toEqual(["vec_ideas_g1", "vec_shared_g1", "vec_stamps_g1", "vec_tags_g1"]);
    // No account yet: each node prints the setup code, the same one, so the form may reach either.
    const codeOf = (s: ServerProcess) => s.logs.map((l) => { try { return JSON.parse(l); } catch { return null; } }).find((l) => l?.setup_code)?.setup_code;
    expect(codeOf(a)).toBeString();
    expect(codeOf(b)).toBe(codeOf(a));
    for (const s of [a, b]) expect(s.logs.filter((l) => /"level":"(error|fatal)"/.test(l))).toEqual([]);
    // No master_key given: each node made one in its own data dir, and says that nodes must share one.
    for (const s of [a, b]) expect(s.logs.filter((l) => l.includes("give every node the same master_key")).length).toBe(1);
    // Both work on what was made: an idea captured on A is embedded and found by meaning on B.
    const created = runCommand(["users", "create", "--email", "first@example.com", "--plan", "pro"], { dataDir: newDir(), env });
    expect(created.code, created.stderr).toBe(0);
    const key = JSON.parse(created.stdout).api_key as string;
    const idea = await api(a.base, key, "POST", "/ideas", { title: "Rainwater barrel under the gutter", body: "collect water for the garden" });
    expect(idea.status).toBe(201);
    await settled(db, 30_000);
    const found = await api(b.base, key, "GET", "/ideas/search?q=watering%20plants%20with%20rain&mode=semantic&limit=5");
    expect(found.body.results.map((r: { id: number }) => r.id)).toContain(idea.body.id);
  }, 120_000);

  test("a model change reaching one node: that node takes the re-embedding backlog from a node still on the old model, which cannot do it", async () => {
    const { key, node } = await cluster();
    const fixtures = makeTestModels();
    // A starts first on the old model (use-lite) and so holds the reindex duty.
    const a = await node({ IDEAREPO_MODELS_DIR: fixtures.modelsDir });
    for (const title of ["Heat pump in the cellar", "Sourdough starter on the shelf", "Winter tyres for the bike"]) {
      expect((await api(a.base, key, "POST", "/ideas", { title })).status).toBe(201);
    }
    const health = async (s: ServerProcess) => (await api(s.base, null, "GET", "/health")).body.embeddings;
    const began = Date.now();
    while ((await health(a)).pending > 0) {
      if (Date.now() - began > 30_000) throw new Error("A never embedded its ideas");
      await Bun.sleep(100);
    }
    expect(a.logs.some((l) => l.includes('"run-once duty taken"') && l.includes('"reindex"'))).toBe(true);
    // B starts with the new model: a build begins, which only B can write; A hands the duty over and B does it.
    const b = await node({ IDEAREPO_MODELS_DIR: fixtures.modelsDir, IDEAREPO_EMBED_MODEL: fixtures.embedder });
    const started = Date.now();
    let e = await health(b);
    expect(e.model).not.toBe(e.search_model);
    while (e.reindexing || e.pending > 0) {
      if (Date.now() - started > 30_000) throw new Error(`the re-embedding never finished: ${JSON.stringify(e)}`);
      await Bun.sleep(200);
      e = await health(b);
    }
    expect(e.search_model).toBe(e.model);
    expect(a.logs.some((l) => l.includes("run-once duty handed over"))).toBe(true);
    console.log(`re-embedding with the new model done ${Date.now() - started} ms after B started (lease ${LEASE_SECONDS} s)`);
  }, 120_000);

  test("a schedule kept by two nodes runs each of its runs on one of them only", async () => {
    const { node } = await cluster();
    // Every two seconds (croner's six-field pattern); both nodes keep it.
    const every2s = { IDEAREPO_NUDGE_CRON: "*/2 * * * * *" };
    const [a, b] = await Promise.all([node(every2s), node(every2s)]);
    await Bun.sleep(9_000);
    const runs = (s: ServerProcess) =>
      s.logs.map((l) => { try { return JSON.parse(l); } catch { return null; } })
        .filter((l) => l?.msg === "scheduled job runs on this node" && l.job === "stale-nudges")
        .map((l) => String(l.slot));
    const all = [...runs(a), ...runs(b)];
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(new Set(all).size).toBe(all.length);
  }, 60_000);

  test("a web node answers people and leaves the pipeline to a worker node, which answers only its health and metrics and is woken across nodes", async () => {
    const { key, db, node } = await cluster();
    const web = await node({ IDEAREPO_ROLE: "web" });
    const first = await api(web.base, key, "POST", "/ideas", { title: "Heat pump in the cellar", body: "a quiet one for the winter" });
    expect(first.status).toBe(201);
    // No worker yet: the web node does not process it.
    await Bun.sleep(2_000);
    expect(await count(db, "SELECT count(*) AS n FROM jobs WHERE locked_at IS NULL")).toBe(1);
    expect(await count(db, "SELECT count(*) AS n FROM ideas WHERE vectorize_id IS NULL")).toBe(1);
    const worker = await node({ IDEAREPO_ROLE: "worker" });
    expect(worker.started.role).toBe("worker");
    await settled(db, 30_000);
    // The worker is idle now (it sleeps up to a minute): a capture on the web node wakes it through NOTIFY.
    await Bun.sleep(1_000);
    const second = await api(web.base, key, "POST", "/ideas", { title: "Wood stove for the living room", body: "heating the house in winter" });
    expect(second.status).toBe(201);
    const took = await settled(db, 30_000);
    expect(took).toBeLessThan(10_000);
    const found = await api(web.base, key, "GET", "/ideas/search?q=warming%20the%20home&mode=semantic&limit=5");
    expect(found.body.results.map((r: { id: number }) => r.id)).toContain(second.body.id);
    // The worker answers its health, and no person.
    const health = await api(worker.base, null, "GET", "/health");
    expect(health.status).toBe(200);
    const refused = await api(worker.base, key, "GET", "/ideas");
    expect(refused.status).toBe(404);
    expect(refused.body.error).toContain("worker");
  }, 120_000);

  test("on SQLite a role other than all is refused at start, in one line", () => {
    const out = runCommand(["serve", "--role", "worker"], { dataDir: newDir(), env: { IDEAREPO_DATABASE_URL: "", IDEAREPO_PORT: "0" } });
    expect(out.code).not.toBe(0);
    expect(out.stderr).toContain("needs PostgreSQL");
    const bad = runCommand(["serve", "--role", "boss"], { dataDir: newDir() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--role must be one of all, web, worker");
  });
});
