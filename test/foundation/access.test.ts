// Access declared where routes and tools are: every authenticated route and every MCP tool states its scope and Pro
// gate, and what it states is what a caller meets, before anything about the payload.
import { afterAll, describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { createApp } from "../../src/app";
import { errorHandler } from "../../src/http/error-handler";
import type { Access } from "../../src/auth/access";
import { PRO_FEATURES } from "../../src/auth/plans";
import { ACCESS_DETAIL, API_PREFIX, authPlugin, createAuthKit } from "../../src/auth/plugin";
import { createApiKeysService } from "../../src/modules/api-keys/service";
import { createTools } from "../../src/modules/mcp/tools";
import { requiresAuth, type RouteEntry } from "../../src/modules/openapi/document";
import { createUsersService } from "../../src/modules/users/service";
import { call, makeApp, makeUser, type TestApp } from "../helpers";
import { serve } from "../mcp/helpers";

const t = makeApp();
const mcp = serve();
afterAll(() => {
  t.close();
  mcp.stop();
});

const routes: RouteEntry[] = createApp(t.deps).app.routes;
const declared = (r: RouteEntry) => (r.hooks?.detail as Record<string, unknown> | undefined)?.[ACCESS_DETAIL] as Access | undefined;
const key = (r: RouteEntry) => `${r.method} ${r.path.slice(API_PREFIX.length)}`;
// Every path parameter as "abc": an id that fails its own check proves access is decided before it.
const concrete = (r: RouteEntry) => r.path.slice(API_PREFIX.length).replace(/:\w+/g, "abc");
const withBody = (method: string) => (method === "POST" || method === "PUT" || method === "PATCH" ? {} : undefined);
const SCOPES = ["ideas:read", "ideas:write", "account:admin", null];

/** A Pro operator (so gates and the operator check let everything through) with MCP tokens of each kind. */
async function tokens(app: TestApp) {
  const { user } = await createUsersService(app.deps).createUser({ email: `op-${crypto.randomUUID()}@example.com`, plan: "pro", operator: true });
  const mint = async (scopes: string) => (await createApiKeysService(app.deps).mint(user.id, "MCP (test)", scopes, "mcp")).key;
  return { read: await mint("ideas:read"), write: await mint("ideas:write"), both: await mint("ideas:read ideas:write") };
}

describe("the route table", () => {
  test("every authenticated route declares its access, with a known scope and gate; public routes declare none", () => {
    const authenticated = routes.filter(requiresAuth);
    expect(authenticated.length).toBeGreaterThan(40);
    expect(authenticated.filter((r) => !declared(r)).map(key)).toEqual([]);
    expect(routes.filter((r) => !requiresAuth(r) && declared(r)).map(key)).toEqual([]);
    for (const r of authenticated) {
      const access = declared(r)!;
      expect([key(r), SCOPES.includes(access.scope)]).toEqual([key(r), true]);
      if (access.gate !== undefined) expect(Object.keys(PRO_FEATURES)).toContain(access.gate);
    }
  });

  test("the Pro gates are exactly the documented ones", () => {
    const gated = routes.filter((r) => declared(r)?.gate).map((r) => `${key(r)} ${declared(r)!.gate}`);
    expect(gated.sort()).toEqual([
      "DELETE /map/relations/:id relations",
      "GET /agent/ws agent",
      "PATCH /map/relations/:id relations",
      "POST /map/relations relations",
      "POST /user/api-keys api_keys",
      "POST /user/byok/:provider/test byok",
      "PUT /user/byok/:provider byok",
    ]);
  });
});

describe("what a route declares is what callers meet", () => {
  test("a token without the declared scope gets the exact scope body, before its path id or body is read", async () => {
    const tok = await tokens(t);
    const lacking: Record<string, string> = { "ideas:read": tok.write, "ideas:write": tok.read, "account:admin": tok.both };
    const holding: Record<string, string> = { "ideas:read": tok.read, "ideas:write": tok.write };
    for (const r of routes.filter((x) => declared(x))) {
      const scope = declared(r)!.scope;
      if (scope === null) continue;
      const refused = await call(t, r.method, concrete(r), { key: lacking[scope], body: withBody(r.method) });
      expect([key(r), refused.status, refused.body]).toEqual([key(r), 403, { error: `Insufficient scope: requires ${scope}` }]);
      if (!holding[scope]) continue;
      const allowed = await call(t, r.method, concrete(r), { key: holding[scope], body: withBody(r.method) });
      expect([key(r), allowed.text.includes("Insufficient scope")]).toEqual([key(r), false]);
    }
  });

  test("a Free account gets the declared feature's plan-gate body on each gated route, before validation", async () => {
    const u = await makeUser(t);
    for (const r of routes.filter((x) => declared(x)?.gate)) {
      const feature = declared(r)!.gate!;
      const res = await call(t, r.method, concrete(r), { key: u.key, body: withBody(r.method) });
      expect([key(r), res.status, res.body]).toEqual([
        key(r),
        403,
        { error: `${PRO_FEATURES[feature]} requires a Pro plan`, pro_required: true, feature, upgrade_url: t.deps.config.upgrade_url },
      ]);
    }
  });

  test("a route that declares nothing is closed to every scoped token, not open", async () => {
    const kit = createAuthKit(t.deps);
    const probe = new Elysia({ prefix: API_PREFIX })
      .use(errorHandler(t.deps.log))
      .use(new Elysia().use(authPlugin(t.deps, kit)).get("/probe", () => ({ ok: true })));
    const tok = await tokens(t);
    const get = (k: string) => probe.handle(new Request(`http://localhost${API_PREFIX}/probe`, { headers: { "x-api-key": k } }));
    const scoped = await get(tok.both);
    expect([scoped.status, await scoped.json()]).toEqual([403, { error: "Insufficient scope: requires account:admin" }]);
    const u = await makeUser(t);
    expect((await get(u.key)).status).toBe(200);
    await kit.limiter.close();
  });
});

describe("MCP tools", () => {
  async function rpc(token: string, method: string, params: Record<string, unknown> = {}) {
    const res = await fetch(`${mcp.base}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { result: any; error?: { code: number; message: string } });
  }

  test("every tool declares its access with a known scope and gate, and the read-only hint follows it", async () => {
    const specs = createTools(mcp.deps);
    expect(specs.length).toBeGreaterThan(5);
    const tok = await tokens(mcp);
    const listed = (await rpc(tok.both, "tools/list")).result.tools as Array<{ name: string; annotations: { readOnlyHint: boolean } }>;
    expect(listed.map((x) => x.name).sort()).toEqual(specs.map((s) => s.name).sort());
    for (const spec of specs) {
      expect([spec.name, SCOPES.includes(spec.access.scope)]).toEqual([spec.name, true]);
      if (spec.access.gate !== undefined) expect(Object.keys(PRO_FEATURES)).toContain(spec.access.gate);
      expect([spec.name, listed.find((x) => x.name === spec.name)!.annotations.readOnlyHint]).toEqual([spec.name, spec.access.scope === "ideas:read"]);
    }
  });

  test("a token without a tool's declared scope gets the REST scope body, before the tool reads its arguments", async () => {
    const tok = await tokens(mcp);
    const lacking: Record<string, string> = { "ideas:read": tok.write, "ideas:write": tok.read };
    for (const spec of createTools(mcp.deps)) {
      if (spec.access.scope === null) continue;
      const out = (await rpc(lacking[spec.access.scope], "tools/call", { name: spec.name, arguments: {} })).result;
      expect([spec.name, out.isError, JSON.parse(out.content[0].text)]).toEqual([spec.name, true, { error: `Insufficient scope: requires ${spec.access.scope}` }]);
    }
  });

  test("a Free account gets the declared gate's plan body from a gated tool, before its arguments are read", async () => {
    const u = await makeUser(mcp);
    for (const spec of createTools(mcp.deps).filter((s) => s.access.gate)) {
      const out = (await rpc(u.key, "tools/call", { name: spec.name, arguments: {} })).result;
      expect([spec.name, out.isError, JSON.parse(out.content[0].text).feature]).toEqual([spec.name, true, spec.access.gate]);
    }
  });

  test("a tool that is not offered is a JSON-RPC invalid-params error: a made-up name, or run_operations without code mode", async () => {
    const tok = await tokens(mcp);
    for (const name of ["drop_everything", "run_operations"]) {
      const out = await rpc(tok.both, "tools/call", { name, arguments: {} });
      expect([name, out.result, out.error?.code, out.error?.message]).toEqual([name, undefined, -32602, `MCP error -32602: Tool ${name} not found`]);
    }
  });
});
