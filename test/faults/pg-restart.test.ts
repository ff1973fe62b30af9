// PostgreSQL restarting (pg_ctl -m immediate) under a capture burst, and away for a while: nothing acknowledged is
// lost, failures are quick 503s in the error shape, background work waits, and the app recovers by itself. Its
// refusals come in milliseconds, so it runs beside other suites; a silent network's bound in seconds is pg-silent.test.ts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { call, makeUser, type TestApp, type TestUser } from "../helpers";
import { makePgApp } from "../support/pg-app";
import { requirePostgres, testCluster } from "../support/postgres";
import { type Attempt, captureOutput, expectNoSecrets, expectQuickRefusals, summary } from "./pg-outage";
import { runWaitingForStore, type ScheduledJob } from "../../src/jobs/scheduler";
import { createPipelineProcess } from "../../src/pipeline/process";
import { loadTestModel } from "../pipeline-helpers";

const run = requirePostgres();
const CLIENTS = 8;

/** Captures from CLIENTS clients, each sending one after another, until `done()` holds. */
async function burst(t: TestApp, user: TestUser, prefix: string, done: () => boolean): Promise<Attempt[]> {
  const attempts: Attempt[] = [];
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let i = 0; !done(); i++) {
        const title = `${prefix} ${client}-${i}`;
        const began = performance.now();
        const r = await call(t, "POST", "/ideas", { key: user.key, body: { title, body: `captured by client ${client}` } });
        attempts.push({ client, title, status: r.status, ms: performance.now() - began, body: r.body, id: r.status === 201 ? r.body.id : null });
        // A client that was refused waits a little before trying again, as a real one would.
        if (r.status !== 201) await Bun.sleep(20);
      }
    }),
  );
  return attempts;
}

/** Every acknowledged capture, read back through the API with its title. */
async function expectAllPresent(t: TestApp, user: TestUser, attempts: Attempt[]): Promise<void> {
  const missing: string[] = [];
  for (const a of attempts.filter((x) => x.status === 201)) {
    const r = await call(t, "GET", `/ideas/${a.id}`, { key: user.key });
    if (r.status !== 200 || r.body.title !== a.title) missing.push(`${a.title} (${r.status})`);
  }
  expect(missing).toEqual([]);
}

describe.skipIf(!run)("PostgreSQL restarts and outages", () => {
  let t: TestApp & { url: string };
  let user: TestUser;
  const logs: string[] = [];
  let output: ReturnType<typeof captureOutput>;

  beforeAll(async () => {
    t = await makePgApp({ logs });
    user = await makeUser(t, { plan: "pro" });
    output = captureOutput();
  });
  afterAll(async () => {
    output?.restore();
    await t?.close();
  });

  test("pg_ctl -m immediate in the middle of a capture burst: every acknowledged capture is there after, refusals were quick 503s, the app works again by itself", async () => {
    const c = testCluster();
    let stopAt = Infinity;
    const all = burst(t, user, "restart", () => performance.now() > stopAt);
    await Bun.sleep(1_500);
    const before = logs.length;
    c.stop("immediate");
    // Down for a second, then a start that this thread does not wait on: clients meet refused connections, then a
    // server starting up (recovery), then one taking connections again.
    await Bun.sleep(1_000);
    const began = performance.now();
    await c.startInBackground();
    const restartedInMs = performance.now() - began;
    stopAt = performance.now() + 1_500;
    const attempts = await all;
    const s = summary(attempts);
    console.info("restart under a capture burst", { ...s, restart_ms: Math.round(restartedInMs) });

    expect(s.refused).toBeGreaterThan(0); // the outage was seen
    expectQuickRefusals(attempts);
    // Each client's last capture (after the restart) was acknowledged: no restart of the app was needed.
    for (let client = 0; client < CLIENTS; client++) expect(attempts.filter((a) => a.client === client).at(-1)!.status).toBe(201);
    await expectAllPresent(t, user, attempts);
    // Unacknowledged captures may or may not have been committed (the answer was lost with the connection); there
    // are never more rows than captures sent.
    const count = await t.deps.store.query<{ n: number }>("SELECT count(*) AS n FROM ideas WHERE title LIKE 'restart %'").get();
    expect(count!.n).toBeGreaterThanOrEqual(s.acknowledged);
    expect(count!.n).toBeLessThanOrEqual(s.sent);
    // Hundreds of refusals, and the log says so in a line or two (one every 10 s at most, with the count folded in).
    const warned = logs.slice(before).filter((l) => l.includes('"database unavailable"'));
    expect(warned.length).toBeGreaterThanOrEqual(1);
    expect(warned.length).toBeLessThanOrEqual(2);
    expectNoSecrets(logs.join("\n"));
    expectNoSecrets(output.text());
  }, 60_000);

  test("away for several seconds: requests and the health probe answer 503 quickly, a scheduled job waits without spinning, then all resumes", async () => {
    const c = testCluster();
    let runs = 0;
    let wrote = 0;
    const probe: ScheduledJob = {
      name: "outage-probe",
      pattern: "0 0 1 1 *",
      run: async (deps) => {
        runs++;
        await deps.store.query("INSERT INTO app_state (key, value, updated_at) VALUES ('outage-probe', 'ran', '2026-01-01 00:00:00')").run();
        wrote++;
      },
    };
    const before = logs.length;
    c.stop("fast");
    let background: Promise<void> | null = null;
    try {
      const stopping = new AbortController();
      background = runWaitingForStore(t.deps, probe, { nextRun: () => null, signal: stopping.signal, firstRetryMs: 250, maxRetryMs: 2_000 });
      const attempts: Attempt[] = [];
      const health: number[] = [];
      const until = performance.now() + 6_000;
      while (performance.now() < until) {
        const began = performance.now();
        const r = await call(t, "POST", "/ideas", { key: user.key, body: { title: "while away" } });
        attempts.push({ client: 0, title: "while away", status: r.status, ms: performance.now() - began, body: r.body, id: null });
        const h = await call(t, "GET", "/health");
        expect(h.body).toEqual({ status: "error", error: "Database unavailable" });
        health.push(h.status);
        await Bun.sleep(250);
      }
      expect(attempts.every((a) => a.status === 503)).toBe(true);
      expectQuickRefusals(attempts);
      expect(new Set(health)).toEqual(new Set([503]));
      // Six seconds away: the job tried again with a growing pause (0.25, 0.5, 1, 2, 2 s …), never in a tight loop.
      expect(runs).toBeGreaterThanOrEqual(3);
      expect(runs).toBeLessThanOrEqual(7);
      expect(wrote).toBe(0);
    } finally {
      c.start();
    }
    await background;
    expect(wrote).toBe(1);
    expect(await t.deps.store.query("SELECT value FROM app_state WHERE key = 'outage-probe'").get()).toEqual({ value: "ran" });
    const after = await call(t, "POST", "/ideas", { key: user.key, body: { title: "after the outage" } });
    expect(after.status).toBe(201);
    expect((await call(t, "GET", `/ideas/${after.body.id}`, { key: user.key })).body.title).toBe("after the outage");
    const said = logs.slice(before);
    expect(said.filter((l) => l.includes('"database unavailable"')).length).toBeLessThanOrEqual(1);
    expect(said.filter((l) => l.includes("scheduled job waits for the database")).length).toBe(1);
    expect(said.some((l) => l.includes("scheduled job ran once the database was back"))).toBe(true);
    expectNoSecrets(logs.join("\n"));
    expectNoSecrets(output.text());
  }, 60_000);

  test("the pipeline's background loop goes through a restart: it backs off, then embeds every acknowledged capture, no job lost or left claimed", async () => {
    const c = testCluster();
    // An app of its own (the other tests' captures are not queued there), on the wall clock: retries come due.
    const logs: string[] = [];
    const t = await makePgApp({ logs, clock: { get now() { return new Date(); }, set() {}, advance() {} } });
    const user = await makeUser(t, { plan: "pro" });
    const model = await loadTestModel();
    const pipeline = createPipelineProcess(t.deps, { models: model });
    await pipeline.start(t.deps);
    const before = logs.length;
    try {
      let stopAt = Infinity;
      const all = burst(t, user, "pipeline", () => performance.now() > stopAt);
      await Bun.sleep(1_000);
      c.stop("immediate");
      await Bun.sleep(3_000);
      await c.startInBackground();
      stopAt = performance.now() + 1_000;
      const attempts = await all;
      const acked = attempts.filter((a) => a.status === 201);
      expect(attempts.length).toBeGreaterThan(acked.length);
      const waiting = t.deps.store.query<{ unembedded: number; jobs: number }>(
        "SELECT (SELECT count(*) FROM ideas WHERE title LIKE 'pipeline %' AND vectorize_id IS NULL) AS unembedded, (SELECT count(*) FROM jobs) AS jobs",
      );
      const began = performance.now();
      let left = await waiting.get();
      while ((left!.unembedded > 0 || left!.jobs > 0) && performance.now() - began < 60_000) {
        await Bun.sleep(200);
        left = await waiting.get();
      }
      console.info("pipeline through a restart", { ...summary(attempts), embedded_all_after_ms: Math.round(performance.now() - began) });
      expect(acked.length).toBeGreaterThan(0);
      expect(left).toEqual({ unembedded: 0, jobs: 0 });
      for (const a of acked.slice(0, 20)) expect(typeof (await call(t, "GET", `/ideas/${a.id}`, { key: user.key })).body.vectorize_id).toBe("string");
      // Backing off, not spinning: a few lines for a few seconds away (the first failure of a streak, then ever more rarely).
      const failed = logs.slice(before).filter((l) => l.includes("pipeline loop failed"));
      expect(failed.length).toBeLessThanOrEqual(4);
      expectNoSecrets(logs.join("\n"));
    } finally {
      await pipeline.stop();
      await model.close();
      await t.close();
    }
  }, 120_000);

});
