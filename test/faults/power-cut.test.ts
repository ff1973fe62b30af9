// Power cuts: the data dir on lazyfs (test/faults/powercut/lazyfs.py, FUSE), which keeps unsynced data in memory and
// drops it at the cut. Captures from 24 clients, imports, merges, bulk updates and backups run when the power goes;
// every acknowledged write must be there after a remount and restart. The same cut under durability "crash-safe"
// (synchronous = NORMAL) must lose acknowledged captures: that proves the file system really drops what was not synced.
import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { api, burst, createUser, listAllIdeas, runCommand, sourceCmd, startServer, type ServerProcess } from "../ops/harness";
import { ROOT, tempDir } from "../cli";
import { backlog, importDoc, integrity, peekDb, until } from "./helpers";
import { fuseProblem, mountLazy, type LazyMount } from "./powercut/lazy-mount";

const scratch = tempDir("idearepo-powercut-");
const problem = await fuseProblem(scratch);
if (problem && !process.env.CI) console.warn(`power-cut tests skipped: ${problem}`);

const mounts: LazyMount[] = [];
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const s of servers) s.proc.kill("SIGKILL");
  for (const m of mounts) await m.unmount().catch(() => undefined);
  rmSync(scratch, { recursive: true, force: true });
});

/** A data dir on a fresh lazyfs mount over `backing` (the "disk", which outlives mounts). */
async function mount(name: string, backing = join(scratch, `${name}-disk`)) {
  const m = await mountLazy(backing, join(scratch, `${name}-mnt-${mounts.length}`));
  mounts.push(m);
  return { m, backing, dataDir: join(m.mountPoint, "data") };
}

async function serve(dataDir: string, durability: string) {
  const s = await startServer({ dataDir, env: { IDEAREPO_DURABILITY: durability }, timeoutMs: 30_000 });
  servers.push(s);
  return s;
}

/** Runs `step` back to back until stopped; remembers what was acknowledged (a 2xx) and what was only attempted. */
function loop<T>(step: (k: number) => Promise<T | null>) {
  const acked: T[] = [];
  let running = true;
  const done = (async () => {
    for (let k = 0; running; k++) {
      try {
        const r = await step(k);
        if (r !== null) acked.push(r);
      } catch {
        // the server or the file system went away mid-request: never acknowledged
      }
    }
  })();
  return { acked, stop: async () => ((running = false), await done) };
}

/** The cut itself: power goes (unsynced data dropped), every process on the machine dies, the disk is unplugged. */
async function powerCut(m: LazyMount, procs: Array<{ kill(sig?: number | NodeJS.Signals): void }>) {
  const dropped = await m.cut();
  for (const p of procs) p.kill("SIGKILL");
  return dropped;
}

describe.if(!problem || !!process.env.CI)("power cut (lazyfs)", () => {
  test("the machine can mount the FUSE file system (required in CI)", () => {
    expect(problem).toBeNull();
  });

  test("power-safe: captures, imports, merges, bulk updates and backups cut mid-flight; every acknowledged write survives", async () => {
    const { m, backing, dataDir } = await mount("safe");
    const key = createUser(dataDir, "cut@example.com", "pro");
    const server = await serve(dataDir, "power-safe");
    const base = server.base;
    const seed = await api(base, key, "POST", "/user/import", importDoc("seed", 60));
    expect(seed.status).toBe(201);
    const seedIds = (await listAllIdeas(base, key)).filter((i) => String(i.title).startsWith("seed ")).map((i) => i.id as number).sort((a, b) => a - b);
    expect(seedIds.length).toBe(60);

    const captures = burst(base, key, 24, ["cut"]);
    const imports = loop(async (k) => ((await api(base, key, "POST", "/user/import", importDoc(`imp${k}`, 15))).status === 201 ? `imp${k}` : null));
    // Merges walk the first 40 seed ideas in pairs; bulk updates tag the last 20 in batches of 10.
    const merges = loop(async (k) => {
      if (k >= 20) return Bun.sleep(50).then(() => null);
      const [keep, absorb] = [seedIds[2 * k], seedIds[2 * k + 1]];
      return (await api(base, key, "POST", `/ideas/${keep}/merge`, { absorb_id: absorb })).status === 200 ? { keep, absorb } : null;
    });
    const bulks = loop(async (k) => {
      const ids = seedIds.slice(40 + (k % 2) * 10, 50 + (k % 2) * 10);
      const r = await api(base, key, "PATCH", "/ideas/bulk", { ids, add_tags: [`bulk${k}`] });
      return r.status === 200 && r.body.updated === 10 ? { ids, tag: `bulk${k}` } : null;
    });
    const backupsDir = join(m.mountPoint, "backups");
    mkdirSync(backupsDir);
    const cliProcs: Array<ReturnType<typeof Bun.spawn>> = [];
    const backups = loop(async (k) => {
      const file = join(backupsDir, `b${k}.db`);
      const p = Bun.spawn([...sourceCmd(), "backup", file], { cwd: ROOT, env: { ...process.env, IDEAREPO_DATA_DIR: dataDir }, stdout: "ignore", stderr: "ignore" });
      cliProcs.push(p);
      return (await p.exited) === 0 ? file : null;
    });

    await captures.waitForAcks(120);
    await until(() => imports.acked.length >= 2 && merges.acked.length >= 2 && bulks.acked.length >= 2 && backups.acked.length >= 1, 30_000);
    await Bun.sleep(Math.random() * 300); // the cut lands anywhere in the mix, a backup most likely mid-copy
    const dropped = await powerCut(m, [server.proc, ...cliProcs]);
    await Promise.all([captures.stop(), imports.stop(), merges.stop(), bulks.stop(), backups.stop()]);
    await server.exited;
    await m.unmount();
    expect(dropped).toBeGreaterThanOrEqual(0); // (unsynced bytes thrown away; the crash-safe test below shows they matter)
    expect(captures.acked.length).toBeGreaterThanOrEqual(120);
    expect(backups.acked.length).toBeGreaterThanOrEqual(1);

    // The disk as the power cut left it, before anything runs on it again.
    expect(integrity(join(backing, "data"))).toBe("ok");

    const again = await mount("safe", backing);
    const second = await serve(again.dataDir, "power-safe");
    const ideas = new Map((await listAllIdeas(second.base, key)).map((i) => [i.id, i]));
    expect(captures.acked.filter((a) => ideas.get(a.id)?.title !== a.title)).toEqual([]);
    for (const a of captures.acked) expect(ideas.get(a.id)!.tags).toEqual(["cut"]);
    const perPrefix = new Map<string, number>();
    for (const i of ideas.values()) perPrefix.set(String(i.title).split(" ")[0], (perPrefix.get(String(i.title).split(" ")[0]) ?? 0) + 1);
    for (const p of imports.acked) expect(perPrefix.get(p)).toBe(15);
    for (const [p, n] of perPrefix) if (p.startsWith("imp")) expect(n).toBe(15); // an import cut mid-way left nothing
    for (const { keep, absorb } of merges.acked) {
      expect(ideas.has(absorb)).toBe(false); // archived by the merge
      expect(String(ideas.get(keep)!.body)).toContain("\n\n---\n\n");
    }
    for (const { ids, tag } of bulks.acked) for (const id of ids) expect(ideas.get(id)!.tags).toContain(tag);

    // A backup is complete (its name exists only once the copy was synced and checked) or absent.
    const named = readdirSync(join(again.m.mountPoint, "backups")).filter((f) => /^b\d+\.db$/.test(f));
    for (const f of backups.acked.map((p) => p.split("/").pop()!)) expect(named).toContain(f);
    for (const f of named) {
      const db = new Database(join(again.m.mountPoint, "backups", f), { readonly: true });
      expect(db.query<{ quick_check: string }, []>("PRAGMA quick_check").get()!.quick_check).toBe("ok");
      db.close();
    }
    // The newest backup restores (into a data dir off the file system) and opens with its ideas.
    const newest = named.sort((a, b) => Number(a.slice(1, -3)) - Number(b.slice(1, -3))).pop()!;
    const restoredDir = join(scratch, "restored");
    mkdirSync(restoredDir);
    const restored = runCommand(["restore", join(again.m.mountPoint, "backups", newest)], { dataDir: restoredDir });
    expect(restored.code).toBe(0);
    expect(JSON.parse(restored.stdout).ideas).toBeGreaterThanOrEqual(60);
    expect(integrity(restoredDir)).toBe("ok");

    // No job stays stuck; every idea ends embedded; the file is intact after a clean stop.
    expect(await until(() => backlog(again.dataDir).unembedded === 0 && backlog(again.dataDir).jobs === 0, 120_000)).toBe(true);
    expect(await second.stop()).toBe(0);
    expect(backlog(again.dataDir)).toEqual({ unembedded: 0, jobs: 0, locked: 0 });
    expect(integrity(again.dataDir)).toBe("ok");
    await again.m.unmount();
  }, 240_000);

  test("crash-safe (synchronous = NORMAL): the same cut rolls back acknowledged captures, and the file stays consistent", async () => {
    // What NORMAL trades away: commits since the last checkpoint's sync were acknowledged but never reached the disk.
    // The background checkpoint syncs every 200 ms, so a cut can land just after one with no acknowledgement since
    // (seen once in CI on a slow moment): the loss is shown by at most three cuts, each on a fresh disk, and every
    // one of them must leave a consistent file.
    const losses: number[] = [];
    for (let attempt = 0; attempt < 3 && !losses.some((n) => n > 0); attempt++) {
      const { m, backing, dataDir } = await mount(`fast${attempt}`);
      const key = createUser(dataDir, "fast@example.com", "pro");
      const server = await serve(dataDir, "crash-safe");
      const captures = burst(server.base, key, 24, ["cut"]);
      await captures.waitForAcks(150);
      await powerCut(m, [server.proc]);
      await captures.stop();
      await server.exited;
      await m.unmount();
      const disk = join(backing, "data");
      expect(integrity(disk)).toBe("ok");
      expect(existsSync(join(disk, "idearepo.db"))).toBe(true);
      const kept = new Set(peekDb(disk, (db) => db.query<{ id: number }, []>("SELECT id FROM ideas").all().map((r) => r.id)));
      losses.push(captures.acked.filter((a) => !kept.has(a.id)).length);
    }
    expect(Math.max(...losses)).toBeGreaterThan(0);
  }, 120_000);
});
