// The whole connection as an MCP application makes it with the official SDK: 401 → discovery → registration →
// consent in the browser → code exchange → tools; the token then works on the REST API and can be revoked there.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { makeUser, type TestUser } from "../helpers";
import { callTool, connectWithToken, consent, PASSWORD, serve, TestProvider, type Served } from "./helpers";

let s: Served;
let user: TestUser;
const provider = new TestProvider("Test Assistant");
let client: Client;

const rest = (path: string, key: string, init: RequestInit = {}) =>
  fetch(`${s.base}/api/v1${path}`, { ...init, headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...(init.headers ?? {}) } });

beforeAll(async () => {
  s = serve();
  user = await makeUser(s, { password: PASSWORD });
});
afterAll(() => s.stop());

describe("connecting an MCP client with the SDK", () => {
  test("an unauthenticated connection points the client at the resource metadata", async () => {
    const res = await fetch(`${s.base}/mcp`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Unauthorized" });
    expect(res.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${s.base}/.well-known/oauth-protected-resource"`);
  });

  test("the SDK discovers, registers and sends the user to the consent page; approving yields a token", async () => {
    const first = new StreamableHTTPClientTransport(new URL(`${s.base}/mcp`), { authProvider: provider });
    await expect(new Client({ name: "t", version: "1" }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.info?.client_id).toMatch(/^[0-9a-f]{32}$/);
    const authUrl = provider.authUrl!;
    expect(`${authUrl.origin}${authUrl.pathname}`).toBe(`${s.base}/mcp/authorize`);
    expect(authUrl.searchParams.get("code_challenge_method")).toBe("S256");

    const flow = await consent(s.base, authUrl, { email: user.email });
    expect(flow.page.status).toBe(200);
    expect(flow.html).toContain("Test Assistant");
    expect(flow.res!.status).toBe(302);
    const back = new URL(flow.location!);
    expect(`${back.origin}${back.pathname}`).toBe(provider.redirectUrl);
    expect(back.searchParams.get("state")).toBe(authUrl.searchParams.get("state"));

    await first.finishAuth(flow.code!);
    expect(provider.saved?.access_token).toMatch(/^svc_[0-9a-f]{64}$/);
    expect(provider.saved?.token_type).toBe("Bearer");
    expect(provider.saved?.scope).toBe("ideas:read ideas:write");

    client = new Client({ name: "t", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.base}/mcp`), { authProvider: provider }));
  });

  test("lists the tools, without the code-mode tool by default", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ["add_link", "capture_idea", "get_idea", "idea_neighbourhood", "list_duplicates", "list_ideas", "list_tags", "relate_ideas", "review_queue", "search_ideas", "update_idea"],
    );
    const capture = tools.find((t) => t.name === "capture_idea")!;
    expect(capture.inputSchema.required).toEqual(["title"]);
    expect(tools.find((t) => t.name === "get_idea")!.annotations?.readOnlyHint).toBe(true);
  });

  test("captures an idea and finds it again through list_ideas, get_idea, search and the REST API", async () => {
    const made = await callTool(client, "capture_idea", { title: "Solar kettle", body: "Boils water with mirrors", tags: ["energy"] });
    expect(made.isError).toBe(false);
    expect(made.body).toMatchObject({ title: "Solar kettle", source: "assistant-mcp", tags: ["energy"], processing: true, status: "captured", vectorize_id: null });

    const listed = await callTool(client, "list_ideas", {});
    expect(listed.body.ideas.map((i: { id: number }) => i.id)).toEqual([made.body.id]);
    expect(listed.body.has_more).toBe(false);

    const got = await callTool(client, "get_idea", { id: made.body.id });
    expect(got.body).toMatchObject({ id: made.body.id, title: "Solar kettle", links: [], relations: [] });

    const found = await callTool(client, "search_ideas", { q: "mirrors", mode: "keyword" });
    expect(found.body.search_type).toBe("fts");
    expect(found.body.results.map((r: { id: number }) => r.id)).toEqual([made.body.id]);

    const viaRest = await rest(`/ideas/${made.body.id}`, provider.saved!.access_token);
    expect(viaRest.status).toBe(200);
    expect(((await viaRest.json()) as { title: string }).title).toBe("Solar kettle");
  });

  test("the token is listed under /user/mcp-tokens with its client label and scopes", async () => {
    const res = await rest("/user/mcp-tokens", user.key);
    const { tokens } = (await res.json()) as { tokens: Array<Record<string, unknown>> };
    expect(tokens).toHaveLength(1);
    expect(tokens[0]).toMatchObject({ label: "MCP (Test Assistant)", scopes: "ideas:read ideas:write", source: "mcp" });
    expect(tokens[0].last_used_at).not.toBeNull();
    expect(Object.keys(tokens[0]).sort()).toEqual(["created_at", "id", "label", "last_used_at", "scopes", "source"]);
    // account routes stay closed to MCP tokens
    expect((await rest("/user/mcp-tokens", provider.saved!.access_token)).status).toBe(403);
  });

  test("revoking it through DELETE /user/api-keys/:id cuts off both MCP and REST at once", async () => {
    const { tokens } = (await (await rest("/user/mcp-tokens", user.key)).json()) as { tokens: Array<{ id: string }> };
    expect((await rest(`/user/api-keys/${tokens[0].id}`, user.key, { method: "DELETE" })).status).toBe(200);
    const res = await fetch(`${s.base}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${provider.saved!.access_token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect((await rest("/ideas", provider.saved!.access_token)).status).toBe(401);
    await client.close();
  });

  test("a plain API key works as the bearer token too, and so does X-API-Key; a sign-in session does not", async () => {
    const viaBearer = await connectWithToken(s.base, user.key);
    const tags = (await callTool(viaBearer, "list_tags")).body.tags;
    expect(tags.map((t: { name: string; idea_count: number }) => [t.name, t.idea_count])).toEqual([["energy", 1]]);
    await viaBearer.close();
    const viaHeader = await connectWithToken(s.base, user.key, "x-api-key");
    expect((await callTool(viaHeader, "list_ideas")).body.ideas).toHaveLength(1);
    await viaHeader.close();

    const login = await fetch(`${s.base}/api/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: user.email, password: PASSWORD }) });
    const session = ((await login.json()) as { token: string }).token;
    await expect(connectWithToken(s.base, session)).rejects.toThrow();
  });
});
