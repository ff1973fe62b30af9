// ONNX models: inference speed through the product's model client vs bare onnxruntime-node, and the compiled
// binary's time to its first semantic answer (first start writes onnxruntime out, later starts reuse it) vs a checkout.
//
//   bun scripts/bench/onnx.ts [--rounds 5] [--no-binary]
//
// The models are random-weight BERT graphs in the exact shapes of published ones (test/fixtures/ml/make-minilm.ts):
// speed depends on the shape, not on the weights, and nothing is downloaded. They are fp32; the hub's int8 exports
// (model_quantized.onnx, what `models pull` prefers) run faster than these figures. Product and baseline alternate
// within each round, as the machine is shared.
import * as ort from "onnxruntime-node";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AutoTokenizer } from "@huggingface/transformers";
import { buildBinary } from "../build.ts";
import { startModels } from "../../src/ml/client";
import { writeModelFolder } from "../../test/fixtures/ml/make-minilm";
import { BUN, ROOT } from "./lib";

const rounds = Number(process.argv[process.argv.indexOf("--rounds") + 1]) || 5;
const SHORT = Array.from({ length: 32 }, (_, i) => `Idea ${i}: a small tool that helps neighbours share ${["drills", "ladders", "bikes", "books"][i % 4]} every week.`);
const ONE = "Build a tool that reminds me to water the plants.";
const PARAGRAPH = Array.from({ length: 10 }, () => "A neighbourhood tool library lends drills, ladders and garden equipment for a small yearly fee.").join(" ");

const SHAPES = [
  { label: "MiniLM-L6 shape (384-d, 6 layers)", hidden: 384, heads: 12, layers: 6, intermediate: 1536 },
  { label: "MiniLM-L12 / bge-small shape (384-d, 12 layers)", hidden: 384, heads: 12, layers: 12, intermediate: 1536 },
];

const dir = mkdtempSync(join(tmpdir(), "idearepo-bench-onnx-"));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

interface Pair {
  product: number[];
  raw: number[];
}
const pair = (): Pair => ({ product: [], raw: [] });
const line = (label: string, p: Pair, unit: "ms" | "texts/s", n = 1) => {
  const f = (xs: number[]) => (unit === "ms" ? `${median(xs).toFixed(1)} ms` : `${((n / median(xs)) * 1000).toFixed(0)} texts/s`);
  console.log(`| ${label} | ${f(p.product)} | ${f(p.raw)} | ${(median(p.product) / median(p.raw)).toFixed(2)}× |`);
};

console.log(`${navigator.hardwareConcurrency} cores, Bun ${Bun.version}, onnxruntime-node ${ort.env.versions.node}, ${rounds} rounds\n`);
console.log("| model · measurement | product (worker, transformers.js) | bare onnxruntime-node session | time, product / bare |");
console.log("|---|---|---|---|");
for (const [i, shape] of SHAPES.entries()) {
  const full = { ...shape, vocabSize: 30522, maxPositions: 512 };
  const embedder = `bench-embedder-${i}`;
  const reranker = `bench-reranker-${i}`;
  writeModelFolder(join(dir, embedder), full, "none", 1);
  writeModelFolder(join(dir, reranker), full, "cross-encoder", 2);
  const client = await startModels({ modelsDir: dir, embedModel: embedder, rerankModel: reranker });
  const tokenizer = await AutoTokenizer.from_pretrained(join(dir, embedder), { local_files_only: true });
  const sessions = {
    embed: await ort.InferenceSession.create(join(dir, embedder, "onnx", "model.onnx")),
    rerank: await ort.InferenceSession.create(join(dir, reranker, "onnx", "model.onnx")),
  };
  // Bare: tokenised in advance, one session.run, no pooling, no worker.
  const feeds = (texts: string[], pairs?: string[]) => {
    const enc = tokenizer(texts, { padding: true, truncation: true, ...(pairs ? { text_pair: pairs } : {}) });
    const t = (x: unknown) => {
      const { data, dims } = x as { data: BigInt64Array; dims: number[] };
      return new ort.Tensor("int64", data, dims);
    };
    return { input_ids: t(enc.input_ids), attention_mask: t(enc.attention_mask), token_type_ids: t(enc.token_type_ids) };
  };
  const cases = [
    { label: "batch of 32 short", n: 32, unit: "texts/s" as const, product: () => client.embed(SHORT), raw: feeds(SHORT), session: sessions.embed },
    { label: "one short sentence", n: 1, unit: "ms" as const, product: () => client.embed([ONE]), raw: feeds([ONE]), session: sessions.embed },
    { label: "~200-word paragraph", n: 1, unit: "ms" as const, product: () => client.embed([PARAGRAPH]), raw: feeds([PARAGRAPH]), session: sessions.embed },
    {
      label: "rerank 20 pairs",
      n: 20,
      unit: "ms" as const,
      product: () => client.rerank(ONE, SHORT.slice(0, 20)),
      raw: feeds(Array(20).fill(ONE), SHORT.slice(0, 20)),
      session: sessions.rerank,
    },
  ];
  for (const c of cases) {
    const p = pair();
    await c.product();
    await c.session.run(c.raw); // warm-up both
    for (let r = 0; r < rounds; r++) {
      p.product.push(await time(c.product));
      p.raw.push(await time(() => c.session.run(c.raw)));
    }
    line(`${shape.label} · ${c.label}`, p, c.unit, c.n);
  }
  await client.close();
  await sessions.embed.release();
  await sessions.rerank.release();
}

if (!process.argv.includes("--no-binary")) await binaryStarts();
rmSync(dir, { recursive: true, force: true });

/** Spawn → first `search_type: "semantic"` answer, with the MiniLM-L6-shaped embedder. */
async function binaryStarts(): Promise<void> {
  const built = await buildBinary({ outfile: join(dir, "idearepo") });
  console.log(`\nbinary: ${(built.bytes / 1_048_576).toFixed(1)} MB`);
  const dataDirs = { binary: join(dir, "data-binary"), checkout: join(dir, "data-checkout") };
  const env = { IDEAREPO_MODELS_DIR: dir, IDEAREPO_EMBED_MODEL: "bench-embedder-0", IDEAREPO_HOST: "127.0.0.1", IDEAREPO_PORT: "0" };
  const cmds = { binary: [built.outfile], checkout: [BUN, join(ROOT, "src/main.ts")] };
  const keys: Record<string, string> = {};
  for (const kind of ["binary", "checkout"] as const) {
    const out = Bun.spawnSync([...cmds[kind], "users", "create", "--email", "bench@example.com", "--plan", "pro"], { env: { ...process.env, ...env, IDEAREPO_DATA_DIR: dataDirs[kind] } });
    keys[kind] = JSON.parse(out.stdout.toString()).api_key;
  }
  const firstAnswer = async (kind: "binary" | "checkout"): Promise<number> => {
    const t0 = performance.now();
    const proc = Bun.spawn([...cmds[kind], "serve"], { env: { ...process.env, ...env, IDEAREPO_DATA_DIR: dataDirs[kind] }, stderr: "pipe", stdout: "ignore" });
    const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader();
    let buf = "";
    let base = "";
    while (!base) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`${kind} server exited:\n${buf}`);
      buf += new TextDecoder().decode(value);
      base = /"listen":"([^"]+)"/.exec(buf)?.[1] ?? "";
    }
    for (;;) {
      const res = await fetch(`${base}/api/v1/ideas/search?mode=semantic&q=bench`, { headers: { "x-api-key": keys[kind] } });
      if (((await res.json()) as { search_type?: string }).search_type === "semantic") break;
      await Bun.sleep(5);
    }
    const ms = performance.now() - t0;
    proc.kill("SIGTERM");
    await proc.exited;
    return ms;
  };
  const first = await firstAnswer("binary"); // writes onnxruntime (45 MB) under the data dir
  const p = pair();
  for (let r = 0; r < rounds; r++) {
    p.product.push(await firstAnswer("binary"));
    p.raw.push(await firstAnswer("checkout"));
  }
  console.log("\n| start → first semantic answer | binary | checkout (bun src/main.ts) | time, binary / checkout |");
  console.log("|---|---|---|---|");
  console.log(`| first start (writes onnxruntime out) | ${first.toFixed(0)} ms | | |`);
  line("later starts (reuse it)", p, "ms");
}
