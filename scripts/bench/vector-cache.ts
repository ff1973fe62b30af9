// A model client that serves vectors of texts it embedded in an earlier run (a file per model), so a benchmark that
// grows an account to 10,000 ideas pays the model once. Calls of one text (a lone capture) always go to the model:
// a capture's timed pass includes its embedding.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { CallOptions, ModelClient } from "../../src/ml/client";

/** The texts and vectors a cache file holds (empty when there is none). */
export function readVectorCache(file: string, dim: number): Map<string, Float32Array> {
  const cache = new Map<string, Float32Array>();
  if (!existsSync(file)) return cache;
  const buf = readFileSync(file);
  const dec = new TextDecoder();
  for (let o = 0; o < buf.length; ) {
    const len = buf.readUInt32LE(o);
    const text = dec.decode(buf.subarray(o + 4, o + 4 + len));
    o += 4 + len;
    cache.set(text, new Float32Array(buf.buffer.slice(buf.byteOffset + o, buf.byteOffset + o + dim * 4)));
    o += dim * 4;
  }
  return cache;
}

export function cachedEmbeddings(model: ModelClient, file: string): ModelClient & { save(): void } {
  const cache = readVectorCache(file, model.dim);
  let added = false;
  return {

    embedModelId: model.embedModelId,
    dim: model.dim,
    hasReranker: model.hasReranker,
    rerank: (q, docs, opts) => model.rerank(q, docs, opts),
    stats: () => model.stats(),
    close: () => model.close(),
    async embed(texts: string[], opts?: CallOptions): Promise<Float32Array[]> {
      if (texts.length === 1) return model.embed(texts, opts);
      const missing = [...new Set(texts.filter((t) => !cache.has(t)))];
      if (missing.length > 0) {
        const vs = await model.embed(missing, opts);
        missing.forEach((t, i) => cache.set(t, vs[i]));
        added = true;
      }
      return texts.map((t) => cache.get(t)!);
    },
    save(): void {
      if (!added) return;
      const enc = new TextEncoder();
      const parts: Uint8Array[] = [];
      for (const [t, v] of cache) {
        const bytes = enc.encode(t);
        const head = new Uint8Array(4);
        new DataView(head.buffer).setUint32(0, bytes.length, true);
        parts.push(head, bytes, new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
      }
      writeFileSync(file, Buffer.concat(parts));
    },
  };
}
