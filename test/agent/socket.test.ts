// GET /agent/ws: who may open it, and a first turn end to end (Anthropic's streaming wire format, a read, proposals).
import { describe, expect, test } from "bun:test";
import { call, makeUser } from "../helpers";
import { createApiKeysService } from "../../src/modules/api-keys/service";
import { AgentClient, proWithKey, textOf, useAgentServer } from "./helpers";

const { s, fakes } = useAgentServer();

const upgrade = (headers: Record<string, string>) =>
  fetch(s.ws.replace("ws:", "http:"), { headers: { connection: "Upgrade", upgrade: "websocket", "sec-websocket-version": "13", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==", ...headers } });

async function idea(key: string, body: Record<string, unknown>) {
  const r = await call(s, "POST", "/ideas", { key, body });
  expect(r.status).toBe(201);
  return r.body as { id: number; number: number; title: string };
}

describe("the upgrade", () => {
  test("no credentials: 401 {error:Unauthorized} and no upgrade", async () => {
    const r = await upgrade({});
    expect(r.status).toBe(401);
    expect(await r.json()).toEqual({ error: "Unauthorized" });
  });

  test("a Free account gets the spec's plan-gate body and no upgrade", async () => {
    const u = await makeUser(s);
    const r = await upgrade({ "x-api-key": u.key });
    expect(r.status).toBe(403);
    expect(await r.json()).toEqual({ error: "The agent requires a Pro plan", pro_required: true, feature: "agent", upgrade_url: s.deps.config.upgrade_url });
  });

  test("a plain GET without the upgrade headers is told to upgrade (426)", async () => {
    const u = await makeUser(s, { plan: "pro" });
    const r = await fetch(s.ws.replace("ws:", "http:"), { headers: { "x-api-key": u.key } });
    expect(r.status).toBe(426);
    expect(((await r.json()) as { error: string }).error).toMatch(/WebSocket/);
  });

  test("X-API-Key and Authorization: Bearer both open the socket", async () => {
    const u = await makeUser(s, { plan: "pro" });
    for (const headers of [{ "x-api-key": u.key }, { authorization: `Bearer ${u.key}` }] as Record<string, string>[]) {
      const c = await AgentClient.connect(s.ws, headers);
      c.close();
    }
  });

  test("a cookie upgrade from another site is refused; from this site it opens", async () => {
    const u = await makeUser(s, { plan: "pro", password: "correct horse battery" });
    const login = await call(s, "POST", "/auth/login", { body: { email: u.email, password: "correct horse battery" } });
    expect(login.status).toBe(200);
    const cookie = login.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const cross = await upgrade({ cookie, origin: "https://evil.example" });
    expect(cross.status).toBe(403);
    expect(await cross.json()).toEqual({ error: "Cross-site request refused" });
    const crossFetch = await upgrade({ cookie, origin: s.base, "sec-fetch-site": "cross-site" });
    expect(crossFetch.status).toBe(403);
    const c = await AgentClient.connect(s.ws, { cookie, origin: s.base });
    c.close();
  });
});

describe("a turn with provider_a (Anthropic Messages SSE)", () => {
  test("a read round trip: search runs at once, the answer streams and cites the idea, done carries usage", async () => {
    const u = await proWithKey(s);
    const solar = await idea(u.key, { title: "Solar kettle", body: "A kettle that boils water with a small mirror array." });
    fakes.provider_a.script = (req, n) =>
      n === 0
        ? { steps: [{ text: "Let me look. " }, { call: { name: "search_ideas", input: { q: "kettle", mode: "keyword" } } }], usage: { input: 120, output: 30 } }
        : { steps: [{ text: `You have one: #${solar.number} Solar kettle, which boils water with mirrors.` }], usage: { input: 300, output: 20 } };
    const c = await AgentClient.connect(s.ws, { "x-api-key": u.key });
    const msgs = await c.turn({ text: "Do I have anything about kettles?" });
    c.close();
    const types = msgs.map((m) => m.type);
    expect(types.at(-1)).toBe("done");
    expect(msgs.filter((m) => m.type === "tool").map((m) => [m.name, m.status])).toEqual([["search_ideas", "running"], ["search_ideas", "done"]]);
    expect(msgs.find((m) => m.type === "tool")!.input).toEqual({ q: "kettle", mode: "keyword" });
    expect(textOf(msgs)).toBe(`Let me look. You have one: #${solar.number} Solar kettle, which boils water with mirrors.`);
    expect(msgs.filter((m) => m.type === "delta").length).toBeGreaterThan(5);
    const done = msgs.at(-1)!;
    expect(done).toMatchObject({ provider: "provider_a", model: "claude-fake-1", usage: { input_tokens: 420, output_tokens: 50 } });
    expect(done.conversation_usage).toEqual({ input_tokens: 420, output_tokens: 50 });
    expect(done.cited).toEqual([{ number: solar.number, id: solar.id, title: "Solar kettle" }]);
    expect(typeof done.conversation_id).toBe("string");

    // What the provider was sent: its own format, the tools declared, the tool's result in the second round.
    const [first, second] = fakes.provider_a.requests;
    expect(first.headers["x-api-key"]).toBe(u.apiKey);
    expect(first.body.stream).toBe(true);
    expect(first.body.tools.map((t: any) => t.name)).toContain("capture_idea");
    expect(first.body.tools.find((t: any) => t.name === "search_ideas").input_schema.properties.q).toBeDefined();
    const toolUse = second.body.messages[1].content.find((b: any) => b.type === "tool_use");
    expect(toolUse).toMatchObject({ name: "search_ideas", input: { q: "kettle", mode: "keyword" } });
    const result = second.body.messages[2].content[0];
    expect(result.type).toBe("tool_result");
    expect(result.tool_use_id).toBe(toolUse.id);
    expect(JSON.parse(result.content).results[0].title).toBe("Solar kettle");
  });

  test("a write becomes a proposal and runs only after approve:true", async () => {
    const u = await proWithKey(s);
    fakes.provider_a.script = (req, n) =>
      n === 0
        ? { steps: [{ call: { name: "capture_idea", input: { title: "Rain-powered lamp", tags: ["energy"] } } }] }
        : { steps: [{ text: "Saved it." }] };
    const c = await AgentClient.connect(s.ws, { "x-api-key": u.key });
    c.send({ type: "ask", text: "Save an idea: rain-powered lamp" });
    const proposal = await c.waitFor((m) => m.type === "proposal");
    expect(proposal).toMatchObject({ name: "capture_idea", input: { title: "Rain-powered lamp", tags: ["energy"] } });
    expect(proposal.summary).toBe("Capture a new idea “Rain-powered lamp” tagged energy");
    expect((await call(s, "GET", "/ideas", { key: u.key })).body.ideas).toHaveLength(0);
    c.send({ type: "confirm", call_id: proposal.call_id, approve: true });
    const done = await c.waitFor((m) => m.type === "done");
    c.close();
    const ideas = (await call(s, "GET", "/ideas", { key: u.key })).body.ideas;
    expect(ideas.map((i: any) => [i.title, i.source])).toEqual([["Rain-powered lamp", "assistant-mcp"]]);
    expect(c.messages.filter((m) => m.type === "tool").map((m) => m.status)).toEqual(["running", "done"]);
    const told = fakes.provider_a.requests[1].body.messages[2].content[0];
    expect(JSON.parse(told.content).title).toBe("Rain-powered lamp");
    expect(done.type).toBe("done");
  });

  test("approve:false tells the model it was declined, and nothing changes", async () => {
    const u = await proWithKey(s);
    const kept = await idea(u.key, { title: "Keep me" });
    fakes.provider_a.script = (req, n) =>
      n === 0 ? { steps: [{ call: { name: "update_idea", input: { id: kept.id, status: "shelved" } } }] } : { steps: [{ text: "Understood, left as is." }] };
    const c = await AgentClient.connect(s.ws, { "x-api-key": u.key });
    c.send({ type: "ask", text: "Archive it" });
    const proposal = await c.waitFor((m) => m.type === "proposal");
    expect(proposal.summary).toBe(`Update #${kept.number} “Keep me”: status → shelved`);
    c.send({ type: "confirm", call_id: proposal.call_id, approve: false });
    await c.waitFor((m) => m.type === "done");
    c.close();
    expect((await call(s, "GET", `/ideas/${kept.id}`, { key: u.key })).body.status).toBe("captured");
    const told = fakes.provider_a.requests[1].body.messages[2].content[0];
    expect(told.is_error).toBe(true);
    expect(told.content).toMatch(/declined/);
  });

  test("no provider key: error with needs_byok, before any provider call", async () => {
    const u = await makeUser(s, { plan: "pro" });
    const c = await AgentClient.connect(s.ws, { "x-api-key": u.key });
    const msgs = await c.turn({ text: "hello" });
    c.close();
    expect(msgs).toHaveLength(1);
    expect(msgs[0]).toMatchObject({ type: "error", needs_byok: true });
    expect(fakes.provider_a.requests).toHaveLength(0);
  });

  test("an MCP token with ideas:read talks; it is offered no writes, and a write it is asked for is refused, not proposed", async () => {
    const u = await proWithKey(s);
    const token = (await createApiKeysService(s.deps).mint(u.id, "MCP (test)", "ideas:read", "mcp")).key;
    const writeOnly = (await createApiKeysService(s.deps).mint(u.id, "MCP (test)", "ideas:write", "mcp")).key;
    const refused = await upgrade({ authorization: `Bearer ${writeOnly}` });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: "Insufficient scope: requires ideas:read" });
    fakes.provider_a.script = (req, n) =>
      n === 0 ? { steps: [{ call: { name: "capture_idea", input: { title: "Sneaky" } } }] } : { steps: [{ text: "I cannot save ideas here." }] };
    const c = await AgentClient.connect(s.ws, { authorization: `Bearer ${token}` });
    const msgs = await c.turn({ text: "save Sneaky" });
    c.close();
    expect(msgs.some((m) => m.type === "proposal")).toBe(false);
    expect(msgs.find((m) => m.type === "tool")).toMatchObject({ name: "capture_idea", status: "error" });
    expect(msgs.at(-1)!.type).toBe("done");
    const offered = fakes.provider_a.requests[0].body.tools.map((t: any) => t.name);
    expect(offered).toContain("search_ideas");
    expect(offered).not.toContain("capture_idea");
    expect(offered).not.toContain("update_idea");
    expect(JSON.parse(fakes.provider_a.requests[1].body.messages[2].content[0].content)).toEqual({ error: "Insufficient scope: requires ideas:write" });
    expect((await call(s, "GET", "/ideas", { key: u.key })).body.ideas).toHaveLength(0);
  });
});
