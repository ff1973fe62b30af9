// The queue's claim on both stores: workers claiming at once never hold the same job, and together run each once.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openDb } from "../../src/db/open";
import { PG_MIGRATIONS } from "../../src/db/pg/migrations";
import { pgStore } from "../../src/db/pg/store";
import { sqliteStore } from "../../src/db/sqlite-store";
import type { Store } from "../../src/db/store";
import { createQueue, enqueueJob, type JobRow } from "../../src/jobs/queue";
import { toStamp } from "../../src/lib/time";
import { processStart } from "../../src/lib/node-id";
import { hostname } from "node:os";
import { migratedDatabase, requirePostgres } from "../support/postgres";

const JOBS = 400;
const now = toStamp(new Date("2026-01-01T00:00:00Z"));

/** Queues JOBS full passes, a few light ones and one not yet due (ideas need not exist: jobs name them only). */
async function fill(store: Store): Promise<void> {
  await store.tx(async () => {
    for (let i = 1; i <= JOBS; i++) await enqueueJob(store, { kind: "full", ideaId: i }, now);
    await enqueueJob(store, { kind: "full", ideaId: JOBS + 1 }, toStamp(new Date("2026-01-02T00:00:00Z")));
  });
}

/**
 * `workers` loops over `stores` (round robin), each claiming small batches and completing them with a pause between,
 * so claims of different workers overlap. Returns every claim each worker got.
 */
async function drainConcurrently(stores: Store[], workers: number): Promise<JobRow[][]> {
  const queues = stores.map((s) => createQueue(s, ["full"]));
  return Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      const queue = queues[w % queues.length];
      const got: JobRow[] = [];
      for (;;) {
        const batch = await queue.claim(now, 7);
        if (batch.length === 0) return got;
        got.push(...batch);
        await Bun.sleep(1);
        for (const job of batch) await queue.complete(job.id);
      }
    }),
  );
}

function expectEachOnce(claims: JobRow[][]): void {
  const ids = claims.flat().map((j) => j.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids.length).toBe(JOBS);
  expect(claims.flat().every((j) => j.attempts === 1 && j.locked_at === now)).toBe(true);
  // Work was shared, not taken by one worker while the rest found the queue empty.
  expect(claims.filter((c) => c.length > 0).length).toBeGreaterThan(1);
}

describe("queue claim on SQLite", () => {
  test("concurrent workers of one store claim each job once, oldest first within a claim", async () => {
    const store = sqliteStore(openDb(":memory:"));
    await fill(store);
    const claims = await drainConcurrently([store], 4);
    expectEachOnce(claims);
    for (const c of claims) for (let i = 0; i + 1 < c.length; i++) if (c[i].id > c[i + 1].id) throw new Error("a worker's claims went backwards");
    expect(await store.query<{ n: number }>("SELECT count(*) AS n FROM jobs").get()).toEqual({ n: 1 });
    await store.close();
  });
});

const run = requirePostgres();

describe.skipIf(!run)("queue claim on PostgreSQL", () => {
  let url: string;
  let stores: Store[] = [];
  beforeAll(async () => {
    ({ url } = await migratedDatabase());
  });
  afterAll(async () => {
    for (const s of stores) await s.close();
  });

  test("two store instances (two nodes) with three workers each never claim the same job, and together run each once", async () => {
    // Two pools, as two processes would have; each worker's claim is one statement on a connection of its pool.
    stores = [pgStore(url), pgStore(url)];
    await fill(stores[0]);
    const claims = await drainConcurrently(stores, 6);
    expectEachOnce(claims);
    // Both nodes did work.
    expect(claims.filter((_, w) => w % 2 === 0).flat().length).toBeGreaterThan(0);
    expect(claims.filter((_, w) => w % 2 === 1).flat().length).toBeGreaterThan(0);
    // Only the job not yet due is left, unclaimed.
    const left = await stores[1].query<{ idea_id: number; locked_at: string | null }>("SELECT idea_id, locked_at FROM jobs").all();
    expect(left).toEqual([{ idea_id: JOBS + 1, locked_at: null }]);
  }, 60_000);

  test("a claim passes over rows another transaction holds instead of waiting for it", async () => {
    const [a, b] = stores;
    await a.exec("DELETE FROM jobs");
    await a.tx(async () => {
      for (let i = 1; i <= 4; i++) await enqueueJob(a, { kind: "full", ideaId: 1000 + i }, now);
    });
    const queueB = createQueue(b, ["full"]);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let holding!: () => void;
    const isHolding = new Promise<void>((r) => (holding = r));
    // Node A claims two jobs inside a transaction that stays open (its rows stay locked until it ends).
    const open = a.tx(async () => {
      const got = await createQueue(a, ["full"]).claim(now, 2);
      holding();
      await held;
      return got;
    });
    await isHolding;
    const began = performance.now();
    const other = await queueB.claim(now, 10);
    const took = performance.now() - began;
    release();
    const first = await open;
    expect(first.map((j) => j.idea_id)).toEqual([1001, 1002]);
    expect(other.map((j) => j.idea_id)).toEqual([1003, 1004]);
    expect(took).toBeLessThan(1_000);
  }, 30_000);

  test("a retried job whose idea gets a new pending job while the retry runs gives way to it", async () => {
    const [a, b] = stores;
    await a.exec("DELETE FROM jobs");
    await enqueueJob(a, { kind: "full", ideaId: 7 }, now);
    const queue = createQueue(a, ["full"]);
    const [job] = await queue.claim(now, 1);
    // A capture on the other node queues the idea's next pass in a transaction not yet committed: the retry's check
    // does not see it, and its write waits on the pending-job index until that transaction ends.
    let commit!: () => void;
    const committed = new Promise<void>((r) => (commit = r));
    let queued!: () => void;
    const isQueued = new Promise<void>((r) => (queued = r));
    const capture = b.tx(async () => {
      await enqueueJob(b, { kind: "full", ideaId: 7 }, now);
      queued();
      await committed;
    });
    await isQueued;
    const retrying = queue.retry(job.id, now, "failed");
    await Bun.sleep(300);
    commit();
    await capture;
    await retrying;
    const rows = await a.query<{ id: number; locked_at: string | null; last_error: string | null }>("SELECT id, locked_at, last_error FROM jobs WHERE idea_id = 7").all();
    expect(rows.length).toBe(1);
    expect(rows[0].id).not.toBe(job.id);
    expect(rows[0].locked_at).toBeNull();
  });
});

/** Two nodes' queues over `stores` (one store each, or one shared), with 30 s leases. */
async function leaseScenario(stores: [Store, Store]): Promise<void> {
  const [sa, sb] = stores;
  await sa.exec("DELETE FROM jobs");
  await sa.tx(async () => {
    for (let i = 1; i <= 6; i++) await enqueueJob(sa, { kind: "full", ideaId: 2000 + i }, now);
  });
  const a = createQueue(sa, ["full"], { owner: "node-a", leaseSeconds: 30 });
  const b = createQueue(sb, ["full"], { owner: "node-b", leaseSeconds: 30 });
  const mineA = await a.claim(now, 3);
  expect(mineA.map((j) => [j.locked_by, j.lease_until])).toEqual(Array(3).fill(["node-a", "2026-01-01 00:00:30"]));
  // B releasing its claims after a failed round leaves A's alone.
  await b.claim(now, 1);
  expect(await b.releaseClaimed("failed round")).toBe(1);
  // Sorted here: the stores put NULL at opposite ends of an ORDER BY.
  const byOwner = async () =>
    (await sa.query<{ owner: string | null; n: number }>("SELECT locked_by AS owner, count(*) AS n FROM jobs GROUP BY locked_by").all())
      .sort((x, y) => String(x.owner).localeCompare(String(y.owner)));
  expect(await byOwner()).toEqual([{ owner: "node-a", n: 3 }, { owner: null, n: 3 }]);
  // A renews at 00:00:20 (until 00:00:50); at 00:00:45 B takes only what is free, at 00:00:51 A's claims too.
  await a.renew(toStamp(new Date("2026-01-01T00:00:20Z")));
  const early = await b.claim(toStamp(new Date("2026-01-01T00:00:45Z")), 10);
  expect(early.length).toBe(3);
  const late = await b.claim(toStamp(new Date("2026-01-01T00:00:51Z")), 10);
  expect(late.map((j) => j.id).sort()).toEqual(mineA.map((j) => j.id).sort());
  expect(late.every((j) => j.attempts === 2 && j.locked_by === "node-b")).toBe(true);
  // A, back from its stall, can neither complete nor hand back what B holds now.
  for (const j of mineA) {
    await a.complete(j.id);
    await a.retry(j.id, now, "late");
  }
  expect(await byOwner()).toEqual([{ owner: "node-b", n: 6 }]);
  for (const j of [...early, ...late]) await b.complete(j.id);
  expect(await byOwner()).toEqual([]);
}

/**
 * Claims of a process of this host that is gone (killed -9, crashed, or its pid since handed to another program) are
 * taken by the next claim at once; a live process's claims on this host, an older build's holder (no start time) whose
 * pid is alive, and another host's keep their lease.
 */
async function goneHolderScenario(stores: [Store, Store]): Promise<void> {
  const [sa, sb] = stores;
  await sa.exec("DELETE FROM jobs");
  await sa.tx(async () => {
    for (let i = 1; i <= 10; i++) await enqueueJob(sa, { kind: "full", ideaId: 4000 + i }, now);
  });
  const dead = Bun.spawn(["true"]);
  await dead.exited;
  const alive = Bun.spawn(["sleep", "30"]);
  try {
    const started = processStart(alive.pid);
    expect(started).toMatch(/^[0-9a-z]+$/);
    const owners = [
      `${hostname()}:${dead.pid}:0dead0`,
      `${hostname()}:${alive.pid}:${started}-a11ve0`,
      // The same pid, started at another time: the process that held these claims is gone and `sleep` has its pid.
      `${hostname()}:${alive.pid}:${(Number.parseInt(started!, 36) - 1).toString(36)}-reu5ed`,
      `${hostname()}:${alive.pid}:01d0b1`,
      "another-host:1:e15e00",
    ];
    // Each claims two jobs, as their own claims would have (written directly: a queue's claim would already hand
    // the dead process's back).
    const claim = sa.query("UPDATE jobs SET locked_at = ?1, locked_by = ?2, lease_until = '2026-01-01 00:00:30', attempts = 1 WHERE idea_id IN (?3, ?4)");
    for (const [i, owner] of owners.entries()) await claim.run(now, owner, 4001 + 2 * i, 4002 + 2 * i);
    // One second later, 29 s before any lease runs out: the restarted node takes the dead process's and the reused
    // pid's jobs only.
    const restarted = createQueue(sb, ["full"], { owner: `${hostname()}:${process.pid}:re5ta7`, leaseSeconds: 30 });
    const taken = await restarted.claim(toStamp(new Date("2026-01-01T00:00:01Z")), 10);
    expect(taken.map((j) => [j.idea_id, j.attempts]).sort()).toEqual([[4001, 2], [4002, 2], [4005, 2], [4006, 2]]);
    const left = await sa.query<{ locked_by: string; n: number }>("SELECT locked_by, count(*) AS n FROM jobs WHERE locked_by <> ? GROUP BY locked_by").all(restarted.owner);
    expect(left.map((r) => [r.locked_by, r.n]).sort()).toEqual([[owners[1], 2], [owners[3], 2], [owners[4], 2]].sort());
  } finally {
    alive.kill();
  }
}

describe("claims of a process that is gone from this host", () => {
  test("SQLite: taken at once, before their lease runs out; a live process's and another host's are left", async () => {
    const store = sqliteStore(openDb(":memory:"));
    await goneHolderScenario([store, store]);
    await store.close();
  });

  test.skipIf(!run)("PostgreSQL: the same across two store instances", async () => {
    const { url } = await migratedDatabase();
    const two: [Store, Store] = [pgStore(url), pgStore(url)];
    try {
      await goneHolderScenario(two);
    } finally {
      for (const s of two) await s.close();
    }
  });
});

describe("queue leases", () => {
  test("SQLite: a claim carries its owner and lease; a node releases only its own; a lease run out is taken over, and its old owner cannot complete it", async () => {
    const store = sqliteStore(openDb(":memory:"));
    await leaseScenario([store, store]);
    await store.close();
  });

  test.skipIf(!run)("PostgreSQL: the same across two store instances", async () => {
    const { url } = await migratedDatabase();
    const two: [Store, Store] = [pgStore(url), pgStore(url)];
    try {
      await leaseScenario(two);
    } finally {
      for (const s of two) await s.close();
    }
  });
});

describe.skipIf(!run)("claims from before leases (PostgreSQL)", () => {
  test("a job a pre-lease build claimed is handed back by the next claim once migration 0013 has run", async () => {
    const { url } = await migratedDatabase();
    const store = pgStore(url);
    try {
      await enqueueJob(store, { kind: "full", ideaId: 3001 }, now);
      // As a build before 0010 left it: claimed, with neither owner nor lease; then migration 0013 runs over it (its
      // own SQL: the database is already at the latest version, and later migrations must not run twice).
      await store.exec("UPDATE jobs SET locked_at = '2025-12-31 23:00:00', attempts = 1");
      const queue = createQueue(store, ["full"], { owner: "node-new" });
      expect(await queue.claim(now, 10)).toEqual([]);
      await store.exec(PG_MIGRATIONS.find((m) => m.version === 13)!.sql);
      const again = await queue.claim(now, 10);
      expect(again.map((j) => [j.idea_id, j.locked_by, j.attempts])).toEqual([[3001, "node-new", 2]]);
    } finally {
      await store.close();
    }
  });
});
