// MCP latency: sequential `tools/call list_tags` and `tools/list` over loopback against the real server, beside the
// REST call doing the same work (GET /api/v1/tags), in alternating rounds so a noisy machine weighs on all alike.
//
//   bun scripts/bench/mcp.ts [--calls 500] [--rounds 4] [--compare DIR] [--json]
//
// --compare DIR also runs another checkout's server (an older commit unpacked beside this one, sharing node_modules)
// in the same rounds, for before/after figures that the machine's noise cannot separate.
import { join, resolve } from "node:path";
import { BUN, flag, report, ROOT, row, spawnServer, tempDir, type Row } from "./lib";

const calls = flag("calls", 500);
const rounds = flag("rounds", 4);
const compareAt = process.argv.indexOf("--compare");
const compare = compareAt === -1 ? null : resolve(process.argv[compareAt + 1]);

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

/** A server of the checkout at `root` with one Pro account and 20 tagged ideas; the three calls measured on it. */
async function startServer(root: string) {
  const dataDir = tempDir("idearepo-bench-mcp-");
  const created = Bun.spawnSync([BUN, join(root, "src/main.ts"), "users", "create", "--email", "bench@example.com", "--plan", "pro"], {
    env: { ...process.env, IDEAREPO_DATA_DIR: dataDir },
  });
  const key = JSON.parse(created.stdout.toString()).api_key as string;
  const app = await spawnServer([BUN, join(root, "scripts/bench/app-server.ts"), "serve"], { IDEAREPO_DATA_DIR: dataDir, IDEAREPO_PORT: "0" });
  const json = { "content-type": "application/json", "x-api-key": key };
  for (let i = 0; i < 20; i++) {
    await fetch(`${app.base}/api/v1/ideas`, { method: "POST", headers: json, body: JSON.stringify({ title: `Idea ${i}`, tags: [`tag-${i % 7}`, "bench"] }) });
  }
  const rpcHeaders = { ...json, accept: "application/json, text/event-stream" };
  const rpc = (method: string, params: object) => () =>
    fetch(`${app.base}/mcp`, { method: "POST", headers: rpcHeaders, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  const calls: Record<string, () => Promise<Response>> = {
    rest: () => fetch(`${app.base}/api/v1/tags`, { headers: json }),
    call: rpc("tools/call", { name: "list_tags", arguments: {} }),
    list: rpc("tools/list", {}),
  };
  return { app, calls };
}

export async function mcpBench(): Promise<Row[]> {
  const servers = [{ name: "", ...(await startServer(ROOT)) }];
  if (compare) servers.push({ name: " (compared checkout)", ...(await startServer(compare)) });
  try {
    const times = new Map<string, number[]>();
    for (const { name, calls: sends } of servers) {
      for (const [kind, send] of Object.entries(sends)) {
        times.set(kind + name, []);
        for (let i = 0; i < 50; i++) await (await send()).text(); // warm-up
      }
    }
    for (let r = 0; r < rounds; r++) {
      for (const { name, calls: sends } of servers) {
        for (const [kind, send] of Object.entries(sends)) {
          for (let i = 0; i < calls; i++) {
            const t0 = performance.now();
            const res = await send();
            await res.text();
            times.get(kind + name)!.push(performance.now() - t0);
            if (res.status !== 200) throw new Error(`${kind}${name}: status ${res.status}`);
          }
        }
      }
    }
    const out: Row[] = [];
    for (const { name } of servers) {
      const rest = times.get("rest" + name)!;
      const baseline = { name: "REST GET /api/v1/tags", value: quantile(rest, 0.5) };
      for (const [kind, label] of [["call", "tools/call list_tags"], ["list", "tools/list"]] as const) {
        const p50 = quantile(times.get(kind + name)!, 0.5);
        out.push(row("mcp", `${label} p50${name}`, p50, "ms", { baseline, ratio: baseline.value / p50 }));
        out.push(row("mcp", `${label} p99${name}`, quantile(times.get(kind + name)!, 0.99), "ms", { baseline: { name: "REST p99", value: quantile(rest, 0.99) } }));
      }
    }
    if (compare) {
      // The same REST call on both checkouts: what the auth plugin's route lookup costs against the old URL rules.
      const [ours, theirs] = [times.get("rest")!, times.get("rest" + servers[1].name)!].map((xs) => quantile(xs, 0.5));
      out.push(row("mcp", "REST GET /api/v1/tags p50", ours, "ms", { baseline: { name: "compared checkout", value: theirs }, ratio: theirs / ours }));
    }
    return out;
  } finally {
    for (const { app } of servers) await app.stop();
  }
}

if (import.meta.main) report(await mcpBench());
