// Two `serve` nodes on one PostgreSQL under a capture burst spread over both: the server restarted (pg_ctl -m
// immediate), and one node's connections cut (pg_terminate_backend). Nothing acknowledged is lost, each idea is
// processed once, and every node answers again by itself.
import { afterAll, describe, expect, test } from "bun:test";
import { pgStore } from "../../src/db/pg/store";
import type { Store } from "../../src/db/store";
import { api, listAllIdeas, processScope, runCommand, type ServerProcess } from "../ops/harness";
import { migratedDatabase, requirePostgres, testCluster } from "../support/postgres";
import { expectQuickRefusals, summary, type Attempt as OutageAttempt } from "./pg-outage";

const run = requirePostgres();
const { newDir, serveWith } = processScope("idearepo-pg-nodes-");
const CLIENTS_PER_NODE = 4;
const stores: Store[] = [];
afterAll(async () => {
  for (const s of stores) await s.close().catch(() => {});
});

/** A fresh migrated database, an account made there by the CLI, a way to read rows directly, and nodes on it. */
async function cluster(leaseSeconds: number) {
  const { url } = await migratedDatabase();
  const env = { IDEAREPO_DATABASE_URL: url, IDEAREPO_LEASE_SECONDS: String(leaseSeconds) };
  const created = runCommand(["users", "create", "--email", "faults@example.com", "--plan", "pro"], { dataDir: newDir(), env });
  expect(created.code, created.stderr).toBe(0);
  const db = pgStore(url, { max: 2 });
  stores.push(db);
  const node = () => serveWith(newDir(), env);
  return { key: JSON.parse(created.stdout).api_key as string, db, node };
}

interface Attempt extends OutageAttempt { node: number; at: number }

/** Captures from CLIENTS_PER_NODE clients on each node, each one after another, until `done()` holds. */
async function burst(nodes: ServerProcess[], key: string, done: () => boolean): Promise<Attempt[]> {
  const attempts: Attempt[] = [];
  await Promise.all(
    nodes.flatMap((s, node) =>
      Array.from({ length: CLIENTS_PER_NODE }, async (_, client) => {
        for (let i = 0; !done(); i++) {
          const title = `fault ${node}-${client}-${i}`;
          const began = performance.now();
          let r: { status: number; body: any };
          try {
            r = await api(s.base, key, "POST", "/ideas", { title, body: `captured on node ${node} by client ${client}` });
          } catch (e) {
            r = { status: 0, body: String(e) }; // the node dropped the connection: never acceptable here
          }
          attempts.push({ node, client, title, status: r.status, ms: performance.now() - began, body: r.body, id: r.status === 201 ? r.body.id : null, at: performance.now() });
          // A client that was refused waits a little before trying again, as a real one would.
          if (r.status !== 201) await Bun.sleep(20);
        }
      }),
    ),
  );
  return attempts;
}

/** Each client's last capture was acknowledged: every node works again without being restarted. */
function expectEveryClientRecovered(attempts: Attempt[], nodes: number): void {
  for (let node = 0; node < nodes; node++) {
    for (let client = 0; client < CLIENTS_PER_NODE; client++) {
      const last = attempts.filter((a) => a.node === node && a.client === client).at(-1);
      expect({ node, client, status: last?.status }).toEqual({ node, client, status: 201 });
    }
  }
}

/** Every acknowledged capture is listed on every node, with its title. */
async function expectListedOnAll(nodes: ServerProcess[], key: string, attempts: Attempt[]): Promise<void> {
  const acked = attempts.filter((a) => a.status === 201).map((a) => `${a.id} ${a.title}`);
  for (const s of nodes) {
    const listed = new Set((await listAllIdeas(s.base, key)).map((i) => `${i.id} ${i.title}`));
    expect(acked.filter((x) => !listed.has(x))).toEqual([]);
  }
}

const count = async (db: Store, sql: string, ...params: string[]) => (await db.query<{ n: number }>(sql).get(...params))!.n;

/** Waits until every live idea has a vector and no job is left (or fails with what is left). */
async function settled(db: Store, timeoutMs: number): Promise<number> {
  const began = Date.now();
  for (;;) {
    try {
      const unembedded = await count(db, "SELECT count(*) AS n FROM ideas WHERE is_archived = 0 AND vectorize_id IS NULL");
      const jobs = await count(db, "SELECT count(*) AS n FROM jobs");
      if (unembedded === 0 && jobs === 0) return Date.now() - began;
      if (Date.now() - began > timeoutMs) throw new Error(`not settled after ${timeoutMs} ms: ${unembedded} ideas without a vector, ${jobs} jobs`);
    } catch (e) {
      if (Date.now() - began > timeoutMs) throw e;
    }
    await Bun.sleep(200);
  }
}

/** Each idea embedded once (one vector row each) and no row saying the same thing twice. */
async function expectProcessedOnce(db: Store): Promise<void> {
  const rows = async (sql: string) => (await db.query(sql).all()).length;
  // One vector row per live idea (the id is the table's key), and none for an idea that is not there.
  const live = await count(db, "SELECT count(*) AS n FROM ideas WHERE is_archived = 0");
  expect({
    vectors: await count(db, "SELECT count(*) AS n FROM vec_ideas_g1"),
    ofLiveIdeas: await count(db, "SELECT count(*) AS n FROM vec_ideas_g1 v JOIN ideas i ON i.id = v.id AND i.is_archived = 0"),
    ideasWithAnotherVectorId: await count(db, "SELECT count(*) AS n FROM ideas WHERE is_archived = 0 AND vectorize_id <> 'g1-' || id"),
  }).toEqual({ vectors: live, ofLiveIdeas: live, ideasWithAnotherVectorId: 0 });
  expect({
    relations: await rows(
      `SELECT min(source_idea_id, target_idea_id) AS a, max(source_idea_id, target_idea_id) AS b, created_by FROM relations
       GROUP BY min(source_idea_id, target_idea_id), max(source_idea_id, target_idea_id), created_by HAVING count(*) > 1`,
    ),
    detections: await rows(
      `SELECT min(idea_id, duplicate_of_id) AS a, max(idea_id, duplicate_of_id) AS b FROM duplicate_detections
       GROUP BY min(idea_id, duplicate_of_id), max(idea_id, duplicate_of_id) HAVING count(*) > 1`,
    ),
    tags: await rows("SELECT idea_id, tag_id FROM idea_tags GROUP BY idea_id, tag_id HAVING count(*) > 1"),
  }).toEqual({ relations: 0, detections: 0, tags: 0 });
}

function expectNoSecrets(lines: string[]): void {
  const c = testCluster();
  const text = lines.join("\n");
  expect(text).not.toContain(c.password);
  expect(text).not.toContain("postgres://");
}

describe.skipIf(!run)("two nodes on one PostgreSQL, under faults", () => {
  test("PostgreSQL restarted (pg_ctl -m immediate) mid-burst over two nodes: every acknowledged capture is listed on both, each idea embedded once, no row twice, both answer again by themselves", async () => {
    const c = testCluster();
    const { key, db, node } = await cluster(4);
    const nodes = await Promise.all([node(), node()]);
    let stopAt = Infinity;
    const all = burst(nodes, key, () => performance.now() > stopAt);
    await Bun.sleep(1_500);
    c.stop("immediate");
    await Bun.sleep(1_000);
    const began = performance.now();
    await c.startInBackground();
    const restartedInMs = performance.now() - began;
    stopAt = performance.now() + 2_000;
    const attempts = await all;
    const s = summary(attempts);
    console.info("restart under a burst over two nodes", { ...s, restart_ms: Math.round(restartedInMs) });

    // Both nodes saw the outage, refused quickly in the error shape, and took captures again afterwards.
    for (const n of [0, 1]) expect(attempts.filter((a) => a.node === n && a.status !== 201).length).toBeGreaterThan(0);
    expectQuickRefusals(attempts);
    expectEveryClientRecovered(attempts, nodes.length);
    await expectListedOnAll(nodes, key, attempts);
    // An unacknowledged capture may or may not have been committed (its answer was lost with the connection).
    const rows = await count(db, "SELECT count(*) AS n FROM ideas WHERE title LIKE 'fault %'");
    expect(rows).toBeGreaterThanOrEqual(s.acknowledged);
    expect(rows).toBeLessThanOrEqual(s.sent);
    const tookMs = await settled(db, 120_000);
    console.info("two nodes settled after the restart", { ms: tookMs, ideas: rows });
    await expectProcessedOnce(db);
    for (const n of nodes) expect((await api(n.base, null, "GET", "/health")).status).toBe(200);
    for (const n of nodes) expectNoSecrets(n.logs);
  }, 240_000);

  test("one node's connections cut (pg_terminate_backend) mid-burst: it refuses only with quick 503s, reconnects by itself (its wake-up connection too), loses nothing acknowledged, and its claimed jobs finish", async () => {
    // The default 30 s lease: the other node (alive, same host) cannot take A's claims within this test; A must.
    const { key, db, node } = await cluster(30);
    const nodes = await Promise.all([node(), node()]);
    const a = String(nodes[0].started.node);
    const ofA = `%${a}`;
    let stopAt = Infinity;
    const all = burst(nodes, key, () => performance.now() > stopAt);
    // Cut once A holds claims (jobs it took and has not finished) and has connections open.
    const deadline = Date.now() + 60_000;
    let claimed: number[] = [];
    while ((claimed = (await db.query<{ idea_id: number }, [string]>("SELECT idea_id FROM jobs WHERE locked_by = ?").all(a)).map((r) => r.idea_id)).length === 0) {
      if (Date.now() > deadline) throw new Error("node A never held a claim");
      await Bun.sleep(20);
    }
    expect(await count(db, "SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = ?", `idearepo listen ${a}`.slice(0, 63))).toBe(1);
    const cutAt = performance.now();
    const cut = await count(db, "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE application_name LIKE ?", ofA);
    await Bun.sleep(500);
    const cutAgain = await count(db, "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE application_name LIKE ?", ofA);
    stopAt = performance.now() + 2_500;
    const attempts = await all;
    const s = summary(attempts);
    const onA = attempts.filter((x) => x.node === 0 && x.at > cutAt);
    console.info("connections of one node cut mid-burst", { ...s, terminated: cut + cutAgain, claimed_at_cut: claimed.length, a_after_cut: summary(onA) });

    expect(cut).toBeGreaterThan(1); // its pool and its LISTEN connection at least
    expectQuickRefusals(attempts);
    expectEveryClientRecovered(attempts, nodes.length);
    expect(onA.filter((x) => x.status === 201).length).toBeGreaterThan(0);
    await expectListedOnAll(nodes, key, attempts);
    // A reconnects by itself, its wake-up connection too (a lost LISTEN would leave it deaf to other nodes' captures).
    const listening = async () => count(db, "SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = ?", `idearepo listen ${a}`.slice(0, 63));
    const listenBy = Date.now() + 20_000;
    while ((await listening()) === 0 && Date.now() < listenBy) await Bun.sleep(200);
    expect(await listening()).toBe(1);
    // The jobs A held at the cut finish (here within seconds, by A: their 30 s lease would hand them to B only after).
    const tookMs = await settled(db, 90_000);
    console.info("settled after the cut", { ms: tookMs });
    const unembedded = await db.query<{ id: number }>(`SELECT id FROM ideas WHERE id IN (${claimed.join(",")}) AND vectorize_id IS NULL`).all();
    expect(unembedded).toEqual([]);
    await expectProcessedOnce(db);
    for (const n of nodes) expect((await api(n.base, null, "GET", "/health")).status).toBe(200);
    for (const n of nodes) expectNoSecrets(n.logs);
  }, 240_000);
});
