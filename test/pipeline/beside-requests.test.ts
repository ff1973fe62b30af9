// The background pass beside requests: while a large batch of captures from several accounts is processed, list
// requests and new captures are answered between the ideas' passes, not after the whole batch; and the batch's
// results (vectors; auto-tags only from the account's own vocabulary) are all there once it is drained.
import { beforeAll, describe, expect, test } from "bun:test";
import { call, makeUser, type TestUser } from "../helpers";
import { capture, usePipelineApp } from "../pipeline-helpers";

const { t } = usePipelineApp();

const SUBJECT = ["garden", "bread", "bicycle", "budget", "piano", "camping"];
const THING = ["planner", "checklist", "workshop", "tracker", "guide", "club", "kit", "map"];
const AUDIENCE = ["for beginners", "for families"];
/** 96 distinct short ideas over six subjects (near-copies would turn the pass into duplicate detection only). */
const TITLES = SUBJECT.flatMap((s) => THING.flatMap((th) => AUDIENCE.map((a) => `A ${s} ${th} ${a}`)));

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe("a large batch of captures beside requests", () => {
  const users: TestUser[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 4; i++) {
      const u = await makeUser(t, { plan: "pro" });
      for (const name of ["gardening", "baking", "cycling", "money", "music", "outdoors"]) {
        expect((await call(t, "POST", "/tags", { key: u.key, body: { name } })).status).toBe(201);
      }
      users.push(u);
    }
    await t.drain(); // the tags' embeddings
    for (const [i, title] of TITLES.entries()) await capture(t, users[i % users.length], { title });
  });

  test("lists and captures are answered between the passes, and every idea is processed", async () => {
    const runner = t.service.runner()!;
    const before = runner.processedCount();
    let done = false;
    const draining = t.drain().then(() => (done = true));
    // What the runner had processed when each answer arrived: answers spread over the batch, not bunched after it.
    const seen: number[] = [];
    for (let i = 0; !done; i++) {
      const u = users[i % users.length];
      // A few captures too (a capture adds a job the drain then takes as well: a bounded number, so it ends).
      const capturing = i % 10 === 9 && i < 50;
      const r = capturing ? await call(t, "POST", "/ideas", { key: u.key, body: { title: `Captured during the batch ${i}` } }) : await call(t, "GET", "/ideas?limit=20", { key: u.key });
      expect(r.status).toBe(capturing ? 201 : 200);
      if (!done) seen.push(runner.processedCount() - before);
      await tick();
    }
    await draining;
    const total = runner.processedCount() - before;
    expect(total).toBeGreaterThanOrEqual(TITLES.length);
    const during = new Set(seen.filter((n) => n > 0 && n < TITLES.length));
    // At least ten different points inside the batch saw an answer: requests were not held until it ended.
    expect(during.size, `answers arrived at processed counts ${[...new Set(seen)].join(", ")} of ${total}`).toBeGreaterThanOrEqual(10);
  }, 120_000);

  test("after the batch every idea has its vector, and any auto-tag is of the account's own vocabulary", async () => {
    await t.drain();
    for (const u of users) {
      const list = await call(t, "GET", "/ideas?limit=100", { key: u.key });
      expect(list.status).toBe(200);
      expect(list.body.ideas.length).toBeGreaterThanOrEqual(TITLES.length / users.length);
      const own = new Set(["gardening", "baking", "cycling", "money", "music", "outdoors"]);
      for (const idea of list.body.ideas) {
        const full = (await call(t, "GET", `/ideas/${idea.id}`, { key: u.key })).body;
        expect(full.vectorize_id, `idea ${idea.id} "${full.title}"`).toEqual(expect.any(String));
        for (const tag of full.tags) expect(own.has(tag)).toBe(true);
      }
    }
  });
});
