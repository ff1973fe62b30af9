// `npm run build`: compiles idearepo into one self-contained executable, dist/idearepo (see docs/operations.md).
//
// Inside it: the code, the web app (bundled here, src/modules/web/assets.ts), the SQL migrations (text imports), the default model's weights and the tfjs wasm runtime
// (file imports in src/ml/use-lite-files.ts), the model and checkpoint workers (entrypoints) and this platform's
// sqlite-vec library (a virtual file import resolved below, written out at start by src/compiled/entry.ts).
import type { BunPlugin } from "bun";
import { getLoadablePath } from "sqlite-vec";
import { mkdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { bundleWebApp } from "../src/modules/web/assets";

const ROOT = resolve(import.meta.dir, "..");

export interface BuildOptions {
  outfile?: string;
  /** Precompiled bytecode (default): ~30% faster cold start for ~10 MB more file. */
  bytecode?: boolean;
  minify?: boolean;
}

/**
 * `idearepo-embedded:<name>` → a real file of the build machine, embedded with `with { type: "file" }`; and
 * `idearepo-embedded:web-app` → a module whose default export is the bundled web app (src/modules/web/assets.ts).
 */
const embedded: BunPlugin = {
  name: "idearepo-embedded",
  setup(build) {
    build.onResolve({ filter: /^idearepo-embedded:/ }, (args) => {
      const name = args.path.slice("idearepo-embedded:".length);
      if (name === "sqlite-vec") return { path: getLoadablePath() };
      if (name === "web-app") return { path: name, namespace: "idearepo-web" };
      throw new Error(`unknown embedded file ${name}`);
    });
    // The bundle is made before the compile starts: running the bundler from inside a plugin of the bundler deadlocks.
    build.onLoad({ filter: /.*/, namespace: "idearepo-web" }, () => ({ contents: `export default ${webAppJson};`, loader: "js" }));
  },
};

let webAppJson = "[]";

export async function buildBinary(opts: BuildOptions = {}): Promise<{ outfile: string; bytes: number; ms: number }> {
  const outfile = resolve(opts.outfile ?? join(ROOT, "dist", "idearepo"));
  mkdirSync(resolve(outfile, ".."), { recursive: true });
  const t0 = performance.now();
  webAppJson = JSON.stringify(await bundleWebApp());
  const result = await Bun.build({
    // Workers are entrypoints of their own: the model worker and the WAL checkpointer.
    entrypoints: [join(ROOT, "src/compiled/entry.ts"), join(ROOT, "src/ml/worker.ts"), join(ROOT, "src/db/checkpoint-worker.ts")],
    compile: {
      outfile,
      // The binary's behaviour comes from IDEAREPO_* and config.json only, never from files that happen to sit in
      // the working directory.
      autoloadDotenv: false,
      autoloadBunfig: false,
    },
    // src/ is the bundle root: the model client finds its worker at ./ml/worker.ts inside the executable.
    root: join(ROOT, "src"),
    target: "bun",
    format: "esm",
    minify: opts.minify ?? true,
    bytecode: opts.bytecode ?? true,
    sourcemap: "none",
    plugins: [embedded],
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    throw new Error("build failed");
  }
  return { outfile, bytes: statSync(outfile).size, ms: Math.round(performance.now() - t0) };
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const outIdx = args.indexOf("--outfile");
  const out = await buildBinary({
    outfile: outIdx >= 0 ? args[outIdx + 1] : undefined,
    bytecode: !args.includes("--no-bytecode"),
    minify: !args.includes("--no-minify"),
  });
  console.log(`built ${out.outfile} (${(out.bytes / 1024 / 1024).toFixed(1)} MB) in ${(out.ms / 1000).toFixed(1)} s`);
}
