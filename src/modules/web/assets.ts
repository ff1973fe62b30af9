// The web app's files: bundled from src/web by Bun's bundler (at start from a checkout, at build time into the binary).
//
// From a checkout the bundle is made in memory on the first page request (~50 ms), so `npm start` needs no build
// step; the compiled binary carries the same files, made by scripts/build.ts, and never runs the bundler.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * One file as the bundler made it; binary files travel as base64 so the list can be embedded as JSON. The HTML shell
 * also carries, per page module of src/web/route-table.ts, the URLs of the chunks that page needs beyond the first
 * bundle (the server names them in a Link header: src/modules/web/preload.ts).
 */
export interface BundledFile { path: string; type: string; text?: string; base64?: string; chunks?: Record<string, string[]> }

export interface WebAsset {
  type: string;
  body: Uint8Array;
  gzip: Uint8Array | null;
  etag: string;
  /** Content-hashed names never change content: cache them for a year. */
  immutable: boolean;
  /** The HTML shell's: per page module, the chunks it needs beyond the first bundle (see BundledFile). */
  chunks: Record<string, string[]>;
}

const WEB_DIR = join(import.meta.dir, "../../web");
const TEXT = /^(text\/|application\/(javascript|json|manifest\+json)|image\/svg)/;

const TYPES: Record<string, string> = {
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".webmanifest": "application/manifest+json",
  ".json": "application/json",
  ".txt": "text/plain; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
};

/**
 * Links to files of public/ that keep fixed URLs (the PWA manifest, icons). Bun's HTML bundler would resolve and hash
 * any href written in index.html, so they are added to the bundled page here instead.
 */
const PUBLIC_HEAD_LINKS =
  '<link rel="manifest" href="/manifest.webmanifest"><link rel="icon" href="/favicon.svg" type="image/svg+xml"><link rel="apple-touch-icon" href="/icon-192.png">';

/**
 * Runs the bundler over src/web: the HTML shell with its scripts and styles, the map's layout worker, the service
 * worker, and public/ as is.
 */
export async function bundleWebApp(): Promise<BundledFile[]> {
  const layoutWorker = await bundleMapLayoutWorker();
  const app = await Bun.build({
    entrypoints: [join(WEB_DIR, "index.html")],
    target: "browser",
    minify: true,
    splitting: true,
    metafile: true,
    publicPath: "/",
    naming: { entry: "[name].[ext]", chunk: "assets/[name]-[hash].[ext]", asset: "assets/[name]-[hash].[ext]" },
    define: { MAP_LAYOUT_WORKER_URL: JSON.stringify(layoutWorker.path) },
  });
  if (!app.success) throw new Error(`web app bundle failed: ${app.logs.join("\n")}`);
  const files: BundledFile[] = [];
  for (const out of app.outputs) {
    const path = "/" + out.path.replace(/^\.\//, "");
    // The HTML entry's script and style come out beside it; give them hashed names under /assets like the chunks.
    const file = await toFile(path, out.type, out);
    if (path === "/index.html") {
      file.text = file.text!.replace("</head>", `${PUBLIC_HEAD_LINKS}</head>`);
      file.chunks = pageChunks(app.metafile);
    }
    files.push(file);
  }
  files.push(layoutWorker, ...(await bundleServiceWorker()));
  const publicDir = join(WEB_DIR, "public");
  for (const name of readdirSync(publicDir)) {
    const bytes = readFileSync(join(publicDir, name));
    const type = TYPES[name.slice(name.lastIndexOf("."))] ?? "application/octet-stream";
    files.push(TEXT.test(type) ? { path: `/${name}`, type, text: bytes.toString("utf8") } : { path: `/${name}`, type, base64: bytes.toString("base64") });
  }
  return files;
}

type Metafile = Bun.BuildOutput["metafile"];

/**
 * For each module that is an entry of its own (the lazily loaded pages, the map's view), the chunks it needs beyond
 * the first bundle: its own file and, transitively, the shared chunks it imports statically.
 */
function pageChunks(meta: Metafile): Record<string, string[]> {
  if (!meta) throw new Error("web app bundle: the bundler gave no metafile");
  const outputs = meta.outputs as Record<string, { entryPoint?: string; imports: Array<{ path: string; kind: string }> }>;
  const main = Object.keys(outputs).find((o) => o.endsWith(".js") && outputs[o].entryPoint?.endsWith("web/index.html"));
  const url = (o: string) => "/" + o.replace(/^\.\//, "");
  const chunks: Record<string, string[]> = {};
  for (const [out, o] of Object.entries(outputs)) {
    const entry = o.entryPoint?.replace(/\\/g, "/");
    const at = entry?.lastIndexOf("web/pages/") ?? -1;
    if (!entry || at < 0 || !out.endsWith(".js")) continue;
    const seen = new Set<string>();
    const walk = (file: string) => {
      if (seen.has(file) || file === main || !outputs[file]) return;
      seen.add(file);
      for (const i of outputs[file].imports) if (i.kind === "import-statement") walk(i.path);
    };
    walk(out);
    chunks[entry.slice(at + "web/".length)] = [...seen].map(url);
  }
  return chunks;
}

/**
 * The service worker on its own: one classic script at the fixed URL /sw.js (a worker's URL is its identity, so it
 * is never hashed; the route serves it with no-cache so a new version is picked up on the next visit).
 */
async function bundleServiceWorker(): Promise<BundledFile[]> {
  const sw = await Bun.build({ entrypoints: [join(WEB_DIR, "sw.ts")], target: "browser", minify: true, format: "esm" });
  if (!sw.success) throw new Error(`service worker bundle failed: ${sw.logs.join("\n")}`);
  return [{ path: "/sw.js", type: TYPES[".js"], text: await sw.outputs[0].text() }];
}

/**
 * The mind map's layout worker (src/web/pages/map/layout-worker.ts) as one module script under /assets/ with a content
 * hash in its name (so it is cached for good, like the chunks); the page learns the URL from a bundler define.
 */
async function bundleMapLayoutWorker(): Promise<BundledFile> {
  const out = await Bun.build({ entrypoints: [join(WEB_DIR, "pages/map/layout-worker.ts")], target: "browser", minify: true, format: "esm" });
  if (!out.success) throw new Error(`map layout worker bundle failed: ${out.logs.join("\n")}`);
  const text = await out.outputs[0].text();
  return { path: `/assets/map-layout-${Bun.hash(text).toString(36)}.js`, type: TYPES[".js"], text };
}

async function toFile(path: string, type: string, blob: Blob): Promise<BundledFile> {
  return TEXT.test(type) ? { path, type, text: await blob.text() } : { path, type, base64: Buffer.from(await blob.arrayBuffer()).toString("base64") };
}

let embedded: (() => Promise<BundledFile[]>) | null = null;
/** Called by the compiled binary's entry (for `serve` only) with a reader of the files scripts/build.ts embedded. */
export function setEmbeddedWebApp(read: () => Promise<BundledFile[]>): void {
  embedded = read;
}

/** true in the compiled binary, whose web app is read rather than bundled (the server warms it after listening). */
export const webAppEmbedded = (): boolean => embedded !== null;

/** The servable files by URL path; each file's bytes, compressed copy and ETag are made when it is first asked for. */
export interface WebAssets {
  get(path: string): WebAsset | undefined;
}

/**
 * Made on first use, and kept: most of the app's 6 MB (the mind map's libraries, the diagram renderers) is fetched by
 * few visits, so a server that has only served the list holds the list's files, not every chunk's bytes and gzip.
 */
function materialize(f: BundledFile): WebAsset {
  const body = f.text !== undefined ? new TextEncoder().encode(f.text) : Buffer.from(f.base64 ?? "", "base64");
  const compressible = f.text !== undefined && body.length > 1024;
  return {
    type: f.type,
    body,
    gzip: compressible ? Bun.gzipSync(body, { level: 9 }) : null,
    etag: `"${Bun.hash(body).toString(36)}"`,
    immutable: f.path.startsWith("/assets/"),
    chunks: f.chunks ?? {},
  };
}

let loading: Promise<WebAssets> | null = null;
/** The servable files by URL path, listed once per process. */
export function loadWebAssets(): Promise<WebAssets> {
  return (loading ??= (async () => {
    const files = new Map((await (embedded ?? bundleWebApp)()).map((f) => [f.path, f]));
    const made = new Map<string, WebAsset>();
    return {
      get(path: string) {
        const known = made.get(path);
        if (known) return known;
        const file = files.get(path);
        if (!file) return undefined;
        const asset = materialize(file);
        made.set(path, asset);
        return asset;
      },
    };
  })().catch((e) => {
    loading = null; // a broken checkout can be fixed without restarting
    throw e;
  }));
}
