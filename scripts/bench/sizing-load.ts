// The sizing benchmark's load: a person's day as request rates, open-loop (Poisson) arrivals at a given rate, and the
// two targets it is offered to (idearepo, and the bare Bun.serve + SQLite baseline).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { STOP_WORDS } from "../../src/contract";
import type { Seeded, SeededAccount } from "./sizing-seed";
import { createRng } from "../fuzz/rng";

/**
 * One account's day (assumption, stated in docs/operations.md): what a person who uses idearepo daily does across the
 * web app, the CLI, share sheets and an assistant. 60 requests a day.
 */
export const MIX = [
  { route: "POST /ideas", perDay: 8 },
  { route: "GET /ideas", perDay: 20 },
  { route: "GET /ideas/:id", perDay: 12 },
  { route: "search keyword", perDay: 6 },
  { route: "search semantic", perDay: 4 },
  { route: "GET /review", perDay: 3 },
  { route: "MCP search_ideas", perDay: 3 },
  { route: "MCP list_ideas", perDay: 2 },
  { route: "MCP capture_idea", perDay: 2 },
] as const;
export type Route = (typeof MIX)[number]["route"];
export const PER_DAY = MIX.reduce((n, m) => n + m.perDay, 0);
/** Share of a day's requests in its busiest hour, everyone in one time zone (a flat 16-hour day would be 1/16). */
export const PEAK_SHARE = 0.2;
/** Requests per second that `accounts` such accounts make in the peak hour. */
export const rateFor = (accounts: number) => (accounts * PER_DAY * PEAK_SHARE) / 3600;

// mulberry32, own stream: the same run offers the same requests.
const rng = createRng(2026);
const rand = rng.next;
const pick = rng.pick;

export interface Op {
  route: Route;
  account: SeededAccount;
  q: string;
  title: string;
  body: string;
  id: number;
}

/** Draws the next request of the mix: route by weight, account uniformly, its parameters from the held-out text. */
export function opMaker(data: Seeded): (forced?: Route) => Op {
  // Search-box queries: a few content words of a sentence no idea was made of (search.ts does the same).
  const short = data.queries.map((s) => {
    const words = s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
    return words.filter((w) => !STOP_WORDS.has(w)).slice(0, 1 + Math.floor(s.length % 3) + 1).join(" ") || words.slice(0, 3).join(" ");
  });
  const cumulative = MIX.map((m, i) => MIX.slice(0, i + 1).reduce((n, x) => n + x.perDay, 0) / PER_DAY);
  return (forced) => {
    const r = rand();
    const route = forced ?? MIX[cumulative.findIndex((c) => r < c)]?.route ?? "GET /ideas";
    const account = pick(data.accounts);
    return {
      route,
      account,
      q: pick(short),
      title: pick(data.captures).slice(0, 200),
      body: rand() < 0.7 ? pick(data.captures) : "",
      id: account.firstId + Math.floor(rand() * (account.lastId - account.firstId + 1)),
    };
  };
}

export interface Target {
  name: string;
  send(op: Op): Promise<void>;
  close(): Promise<void>;
}

const TIMEOUT_MS = 30_000;

async function call(url: string, init: RequestInit, expect: number): Promise<void> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  await res.arrayBuffer();
  if (res.status !== expect) throw new Error(`${init.method ?? "GET"} ${url}: ${res.status}`);
}

function restRequest(base: string, op: Op, headers: Record<string, string>): [string, RequestInit, number] {
  const api = `${base}/api/v1`;
  const q = encodeURIComponent(op.q);
  switch (op.route) {
    case "POST /ideas":
      return [`${api}/ideas`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify({ title: op.title, body: op.body, source: "web" }) }, 201];
    case "GET /ideas/:id":
      return [`${api}/ideas/${op.id}`, { headers }, 200];
    case "search keyword":
      return [`${api}/ideas/search?q=${q}&mode=keyword`, { headers }, 200];
    case "search semantic":
      return [`${api}/ideas/search?q=${q}`, { headers }, 200];
    case "GET /review":
      return [`${api}/review`, { headers }, 200];
    default:
      return [`${api}/ideas?limit=20`, { headers }, 200];
  }
}

/** idearepo: REST with each account's API key; MCP through the official SDK client, one connected client per account. */
export function productTarget(base: string): Target & { connects: number[]; connectAll(accounts: SeededAccount[], width?: number): Promise<void> } {
  const clients = new Map<string, Promise<Client>>();
  const connects: number[] = [];
  const clientFor = (account: SeededAccount) => {
    let c = clients.get(account.id);
    if (!c) {
      c = (async () => {
        const t0 = performance.now();
        const client = new Client({ name: "sizing-bench", version: "1.0.0" });
        await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { "x-api-key": account.key } } }));
        connects.push(performance.now() - t0);
        return client;
      })();
      clients.set(account.id, c);
    }
    return c;
  };
  return {
    name: "idearepo",
    connects,
    async send(op) {
      if (!op.route.startsWith("MCP ")) {
        const [url, init, expect] = restRequest(base, op, { "x-api-key": op.account.key });
        return call(url, init, expect);
      }
      const client = await clientFor(op.account);
      const args =
        op.route === "MCP search_ideas" ? { q: op.q } : op.route === "MCP list_ideas" ? { limit: 10 } : { title: op.title, body: op.body };
      const name = op.route.slice(4);
      const res = await client.callTool({ name, arguments: args }, undefined, { timeout: TIMEOUT_MS });
      if (res.isError) throw new Error(`${name}: ${JSON.stringify(res.content).slice(0, 200)}`);
    },
    /** Connects every account's client up front (an assistant stays connected), `width` at a time. */
    async connectAll(accounts: SeededAccount[], width = 16) {
      let i = 0;
      await Promise.all(Array.from({ length: width }, async () => {
        while (i < accounts.length) await clientFor(accounts[i++]);
      }));
    },
    async close() {
      for (const c of clients.values()) await (await c).close().catch(() => {});
    },
  };
}

/** The bare server: the same requests over plain fetch (MCP as one JSON-RPC POST), the account in a header. */
export function bareTarget(base: string): Target {
  return {
    name: "bare",
    async send(op) {
      const headers = { "x-bench-user": op.account.id };
      if (!op.route.startsWith("MCP ")) {
        const [url, init, expect] = restRequest(base, op, headers);
        return call(url, init, expect);
      }
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: op.route.slice(4), arguments: { q: op.q } } });
      return call(`${base}/mcp`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body }, 200);
    },
    async close() {},
  };
}

export interface Sample { route: Route; ms: number; ok: boolean; error?: string }

/**
 * Offers `rate` requests per second for `seconds` as a Poisson process, without waiting for answers (open loop: a
 * slow server does not slow the arrivals). Each latency counts from the moment the request was due, so lag in this
 * process or a queue in the server both show in it. Waits for the stragglers (bounded by the request timeout).
 */
export async function offer(target: Target, next: () => Op, rate: number, seconds: number): Promise<Sample[]> {
  const samples: Sample[] = [];
  const pending = new Set<Promise<void>>();
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  let due = t0 - Math.log(1 - rand()) * (1000 / rate);
  while (due < end) {
    const now = performance.now();
    while (due <= now && due < end) {
      const op = next();
      const at = due;
      const p: Promise<void> = target
        .send(op)
        .then(
          () => void samples.push({ route: op.route, ms: performance.now() - at, ok: true }),
          (e) => void samples.push({ route: op.route, ms: performance.now() - at, ok: false, error: String((e as Error).message ?? e).slice(0, 200) }),
        )
        .finally(() => pending.delete(p));
      pending.add(p);
      due -= Math.log(1 - rand()) * (1000 / rate);
    }
    await Bun.sleep(Math.max(1, Math.min(due - performance.now(), 20)));
  }
  await Promise.all(pending);
  return samples;
}

export function quantile(xs: number[], q: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
}
