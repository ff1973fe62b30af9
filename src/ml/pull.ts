// `models pull`: downloads an ONNX model from a Hugging Face–style host into the models folder, all or nothing,
// resuming what an interrupted run left behind.
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { isValidModelName } from "./model-folder";
import { CommitChangedError, downloadFile, UnreachableError } from "./pull-file";

export { listModels, type ListedModel } from "./model-folder";

export const DEFAULT_BASE_URL = "https://huggingface.co";

const REQUIRED = ["config.json", "tokenizer.json", "tokenizer_config.json"];
/** Tried in order; the first that exists is downloaded (the int8 export is smaller and faster on CPU). */
const MODEL_CANDIDATES = ["onnx/model_quantized.onnx", "onnx/model.onnx"];
/** Nice to have: special tokens for older tokenizers, sentence-transformers' pooling mode (cls vs mean), and the model card (its `language:` list says what the model reads: src/ml/languages.ts). */
const OPTIONAL = ["special_tokens_map.json", "1_Pooling/config.json", "README.md"];
/** Inside the staging folder: the commit its files came from, so a resume never mixes two versions of a model. */
const STATE_FILE = ".pull-state.json";

export interface PullProgress {
  /** Path inside the model folder, e.g. "onnx/model_quantized.onnx". */
  file: string;
  /** Bytes of this file received so far. */
  received: number;
  /** Size of this file from Content-Length, or null when the server does not say. */
  size: number | null;
  /** Bytes of all files received so far. */
  totalReceived: number;
  /** Set when this file continues a download an earlier run left: the offset it resumed from. */
  resumedFrom?: number;
}

export interface PullOptions {
  /** Hub repo name, e.g. "Xenova/all-MiniLM-L6-v2"; also the folder name under modelsDir. */
  name: string;
  baseUrl?: string;
  modelsDir: string;
  onProgress?: (progress: PullProgress) => void;
  /** Retries of a dropped transfer within this run (default 4, with backoff); the tests use fewer. */
  retries?: number;
}

export interface PullResult {
  name: string;
  dir: string;
  /** verified: what the file was checked against (the host's SHA-256, its git blob id, or only its size). */
  files: { file: string; bytes: number; verified: "sha256" | "git-sha1" | "size" | "none" }[];
  bytes: number;
  /** Bytes kept from an interrupted transfer (an earlier run's, or a dropped connection's) and not fetched again. */
  resumedBytes: number;
}

/**
 * Fetches `<baseUrl>/<name>/resolve/main/<file>` for each file into a hidden staging folder next to the target
 * (`.pull-<name>`, which the server never loads and `models list` skips) and renames it into place once every file
 * arrived and checked out, so the models folder never holds a half-downloaded model and a re-pull replaces the old
 * copy in one step. A failed or interrupted run leaves the staging folder; the next run of the same pull resumes it.
 */
export async function pullModel(options: PullOptions): Promise<PullResult> {
  const { name, modelsDir, onProgress } = options;
  if (!isValidModelName(name)) throw new Error(`invalid model name "${name}": use "name" or "owner/name", as on the hub`);
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
  const target = join(modelsDir, name);
  mkdirSync(dirname(target), { recursive: true });
  const staging = join(dirname(target), `.pull-${basename(target)}`);
  const release = lockPull(`${staging}.lock`, name);
  try {
    mkdirSync(staging, { recursive: true });
    const result = await fetchInto(staging, name, baseUrl, onProgress, options.retries);
    rmSync(join(staging, STATE_FILE), { force: true });
    replaceFolder(staging, target);
    return { ...result, name, dir: target };
  } catch (error) {
    if (existsSync(staging) && readdirSync(staging).length === 0) rmSync(staging, { recursive: true, force: true });
    if (error instanceof CommitChangedError) {
      rmSync(staging, { recursive: true, force: true });
      throw new Error(`${error.message}; the partial copy was discarded, run the same command again`);
    }
    if (error instanceof UnreachableError) throw new Error(`could not reach ${baseUrl} to download ${name}: ${error.message}`);
    throw error;
  } finally {
    release();
  }
}

async function fetchInto(staging: string, name: string, baseUrl: string, onProgress: PullOptions["onProgress"], retries?: number) {
  const statePath = join(staging, STATE_FILE);
  let commit: string | null = existsSync(statePath) ? (JSON.parse(readFileSync(statePath, "utf8")).commit ?? null) : null;
  const files: PullResult["files"] = [];
  let done = 0;
  let resumedBytes = 0;

  /** false when the host has no such file. */
  const get = async (file: string): Promise<boolean> => {
    const path = join(staging, file);
    const part = `${path}.part`;
    mkdirSync(dirname(path), { recursive: true });
    // A file finished by an earlier run is checked again (a Range request past its end costs nothing).
    if (existsSync(path)) renameSync(path, part);
    const result = await downloadFile({
      url: `${baseUrl}/${name}/resolve/main/${file}`,
      partPath: part,
      commit,
      retries,
      onProgress: (p) => {
        if (p.resumedFrom) resumedBytes += p.resumedFrom;
        onProgress?.({ file, received: p.received, size: p.size, totalReceived: done + p.received, resumedFrom: p.resumedFrom });
      },
    });
    if (result.status === "missing") return false;
    if (!commit && result.facts.commit) {
      commit = result.facts.commit;
      writeFileSync(statePath, JSON.stringify({ commit }));
    }
    renameSync(part, path);
    files.push({ file, bytes: result.bytes, verified: result.verified });
    done += result.bytes;
    return true;
  };

  for (const file of REQUIRED) {
    if (await get(file)) continue;
    rmSync(staging, { recursive: true, force: true }); // nothing worth resuming
    if (file === "config.json") {
      throw new Error(`model ${name} not found at ${baseUrl} (HTTP 404 for ${baseUrl}/${name}/resolve/main/config.json); check the name, e.g. Xenova/all-MiniLM-L6-v2`);
    }
    throw new Error(`model ${name} has no ${file}; it is not a transformers.js-ready export (look for a Xenova/ or onnx-community/ copy)`);
  }
  let gotModel = false;
  for (const file of MODEL_CANDIDATES) if (!gotModel) gotModel = await get(file);
  if (!gotModel) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`model ${name} has no ONNX export (tried ${MODEL_CANDIDATES.join(", ")}); look for a Xenova/ or onnx-community/ copy`);
  }
  for (const file of OPTIONAL) await get(file);
  return { files, bytes: done, resumedBytes };
}

/** One pull per model at a time: two would write the same staging folder. A lock left by a killed run is taken over. */
function lockPull(path: string, name: string): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx");
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const pid = Number(readFileSync(path, "utf8"));
      if (pid > 0 && isAlive(pid)) throw new Error(`another \`models pull ${name}\` is running (pid ${pid})`);
      rmSync(path, { force: true });
    }
  }
  throw new Error(`could not lock ${path}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function replaceFolder(staging: string, target: string): void {
  if (!existsSync(target)) {
    renameSync(staging, target);
    return;
  }
  const old = `${staging}-old`;
  rmSync(old, { recursive: true, force: true });
  renameSync(target, old);
  renameSync(staging, target);
  rmSync(old, { recursive: true, force: true });
}
