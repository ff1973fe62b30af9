// kill -9 of the server while 24 clients capture, imports run and the pipeline drains a backlog, then again mid-drain;
// kill -9 of a CLI import: every acknowledged write survives whole, every idea ends embedded, the file is intact.
import { describe, expect, test } from "bun:test";
import { api, burst, createUser, listAllIdeas, processScope, sourceCmd } from "../ops/harness";
import { backlog, importDoc, integrity, peekDb, until } from "./helpers";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../cli";

const { newDir, serve } = processScope("idearepo-faults-kill-");

const health = async (base: string) => (await api(base, null, "GET", "/health")).body.embeddings as { pending: number; total: number };
const IMPORT_SIZE = 40;

/** POSTs import documents back to back until stopped; remembers which were acknowledged and which were only sent. */
function importLoop(base: string, key: string) {
  const acked: string[] = [];
  const sent: string[] = [];
  let running = true;
  let failures = 0;
  const loop = (async () => {
    for (let k = 0; running; k++) {
      const prefix = `imp${k}`;
      sent.push(prefix);
      try {
        const r = await api(base, key, "POST", "/user/import", importDoc(prefix, IMPORT_SIZE));
        if (r.status === 201) acked.push(prefix);
        else failures++;
      } catch {
        // The server died with this import in flight: never acknowledged.
      }
    }
  })();
  return { acked, sent, failures: () => failures, stop: async () => ((running = false), await loop) };
}

describe("kill -9 under load", () => {
  test("captures from 24 clients, API imports and a backlog drain: twice killed, nothing acknowledged is lost", async () => {
    const dataDir = newDir();
    const capKey = createUser(dataDir, "captures@example.com", "pro");
    const impKey = createUser(dataDir, "imports@example.com", "pro");
    const first = await serve(dataDir);

    // A backlog for the pipeline: one big import queues every idea for the full pass.
    const seed = await api(first.base, impKey, "POST", "/user/import", importDoc("seed", 300));
    expect(seed.status).toBe(201);
    // Wait until the drain is visibly under way, so the kill lands in the middle of it.
    expect(await until(async () => (await health(first.base)).pending < 300, 30_000)).toBe(true);

    const captures = burst(first.base, capKey, 24, ["kill9"]);
    const imports = importLoop(first.base, impKey);
    await captures.waitForAcks(150);
    await until(() => imports.acked.length >= 2, 20_000);
    await first.kill9();
    await captures.stop();
    await imports.stop();
    expect(captures.failures()).toBe(0);
    expect(imports.failures()).toBe(0);
    expect(imports.acked.length).toBeGreaterThanOrEqual(2);

    // Round two: restart, let the drain resume, kill it again before it finishes.
    const second = await serve(dataDir);
    const before = (await health(second.base)).pending;
    expect(before).toBeGreaterThan(0);
    expect(await until(async () => (await health(second.base)).pending < before, 30_000)).toBe(true);
    await second.kill9();
    expect(integrity(dataDir)).toBe("ok");

    const third = await serve(dataDir);
    const ideas = new Map((await listAllIdeas(third.base, capKey)).map((i) => [i.id, i]));
    // Every 201 is there, with the tag that was committed in the same transaction.
    expect(captures.acked.filter((a) => ideas.get(a.id)?.title !== a.title)).toEqual([]);
    for (const a of captures.acked) expect(ideas.get(a.id)!.tags).toEqual(["kill9"]);
    const numbers = [...ideas.values()].map((i) => i.number);
    expect(new Set(numbers).size).toBe(numbers.length);

    // Imports are all or nothing: an acknowledged one is whole, an interrupted one left no trace.
    const imported = await listAllIdeas(third.base, impKey);
    const perPrefix = new Map<string, number>();
    for (const i of imported) {
      const prefix = String(i.title).split(" ")[0];
      perPrefix.set(prefix, (perPrefix.get(prefix) ?? 0) + 1);
    }
    expect(perPrefix.get("seed")).toBe(300);
    for (const p of imports.acked) expect(perPrefix.get(p)).toBe(IMPORT_SIZE);
    for (const p of imports.sent) expect([0, IMPORT_SIZE]).toContain(perPrefix.get(p) ?? 0);

    // Every idea ends embedded and no job stays claimed or queued.
    expect(await until(() => backlog(dataDir).unembedded === 0 && backlog(dataDir).jobs === 0, 90_000)).toBe(true);
    expect(await third.stop()).toBe(0);
    expect(backlog(dataDir)).toEqual({ unembedded: 0, jobs: 0, locked: 0 });
    expect(integrity(dataDir)).toBe("ok");
  }, 300_000); // three starts, two drains and a full embedding pass of ~1,000 ideas: minutes on a loaded runner

  test("kill -9 of a CLI import: the account is untouched, the next import is whole", async () => {
    const dataDir = newDir();
    createUser(dataDir, "cli-import@example.com", "pro");
    const file = join(dataDir, "big.json");
    writeFileSync(file, JSON.stringify(importDoc("cli", 3000)));
    const proc = Bun.spawn([...sourceCmd(), "import", file, "--email", "cli-import@example.com"], {
      cwd: ROOT,
      env: { ...process.env, IDEAREPO_DATA_DIR: dataDir },
      stdout: "pipe",
      stderr: "pipe",
    });
    // Killed once it reports progress: it is inside its one transaction, part-way through the rows.
    const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader();
    let seen = "";
    while (!/imported \d+\/3000/.test(seen)) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += new TextDecoder().decode(value);
    }
    expect(seen).toMatch(/imported \d+\/3000/);
    proc.kill("SIGKILL");
    expect(await proc.exited).not.toBe(0);

    expect(integrity(dataDir)).toBe("ok");
    const count = () => peekDb(dataDir, (db) => db.query<{ ideas: number; jobs: number; tags: number }, []>(
      "SELECT (SELECT count(*) FROM ideas) AS ideas, (SELECT count(*) FROM jobs) AS jobs, (SELECT count(*) FROM tags) AS tags",
    ).get()!);
    expect(count()).toEqual({ ideas: 0, jobs: 0, tags: 0 });

    const again = Bun.spawnSync([...sourceCmd(), "import", file, "--email", "cli-import@example.com"], {
      cwd: ROOT,
      env: { ...process.env, IDEAREPO_DATA_DIR: dataDir },
    });
    expect(again.exitCode).toBe(0);
    expect(JSON.parse(again.stdout.toString()).imported.ideas).toBe(3000);
    // Each imported idea is queued for its pass in the same transaction (the server embeds them when it runs).
    const after = count();
    expect(after.ideas).toBe(3000);
    expect(after.jobs).toBeGreaterThanOrEqual(3000);
    expect(integrity(dataDir)).toBe("ok");
  }, 60_000);
});
