// Semantic search while the pipeline embeds a large batch: each query is answered (by meaning, not the keyword
// fallback) while GET /health still reports embeddings pending, and afterwards every idea has its vector.
import { beforeAll, describe, expect, test } from "bun:test";
import { call, makeUser, type TestUser } from "../helpers";
import { capture, search, usePipelineApp } from "../pipeline-helpers";

const { t } = usePipelineApp();
let me: TestUser;
let cars = 0;

const SUBJECT = ["garden", "bread", "bicycle", "budget", "piano", "camping"];
const THING = ["planner", "checklist", "workshop", "tracker", "guide", "club"];
const AUDIENCE = ["for beginners", "for families"];
/**
 * 72 distinct ideas with a paragraph each, ~26,000 characters: 13 or more background model requests of at most
 * 2,000 characters (src/ml/batching.ts; before it, 8,000 characters made it 4).
 */
const BATCH = SUBJECT.flatMap((s) => THING.flatMap((th) => AUDIENCE.map((a) => ({
  title: `A ${s} ${th} ${a}`,
  body: `A ${th} about ${s} ${a}, put together by volunteers who meet on weekday evenings. It lists what to bring, ` +
    `who to ask, which mistakes are common at the start and how to avoid them, and where to find cheap supplies ` +
    `nearby. Members share notes after each meeting so newcomers can catch up on what was decided and what comes next.`,
}))));

/**
 * Searches answered while the batch is pending. A query jumps the queued requests and waits for the running one, so
 * about one is answered per request of the batch; before, a request held four times the text and only 2–3 were.
 */
const ANSWERS = 6;
const pending = async () => (await call(t, "GET", "/health")).body.embeddings.pending as number;

beforeAll(async () => {
  me = await makeUser(t, { plan: "pro" });
  cars = await capture(t, me, { title: "Automobile repair shop for vintage motorcars" });
  await t.drain();
  for (const idea of BATCH) await capture(t, me, idea);
});

describe("semantic search beside the pipeline's embedding batches", () => {
  test("queries are answered while embeddings are pending, and the batch is embedded in the end", async () => {
    expect(await pending()).toBe(BATCH.length);
    let drained = false;
    const draining = t.drain().then(() => (drained = true));
    // Pending as each answer arrived: the queries were answered between the batch's model requests, not after them.
    const pendingAtAnswer: number[] = [];
    while (!drained && pendingAtAnswer.at(-1) !== 0) {
      const r = await search(t, me, { q: "fixing old cars" });
      expect(r.status).toBe(200);
      expect(r.body.search_type).toBe("semantic");
      expect(r.body.results[0]?.id).toBe(cars);
      pendingAtAnswer.push(await pending());
    }
    await draining;
    const during = pendingAtAnswer.filter((n) => n > 0).length;
    expect(during, `pending at each answer: ${pendingAtAnswer.join(", ")}`).toBeGreaterThanOrEqual(ANSWERS);
    expect(await pending()).toBe(0);
    const list = await call(t, "GET", `/ideas?limit=20`, { key: me.key });
    for (const idea of list.body.ideas) expect((await call(t, "GET", `/ideas/${idea.id}`, { key: me.key })).body.vectorize_id).toEqual(expect.any(String));
  }, 180_000); // the batch is embedded at the model's pace: 23–59 s in CI (the runner's default is 60 s)
});
