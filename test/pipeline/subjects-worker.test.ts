// The duplicate score's subjects (src/vectors/subjects.ts) are fitted in a worker of their own: while a large-ish
// account's fit runs, requests are answered. The condition is observed, not timed: GET /health counts the ideas of
// fits under way in the worker (embeddings.subjects_fitting), so a request that sees it above zero was answered during
// a fit; a fit on the event loop could never be seen by one.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { directoryInput } from "../../src/modules/import/inputs";
import { createImportService } from "../../src/modules/import/service";
import { makeRandom } from "../fixtures/random";
import { call, makeUser } from "../helpers";
import { usePipelineApp } from "../pipeline-helpers";

/** Ideas in the account: its fit (40 subjects, 5 rounds over 1,000 × 512 dimensions) is ~100 million products. */
const IDEAS = 1_000;
const WORDS = ("garden river paper lamp window market engine cloud music bridge letter winter forest pocket ladder " +
  "kitchen harbor signal mirror candle station orchard blanket compass rocket pencil island meadow castle violin " +
  "tunnel basket canvas anchor lantern feather puzzle bottle saddle marble cotton thunder velvet pebble").split(" ");

describe("the subjects fit runs beside requests", () => {
  const { t } = usePipelineApp();

  test("while a large-ish account's subjects are fitted, GET /health and GET /ideas are answered", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const random = makeRandom(7);
    const pick = () => WORDS[Math.floor(random() * WORDS.length)];
    const dir = mkdtempSync(join(tmpdir(), "idearepo-fit-"));
    for (let i = 0; i < IDEAS; i++) writeFileSync(join(dir, `n${i}.md`), `---\ntitle: ${pick()} ${pick()} ${pick()} ${i}\n---\n${pick()} ${pick()} ${pick()} ${pick()}\n`);
    await createImportService(t.deps).importInput(u.id, "pro", directoryInput(dir), { from: "markdown" });
    rmSync(dir, { recursive: true, force: true });

    // The background pass: the import's vectors, then the re-scoring pass, whose first idea waits for the fit. Once a
    // list request was answered during the fit and the fit is over, the pipeline is stopped: the rest of the pass
    // (every idea's steps, most of this test's time before) shows nothing more about the fit.
    let drained = false;
    const drain = t.drain().finally(() => (drained = true));
    let seenFitting = 0;
    let listsDuringFit = 0;
    let now = 0;
    const log: string[] = [];
    const fitting = async () => (await call(t, "GET", "/health")).body.embeddings.subjects_fitting as number;
    while (!drained && !(listsDuringFit > 0 && now === 0)) {
      const before = (now = await fitting());
      if (before > 0) {
        seenFitting = Math.max(seenFitting, before);
        // A few list requests (the API's rate limit counts them), each between two /health reads.
        if (listsDuringFit < 3) {
          const list = await call(t, "GET", "/ideas?limit=5", { key: u.key });
          const after = (now = await fitting());
          expect(list.status, list.text).toBe(200);
          expect(list.body.ideas.length).toBe(5);
          log.push(`${before}/${after}`);
          if (after > 0) listsDuringFit++;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 2)); // pacing: the pass gets the loop too
    }
    await t.service.stop(); // after the batch in hand; the queued rest is released
    await drain;

    const why = `subjects_fitting before/after each list request during a fit: ${log.join(", ") || "none seen"}`;
    // The whole account's ideas were in the fit, a list request came back between two /health reads during it, and
    // the fit was over once its answer came back.
    expect(seenFitting, why).toBe(IDEAS);
    expect(listsDuringFit, why).toBeGreaterThan(0);
    expect((await call(t, "GET", "/health")).body.embeddings.subjects_fitting, why).toBe(0);
    // 1,000 ideas embedded and fitted: 43–73 s alone on either store, past 120 s beside other suites at load 15–20.
  }, 600_000);
});
