// GET /health while an import is filed: its ideas are stored without their steps and judged by the re-scoring pass
// queued once the last of them is embedded, so /health must not say "nothing left" in between and then find more.
import { expect, test } from "bun:test";
import { call, makeUser } from "../helpers";
import { usePipelineApp } from "../pipeline-helpers";

const { t } = usePipelineApp();
const TOPICS = ["compost", "rain barrels", "seed saving", "bike repair", "bread starter", "solar dryer", "bee hotels", "mulch"];

test("once /health says nothing is pending or re-scoring during an import's pass, it stays so until the end", async () => {
  const u = await makeUser(t, { plan: "pro" });
  const ideas = Array.from({ length: 80 }, (_, i) => ({
    id: i + 1,
    title: `${TOPICS[i % TOPICS.length]} note ${i}`,
    body: `What I learned about ${TOPICS[i % TOPICS.length]} on day ${i}: keep it simple and write it down.`,
  }));
  const imported = await call(t, "POST", "/user/import", { key: u.key, body: { format: "idearepo-export", version: 1, ideas } });
  expect(imported.status).toBe(201);

  // /health read between every turn of the event loop while the pass runs (the pass yields to requests between ideas).
  const samples: Array<{ pending: number; rescoring: number }> = [];
  let done = false;
  const poller = (async () => {
    while (!done) {
      const e = (await call(t, "GET", "/health")).body.embeddings;
      samples.push({ pending: e.pending, rescoring: e.rescoring });
      await new Promise((r) => setImmediate(r));
    }
  })();
  for (let round = 0; round < 20; round++) {
    await t.drain();
    const e = (await call(t, "GET", "/health")).body.embeddings;
    if (e.pending === 0 && e.rescoring === 0) break;
  }
  done = true;
  await poller;

  const quiet = samples.findIndex((s) => s.pending === 0 && s.rescoring === 0);
  expect(samples.length).toBeGreaterThan(20);
  // Work was seen while it ran (the import's ideas pending, then re-scoring) ...
  expect(samples.some((s) => s.pending > 0)).toBe(true);
  expect(samples.some((s) => s.rescoring > 0)).toBe(true);
  // ... and the first quiet answer is the last word: nothing appears after it.
  expect(quiet).toBeGreaterThanOrEqual(0);
  expect(samples.slice(quiet).filter((s) => s.pending > 0 || s.rescoring > 0)).toEqual([]);
}, 120_000);
