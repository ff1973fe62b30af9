// Raw model inference speed: load, batch of 32 short sentences, one short sentence, one ~200-word paragraph.
//
//   bun scripts/bench/model.ts                     USE-lite: in-thread (tfjs wasm) vs through the worker
//   bun scripts/bench/model.ts --cpu               also the pure-JS tfjs cpu backend, and its cosine vs wasm
//   bun scripts/bench/model.ts --onnx NAME [--models-dir DIR] [--rerank NAME]   an ONNX model from the models folder
//
// Each in-thread measurement runs in its own child process, so backends and RSS figures do not mix.
import { cosine, startModels, type ModelClient } from "../../src/ml/client";
import { loadUseLite, type TfBackend } from "../../src/ml/use-lite";
import { resolveUseLiteFiles } from "../../src/ml/use-lite-files";

const SHORT = Array.from({ length: 32 }, (_, i) => {
  const subjects = ["A small team", "The city council", "My neighbour", "A new startup", "The library", "Our school", "A local bakery", "The museum"];
  const actions = ["wants to launch", "is planning", "could build", "should try"];
  const objects = ["a weekly repair cafe.", "an app for sharing tools.", "a rooftop garden.", "free coding classes."];
  return `${subjects[i % 8]} ${actions[Math.floor(i / 8) % 4]} ${objects[(i * 3) % 4]}`;
});
const ONE = "Build a tool that reminds me to water the plants.";
const PARAGRAPH = `An idea for a neighbourhood tool library that lends drills, ladders, sewing machines and garden equipment to
residents for a small yearly fee. Most households own tools they use only a few times a year, and buying them is
expensive for people who rent small flats without storage space. The library would run from an unused shop front,
staffed by volunteers two evenings a week and on Saturday mornings. Members reserve items online, pick them up with a
membership card, and return them within a week. A simple web app tracks the inventory, sends reminders before items
are due, and records repairs so broken tools are fixed before the next loan. Workshops on basic repairs, bicycle
maintenance and safe use of power tools would bring people in and build a community around the space. Funding could
come from a council grant for the first year, membership fees afterwards, and donations of tools from people who are
moving house. Success would be measured by the number of active members, loans per month, and how many tools are kept
out of landfill. Later the same model could extend to camping gear, kitchen appliances for parties, and children's
toys, and partner libraries in nearby districts could share a catalogue so members can borrow across the city.`.replace(/\s+/g, " ");

interface Measurement {
  label: string;
  loadMs: number;
  batchPerSec: number;
  oneMs: number;
  paragraphMs: number;
  rssMb: number;
  vectors?: number[][];
}

type EmbedFn = (texts: string[]) => Promise<unknown>;

async function median(runs: number, fn: () => Promise<unknown>): Promise<number> {
  await fn();
  await fn(); // warm-up: first calls compile kernels / allocate arenas
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

async function measure(label: string, loadMs: number, embed: EmbedFn): Promise<Measurement> {
  const batchMs = await median(7, () => embed(SHORT));
  const oneMs = await median(21, () => embed([ONE]));
  const paragraphMs = await median(11, () => embed([PARAGRAPH]));
  return { label, loadMs, batchPerSec: (SHORT.length / batchMs) * 1000, oneMs, paragraphMs, rssMb: process.memoryUsage().rss / 1e6 };
}

/** Child mode: USE-lite on one tfjs backend in this thread; prints the measurement as JSON. */
async function runDirect(backend: TfBackend): Promise<void> {
  const t = performance.now();
  const model = await loadUseLite(resolveUseLiteFiles(), backend);
  const loadMs = performance.now() - t;
  const m = await measure(`USE-lite in-thread (tfjs ${backend})`, loadMs, (texts) => model.embed(texts));
  const flat = await model.embed([...SHORT, PARAGRAPH]);
  m.vectors = Array.from({ length: SHORT.length + 1 }, (_, i) => Array.from(flat.subarray(i * 512, (i + 1) * 512)));
  console.log(JSON.stringify(m));
}

async function runChild(backend: TfBackend): Promise<Measurement> {
  const child = Bun.spawn([process.execPath, import.meta.path, "--child", backend], { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(`${backend} child failed:\n${err}`);
  return JSON.parse(out.trim().split("\n").at(-1)!);
}

/** Worker path, measured in this process: load includes spawning the worker; RSS is the whole process (both threads). */
async function runWorker(label: string, options: Parameters<typeof startModels>[0]): Promise<[Measurement, ModelClient]> {
  const t = performance.now();
  const client = await startModels(options);
  const loadMs = performance.now() - t;
  return [await measure(label, loadMs, (texts) => client.embed(texts)), client];
}

function printTable(rows: Measurement[]): void {
  console.log("| setup | load | batch of 32 short | one short sentence | ~200-word paragraph | RSS |");
  console.log("|---|---|---|---|---|---|");
  for (const r of rows) {
    console.log(
      `| ${r.label} | ${r.loadMs.toFixed(0)} ms | ${r.batchPerSec.toFixed(0)} texts/s | ${r.oneMs.toFixed(1)} ms | ${r.paragraphMs.toFixed(1)} ms | ${r.rssMb.toFixed(0)} MB |`,
    );
  }
}

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (process.argv[2] === "--child") {
  await runDirect(process.argv[3] as TfBackend);
  process.exit(0);
}

const onnx = flag("--onnx");
const modelsDir = flag("--models-dir") ?? "models";
console.log(`${navigator.hardwareConcurrency} cores, Bun ${Bun.version}\n`);

if (onnx) {
  const rerank = flag("--rerank") ?? null;
  const [m, client] = await runWorker(`${onnx} via worker (onnxruntime-node)`, { modelsDir, embedModel: onnx, rerankModel: rerank });
  printTable([m]);
  if (rerank) {
    const docs = SHORT.slice(0, 20);
    const ms = await median(7, () => client.rerank(ONE, docs));
    console.log(`\nrerank 20 pairs with ${rerank}: ${ms.toFixed(1)} ms`);
  }
  await client.close();
} else {
  const direct = await runChild("wasm");
  const [viaWorker, client] = await runWorker("USE-lite via worker (tfjs wasm)", { modelsDir, embedModel: "use-lite", rerankModel: null });
  await client.close();
  const rows = [direct, viaWorker];
  if (process.argv.includes("--cpu")) rows.push(await runChild("cpu"));
  printTable(rows);
  const reference = rows.find((r) => r.label.includes("cpu"));
  if (reference?.vectors && direct.vectors) {
    const sims = direct.vectors.map((v, i) => cosine(v, reference.vectors![i]));
    console.log(`\nwasm vs cpu vectors: min cosine ${Math.min(...sims).toFixed(6)} over ${sims.length} texts`);
  }
}
