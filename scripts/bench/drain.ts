// Background throughput and capture latency: a real server drains a 10k-idea backlog with the real model while a
// client keeps capturing. Printed beside the raw baselines measured in the same run: batched model throughput
// through the worker on the same texts, and capture latency on the idle server.
//
//   bun scripts/bench/drain.ts [--ideas 10000] [--raw-sample 2000]
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { startModels } from "../../src/ml/client";
import { ideaText } from "../../src/pipeline/embed";
import { tempDir } from "../../test/cli";
import { api } from "../../test/ops/harness";
import { parseSts } from "./stsb";
import { createIdeasService } from "../../src/modules/ideas/service";
import type { UserRow } from "../../src/modules/users/repo";
import { benchApp, benchUser, flag, ms, percentile } from "./search-lib";
import { requireStsbDir } from "./stsb-data";

const ROOT = resolve(import.meta.dir, "../..");
const N = Number(flag("--ideas", "10000"));
const RAW_SAMPLE = Number(flag("--raw-sample", "2000"));
/** A person capturing every 200 ms is far busier than any real one, and still a small load next to the drain. */
const CAPTURE_EVERY_MS = 200;

let seed = 7;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const sentences = [
  ...new Set(
    ["sts-dev.csv", "sts-test.csv"].flatMap((f) =>
      parseSts(readFileSync(join(requireStsbDir(), f), "utf8")).flatMap((p) => [p.a, p.b]),
    ),
  ),
];
const pick = () => sentences[Math.floor(rand() * sentences.length)];
const ideas = Array.from({ length: N }, () => ({ title: pick().slice(0, 200), body: rand() < 0.7 ? `${pick()} ${rand() < 0.5 ? pick() : ""}`.trim() : "" }));

/**
 * Runs `serve` with its log going to a file, not a pipe: parsing every request line while the drain runs would put
 * this process on the CPU the server's two threads need (the clients of a real server run elsewhere).
 */
async function serve(dir: string) {
  const logFile = join(dir, "server.log");
  const proc = Bun.spawn([process.execPath, join(ROOT, "src/main.ts"), "serve"], {
    cwd: ROOT,
    env: { ...process.env, IDEAREPO_DATA_DIR: dir, IDEAREPO_PORT: "0", IDEAREPO_HOST: "127.0.0.1", IDEAREPO_LOG_LEVEL: "info" },
    stdout: "ignore",
    stderr: Bun.file(logFile),
  });
  const logs = () => (existsSync(logFile) ? readFileSync(logFile, "utf8").split("\n").filter(Boolean) : []);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const line = logs().find((l) => l.includes('"idearepo started"'));
    if (line) return { proc, pid: proc.pid, base: String(JSON.parse(line).listen), logs };
    if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`server did not start:\n${logs().join("\n")}`);
    await Bun.sleep(50);
  }
}

const rssMb = (pid: number) => {
  const m = readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+) kB/);
  return m ? Number(m[1]) / 1024 : NaN;
};

// 1. Raw baseline: batched model throughput through the worker, on a sample of the very texts the pipeline embeds.
const model = await startModels({ modelsDir: join(ROOT, "models"), embedModel: "use-lite", rerankModel: null });
const sample = ideas.slice(0, RAW_SAMPLE).map((i) => ideaText(i.title, i.body));
await model.embed(sample.slice(0, 64)); // warm-up
const r0 = performance.now();
await model.embed(sample);
const rawPerSec = sample.length / ((performance.now() - r0) / 1000);
await model.close();
console.error(`raw model: ${rawPerSec.toFixed(0)} texts/s`);

// 2. Seed the backlog through the ideas service (the code behind POST /ideas, which queues a job with each capture;
// 10k HTTP requests would spend the account's daily request quota), with no pipeline running.
const dataDir = tempDir("idearepo-bench-drain-");
const seeded = await benchApp(join(dataDir, "idearepo.db"), null);
const user = await benchUser(seeded.deps, "pro");
const owner = { user: seeded.deps.db.query<UserRow, [string]>("SELECT * FROM users WHERE id = ?").get(user.id)!, plan: "pro" as const };
const ideasService = createIdeasService(seeded.deps);
for (const idea of ideas) await ideasService.create(owner, idea);
await seeded.close();
console.error(`seeded ${N} ideas`);

// 3. Start the server: its pipeline drains the backlog while a client captures every 200 ms.
const server = await serve(dataDir);
// Never leave the server behind, whatever fails below.
process.on("exit", () => server.proc.kill("SIGKILL"));
const started = performance.now();
const rssIdleModel = rssMb(server.pid);
const during: number[] = [];
let capturing = true;
const captureLoop = (async () => {
  let i = 0;
  while (capturing) {
    const t = performance.now();
    const r = await api(server.base, user.key, "POST", "/ideas", { title: `Captured during the drain ${i++}`, body: pick() });
    if (r.status !== 201) {
      console.error(`capture failed: ${r.status} ${r.text} after ${during.length}`);
      process.exit(1);
    }
    during.push(performance.now() - t);
    await Bun.sleep(CAPTURE_EVERY_MS);
  }
})();
let peakRss = rssIdleModel;
// processed = everything captured so far (the backlog plus the live captures) minus what is still pending.
const marks: Array<{ t: number; processed: number }> = [];
for (;;) {
  const h = (await api(server.base, null, "GET", "/health")).body.embeddings;
  marks.push({ t: performance.now(), processed: h.total - h.pending });
  peakRss = Math.max(peakRss, rssMb(server.pid));
  if (h.pending === 0) break;
  await Bun.sleep(500);
}
const finished = performance.now();
capturing = false;
await captureLoop;
// The server's own view of the same requests (handler time, from its request log), to tell queueing from handling.
const handlerMs = (from: number) =>
  server.logs().slice(from).flatMap((l) => {
    try {
      const e = JSON.parse(l);
      return e.msg === "request" && e.method === "POST" && e.status === 201 ? [e.duration_ms as number] : [];
    } catch {
      return [];
    }
  });
const duringHandler = handlerMs(0);
const idleLogFrom = server.logs().length;
const total = N + during.length;
const overall = total / ((finished - started) / 1000);
// Steady state: from 10% to 90% of the work, so start-up and the tail do not blur the rate.
const at = (frac: number) => marks.find((m) => m.processed >= total * frac)!;
const steady = (at(0.9).processed - at(0.1).processed) / ((at(0.9).t - at(0.1).t) / 1000);

// 4. Baseline: the same captures on the now idle server.
const idle: number[] = [];
for (let i = 0; i < 200; i++) {
  const t = performance.now();
  await api(server.base, user.key, "POST", "/ideas", { title: `Captured when idle ${i}`, body: pick() });
  idle.push(performance.now() - t);
  await Bun.sleep(CAPTURE_EVERY_MS);
}
const idleHandler = handlerMs(idleLogFrom);
// Let the pipeline take those too before reading the idle RSS.
await Bun.sleep(3000);
const rssAfter = rssMb(server.pid);
server.proc.kill("SIGTERM");
await server.proc.exited;
rmSync(dataDir, { recursive: true, force: true });

console.log(`\nBackground pipeline, ${N} ideas (STS-B sentences; 70% with a body), real server, model ${model.embedModelId}`);
console.log("| measurement | product | raw baseline | baseline | ratio |");
console.log("|---|---|---|---|---|");
console.log(`| ideas fully processed per second, steady state (10%→90%) | ${steady.toFixed(0)}/s | batched model throughput, same texts, through the worker | ${rawPerSec.toFixed(0)}/s | ${(steady / rawPerSec * 100).toFixed(0)}% |`);
console.log(`| ideas fully processed per second, whole drain | ${overall.toFixed(0)}/s | | | ${(overall / rawPerSec * 100).toFixed(0)}% |`);
console.log(`| POST /ideas p50 during the drain (${during.length} captures) | ${ms(percentile(during, 50))} | POST /ideas p50, idle server | ${ms(percentile(idle, 50))} | |`);
console.log(`| POST /ideas p99 during the drain | ${ms(percentile(during, 99))} | POST /ideas p99, idle server | ${ms(percentile(idle, 99))} | |`);
console.log(`| POST /ideas max during the drain | ${ms(Math.max(...during))} | max, idle | ${ms(Math.max(...idle))} | |`);
console.log(`| POST /ideas handler time p99 during the drain (server log) | ${ms(percentile(duringHandler, 99))} | handler time p99, idle | ${ms(percentile(idleHandler, 99))} | |`);
console.log(`| server RSS, model loaded, at start | ${rssIdleModel.toFixed(0)} MB | | | |`);
console.log(`| server RSS, peak during the drain | ${peakRss.toFixed(0)} MB | | | |`);
console.log(`| server RSS, after the drain | ${rssAfter.toFixed(0)} MB | | | |`);
