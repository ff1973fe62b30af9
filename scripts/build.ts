// `npm run build`: compiles idearepo into one self-contained executable, dist/idearepo (see docs/operations.md).
//
// Inside it: the code, the web app (bundled here, src/modules/web/assets.ts), the SQL migrations (text imports), the default model's weights and the tfjs wasm runtime
// (file imports in src/ml/use-lite-files.ts), the model, checkpoint and subjects workers (entrypoints) and this platform's
// sqlite-vec library (a virtual file import resolved below, written out at start by src/compiled/entry.ts), and
// onnxruntime's library and Node binding for ONNX models (written out on first use by src/compiled/onnxruntime.ts).
import type { BunPlugin } from "bun";
import { getLoadablePath } from "sqlite-vec";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { bundleWebApp } from "../src/modules/web/assets";

const ROOT = resolve(import.meta.dir, "..");

export interface BuildOptions {
  outfile?: string;
  /** Precompiled bytecode (default): ~30% faster cold start for ~10 MB more file. */
  bytecode?: boolean;
  minify?: boolean;
  /** Code splitting (on by default: see buildConfig). */
  splitting?: boolean;
}

/** onnxruntime-node's prebuilt files for the platform that builds (the binary runs where it was built). */
function onnxruntimeFiles(): { binding: string; library: string; hash: string; libraryName: string } {
  const dir = join(ROOT, "node_modules/onnxruntime-node/bin/napi-v6", process.platform, process.arch);
  const libraryName = readdirSync(dir).find((f) => f.startsWith("libonnxruntime"));
  if (!libraryName) throw new Error(`no libonnxruntime in ${dir}`);
  const binding = join(dir, "onnxruntime_binding.node");
  const library = join(dir, libraryName);
  const hasher = new Bun.CryptoHasher("sha256").update(readFileSync(library)).update(readFileSync(binding));
  return { binding, library, libraryName, hash: hasher.digest("hex").slice(0, 16) };
}

/** Replaces one exact passage of a dependency's source, failing the build if it moved (e.g. after an upgrade). */
function patch(source: string, file: string, from: string, to: string): string {
  if (!source.includes(from)) throw new Error(`build patch no longer applies to ${file}: ${JSON.stringify(from.slice(0, 80))}`);
  return source.replace(from, to);
}

/**
 * transformers.js inside the binary. (1) It loads onnxruntime-node through createRequire(import.meta.url), which
 * the bundler cannot follow and which finds nothing at run time (import.meta.url is a /$bunfs/ path): replaced by a
 * plain import, so onnxruntime-node is bundled. (2) onnxruntime-node requires its .node binding from a path built at
 * run time: replaced by src/compiled/onnxruntime.ts, which writes the binding and libonnxruntime out and loads them.
 * (3) It imports sharp (a native image library) at load: replaced by src/compiled/sharp-stub.ts.
 */
const onnxruntime: BunPlugin = {
  name: "idearepo-onnxruntime",
  setup(build) {
    const ort = onnxruntimeFiles();
    build.onResolve({ filter: /^sharp$/ }, () => ({ path: join(ROOT, "src/compiled/sharp-stub.ts") }));
    build.onResolve({ filter: /^idearepo-embedded:onnxruntime-/ }, (args) => {
      const name = args.path.slice("idearepo-embedded:onnxruntime-".length);
      // Namespaced so the bundler's .node handling (load it as an addon, extracted to $TMPDIR) does not apply:
      // the binding must sit next to libonnxruntime to find it.
      if (name === "binding") return { path: ort.binding, namespace: "idearepo-ort-file" };
      if (name === "library") return { path: ort.library };
      if (name === "meta") return { path: name, namespace: "idearepo-ort" };
      throw new Error(`unknown embedded file ${args.path}`);
    });
    build.onLoad({ filter: /.*/, namespace: "idearepo-ort-file" }, (args) => ({ contents: readFileSync(args.path), loader: "file" }));
    build.onLoad({ filter: /.*/, namespace: "idearepo-ort" }, () => ({
      contents: `export default ${JSON.stringify({ hash: ort.hash, library: ort.libraryName })};`,
      loader: "js",
    }));
    build.onLoad({ filter: /@huggingface\/transformers\/dist\/transformers\.node\.mjs$/ }, async (args) => {
      const source = await Bun.file(args.path).text();
      const contents = patch(
        source,
        args.path,
        'import { createRequire } from "module";\nvar requireFromHere = createRequire(import.meta.url ?? __filename);\nprocess.env.ORT_DISABLE_TELEMETRY = "1";\nvar onnx_node_default = requireFromHere("onnxruntime-node");',
        'import onnx_node_default from "onnxruntime-node";',
      );
      return { contents, loader: "js" };
    });
    build.onLoad({ filter: /onnxruntime-node\/dist\/binding\.js$/ }, async (args) => {
      const source = await Bun.file(args.path).text();
      const loader = JSON.stringify(join(ROOT, "src/compiled/onnxruntime.ts"));
      const contents = patch(
        source,
        args.path,
        "require(`../bin/napi-v6/${process.platform}/${process.arch}/onnxruntime_binding.node`)",
        `require(${loader}).loadOrtBinding()`,
      );
      return { contents, loader: "js" };
    });
  },
};

/**
 * `idearepo-embedded:<name>` → a real file of the build machine, embedded with `with { type: "file" }`; the web app
 * (`web-app`) is one JSON file of src/modules/web/assets.ts's BundledFile[], written before the compile starts
 * (running the bundler from inside a plugin of the bundler deadlocks). A file, not a module: the 6 MB would
 * otherwise sit in the code every command loads (docs/performance.md, "Start fast").
 */
const embedded: BunPlugin = {
  name: "idearepo-embedded",
  setup(build) {
    build.onResolve({ filter: /^idearepo-embedded:/ }, (args) => {
      const name = args.path.slice("idearepo-embedded:".length);
      if (name === "sqlite-vec") return { path: getLoadablePath() };
      // Namespaced: a .json path would be inlined as data whatever the import's `type` says.
      if (name === "web-app") return { path: webAppFile, namespace: "idearepo-web-file" };
        if (name.startsWith("onnxruntime-")) return undefined; // the onnxruntime plugin's
      throw new Error(`unknown embedded file ${name}`);
    });
    build.onLoad({ filter: /.*/, namespace: "idearepo-web-file" }, (args) => ({ contents: readFileSync(args.path), loader: "file" }));
  },
};

let webAppFile = "";

/** Bundles the web app into `<dir>/web-app.json` for the embedded plugin; returns its size. */
async function writeWebApp(dir: string): Promise<number> {
  webAppFile = join(dir, "web-app.json");
  const json = JSON.stringify(await bundleWebApp());
  writeFileSync(webAppFile, json);
  return json.length;
}

/** The options both the binary and its analysis (`--analyze`) are built with. */
function buildConfig(opts: BuildOptions): Bun.BuildConfig {
  return {
    // Workers are entrypoints of their own: the model worker, the WAL checkpointer and the subjects fitter.
    entrypoints: [
      join(ROOT, "src/compiled/entry.ts"),
      join(ROOT, "src/ml/worker.ts"),
      join(ROOT, "src/db/checkpoint-worker.ts"),
      join(ROOT, "src/vectors/subjects-worker.ts"),
    ],
    // src/ is the bundle root: the model client finds its worker at ./ml/worker.ts inside the executable.
    root: join(ROOT, "src"),
    target: "bun",
    format: "esm",
    // Chunks: a command reads and evaluates only the code it imports, and the packages those chunks import (a single
    // bundle hoists every package's import, node:http and zlib included, into the start of every command).
    // docs/performance.md, "Start fast", has the figures; src/ml/use-lite.ts the one side effect splitting dropped.
    splitting: opts.splitting ?? true,
    minify: opts.minify ?? true,
    bytecode: opts.bytecode ?? true,
    sourcemap: "none",
    plugins: [onnxruntime, embedded],
  };
}

function check(result: Bun.BuildOutput): void {
  if (result.success) return;
  for (const log of result.logs) console.error(log);
  throw new Error("build failed");
}

export async function buildBinary(opts: BuildOptions = {}): Promise<{ outfile: string; bytes: number; ms: number }> {
  const outfile = resolve(opts.outfile ?? join(ROOT, "dist", "idearepo"));
  mkdirSync(resolve(outfile, ".."), { recursive: true });
  const t0 = performance.now();
  const work = mkdtempSync(join(tmpdir(), "idearepo-build-"));
  try {
    await writeWebApp(work);
    const result = await Bun.build({
      ...buildConfig(opts),
      compile: {
        outfile,
        // The binary's behaviour comes from IDEAREPO_* and config.json only, never from files that happen to sit in
        // the working directory.
        autoloadDotenv: false,
        autoloadBunfig: false,
      },
    });
    check(result);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return { outfile, bytes: statSync(outfile).size, ms: Math.round(performance.now() - t0) };
}

export interface BinaryPart { part: string; bytes: number }

/**
 * What the binary is made of, without compiling it: the same build written to a folder (code and bytecode per
 * entrypoint, each embedded file), plus the Bun runtime every compiled program carries (a compiled hello world).
 */
export async function analyzeBinary(opts: BuildOptions = {}): Promise<BinaryPart[]> {
  const work = mkdtempSync(join(tmpdir(), "idearepo-analyze-"));
  const outdir = join(work, "out");
  try {
    await writeWebApp(work);
    // Bytecode needs a compile: its share is what the binary holds beyond everything listed here.
    check(await Bun.build({ ...buildConfig({ ...opts, bytecode: false }), outdir }));
    const parts: BinaryPart[] = [];
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, e.name);
        if (e.isDirectory()) walk(path);
        else parts.push({ part: relative(outdir, path), bytes: statSync(path).size });
      }
    };
    walk(outdir);
    // The code as one line: the entrypoints and their chunks.
    const code = parts.filter((p) => p.part.endsWith(".js"));
    const shards = parts.filter((p) => p.part.startsWith("group1-shard"));
    const rest = parts.filter((p) => !code.includes(p) && !shards.includes(p));
    const sum = (ps: BinaryPart[]) => ps.reduce((n, p) => n + p.bytes, 0);
    parts.length = 0;
    parts.push(
      ...rest,
      { part: `code: ${code.length} entrypoints and chunks (JavaScript, minified)`, bytes: sum(code) },
      { part: `the default model's weights (USE-lite, ${shards.length} shards)`, bytes: sum(shards) },
    );
    const hello = join(work, "hello.ts");
    writeFileSync(hello, 'console.log("hello");\n');
    check(await Bun.build({ entrypoints: [hello], compile: { outfile: join(work, "hello") }, minify: true }));
    parts.push({ part: "(Bun runtime: a compiled hello world)", bytes: statSync(join(work, "hello")).size });
    return parts.sort((a, b) => b.bytes - a.bytes);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.main && process.argv.includes("--analyze")) {
  const parts = await analyzeBinary();
  for (const p of parts) console.log(`${(p.bytes / 1024 / 1024).toFixed(2).padStart(8)} MB  ${p.part}`);
} else if (import.meta.main) {
  const args = process.argv.slice(2);
  const outIdx = args.indexOf("--outfile");
  const out = await buildBinary({
    outfile: outIdx >= 0 ? args[outIdx + 1] : undefined,
    bytecode: !args.includes("--no-bytecode"),
    minify: !args.includes("--no-minify"),
    splitting: !args.includes("--no-splitting"),
  });
  console.log(`built ${out.outfile} (${(out.bytes / 1024 / 1024).toFixed(1)} MB) in ${(out.ms / 1000).toFixed(1)} s`);
}
