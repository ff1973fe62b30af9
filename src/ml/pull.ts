// `models pull`: downloads an ONNX model from a Hugging Face–style host into the models folder, all or nothing.
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { isValidModelName } from "./model-folder";

export { listModels, type ListedModel } from "./model-folder";

export const DEFAULT_BASE_URL = "https://huggingface.co";

const REQUIRED = ["config.json", "tokenizer.json", "tokenizer_config.json"];
/** Tried in order; the first that exists is downloaded (the int8 export is smaller and faster on CPU). */
const MODEL_CANDIDATES = ["onnx/model_quantized.onnx", "onnx/model.onnx"];
/** Nice to have: special tokens for older tokenizers, and sentence-transformers' pooling mode (cls vs mean). */
const OPTIONAL = ["special_tokens_map.json", "1_Pooling/config.json"];

export interface PullProgress {
  /** Path inside the model folder, e.g. "onnx/model_quantized.onnx". */
  file: string;
  /** Bytes of this file received so far. */
  received: number;
  /** Size of this file from Content-Length, or null when the server does not say. */
  size: number | null;
  /** Bytes of all files received so far. */
  totalReceived: number;
}

export interface PullOptions {
  /** Hub repo name, e.g. "Xenova/all-MiniLM-L6-v2"; also the folder name under modelsDir. */
  name: string;
  baseUrl?: string;
  modelsDir: string;
  onProgress?: (progress: PullProgress) => void;
}

export interface PullResult {
  name: string;
  dir: string;
  files: { file: string; bytes: number }[];
  bytes: number;
}

/**
 * Fetches `<baseUrl>/<name>/resolve/main/<file>` for each file into a hidden staging folder next to the target and
 * renames it into place at the end, so the models folder never holds a half-downloaded model, and a re-pull
 * replaces the old copy only once the new one is complete.
 */
export async function pullModel(options: PullOptions): Promise<PullResult> {
  const { name, modelsDir, onProgress } = options;
  if (!isValidModelName(name)) throw new Error(`invalid model name "${name}": use "name" or "owner/name", as on the hub`);
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
  const target = join(modelsDir, name);
  mkdirSync(dirname(target), { recursive: true });
  const staging = join(dirname(target), `.pull-${name.split("/").pop()}-${process.pid}-${Date.now()}`);
  const files: PullResult["files"] = [];
  let totalReceived = 0;

  const download = async (file: string, required: boolean): Promise<boolean> => {
    const url = `${baseUrl}/${name}/resolve/main/${file}`;
    let response: Response;
    try {
      response = await fetch(url, { redirect: "follow" });
    } catch (error) {
      throw new Error(`could not reach ${baseUrl} to download ${name}: ${error instanceof Error ? error.message : error}`);
    }
    if (response.status === 404 && !required) return false;
    if (response.status === 404 && file === "config.json") {
      throw new Error(`model ${name} not found at ${baseUrl} (HTTP 404 for ${url}); check the name, e.g. Xenova/all-MiniLM-L6-v2`);
    }
    if (!response.ok || !response.body) throw new Error(`download of ${url} failed: HTTP ${response.status}`);

    // With Content-Encoding, Content-Length counts compressed bytes while fetch hands us decoded ones.
    const encoded = response.headers.has("content-encoding");
    const size = encoded ? null : Number(response.headers.get("content-length")) || null;
    const path = join(staging, file);
    mkdirSync(dirname(path), { recursive: true });
    const writer = Bun.file(path).writer();
    let received = 0;
    for await (const chunk of response.body) {
      writer.write(chunk);
      received += chunk.length;
      totalReceived += chunk.length;
      onProgress?.({ file, received, size, totalReceived });
    }
    await writer.end();
    if (size !== null && received !== size) throw new Error(`download of ${url} was cut short (${received} of ${size} bytes)`);
    files.push({ file, bytes: received });
    return true;
  };

  try {
    for (const file of REQUIRED) await download(file, true);
    let gotModel = false;
    for (const file of MODEL_CANDIDATES) if (!gotModel) gotModel = await download(file, false);
    if (!gotModel) {
      throw new Error(`model ${name} has no ONNX export (tried ${MODEL_CANDIDATES.join(", ")}); look for a Xenova/ or onnx-community/ copy`);
    }
    for (const file of OPTIONAL) await download(file, false);
    replaceFolder(staging, target);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return { name, dir: target, files, bytes: totalReceived };
}

function replaceFolder(staging: string, target: string): void {
  if (!existsSync(target)) {
    renameSync(staging, target);
    return;
  }
  const old = `${staging}-old`;
  renameSync(target, old);
  renameSync(staging, target);
  rmSync(old, { recursive: true, force: true });
}
