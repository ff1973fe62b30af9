// Fuzzes every operation of the app's own OpenAPI document against a real server; prints what broke the contract.
//
//   npx bun scripts/fuzz.ts [--budget <seconds>] [--rounds <n>] [--seed <n>] [--json]
//
// A temp data dir with a Pro account (API key and a session), every documented operation in turn with valid and hostile
// input; checks documented statuses, JSON errors in the spec's shape, no internals in bodies, bodies that match the
// document, nothing over a limit accepted, and a healthy server at the end. Exit code 1 when anything was found.
// --rounds stops after that many rounds over every operation (or the budget, whichever comes first): with a seed, the
// same requests on any machine, however loaded (npm test's pass), where a budget alone sends fewer the busier it is.
import { buildCase, type Built } from "./fuzz/cases";
import { checkAnswer, type Finding, type Operation } from "./fuzz/checks";
import { createRng } from "./fuzz/rng";
import { regressionCases } from "./fuzz/regressions";
import { ROOT, startFuzzServer, type FuzzServer } from "./fuzz/server";
import type { Pools } from "./fuzz/values";

interface Options { budget: number; rounds: number; seed: number; json: boolean }

function parseArgs(argv: string[]): Options {
  const opts: Options = { budget: 60, rounds: Number.POSITIVE_INFINITY, seed: 1, json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--budget") opts.budget = Number(argv[++i]);
    else if (a === "--seed") opts.seed = Number(argv[++i]);
    else if (a === "--rounds") opts.rounds = Number(argv[++i]);
    else if (a === "--json") opts.json = true;
    else throw new Error(`unknown argument ${a} (use --budget <seconds>, --rounds <n>, --seed <n>, --json)`);
  }
  if (!(opts.budget > 0) || !Number.isInteger(opts.seed) || !(opts.rounds > 0)) throw new Error("--budget and --rounds must be positive and --seed an integer");
  return opts;
}

interface Session { server: FuzzServer; cookie: string }

async function login(server: FuzzServer): Promise<string> {
  const res = await fetch(`${server.base}/api/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: server.email, password: server.password }) });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

async function send(s: Session, b: Built): Promise<{ status: number; contentType: string; text: string } | { error: string }> {
  const headers = { ...b.headers };
  if (b.auth === "key") headers["x-api-key"] = s.server.key;
  else if (b.auth === "cookie") headers.cookie = `svc_session=${s.cookie}`;
  else if (b.auth === "garbage") headers.authorization = `Bearer svc_${"0".repeat(64)}`;
  // Signing out ends the session it is sent with: give it a session of its own.
  if (b.url.startsWith("/api/v1/auth/logout") && b.auth === "cookie") headers.cookie = `svc_session=${await login(s.server)}`;
  try {
    const res = await fetch(s.server.base + b.url, { method: b.method, headers, body: b.body, signal: AbortSignal.timeout(30_000) });
    return { status: res.status, contentType: res.headers.get("content-type") ?? "", text: await res.text() };
  } catch (e) {
    return { error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
}

/** Remembers ids the server handed out, so later valid requests reach real rows. */
function harvest(pools: Pools, o: Operation, status: number, text: string) {
  if (status < 200 || status >= 300) return;
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    return;
  }
  const push = <T>(list: T[] | undefined, v: T) => (list && v !== undefined && v !== null && !list.includes(v) ? (list.push(v), list.length > 200 && list.shift()) : 0);
  if (o.method === "POST" && o.path === "/api/v1/ideas") push(pools.ideas, body.id);
  if (o.method === "POST" && o.path === "/api/v1/tags") push(pools.tags, body.tag?.id), push(pools.tagNames, body.tag?.name);
  if (o.method === "POST" && o.path.endsWith("/links")) push(pools.links, body.link?.id);
  if (o.method === "POST" && o.path === "/api/v1/map/relations") push(pools.relations, body.relation?.id);
  if (o.method === "POST" && o.path === "/api/v1/user/api-keys") push(pools.keys as any, body.id);
  if (o.method === "GET" && o.path === "/api/v1/ideas/duplicates") for (const d of body.duplicates ?? []) push(pools.detections, d.id);
}

export async function main(argv: string[]) {
  const opts = parseArgs(argv);
  const started = Date.now();
  const server = await startFuzzServer();
  const secrets = [server.dataDir, ROOT, server.key, server.password];
  const findings: Finding[] = [];
  let requests = 0;
  const byKind: Record<string, number> = {};
  const touched = new Set<string>();
  const answered: Record<string, Set<number>> = {}; // statuses each operation answered, all checked against the document
  try {
    const session: Session = { server, cookie: await login(server) };
    secrets.push(session.cookie);
    const doc = (await (await fetch(`${server.base}/api/v1/openapi.json`)).json()) as Record<string, any>;
    const operations: Operation[] = Object.entries<Record<string, any>>(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
    );
    const byName = new Map(operations.map((o) => [`${o.method} ${o.path}`, o]));
    const pools: Pools = { ideas: [], tags: [], tagNames: [], links: [], relations: [], detections: [], keys: [] };
    await seed(server, pools);

    const run = async (o: Operation, b: Built) => {
      const ans = await send(session, b);
      requests++;
      byKind[b.sent.kind] = (byKind[b.sent.kind] ?? 0) + 1;
      touched.add(`${o.method} ${o.path}`);
      if ("error" in ans) {
        findings.push({ rule: "no answer", operation: `${o.method} ${o.path}`, kind: b.sent.kind, status: 0, detail: ans.error, url: b.url.slice(0, 200) });
        return;
      }
      (answered[`${o.method} ${o.path}`] ??= new Set()).add(ans.status);
      findings.push(...checkAnswer(o, doc, b.sent, ans, secrets));
      harvest(pools, o, ans.status, ans.text);
      if (ans.status === 401 && b.auth === "cookie" && !b.url.includes("/auth/")) {
        findings.push({ rule: "credential lost", operation: `${o.method} ${o.path}`, kind: b.sent.kind, status: 401, detail: "the fuzzer's session stopped working", url: b.url });
        session.cookie = await login(server);
      }
    };

    for (const r of regressionCases(pools)) {
      const o = byName.get(`${r.method} ${r.path}`);
      if (o) await run(o, r.build);
      else findings.push({ rule: "undocumented operation", operation: `${r.method} ${r.path}`, kind: r.build.sent.kind, status: 0, detail: "not in the document", url: r.build.url });
    }

    const rng = createRng(opts.seed);
    const deadline = started + opts.budget * 1000 - 3_000;
    let round = 0;
    for (; round < opts.rounds && Date.now() < deadline; round++) {
      for (const o of operations) {
        if (Date.now() >= deadline) break;
        const built = buildCase(o, rng, pools);
        // Now and then the same valid request four times at once: double merges, deletes and unique names race.
        if (built.sent.kind === "valid" && typeof built.body !== "object" && rng.chance(0.15)) {
          const copies = Array.from({ length: 4 }, () => ({ ...built, sent: { ...built.sent, kind: "parallel copies" } }));
          await Promise.all(copies.map((b) => run(o, b)));
        } else await run(o, built);
      }
      if (pools.ideas!.length < 200) await seed(server, pools, 3);
    }

    const health = await fetch(`${server.base}/api/v1/health`).then(async (r) => ({ status: r.status, body: await r.json().catch(() => null) }), (e) => ({ status: 0, body: String(e) }));
    if (health.status !== 200 || (health.body as any)?.status !== "ok") {
      findings.push({ rule: "unhealthy afterwards", operation: "GET /api/v1/health", kind: "final", status: health.status, detail: JSON.stringify(health.body), url: "/api/v1/health" });
    }
    const unhandled = server.logs.filter((l) => l.includes("unhandled error")).length;
    const summary = {
      seed: opts.seed,
      budget_s: opts.budget,
      rounds: round,
      seconds: Math.round((Date.now() - started) / 100) / 10,
      operations: operations.length,
      operations_exercised: touched.size,
      requests,
      by_kind: byKind,
      statuses: Object.fromEntries(Object.entries(answered).map(([op, s]) => [op, [...s].sort((a, b) => a - b)])),
      unhandled_errors_logged: unhandled,
      findings: findings.length,
      by_rule: countBy(findings, (f) => `${f.rule} | ${f.operation} | ${f.status}`),
      examples: dedupe(findings).slice(0, 40),
    };
    return summary;
  } finally {
    await server.stop();
  }
}

async function seed(server: FuzzServer, pools: Pools, n = 8) {
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${server.base}/api/v1${path}`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": server.key }, body: JSON.stringify(body) });
    return res.status < 300 ? ((await res.json()) as any) : null;
  };
  for (let i = 0; i < n; i++) {
    const idea = await post("/ideas", { title: `seed idea ${pools.ideas!.length}`, body: "a bike ride to the garden for coffee", tags: ["seed", `seed-${i % 3}`] });
    if (idea) pools.ideas!.push(idea.id);
  }
  if (pools.tags!.length === 0) {
    const tag = await post("/tags", { name: "seed-tag", color: "#336699" });
    if (tag) pools.tags!.push(tag.tag.id), pools.tagNames!.push(tag.tag.name);
  }
  const [a, b] = pools.ideas!.slice(-2);
  const link = await post(`/ideas/${a}/links`, { url: "https://example.com/seed", title: "seed" });
  if (link) pools.links!.push(link.link.id);
  const rel = await post("/map/relations", { source_idea_id: a, target_idea_id: b, relation_type: "inspires" });
  if (rel) pools.relations!.push(rel.relation.id);
  const key = await post("/user/api-keys", { label: "fuzz victim" });
  if (key) pools.keys!.push(key.id);
}

const countBy = <T>(items: T[], key: (t: T) => string) => items.reduce<Record<string, number>>((acc, t) => ((acc[key(t)] = (acc[key(t)] ?? 0) + 1), acc), {});

function dedupe(findings: Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const k = `${f.rule}|${f.operation}|${f.status}|${f.kind}`;
    return seen.has(k) ? false : (seen.add(k), true);
  });
}

if (import.meta.main) {
  const opts = parseArgs(process.argv.slice(2));
  const summary = await main(process.argv.slice(2));
  if (opts.json) console.log(JSON.stringify(summary));
  else {
    console.log(`fuzz: seed ${summary.seed}, ${summary.seconds} s, ${summary.operations_exercised}/${summary.operations} operations, ${summary.requests} requests, ${summary.findings} findings`);
    for (const [k, n] of Object.entries(summary.by_rule).sort()) console.log(`  ${String(n).padStart(5)}  ${k}`);
    for (const f of summary.examples) console.log(`  - [${f.rule}] ${f.operation} (${f.kind}) ${f.status}: ${f.detail}\n      ${f.url}`);
  }
  process.exit(summary.findings === 0 ? 0 : 1);
}
