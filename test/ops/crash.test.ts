// Durability and shutdown of a real server process: kill -9 mid-burst loses no acknowledged capture; SIGTERM drains.
import { describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { api, burst, createUser, listAllIdeas, runCommand, processScope } from "./harness";

const { newDir: newDataDir, serve } = processScope("idearepo-ops-");

describe("kill -9 during a burst of captures", () => {
  test("every idea that got a 201 is there after a restart", async () => {
    const dataDir = newDataDir();
    const key = createUser(dataDir, "crash@example.com");
    const first = await serve(dataDir);
    const load = burst(first.base, key, 8);
    await load.waitForAcks(150);
    await first.kill9(); // mid-burst: requests are in flight right now
    await load.stop();
    expect(load.failures()).toBe(0);
    const acked = [...load.acked];
    expect(acked.length).toBeGreaterThanOrEqual(150);

    // The stale pid file left by the killed process does not block the restart.
    expect(existsSync(join(dataDir, "idearepo.pid"))).toBe(true);
    const second = await serve(dataDir);
    const ideas = new Map((await listAllIdeas(second.base, key)).map((i) => [i.id, i]));
    const missing = acked.filter((a) => ideas.get(a.id)?.title !== a.title);
    expect(missing).toEqual([]);
    // Each one is whole: its tag committed with it.
    for (const a of acked) expect(ideas.get(a.id)!.tags).toEqual(["burst"]);
    // Per-account numbers stay unique across the crash.
    const numbers = [...ideas.values()].map((i) => i.number);
    expect(new Set(numbers).size).toBe(numbers.length);
    // And each ends processed: jobs the killed process had claimed or not yet run are picked up after the restart.
    const deadline = Date.now() + 60_000;
    let pending = acked.length;
    while (Date.now() < deadline) {
      const now = new Map((await listAllIdeas(second.base, key)).map((i) => [i.id, i]));
      pending = acked.filter((a) => now.get(a.id)?.vectorize_id === null).length;
      if (pending === 0) break;
      await Bun.sleep(200);
    }
    expect(pending).toBe(0);
    expect(await second.stop()).toBe(0);
  }, 120_000);
});

describe("SIGTERM", () => {
  test("answers in-flight requests, exits 0, removes its pid file and leaves a checkpointed database", async () => {
    const dataDir = newDataDir();
    const key = createUser(dataDir, "term@example.com");
    const server = await serve(dataDir);
    const load = burst(server.base, key, 8);
    await load.waitForAcks(100);
    const code = await server.stop();
    await load.stop();
    expect(code).toBe(0);
    expect(load.failures()).toBe(0);
    const lines = server.logs.map((l) => JSON.parse(l));
    expect(lines.some((l) => l.msg === "shutting down" && l.reason === "SIGTERM")).toBe(true);
    expect(lines.at(-1)!.msg).toBe("stopped");
    expect(existsSync(join(dataDir, "idearepo.pid"))).toBe(false);
    // The last connection closed cleanly: SQLite checkpointed the WAL into the main file and removed it.
    expect(existsSync(join(dataDir, "idearepo.db-wal"))).toBe(false);

    const again = await serve(dataDir);
    const ideas = new Map((await listAllIdeas(again.base, key)).map((i) => [i.id, i.title]));
    expect(load.acked.filter((a) => ideas.get(a.id) !== a.title)).toEqual([]);
    await again.stop();
  }, 120_000);
});

describe("one server per data dir", () => {
  test("a second server on the same data dir refuses to start, naming the first", async () => {
    const dataDir = newDataDir();
    createUser(dataDir, "solo@example.com");
    const first = await serve(dataDir);
    const out = runCommand(["serve"], { dataDir, env: { IDEAREPO_PORT: "0" } });
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(`Another idearepo server (pid ${first.pid})`);
    // The first one is unaffected.
    expect((await api(first.base, null, "GET", "/health")).status).toBe(200);
    await first.stop();
  }, 30_000);

  test("a pid file naming a dead process is ignored", async () => {
    const dataDir = newDataDir();
    createUser(dataDir, "stale@example.com");
    writeFileSync(join(dataDir, "idearepo.pid"), "999999\n");
    const s = await serve(dataDir);
    expect((await api(s.base, null, "GET", "/health")).status).toBe(200);
    await s.stop();
  }, 30_000);
});
