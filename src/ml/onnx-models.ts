// User-provided ONNX models through transformers.js (onnxruntime-node): sentence-transformer embedders and cross-encoders.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { findModelFolder, type ModelFolder } from "./model-folder";
import { normalizeRows, type Embedder, type Reranker } from "./vectors";

type Transformers = typeof import("@huggingface/transformers");

let transformers: Promise<Transformers> | null = null;

/**
 * Imported lazily: USE-lite-only setups never load onnxruntime (~100 MB RSS). Remote loading is switched off before
 * any model is touched, so a missing file is an error, never a download.
 */
function loadTransformers(modelsDir: string): Promise<Transformers> {
  transformers ??= import("@huggingface/transformers");
  return transformers.then((t) => {
    t.env.allowRemoteModels = false;
    t.env.allowLocalModels = true;
    t.env.localModelPath = modelsDir.endsWith("/") ? modelsDir : `${modelsDir}/`;
    t.env.useFSCache = false;
    t.env.useBrowserCache = false;
    return t;
  });
}

export async function loadOnnxEmbedder(modelsDir: string, name: string): Promise<Embedder> {
  const folder = findModelFolder(modelsDir, name);
  const t = await loadTransformers(modelsDir);
  const extractor = await t.pipeline("feature-extraction", name, { dtype: folder.dtype, device: "cpu" });
  const pooling = readPooling(folder.dir);
  const probe = await extractor(["dimension probe"], { pooling, normalize: true });
  const dim = probe.dims[1];
  return {
    id: `onnx:${name}:${await hashFile(folder)}`,
    runtime: "onnxruntime-node",
    dim,
    embed: async (texts) => {
      const out = await extractor(texts, { pooling, normalize: true });
      return normalizeRows(Float32Array.from(out.data as Float32Array), texts.length, dim);
    },
    dispose: () => extractor.dispose(),
  };
}

export async function loadOnnxReranker(modelsDir: string, name: string): Promise<Reranker> {
  const folder = findModelFolder(modelsDir, name);
  const t = await loadTransformers(modelsDir);
  const [tokenizer, model] = await Promise.all([
    t.AutoTokenizer.from_pretrained(name),
    t.AutoModelForSequenceClassification.from_pretrained(name, { dtype: folder.dtype, device: "cpu" }),
  ]);
  return {
    score: async (query, docs) => {
      if (docs.length === 0) return [];
      const inputs = tokenizer(new Array(docs.length).fill(query), { text_pair: docs, padding: true, truncation: true });
      const { logits } = await model(inputs);
      const [rows, labels] = logits.dims as number[];
      const data = logits.data as Float32Array;
      // One logit: the relevance score itself. Two or more: log-odds of the last label ("relevant") over the first.
      return Array.from({ length: rows }, (_, r) =>
        labels === 1 ? data[r] : data[r * labels + labels - 1] - data[r * labels],
      );
    },
    dispose: async () => {
      await model.dispose();
    },
  };
}

/** sentence-transformers records its pooling in 1_Pooling/config.json; CLS-pooled models (e.g. bge) need "cls". */
function readPooling(dir: string): "mean" | "cls" {
  const path = join(dir, "1_Pooling", "config.json");
  if (!existsSync(path)) return "mean";
  try {
    return JSON.parse(readFileSync(path, "utf8")).pooling_mode_cls_token ? "cls" : "mean";
  } catch {
    return "mean";
  }
}

/** Part of the embedding identity: a different file under the same name must trigger a reindex. */
async function hashFile(folder: ModelFolder): Promise<string> {
  const hasher = new Bun.CryptoHasher("sha256");
  const stream = Bun.file(folder.modelFile).stream();
  for await (const chunk of stream) hasher.update(chunk);
  return hasher.digest("hex").slice(0, 16);
}
