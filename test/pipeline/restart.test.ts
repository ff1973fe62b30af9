// Crash safety of the background pipeline on a real server process: kill -9 in the middle of a backlog, restart,
// and every idea still ends up embedded; GET /health shows the backlog shrinking.
import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { dataDirStore, tempDir } from "../cli";
import { api, createUser, listAllIdeas, startServer, waitForQuiescence, type ServerProcess } from "../ops/harness";

const dirs: string[] = [];
const servers: ServerProcess[] = [];
afterAll(() => {
  for (const s of servers) s.proc.kill("SIGKILL");
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function serve(dataDir: string) {
  const s = await startServer({ dataDir, timeoutMs: 30_000 });
  servers.push(s);
  return s;
}

const health = async (base: string) => (await api(base, null, "GET", "/health")).body.embeddings as { pending: number; total: number };

async function peek(dataDir: string) {
  const db = dataDirStore(dataDir, { readonly: true });
  try {
    return (await db
      .query<{ unembedded: number; locked: number }, []>(
        `SELECT (SELECT count(*) FROM ideas WHERE vectorize_id IS NULL) AS unembedded,
                (SELECT count(*) FROM jobs WHERE locked_at IS NOT NULL) AS locked`,
      )
      .get())!;
  } finally {
    await db.close();
  }
}

describe("restart during a backlog", () => {
  test("kill -9 mid-backlog, restart: nothing is lost, every idea ends with a vector", async () => {
    const dataDir = tempDir("idearepo-pipeline-");
    dirs.push(dataDir);
    const key = createUser(dataDir, "crash@example.com", "pro");
    const first = await serve(dataDir);
    const N = 400;
    const topics = ["bike", "garden", "coffee", "taxes", "chess", "music", "travel", "cooking"];
    await Promise.all(
      Array.from({ length: 4 }, async (_, w) => {
        for (let i = w; i < N; i += 4) {
          const r = await api(first.base, key, "POST", "/ideas", {
            title: `Idea ${i} about ${topics[i % topics.length]}`,
            body: `Some words on ${topics[(i * 7) % topics.length]} number ${i}.`,
          });
          expect(r.status).toBe(201);
        }
      }),
    );
    // Wait until the worker is visibly part-way through, then kill it without warning.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const h = await health(first.base);
      expect(h.total).toBe(N);
      if (h.pending < N) break;
      if (Date.now() > deadline) throw new Error("the backlog never started draining");
      await Bun.sleep(20);
    }
    await first.kill9();
    const atKill = await peek(dataDir);
    expect(atKill.unembedded).toBeGreaterThan(0);
    expect(atKill.unembedded).toBeLessThan(N);

    const second = await serve(dataDir);
    const until = Date.now() + 60_000;
    while ((await health(second.base)).pending > 0) {
      if (Date.now() > until) throw new Error(`backlog not drained after restart: ${JSON.stringify(await health(second.base))}`);
      await Bun.sleep(100);
    }
    // The calibration moved with the backlog, so a re-scoring pass over every idea follows: seconds on SQLite, ~45 s
    // on PostgreSQL's round trips on a loaded 2-core machine (scripts/test.ts runs this file there too).
    // In CI that pass once held 163 claims unchanged for over 90 s at load ~15 (cause not seen: 34 s here alone):
    // 180 s, and a failure now names the jobs left, their kind and their holder.
    await waitForQuiescence(dataDir, 180_000);
    const ideas = await listAllIdeas(second.base, key);
    expect(ideas).toHaveLength(N);
    expect(ideas.filter((i) => i.vectorize_id === null)).toEqual([]);
    expect(await peek(dataDir)).toEqual({ unembedded: 0, locked: 0 });
    // And the ideas are searchable by meaning.
    const r = await api(second.base, key, "GET", `/ideas/search?q=${encodeURIComponent("bicycle")}&limit=5`);
    expect(r.body.search_type).toBe("semantic");
    expect(r.body.results.length).toBeGreaterThan(0);
    expect(await second.stop()).toBe(0);
  }, 330_000);
});
