// The MCP tools follow the REST rules: scopes, plan rules (Free cap, Pro gate), validation messages, tenant isolation,
// the shared daily quota; plus the code-mode surface and the endpoint's transport answers.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { call, makeUser, type TestUser } from "../helpers";
import { callTool, connectWithToken, grant, PASSWORD, serve, type Served } from "./helpers";

let s: Served;
let free: TestUser;
let pro: TestUser;
let freeClient: Client;
let proClient: Client;
const open: Client[] = [];

async function connect(key: string) {
  const c = await connectWithToken(s.base, key);
  open.push(c);
  return c;
}

beforeAll(async () => {
  s = serve();
  free = await makeUser(s, { password: PASSWORD });
  pro = await makeUser(s, { plan: "pro", password: PASSWORD });
  freeClient = await connect(free.key);
  proClient = await connect(pro.key);
});
afterAll(async () => {
  for (const c of open) await c.close();
  s.stop();
});

describe("scopes", () => {
  test("a read-only MCP token reads, and write tools answer the REST 403 wording as a tool error", async () => {
    const out = await grant(s.base, free.email, { scope: "ideas:read", name: "Reader" });
    expect(out.body.scope).toBe("ideas:read");
    const reader = await connect(out.body.access_token);
    const idea = (await callTool(freeClient, "capture_idea", { title: "Readable" })).body;

    expect((await callTool(reader, "get_idea", { id: idea.id })).body.title).toBe("Readable");
    expect((await callTool(reader, "list_tags")).isError).toBe(false);
    for (const [tool, args] of [
      ["capture_idea", { title: "Nope" }],
      ["update_idea", { id: idea.id, status: "shipped" }],
      ["add_link", { id: idea.id, url: "https://example.com" }],
      ["relate_ideas", { source_idea_id: idea.id, target_idea_id: idea.id }],
    ] as const) {
      const r = await callTool(reader, tool, args);
      expect(r.isError).toBe(true);
      expect(r.body).toEqual({ error: "Insufficient scope: requires ideas:write" });
    }
    // the same token on the REST API gets the same answer
    const rest = await fetch(`${s.base}/api/v1/ideas`, { method: "POST", headers: { authorization: `Bearer ${out.body.access_token}`, "content-type": "application/json" }, body: JSON.stringify({ title: "x" }) });
    expect(rest.status).toBe(403);
    expect(await rest.json()).toEqual({ error: "Insufficient scope: requires ideas:write" });
    expect((await call(s, "GET", `/ideas/${idea.id}`, { key: free.key })).body.status).toBe("captured");
  });
});

describe("tools call the REST rules", () => {
  test("capture_idea validates like POST /ideas, with the same messages", async () => {
    const long = await callTool(freeClient, "capture_idea", { title: "x".repeat(201) });
    expect(long.isError).toBe(true);
    expect(long.body).toEqual({ error: { title: ["title must be at most 200 characters"] } });
    const badUrl = await callTool(freeClient, "capture_idea", { title: "ok", source_url: "not a url" });
    expect(badUrl.body).toEqual({ error: { source_url: ["source_url must be a valid URL"] } });
    const badStatus = await callTool(freeClient, "capture_idea", { title: "ok", status: "done" });
    expect(badStatus.isError).toBe(true);
    expect(badStatus.text).toContain("status");
    const nulls = await callTool(freeClient, "capture_idea", { title: "Nulls are absent", body: null, tags: null, source: "cli" });
    expect(nulls.body).toMatchObject({ title: "Nulls are absent", body: "", tags: [], source: "cli" });
  });

  test("update_idea, add_link and get_idea work together", async () => {
    const idea = (await callTool(proClient, "capture_idea", { title: "Kite generator", tags: ["wind"] })).body;
    const updated = await callTool(proClient, "update_idea", { id: idea.id, status: "exploring", tags: ["wind", "energy"] });
    expect(updated.body).toMatchObject({ id: idea.id, status: "exploring", tags: ["energy", "wind"].sort() });
    const link = await callTool(proClient, "add_link", { id: idea.id, url: "https://github.com/x/kite", link_type: "code-repo" });
    expect(link.body.link).toMatchObject({ idea_id: idea.id, url: "https://github.com/x/kite", link_type: "code-repo", title: null });
    const got = (await callTool(proClient, "get_idea", { id: idea.id })).body;
    expect(got.links.map((l: { url: string }) => l.url)).toEqual(["https://github.com/x/kite"]);
    const blank = await callTool(proClient, "update_idea", { id: idea.id, title: "   " });
    expect(blank.body).toEqual({ error: { title: ["title must not be blank"] } });
    const filtered = await callTool(proClient, "list_ideas", { status: "exploring", tag: "energy" });
    expect(filtered.body.ideas.map((i: { id: number }) => i.id)).toEqual([idea.id]);
  });

  test("another account's ideas behave exactly as absent", async () => {
    const mine = (await callTool(proClient, "capture_idea", { title: "Private plan" })).body;
    for (const [tool, args] of [
      ["get_idea", { id: mine.id }],
      ["update_idea", { id: mine.id, title: "stolen" }],
      ["add_link", { id: mine.id, url: "https://example.com" }],
    ] as const) {
      const r = await callTool(freeClient, tool, args);
      expect(r.isError).toBe(true);
      expect(r.body).toEqual({ error: "Idea not found" });
    }
    const listed = (await callTool(freeClient, "list_ideas", { limit: 100 })).body.ideas;
    expect(listed.some((i: { id: number }) => i.id === mine.id)).toBe(false);
    const found = (await callTool(freeClient, "search_ideas", { q: "private plan", mode: "keyword" })).body.results;
    expect(found).toEqual([]);
    expect((await callTool(proClient, "get_idea", { id: mine.id })).body.title).toBe("Private plan");
  });

  test("relate_ideas is Pro only (the plan-gate body) and keeps the relation rules", async () => {
    const a = (await callTool(freeClient, "capture_idea", { title: "Free A" })).body;
    const b = (await callTool(freeClient, "capture_idea", { title: "Free B" })).body;
    const gated = await callTool(freeClient, "relate_ideas", { source_idea_id: a.id, target_idea_id: b.id });
    expect(gated.isError).toBe(true);
    expect(gated.body).toEqual({ error: "Relation editing requires a Pro plan", pro_required: true, feature: "relations", upgrade_url: s.deps.config.upgrade_url });

    const x = (await callTool(proClient, "capture_idea", { title: "Pro X" })).body;
    const y = (await callTool(proClient, "capture_idea", { title: "Pro Y" })).body;
    const made = await callTool(proClient, "relate_ideas", { source_idea_id: x.id, target_idea_id: y.id, relation_type: "blocks", note: "first" });
    expect(made.body).toEqual({ relation: { id: made.body.relation.id, source_idea_id: x.id, target_idea_id: y.id, relation_type: "blocks", note: "first" } });
    const twice = await callTool(proClient, "relate_ideas", { source_idea_id: x.id, target_idea_id: y.id });
    expect(twice.body).toEqual({ error: "Relation already exists" });
    const loop = await callTool(proClient, "relate_ideas", { source_idea_id: y.id, target_idea_id: x.id, relation_type: "blocks" });
    expect(loop.body.error).toBe(`This would create a circular blocking chain: #${y.id} → #${x.id} → #${y.id}`);
    const foreign = await callTool(proClient, "relate_ideas", { source_idea_id: x.id, target_idea_id: a.id });
    expect(foreign.body).toEqual({ error: "Idea not found" });
  });

  test("the Free idea cap surfaces as the idea_limit_reached body", async () => {
    const capped = await makeUser(s, { password: PASSWORD });
    for (let i = 0; i < 50; i++) expect((await call(s, "POST", "/ideas", { key: capped.key, body: { title: `idea ${i}` } })).status).toBe(201);
    const client = await connect(capped.key);
    const r = await callTool(client, "capture_idea", { title: "one too many" });
    expect(r.isError).toBe(true);
    expect(r.body).toMatchObject({ error: "idea_limit_reached", currentCount: 50, limit: 50, upgradeUrl: s.deps.config.upgrade_url });
    expect(typeof r.body.message).toBe("string");
  });
});

describe("rate limit", () => {
  test("tool calls share the user's daily quota with the REST API", async () => {
    const u = await makeUser(s, { password: PASSWORD });
    const client = await connect(u.key);
    for (let i = 0; i < 98; i++) expect((await call(s, "GET", "/tags", { key: u.key })).status).toBe(200);
    expect((await callTool(client, "list_tags")).isError).toBe(false); // 99
    expect((await callTool(client, "list_ideas")).isError).toBe(false); // 100
    const over = await callTool(client, "list_tags");
    expect(over.isError).toBe(true);
    expect(over.body).toEqual({ error: "Rate limit exceeded" });
    expect((await call(s, "GET", "/tags", { key: u.key })).status).toBe(429);
    // the protocol itself (initialize, tools/list) is not counted, so the assistant can still explain what happened
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });
});

describe("code mode", () => {
  test("with code_mode on, run_operations runs several tool calls in order, each with its own rules", async () => {
    expect((await freeClient.listTools()).tools.some((t) => t.name === "run_operations")).toBe(false);
    const u = await makeUser(s, { plan: "pro", password: PASSWORD });
    expect((await call(s, "PATCH", "/user/me", { key: u.key, body: { settings_json: JSON.stringify({ code_mode: true }) } })).status).toBe(200);
    const client = await connect(u.key);
    expect((await client.listTools()).tools.some((t) => t.name === "run_operations")).toBe(true);

    const r = await callTool(client, "run_operations", {
      operations: [
        { tool: "capture_idea", arguments: { title: "Batch one" } },
        { tool: "capture_idea", arguments: { title: "Batch two", tags: ["batch"] } },
        { tool: "get_idea", arguments: { id: 987654321 } },
        { tool: "capture_idea", arguments: { title: 42 } },
        { tool: "list_ideas", arguments: { tag: "batch" } },
      ],
    });
    expect(r.isError).toBe(false);
    expect(r.body.succeeded).toBe(3);
    expect(r.body.failed).toBe(2);
    expect(r.body.results.map((x: { tool: string; ok: boolean }) => [x.tool, x.ok])).toEqual([
      ["capture_idea", true], ["capture_idea", true], ["get_idea", false], ["capture_idea", false], ["list_ideas", true],
    ]);
    expect(r.body.results[2].error).toEqual({ error: "Idea not found" });
    expect(r.body.results[4].result.ideas.map((i: { title: string }) => i.title)).toEqual(["Batch two"]);

    const reader = await connect((await grant(s.base, u.email, { scope: "ideas:read" })).body.access_token);
    const scoped = await callTool(reader, "run_operations", { operations: [{ tool: "capture_idea", arguments: { title: "x" } }, { tool: "list_tags" }] });
    expect(scoped.body.results[0]).toEqual({ tool: "capture_idea", ok: false, error: { error: "Insufficient scope: requires ideas:write" } });
    expect(scoped.body.results[1].ok).toBe(true);
  });
});

describe("the /mcp endpoint", () => {
  test("GET and DELETE answer 405 in stateless mode; unauthenticated GET still asks for a token", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(`${s.base}/mcp/`, { method, headers: { authorization: `Bearer ${free.key}`, accept: "text/event-stream" } });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
    }
    const anon = await fetch(`${s.base}/mcp`, { headers: { accept: "text/event-stream" } });
    expect(anon.status).toBe(401);
    expect(anon.headers.get("www-authenticate")).toContain("resource_metadata=");
  });

  test("a JSON-RPC body that is not valid JSON gets a JSON-RPC parse error, not a crash", async () => {
    const res = await fetch(`${s.base}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${free.key}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: "{oops",
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });
});
