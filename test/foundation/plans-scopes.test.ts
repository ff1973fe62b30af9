// Plan gates (exact 403 body, trialing reads as pro) and MCP token scopes (exact 403 body).
import { afterAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser } from "../helpers";
import { createApiKeysService } from "../../src/modules/api-keys/service";
import { createUsersService } from "../../src/modules/users/service";

const t = makeApp({ now: "2026-05-10T08:00:00Z" });
afterAll(() => t.close());

describe("Pro gates", () => {
  test("a Free account gets the exact plan-gate body, before any body validation", async () => {
    const u = await makeUser(t);
    const r = await call(t, "POST", "/user/api-keys", { key: u.key, body: { label: "x".repeat(500) } });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({
      error: "API key creation requires a Pro plan",
      pro_required: true,
      feature: "api_keys",
      upgrade_url: t.deps.config.upgrade_url,
    });
  });

  test("every gated route answers pro_required for Free", async () => {
    const u = await makeUser(t);
    const gated: Array<[string, string]> = [
      ["POST", "/user/api-keys"],
      ["PUT", "/user/byok/provider_a"],
      ["POST", "/user/byok/provider_b/test"],
      ["POST", "/map/relations"],
      ["PATCH", "/map/relations/1"],
      ["DELETE", "/map/relations/1"],
      ["GET", "/agent/ws"],
    ];
    for (const [method, path] of gated) {
      const r = await call(t, method, path, { key: u.key, body: method === "GET" || method === "DELETE" ? undefined : {} });
      expect([method, path, r.status, r.body.pro_required]).toEqual([method, path, 403, true]);
    }
  });

  test("a trialing account reads as pro; when the trial ends it reads as free", async () => {
    const u = await makeUser(t);
    await createUsersService(t.deps).startTrial(u.id, 3);
    const me = await call(t, "GET", "/user/me", { key: u.key });
    expect(me.body.plan).toBe("pro");
    expect(me.body.is_trialing).toBe(true);
    expect(me.body.trial_days_remaining).toBe(3);
    expect(me.body.trial_ends_at).toBe("2026-05-13 08:00:00");
    expect((await call(t, "POST", "/user/api-keys", { key: u.key, body: {} })).status).toBe(201);
    t.clock.advance(2.5 * 86_400_000);
    expect((await call(t, "GET", "/user/me", { key: u.key })).body.trial_days_remaining).toBe(1);
    t.clock.advance(86_400_000);
    const after = await call(t, "GET", "/user/me", { key: u.key });
    expect([after.body.plan, after.body.is_trialing, after.body.trial_days_remaining]).toEqual(["free", false, null]);
    expect((await call(t, "POST", "/user/api-keys", { key: u.key, body: {} })).status).toBe(403);
    t.clock.set("2026-05-10T08:00:00Z");
  });
});

describe("MCP token scopes", () => {
  async function mcpToken(scopes: string) {
    const u = await makeUser(t, { plan: "pro" });
    const minted = await createApiKeysService(t.deps).mint(u.id, "MCP (Claude)", scopes, "mcp");
    return { user: u, key: minted.key };
  }

  test("a read-only token reads but gets the exact scope body on writes", async () => {
    const { key } = await mcpToken("ideas:read");
    expect((await call(t, "GET", "/user/me", { key })).status).toBe(200);
    const r = await call(t, "POST", "/map/relations", { key, body: {} });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ error: "Insufficient scope: requires ideas:write" });
  });

  test("a write-only token cannot read", async () => {
    const { key } = await mcpToken("ideas:write");
    const r = await call(t, "GET", "/user/me", { key });
    expect(r.body).toEqual({ error: "Insufficient scope: requires ideas:read" });
  });

  test("scoped tokens never administer the account (keys, provider keys)", async () => {
    const { key } = await mcpToken("ideas:read ideas:write");
    const r = await call(t, "GET", "/user/api-keys", { key });
    expect(r.status).toBe(403);
    expect(r.body.error).toBe("Insufficient scope: requires account:admin");
  });

  test("GET /user/mcp-tokens lists MCP tokens only, with label and space-separated scopes", async () => {
    const { user } = await mcpToken("ideas:read ideas:write");
    const r = await call(t, "GET", "/user/mcp-tokens", { key: user.key });
    expect(r.body.tokens.length).toBe(1);
    expect(r.body.tokens[0]).toMatchObject({ label: "MCP (Claude)", scopes: "ideas:read ideas:write", source: "mcp" });
    expect(Object.keys(r.body.tokens[0]).sort()).toEqual(["created_at", "id", "label", "last_used_at", "scopes", "source"]);
  });
});
