// Real sentences found offline and their embeddings, cached on disk: what the vector-index benchmark measures recall on.
//
// Sources, in this order of preference: STS-B (--data DIR or IDEAREPO_STSB_DIR), prose of the Markdown files and the JSDoc
// comments under node_modules, then the system's man pages. Sentences are deduplicated and shuffled with a fixed
// seed, so a given count always means the same sentences on the same machine. Embedding is slow on two shared cores
// (~20 ms a sentence), so vectors are cached under the temp dir per model and count.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { Glob } from "bun";
import type { ModelClient } from "../../src/ml/client";
import { parseSts } from "./stsb";
import { stsbDir } from "./stsb-data";

const ROOT = resolve(import.meta.dir, "../..");

function sentencesOf(text: string, into: Set<string>): void {
  for (const para of text.split(/\n\s*\n/)) {
    const flat = para.replace(/^\s*[-*+]\s+/gm, "").replace(/\s+/g, " ").trim();
    for (const s of flat.split(/(?<=[.!?])\s+(?=[A-Z])/)) {
      const letters = (s.match(/[a-zA-Z]/g) ?? []).length;
      if (s.length >= 25 && s.length <= 240 && letters / s.length > 0.75 && /^[A-Z]/.test(s) && s.split(" ").length >= 5) into.add(s);
    }
  }
}

const files = (pattern: string, cwd: string) => [...new Glob(pattern).scanSync({ cwd, followSymlinks: false, absolute: true })].sort();

/** Up to `want` distinct real English sentences, in a fixed pseudo-random order. */
export function realSentences(want: number): string[] {
  const found = new Set<string>();
  for (const f of ["sts-dev.csv", "sts-test.csv"]) {
    const dir = stsbDir();
    const path = dir && join(dir, f);
    if (path && existsSync(path)) for (const p of parseSts(readFileSync(path, "utf8"))) found.add(p.a).add(p.b);
  }
  for (const f of files("node_modules/**/*.md", ROOT)) {
    if (found.size >= want) break;
    const t = readFileSync(f, "utf8");
    sentencesOf(t.replace(/```[\s\S]*?```/g, " ").replace(/`[^`]*`/g, " ").replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/<[^>]+>/g, " "), found);
  }
  for (const f of files("node_modules/**/*.d.ts", ROOT)) {
    if (found.size >= want) break;
    for (const m of readFileSync(f, "utf8").matchAll(/\/\*\*([\s\S]*?)\*\//g)) {
      sentencesOf(m[1].replace(/^\s*\*\s?/gm, "").replace(/@\w+[^\n]*/g, "").replace(/\{@link ([^}]*)\}/g, "$1").replace(/`[^`]*`/g, " "), found);
    }
  }
  for (const f of files("man{1,5,7,8}/*.gz", "/usr/share/man")) {
    if (found.size >= want) break;
    try {
      const roff = gunzipSync(readFileSync(f)).toString("utf8");
      sentencesOf(roff.split("\n").filter((l) => !/^[.']/.test(l)).join("\n").replace(/\\f[BIRP]|\\\(..|\\-|\\&|\\e/g, ""), found);
    } catch {
      // not a readable man page: skip it
    }
  }
  const all = [...found];
  let seed = 7;
  for (let i = all.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const j = Math.floor((seed / 2147483648) * (i + 1));
    [all[i], all[j]] = [all[j], all[i]];
  }
  return all.slice(0, want);
}

/** Embeddings of `sentences` by `model`, read from the cache when a run already computed them. */
export async function embedCached(model: ModelClient, sentences: string[], log = (s: string) => console.error(s)): Promise<Float32Array[]> {
  const key = Bun.hash(model.embedModelId + "\n" + sentences.join("\n")).toString(16);
  const file = join(tmpdir(), `idearepo-bench-vectors-${key}.f32`);
  const dim = model.dim;
  if (existsSync(file)) {
    const all = new Float32Array(readFileSync(file).buffer.slice(0));
    if (all.length === sentences.length * dim) return sentences.map((_, i) => all.slice(i * dim, (i + 1) * dim));
  }
  const all = new Float32Array(sentences.length * dim);
  const t0 = performance.now();
  for (let i = 0; i < sentences.length; i += 500) {
    const vs = await model.embed(sentences.slice(i, i + 500));
    vs.forEach((v, j) => all.set(v, (i + j) * dim));
    log(`embedded ${Math.min(i + 500, sentences.length)} / ${sentences.length} real sentences (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  }
  writeFileSync(file, all);
  return sentences.map((_, i) => all.slice(i * dim, (i + 1) * dim));
}
