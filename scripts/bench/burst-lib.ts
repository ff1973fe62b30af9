// Semantic searches sent at a fixed rate while a burst of captures is embedded: shared by search-beside-burst.ts (this
// tree against a baseline revision) and search-web-worker.ts (web + worker nodes against one `all` node).
import { apiJson as req } from "./lib";

const SUBJECTS = ["garden", "bread", "bicycle", "budget", "piano", "camping", "kitchen", "library", "market", "school", "podcast", "repair"];
const THINGS = ["planner", "checklist", "workshop", "tracker", "guide", "club", "kit", "map", "newsletter", "swap"];
const QUERIES = ["fixing old cars", "learning to bake at home", "saving money every month", "tents and sleeping bags", "teaching kids music", "sharing tools with neighbours"];

/** Idea number i: a title and a paragraph, varied enough that the burst is not a pile of near-copies. */
const idea = (i: number) => {
  const s = SUBJECTS[i % SUBJECTS.length], th = THINGS[Math.floor(i / SUBJECTS.length) % THINGS.length];
  return {
    title: `A ${s} ${th} number ${i}`,
    body: `A ${th} about ${s}, put together by volunteers who meet on weekday evenings. It lists what to bring, who to ` +
      `ask, which mistakes are common at the start and how to avoid them, and where to find cheap supplies nearby.`,
  };
};

/** Captures ideas from..from+n-1, 16 in flight. */
async function captureAll(base: string, key: string, from: number, n: number): Promise<void> {
  let next = from;
  await Promise.all(Array.from({ length: 16 }, async () => {
    while (next < from + n) await req(base, key, "POST", "/ideas", idea(next++));
  }));
}

const pending = async (base: string) => (await req(base, "", "GET", "/health")).embeddings.pending as number;
async function drained(base: string, timeoutS = 1800): Promise<void> {
  const t0 = performance.now();
  while ((await pending(base)) > 0) {
    if (performance.now() - t0 > timeoutS * 1000) throw new Error("the embeddings did not drain");
    await Bun.sleep(100);
  }
}

export interface BurstOptions {
  /** Ideas captured and drained first, so searches have vectors. */
  seed: number;
  burst: number;
  /** One semantic search sent every this many ms while the burst is embedded. */
  everyMs: number;
  label: string;
  log: (line: string) => void;
}

/**
 * Seeds, warms up, then sends the burst while searching at a fixed rate whatever the searches' latency (open loop, so
 * both sides of a comparison search as often and their drain times compare), each timed from when it was sent, until
 * GET /health reports nothing pending after the burst.
 */
export async function searchBesideBurst(base: string, key: string, o: BurstOptions): Promise<{ searches: number[]; drainS: number }> {
  await captureAll(base, key, 0, o.seed);
  await drained(base);
  const search = async (i: number) => {
    const t0 = performance.now();
    const r = await req(base, key, "GET", `/ideas/search?mode=semantic&q=${encodeURIComponent(QUERIES[i % QUERIES.length])}`);
    if (r.search_type !== "semantic") throw new Error(`${o.label}: search answered with ${r.search_type}`);
    return performance.now() - t0;
  };
  for (let i = 0; i < 12; i++) await search(i); // warm-up

  o.log(`${o.label}: burst of ${o.burst} captures`);
  const t0 = performance.now();
  let posted = false;
  const burst = captureAll(base, key, o.seed, o.burst).then(() => (posted = true));
  let done = false;
  const watching = (async () => {
    while (!done) {
      if (posted && (await pending(base)) === 0) done = true;
      else await Bun.sleep(100);
    }
  })();
  const sent: Promise<number>[] = [];
  for (let i = 0; !done; i++) {
    sent.push(search(i));
    await Bun.sleep(o.everyMs);
  }
  await Promise.all([burst, watching]);
  return { searches: await Promise.all(sent), drainS: (performance.now() - t0) / 1000 };
}
