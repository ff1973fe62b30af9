// Agent test fixtures: the real app on a 127.0.0.1 listener (WebSockets need one), streaming fake providers, and a
// WebSocket client that collects what the server says.
import { afterAll, beforeEach } from "bun:test";
import { randomBytes } from "node:crypto";
import type { Config } from "../../src/config";
import { call, makeApp, makeUser, type TestApp, type TestUser } from "../helpers";
import { startStreamFake, type StreamFake } from "../fakes/stream-providers";

export const MODELS = { provider_a: "claude-fake-1", provider_b: "gpt-fake-1", provider_c: "gemini-fake-1" } as const;
export type Slot = keyof typeof MODELS;

export interface AgentServer extends TestApp {
  base: string;
  ws: string;
  fakes: Record<Slot, StreamFake>;
}

export function serveAgent(fakes: Record<Slot, StreamFake>, config: Partial<Config> = {}, logs?: string[]): AgentServer {
  const t = makeApp({
    logs,
    config: {
      master_key: randomBytes(32).toString("hex"),
      provider_timeout_ms: 1500,
      providers: {
        provider_a: { protocol: "anthropic", base_url: fakes.provider_a.baseUrl, model: MODELS.provider_a },
        provider_b: { protocol: "openai", base_url: fakes.provider_b.baseUrl, model: MODELS.provider_b },
        provider_c: { protocol: "gemini", base_url: fakes.provider_c.baseUrl, model: MODELS.provider_c },
      },
      ...config,
    },
  });
  t.app.listen({ hostname: "127.0.0.1", port: 0 });
  const port = t.app.server!.port;
  const close = t.close;
  return {
    ...t,
    fakes,
    base: `http://127.0.0.1:${port}`,
    ws: `ws://127.0.0.1:${port}/api/v1/agent/ws`,
    close: async () => {
      await t.app.server?.stop(true);
      await close();
    },
  };
}

/** One server and three fakes for the file; a clean fake script before each test. */
export function useAgentServer(config: Partial<Config> = {}) {
  const fakes = { provider_a: startStreamFake("anthropic"), provider_b: startStreamFake("openai"), provider_c: startStreamFake("gemini") };
  const logs: string[] = [];
  const s = serveAgent(fakes, config, logs);
  beforeEach(() => {
    for (const f of Object.values(fakes)) {
      f.requests.length = 0;
      f.aborted = 0;
      f.script = () => ({ steps: [{ text: "Nothing to say." }] });
    }
    logs.length = 0;
  });
  afterAll(() => {
    s.close();
    for (const f of Object.values(fakes)) f.stop();
  });
  return { s, fakes, logs };
}

/** A user (Pro unless told) with a stored provider key the fake accepts. */
export async function proWithKey(s: AgentServer, slot: Slot = "provider_a", plan: "pro" | "free" = "pro"): Promise<TestUser & { apiKey: string }> {
  const u = await makeUser(s, { plan: "pro" });
  const apiKey = `sk-test-${randomBytes(12).toString("hex")}`;
  s.fakes[slot].validKeys.add(apiKey);
  const put = await call(s, "PUT", `/user/byok/${slot}`, { key: u.key, body: { api_key: apiKey } });
  if (put.status !== 200) throw new Error(`byok: ${put.status} ${put.text}`);
  if (plan === "free") await s.deps.store.query("UPDATE users SET plan = 'free' WHERE id = ?").run(u.id);
  return { ...u, apiKey };
}

export type Msg = Record<string, any> & { type: string };

/** A WebSocket client that keeps every message and waits for the next ones with a deadline. */
export class AgentClient {
  readonly messages: Msg[] = [];
  private waiters: Array<() => void> = [];
  closed: { code: number; reason: string } | null = null;
  private constructor(readonly ws: WebSocket) {
    ws.onmessage = (e) => {
      this.messages.push(JSON.parse(String(e.data)));
      this.wake();
    };
    ws.onclose = (e) => {
      this.closed = { code: e.code, reason: e.reason };
      this.wake();
    };
  }
  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }

  static connect(url: string, headers: Record<string, string>): Promise<AgentClient> {
    const ws = new WebSocket(url, { headers } as any);
    return new Promise((resolve, reject) => {
      ws.onopen = () => resolve(new AgentClient(ws));
      ws.onerror = () => reject(new Error("WebSocket connection failed"));
    });
  }

  send(m: unknown) {
    this.ws.send(typeof m === "string" ? m : JSON.stringify(m));
  }

  /** Waits until `pred` holds for a message at index ≥ from; returns that message. */
  async waitFor(pred: (m: Msg) => boolean, opts: { from?: number; ms?: number } = {}): Promise<Msg> {
    const deadline = Date.now() + (opts.ms ?? 5000);
    for (;;) {
      const found = this.messages.slice(opts.from ?? 0).find(pred);
      if (found) return found;
      if (this.closed) throw new Error(`socket closed (${this.closed.code}) while waiting; got ${JSON.stringify(this.messages)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting; got ${JSON.stringify(this.messages)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Sends an ask and returns the messages up to its done or error. */
  async turn(ask: Record<string, unknown>, ms = 5000): Promise<Msg[]> {
    const from = this.messages.length;
    this.send({ type: "ask", ...ask });
    await this.waitFor((m) => m.type === "done" || m.type === "error", { from, ms });
    return this.messages.slice(from);
  }

  close() {
    this.ws.close();
  }
}

export const textOf = (msgs: Msg[]) => msgs.filter((m) => m.type === "delta").map((m) => m.text).join("");
