// What a person finds after importing a real linked vault (issue 25, items 2 and 3): automatic relations per idea,
// the map's edges, and the review queue (stale, connections, the author's own links among them), for this tree and
// for a baseline tree of the product (e.g. the commit before the change), alternating rounds in the same run.
// The vault is Git's manual (Debian package git-man): one note per page, dated with the page's date, its `git-foo(1)`
// references as wiki-links (the authors' own links).
//
//   git archive <commit> | tar -x -C /tmp/base && ln -s $PWD/node_modules /tmp/base/node_modules
//   bun scripts/bench/review-queue.ts --baseline /tmp/base [--rounds 1]
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { join } from "node:path";
import { strToU8, zipSync } from "fflate";
import { BUN, ROOT, report, row, spawnServer, tempDir, waitForDrain, type Row } from "./lib";

const argOf = (name: string) => { const i = process.argv.indexOf(`--${name}`); return i === -1 ? null : process.argv[i + 1]; };
const BASELINE = argOf("baseline");
const ROUNDS = Number(argOf("rounds") ?? "1");
if (!BASELINE || !existsSync(join(BASELINE, "src/main.ts"))) {
  console.error("usage: bun scripts/bench/review-queue.ts --baseline <a source tree of the product to compare with>");
  process.exit(2);
}

interface Page { name: string; date: string; body: string; refs: string[] }

/** Roff to plain text, enough for a note: requests dropped, font and character escapes removed. */
function readPage(path: string): Page | null {
  const roff = gunzipSync(readFileSync(path)).toString("utf8");
  if (/^\.so /m.test(roff)) return null;
  const th = /^\.TH\s+"[^"]*"\s+"\d"\s+"(\d\d)\/(\d\d)\/(\d{4})"/m.exec(roff);
  const text = roff.split("\n").filter((l) => !l.startsWith(".") && !l.startsWith("'"))
    .map((l) => l.replace(/\\f[BIRP]|\\f\(..|\\&|\\\(\w\w|\\\*\(\w\w|\\\[[^\]]*\]/g, "").replace(/\\-/g, "-").replace(/\\e/g, "\\"))
    .join(" ").replace(/\s+/g, " ").trim();
  const name = /([a-z0-9-]+)\.\d\.gz$/.exec(path)![1];
  const refs = [...new Set([...text.matchAll(/\b(git[a-z0-9-]*)\(\d\)/g)].map((m) => m[1]))].filter((r) => r !== name);
  return { name, date: th ? `${th[3]}-${th[1]}-${th[2]}` : "2024-01-01", body: text.slice(0, 2_000), refs };
}

function gitManualVault(): { zip: Uint8Array; notes: number; links: Set<string> } {
  const dirs = ["/usr/share/man/man1", "/usr/share/man/man5", "/usr/share/man/man7"].filter(existsSync);
  const pages = dirs.flatMap((d) => readdirSync(d).filter((f) => /^git[a-z0-9-]*\.\d\.gz$/.test(f)).map((f) => readPage(join(d, f))))
    .filter((p): p is Page => p !== null && p.body.length > 200);
  const names = new Set(pages.map((p) => p.name));
  const links = new Set<string>();
  const files: Record<string, Uint8Array> = {};
  for (const p of pages) {
    const refs = p.refs.filter((r) => names.has(r));
    for (const r of refs) links.add([p.name, r].sort().join("|"));
    const see = refs.length ? `\n\nSee also: ${refs.map((r) => `[[${r}]]`).join(", ")}\n` : "\n";
    files[`${p.name}.md`] = strToU8(`---\ncreated: ${p.date}\nupdated: ${p.date}\n---\n${p.body}${see}`);
  }
  return { zip: zipSync(files), notes: pages.length, links };
}

interface Figures { perIdeaMedian: number; perIdeaMax: number; automatic: number; agreeing: number; edges: number; stale: number; connections: number; authorsInConnections: number; duplicates: number; total: number }

async function measure(root: string, vault: { zip: Uint8Array; links: Set<string> }): Promise<Figures> {
  const dir = tempDir("idearepo-bench-review-");
  const dataDir = join(dir, "data");
  const env = { ...process.env, IDEAREPO_DATA_DIR: dataDir };
  const created = Bun.spawnSync([BUN, join(root, "src/main.ts"), "users", "create", "--email", "bench-review@example.com", "--plan", "pro"], { env, cwd: root });
  if (created.exitCode !== 0) throw new Error(`users create: ${created.stderr.toString()}`);
  const key = JSON.parse(created.stdout.toString()).api_key as string;
  const server = await spawnServer([BUN, join(root, "src/main.ts"), "serve"], { IDEAREPO_DATA_DIR: dataDir, IDEAREPO_PORT: "0", IDEAREPO_HOST: "127.0.0.1" }, join(dir, "server.log"));
  try {
    const get = async (path: string) => (await fetch(`${server.base}/api/v1${path}`, { headers: { "x-api-key": key } })).json() as Promise<any>;
    const imported = await fetch(`${server.base}/api/v1/user/import?from=obsidian`, { method: "POST", headers: { "x-api-key": key, "content-type": "application/zip" }, body: vault.zip });
    if (imported.status !== 201) throw new Error(`import: ${imported.status} ${await imported.text()}`);
    await Bun.sleep(500);
    await waitForDrain(dataDir);
    const map = await get("/map");
    const title = new Map<number, string>(map.nodes.map((n: any) => [n.id, n.title]));
    const pair = (a: number, b: number) => [title.get(a), title.get(b)].sort().join("|");
    const auto = map.edges.filter((e: any) => e.created_by === "system" && e.type === "related");
    const per = new Map<number, number>(map.nodes.map((n: any) => [n.id, 0]));
    for (const e of auto) for (const id of [e.source, e.target]) per.set(id, per.get(id)! + 1);
    const counts = [...per.values()].sort((a, b) => a - b);
    const review = await get("/review");
    return {
      perIdeaMedian: counts[Math.floor(counts.length / 2)], perIdeaMax: counts[counts.length - 1], automatic: auto.length,
      agreeing: auto.filter((e: any) => vault.links.has(pair(e.source, e.target))).length, edges: map.edges.length,
      stale: review.counts.stale, connections: review.counts.connections,
      authorsInConnections: review.connections.filter((c: any) => c.created_by === "user").length,
      duplicates: review.counts.duplicates, total: review.counts.total,
    };
  } finally {
    await server.stop();
  }
}

const vault = gitManualVault();
console.error(`vault: ${vault.notes} notes of Git's manual, ${vault.links.size} linked pairs`);
const runs: { product: Figures[]; baseline: Figures[] } = { product: [], baseline: [] };
for (let r = 0; r < ROUNDS; r++) {
  runs.product.push(await measure(ROOT, vault));
  console.error(`round ${r + 1} product:`, JSON.stringify(runs.product.at(-1)));
  runs.baseline.push(await measure(BASELINE, vault));
  console.error(`round ${r + 1} baseline:`, JSON.stringify(runs.baseline.at(-1)));
}
const mean = (xs: Figures[], k: keyof Figures) => xs.reduce((s, x) => s + x[k], 0) / xs.length;
const rows: Row[] = ([
  ["automatic relations per idea, median", "perIdeaMedian", "relations", "≤ 3"],
  ["automatic relations per idea, max", "perIdeaMax", "relations", "≤ 3"],
  ["automatic relations", "automatic", "relations", ""],
  ["automatic relations repeating an author's link", "agreeing", "relations", "0"],
  ["map edges", "edges", "edges", ""],
  ["review queue: stale", "stale", "items", ""],
  ["review queue: connections", "connections", "items", ""],
  ["review queue: the author's own links among connections", "authorsInConnections", "items", "0"],
  ["review queue: duplicates", "duplicates", "items", ""],
  ["review queue: total", "total", "items", ""],
] as const).map(([metric, k, unit, target]) => row("review-queue", metric, mean(runs.product, k), unit, {
  baseline: { name: "baseline tree", value: mean(runs.baseline, k) }, ...(target ? { target } : {}),
}));
report(rows);
