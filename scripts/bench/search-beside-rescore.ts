// Semantic search during re-scoring passes against the same searches on the idle server (same data, same run).
//
//   bun scripts/bench/search-beside-rescore.ts [--runs 2] [--waves 3] [--accounts 9] [--seed 40]
//
// Each run: a fresh data dir, --accounts Pro accounts with --seed captures each (that tree's `users create`, its
// scripts/bench/app-server.ts), drained and settled (no embedding pending, nothing re-scoring, no subjects fit). Then
// --waves times: 30 semantic searches one after another on the idle server (the raw baseline), then captures of a
// further 28% of each account, so every account's calibration moves (src/pipeline/rescore.ts: 25%) and, once their
// embeddings are stored, a re-scoring pass is queued for each (every idea's full pass again, no model work), and
// semantic searches one after another while GET /health reports ideas re-scoring (at most 60). This is the soak's
// late-pass pattern: its accounts grow in step, so their re-scoring passes come together (docs/reliability.md).
import { mkdirSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { BUN, flag, fmtMs, machine, quantile, ROOT, spawnServer, tempDir, type Child, apiJson as req } from "./lib";

const RUNS = flag("runs", 2);
const WAVES = flag("waves", 3);
const ACCOUNTS = flag("accounts", 9);
const SEED = flag("seed", 40);
const log = (s: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${s}`);
const work = tempDir("idearepo-bench-search-rescore-");

const WORDS = ["solar", "garden", "bike", "coffee", "music", "chess", "travel", "tax", "kitchen", "robot", "river", "paper"];
let seq = 0;
const words = (n: number) => Array.from({ length: n }, () => WORDS[(seq++ * 7) % WORDS.length]).join(" ");

interface Run { side: string; idle: number[]; rescoring: number[]; load: number }

async function run(side: string, tree = ROOT): Promise<Run> {
  const dir = join(work, `data-${side}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  let server: Child | null = null;
  try {
    const env = { ...process.env, IDEAREPO_DATA_DIR: dir };
    const keys: string[] = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      const created = Bun.spawnSync([BUN, join(tree, "src/main.ts"), "users", "create", "--email", `bench${i}@example.com`, "--plan", "pro"], { cwd: tree, env });
      if (created.exitCode !== 0) throw new Error(`users create: ${created.stderr}`);
      keys.push(JSON.parse(created.stdout.toString()).api_key as string);
    }
    server = await spawnServer([BUN, join(tree, "scripts/bench/app-server.ts"), "serve"], { IDEAREPO_DATA_DIR: dir, IDEAREPO_PORT: "0" }, join(dir, "server.log"));
    const base = server.base;
    const health = async () => (await req(base, "", "GET", "/health")).embeddings;
    const capture = (n: number) => Promise.all(keys.map(async (key) => {
      for (let i = 0; i < n; i++) await req(base, key, "POST", "/ideas", { title: `Idea ${words(3)} ${i}`, body: words(20), tags: [WORDS[seq % WORDS.length]] });
    }));
    const settled = async () => {
      for (;;) {
        const h = await health();
        if (h.pending === 0 && h.rescoring === 0 && h.subjects_fitting === 0) return;
        await Bun.sleep(200);
      }
    };
    const search = async (i: number) => {
      const t0 = performance.now();
      const r = await req(base, keys[i % keys.length], "GET", `/ideas/search?q=${encodeURIComponent(`${WORDS[i % 12]} ${WORDS[(i * 5) % 12]}`)}`);
      if (r.search_type !== "semantic") throw new Error(`${side}: search answered with ${r.search_type}`);
      return performance.now() - t0;
    };
    await capture(SEED);
    await settled();
    const idle: number[] = [];
    const rescoring: number[] = [];
    let size = SEED;
    for (let w = 0; w < WAVES; w++) {
      for (let i = 0; i < 30; i++) idle.push(await search(i));
      const more = Math.ceil(size * 0.28);
      await capture(more);
      size += more;
      // Embedded: the accounts' re-scoring passes are queued by then (or were already run, on a fast machine).
      for (let h = await health(); h.pending > 0; h = await health()) await Bun.sleep(20);
      for (let i = 0; i < 60 && (await health()).rescoring > 0; i++) rescoring.push(await search(i));
      await settled();
    }
    return { side, idle, rescoring, load: loadavg()[0] };
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const q = quantile;
const f = fmtMs;
const stat = (xs: number[]) => (xs.length ? `${f(q(xs, 0.5))} / ${f(q(xs, 0.9))} / ${f(Math.max(...xs))} ms (${xs.length})` : "none (nothing re-scored when searched)");

const runs: Run[] = [];
try {
  for (let i = 0; i < RUNS; i++) {
    const one = await run(`run ${i + 1}`);
    log(`${one.side}: idle ${stat(one.idle)}; re-scoring ${stat(one.rescoring)}; load ${one.load.toFixed(1)}`);
    runs.push(one);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

console.log(`\nSemantic search during re-scoring passes (${ACCOUNTS} accounts of ${SEED}+ ideas, ${WAVES} waves a run), ${machine()}`);
console.log("| run | idle server (raw baseline): p50 / p90 / max (searches) | the same searches during re-scoring | load avg (1 min) at the run's end |");
console.log("|---|---|---|---|");
for (const r of runs) console.log(`| ${r.side} | ${stat(r.idle)} | ${stat(r.rescoring)} | ${r.load.toFixed(1)} |`);
