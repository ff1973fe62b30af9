// The agent on two nodes of one PostgreSQL database: a proposal made through a socket on A is answered through B.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import type { Config } from "../../src/config";
import { call, makeUser, type TestApp } from "../helpers";
import { makePgApp } from "../support/pg-app";
import { requirePostgres } from "../support/postgres";
import { startStreamFake } from "../fakes/stream-providers";
import { AgentClient, MODELS } from "../agent/helpers";

const run = requirePostgres();

describe.skipIf(!run)("agent proposals across nodes", () => {
  const fake = startStreamFake("anthropic");
  // Every node of an instance has the same configuration, the master key included (docs/operations.md).
  const config: Partial<Config> = {
    master_key: randomBytes(32).toString("hex"),
    provider_timeout_ms: 1500,
    providers: {
      provider_a: { protocol: "anthropic", base_url: fake.baseUrl, model: MODELS.provider_a },
      // Not used here: only provider_a's key is stored.
      provider_b: { protocol: "openai", base_url: fake.baseUrl, model: MODELS.provider_b },
      provider_c: { protocol: "gemini", base_url: fake.baseUrl, model: MODELS.provider_c },
    },
  };
  const nodes: Array<TestApp & { ws: string }> = [];
  beforeAll(async () => {
    const a = await makePgApp({ config });
    const b = await makePgApp({ config, url: a.url });
    for (const t of [a, b]) {
      t.app.listen({ hostname: "127.0.0.1", port: 0 });
      nodes.push({ ...t, ws: `ws://127.0.0.1:${t.app.server!.port}/api/v1/agent/ws` });
    }
  });
  afterAll(async () => {
    for (const t of nodes.reverse()) {
      await t.app.server?.stop(true);
      await t.close();
    }
    fake.stop();
  });

  async function proWithKey(t: TestApp) {
    const u = await makeUser(t, { plan: "pro" });
    const apiKey = `sk-test-${randomBytes(12).toString("hex")}`;
    fake.validKeys.add(apiKey);
    expect((await call(t, "PUT", "/user/byok/provider_a", { key: u.key, body: { api_key: apiKey } })).status).toBe(200);
    return u;
  }

  test("approved on B, the write runs and the turn on A ends; a second answer is refused on either node", async () => {
    const [a, b] = nodes;
    const u = await proWithKey(a);
    fake.requests.length = 0; // the script's n counts requests since
    fake.script = (_req, n) =>
      n === 0 ? { steps: [{ call: { name: "capture_idea", input: { title: "Confirmed elsewhere" } } }] } : { steps: [{ text: "Saved it." }] };
    const onA = await AgentClient.connect(a.ws, { "x-api-key": u.key });
    const onB = await AgentClient.connect(b.ws, { "x-api-key": u.key });
    try {
      onA.send({ type: "ask", text: "Save an idea" });
      const proposal = await onA.waitFor((m) => m.type === "proposal");
      expect((await call(b, "GET", "/ideas", { key: u.key })).body.ideas).toHaveLength(0);
      onB.send({ type: "confirm", call_id: proposal.call_id, approve: true });
      const done = await onA.waitFor((m) => m.type === "done");
      expect(onA.messages.filter((m) => m.type === "tool").map((m) => m.status)).toEqual(["running", "done"]);
      expect((await call(b, "GET", "/ideas", { key: u.key })).body.ideas.map((i: { title: string }) => i.title)).toEqual(["Confirmed elsewhere"]);
      const kept = await call(b, "GET", `/agent/conversations/${done.conversation_id}`, { key: u.key });
      const results = kept.body.conversation.messages.find((m: { role: string }) => m.role === "tool").results;
      expect(results.map((r: { status: string }) => r.status)).toEqual(["approved"]);
      // Settled: answering it again, on either node, is refused as a frame error.
      onB.send({ type: "confirm", call_id: proposal.call_id, approve: true });
      expect((await onB.waitFor((m) => m.type === "error")).error).toBe(`No proposal is waiting with call_id ${proposal.call_id}`);
      expect(onB.messages.filter((m) => m.type !== "error")).toEqual([]);
    } finally {
      onA.close();
      onB.close();
    }
  });

  test("declined on B, nothing runs; another account cannot answer it", async () => {
    const [a, b] = nodes;
    const u = await proWithKey(a);
    const other = await proWithKey(b);
    fake.requests.length = 0; // the script's n counts requests since
    fake.script = (_req, n) =>
      n === 0 ? { steps: [{ call: { name: "capture_idea", input: { title: "Never saved" } } }] } : { steps: [{ text: "Understood." }] };
    const onA = await AgentClient.connect(a.ws, { "x-api-key": u.key });
    const stranger = await AgentClient.connect(b.ws, { "x-api-key": other.key });
    const onB = await AgentClient.connect(b.ws, { "x-api-key": u.key });
    try {
      onA.send({ type: "ask", text: "Save an idea" });
      const proposal = await onA.waitFor((m) => m.type === "proposal");
      stranger.send({ type: "confirm", call_id: proposal.call_id, approve: true });
      expect((await stranger.waitFor((m) => m.type === "error")).error).toStartWith("No proposal is waiting");
      onB.send({ type: "confirm", call_id: proposal.call_id, approve: false });
      await onA.waitFor((m) => m.type === "done");
      expect(onA.messages.some((m) => m.type === "tool")).toBe(false);
      expect((await call(a, "GET", "/ideas", { key: u.key })).body.ideas).toHaveLength(0);
    } finally {
      onA.close();
      onB.close();
      stranger.close();
    }
  });
});
