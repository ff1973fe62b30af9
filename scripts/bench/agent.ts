// The agent socket: time from `ask` to the first `delta`, beside the fake provider's own first byte in the same turn
// (and a direct streaming fetch of the same fake, no idearepo in between), in alternating rounds; and the server's
// memory per open socket beside a bare Bun WebSocket server holding as many.
//
//   bun scripts/bench/agent.ts [--asks 200] [--rounds 4] [--sockets 500] [--json]
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { startStreamFake } from "../../test/fakes/stream-providers";
import { readFileSync } from "node:fs";
import { BUN, flag, report, ROOT, row, spawnServer, tempDir, type Row } from "./lib";

const asks = flag("asks", 200);
const rounds = flag("rounds", 4);
const sockets = flag("sockets", 1000);

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const ANSWER = "The answer streams in small pieces, as a real model's would. ".repeat(4);

function open(url: string, headers: Record<string, string>): Promise<WebSocket> {
  const ws = new WebSocket(url, { headers } as any);
  return new Promise((resolve, reject) => {
    ws.onopen = () => resolve(ws);
    ws.onerror = () => reject(new Error(`cannot open ${url}`));
  });
}

export async function agentBench(): Promise<Row[]> {
  const fake = startStreamFake("anthropic");
  fake.script = () => ({ steps: [{ text: ANSWER }], usage: { input: 50, output: 40 } });
  const apiKey = `sk-bench-${randomBytes(12).toString("hex")}`;
  fake.validKeys.add(apiKey);
  const dataDir = tempDir("idearepo-bench-agent-");
  const env = {
    IDEAREPO_DATA_DIR: dataDir, IDEAREPO_PORT: "0", IDEAREPO_MASTER_KEY: randomBytes(32).toString("hex"),
    IDEAREPO_PROVIDER_A__BASE_URL: fake.baseUrl, IDEAREPO_PROVIDER_A__MODEL: "claude-bench",
  };
  const created = Bun.spawnSync([BUN, join(ROOT, "src/main.ts"), "users", "create", "--email", "bench@example.com", "--plan", "pro"], { env: { ...process.env, ...env } });
  const key = JSON.parse(created.stdout.toString()).api_key as string;
  const app = await spawnServer([BUN, join(ROOT, "scripts/bench/app-server.ts"), "serve"], env);
  const bare = await spawnServer([BUN, join(ROOT, "scripts/bench/bare-server.ts"), "ws"], {});
  const rows: Row[] = [];
  try {
    const put = await fetch(`${app.base}/api/v1/user/byok/provider_a`, { method: "PUT", headers: { "content-type": "application/json", "x-api-key": key }, body: JSON.stringify({ api_key: apiKey }) });
    if (put.status !== 200) throw new Error(`byok: ${put.status}`);
    const wsUrl = `${app.base.replace("http", "ws")}/api/v1/agent/ws`;
    const ws = await open(wsUrl, { "x-api-key": key });
    let onMessage: (m: any) => void = () => {};
    ws.onmessage = (e) => onMessage(JSON.parse(String(e.data)));

    /** One turn: ask → first delta, and ask → the fake's first byte (same clock: the fake runs in this process). */
    const turn = () =>
      new Promise<{ delta: number; providerByte: number }>((resolve, reject) => {
        const t0 = performance.now();
        let delta = -1;
        onMessage = (m) => {
          if (m.type === "delta" && delta < 0) delta = performance.now() - t0;
          else if (m.type === "done") resolve({ delta, providerByte: fake.firstByteAt - t0 });
          else if (m.type === "error") reject(new Error(m.error));
        };
        ws.send(JSON.stringify({ type: "ask", text: "What do my ideas say?" }));
      });
    /** The raw baseline: this process streaming the same answer from the fake directly, time to the first body byte. */
    const direct = async () => {
      const t0 = performance.now();
      const res = await fetch(`${fake.baseUrl}/v1/messages`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": apiKey, "anthropic-version": "2023-06-01" },
        body: JSON.stringify({ model: "claude-bench", max_tokens: 100, stream: true, messages: [{ role: "user", content: "What do my ideas say?" }] }),
      });
      const reader = res.body!.getReader();
      await reader.read();
      const t = performance.now() - t0;
      while (!(await reader.read()).done) {}
      return t;
    };

    for (let i = 0; i < 20; i++) {
      await turn();
      await direct();
    }
    const toDelta: number[] = [];
    const toByte: number[] = [];
    const directs: number[] = [];
    for (let r = 0; r < rounds; r++) {
      for (let i = 0; i < asks / rounds; i++) {
        const t = await turn();
        toDelta.push(t.delta);
        toByte.push(t.providerByte);
        directs.push(await direct());
      }
    }
    ws.close();
    const base = { name: "the fake provider's first byte, same turn", value: quantile(toByte, 0.5) };
    rows.push(row("agent", "ask → first delta p50", quantile(toDelta, 0.5), "ms", { baseline: base }));
    rows.push(row("agent", "ask → first delta p99", quantile(toDelta, 0.99), "ms", { baseline: { name: "the fake provider's first byte p99", value: quantile(toByte, 0.99) } }));
    rows.push(row("agent", "direct streaming fetch, first byte p50", quantile(directs, 0.5), "ms"));
    rows.push(row("agent", "first delta after the provider's first byte p50", quantile(toDelta.map((d, i) => d - toByte[i]), 0.5), "ms"));

    // Memory per open socket: the RSS slope over a second batch of `sockets` idle sockets (the first batch warms the
    // server's pools), the product beside the bare server; the median of three samples a second apart at each end.
    const rss = async (pid: number) => {
      const xs: number[] = [];
      for (let i = 0; i < 3; i++) {
        await Bun.sleep(1000);
        xs.push(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]));
      }
      return quantile(xs, 0.5);
    };
    const perSocket = async (pid: number, url: string, headers: Record<string, string>) => {
      const held: WebSocket[] = [];
      for (let i = 0; i < sockets; i++) held.push(await open(url, headers));
      const before = await rss(pid);
      for (let i = 0; i < sockets; i++) held.push(await open(url, headers));
      const after = await rss(pid);
      for (const s of held) s.close();
      await Bun.sleep(500);
      return (after - before) / sockets; // KB
    };
    const mine = await perSocket(app.proc.pid, wsUrl, { "x-api-key": key });
    const raw = await perSocket(bare.proc.pid, bare.base.replace("http", "ws"), {});
    rows.push(row("agent", `server memory per open socket (${sockets} sockets)`, mine, "KB", { baseline: { name: "bare Bun WebSocket server", value: raw } }));
  } finally {
    await app.stop();
    await bare.stop();
    fake.stop();
  }
  return rows;
}

if (import.meta.main) report(await agentBench());
