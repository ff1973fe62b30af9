// GET /ideas/:id/develop and /spec: the last spec a successful develop made for the idea, kept so reopening costs no AI call.
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { call, makeUser, STAMP_RE, type TestApp, type TestUser } from "../helpers";
import { createApiKeysService } from "../../src/modules/api-keys/service";
import { createUsersService } from "../../src/modules/users/service";
import { fakeKey, makeAiApp, MODELS, startFakes, type Fakes } from "../fakes/ai-app";

const fakes: Fakes = startFakes();
afterAll(() => fakes.stop());

let t: TestApp;
let answers = 0;
beforeEach(() => {
  t?.close();
  t = makeAiApp(fakes, { now: "2026-11-20T10:00:00Z" });
  fakes.reset();
  for (const f of [fakes.a, fakes.b, fakes.c]) f.answer = () => `## Problem\nSpec number ${++answers}.`;
});

async function proWithKey(provider: "provider_a" | "provider_b" = "provider_a") {
  const u = await makeUser(t, { plan: "pro" });
  const apiKey = fakeKey();
  (provider === "provider_a" ? fakes.a : fakes.b).validKeys.add(apiKey);
  expect((await call(t, "PUT", `/user/byok/${provider}`, { key: u.key, body: { api_key: apiKey } })).status).toBe(200);
  return u;
}

const createIdea = async (u: TestUser, title: string) => {
  const r = await call(t, "POST", "/ideas", { key: u.key, body: { title } });
  expect(r.status).toBe(201);
  return r.body.id as number;
};
const develop = (u: TestUser, id: number | string) => call(t, "POST", `/ideas/${id}/develop`, { key: u.key });
const lastSpec = (u: TestUser, id: number | string, headers?: Record<string, string>) =>
  call(t, "GET", `/ideas/${id}/develop`, headers ? { headers } : { key: u.key });

describe("GET /ideas/:id/develop", () => {
  test("before any develop: 404 No spec yet", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const id = await createIdea(u, "Nothing generated");
    const r = await lastSpec(u, id);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: "No spec yet" });
  });

  test("after a develop: the same spec, provider, model and usage, plus created_at", async () => {
    const u = await proWithKey();
    const id = await createIdea(u, "Keep my spec");
    const made = await develop(u, id);
    expect(made.status).toBe(200);
    const r = await lastSpec(u, id);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["created_at", "model", "provider", "spec", "usage"]);
    expect(r.body).toEqual({ ...made.body, created_at: "2026-11-20 10:00:00" });
    expect(r.body.model).toBe(MODELS.provider_a);
    expect(r.body.created_at).toMatch(STAMP_RE);
    // Reading it calls no provider.
    expect(fakes.a.requests.length).toBe(1);
  });

  test("a later develop replaces it; a failed one leaves the last good spec", async () => {
    const u = await proWithKey();
    const id = await createIdea(u, "Iterate");
    await develop(u, id);
    t.clock.advance(60_000);
    const second = await develop(u, id);
    const r = await lastSpec(u, id);
    expect(r.body.spec).toBe(second.body.spec);
    expect(r.body.created_at).toBe("2026-11-20 10:01:00");

    fakes.a.override = () => new Response("<html>Bad Gateway</html>", { status: 502 });
    expect((await develop(u, id)).status).toBe(502);
    expect((await lastSpec(u, id)).body.spec).toBe(second.body.spec);
    expect((await t.deps.store.query<{ n: number }, []>("SELECT count(*) AS n FROM idea_specs").get())!.n).toBe(1);
  });

  test("each idea keeps its own spec; switching provider is recorded", async () => {
    const u = await proWithKey("provider_b");
    const one = await createIdea(u, "One");
    const two = await createIdea(u, "Two");
    const a = await develop(u, one);
    const b = await develop(u, two);
    expect((await lastSpec(u, one)).body.spec).toBe(a.body.spec);
    expect((await lastSpec(u, two)).body).toMatchObject({ spec: b.body.spec, provider: "provider_b", model: MODELS.provider_b });
  });

  test("stays readable after a downgrade and for archived ideas", async () => {
    const u = await proWithKey();
    const id = await createIdea(u, "Archived later");
    await develop(u, id);
    await createUsersService(t.deps).setPlan(u.id, "free");
    expect((await call(t, "DELETE", `/ideas/${id}`, { key: u.key })).status).toBe(200);
    expect((await lastSpec(u, id)).status).toBe(200);
  });

  test("another account's idea and an absent id are 404 Idea not found; a non-numeric id is 400", async () => {
    const u = await proWithKey();
    const id = await createIdea(u, "Private spec");
    await develop(u, id);
    const other = await makeUser(t, { plan: "pro" });
    expect(await lastSpec(other, id)).toMatchObject({ status: 404, body: { error: "Idea not found" } });
    expect(await lastSpec(u, 987654)).toMatchObject({ status: 404, body: { error: "Idea not found" } });
    for (const bad of ["abc", "1.5"]) expect(await lastSpec(u, bad)).toMatchObject({ status: 400, body: { error: "Invalid idea ID" } });
  });

  test("scopes: an ideas:read token reads it; a write-only token gets the scope error; no credential is 401", async () => {
    const u = await proWithKey();
    const id = await createIdea(u, "Scoped");
    await develop(u, id);
    const keys = createApiKeysService(t.deps);
    const read = (await keys.mint(u.id, "MCP", "ideas:read", "mcp")).key;
    const write = (await keys.mint(u.id, "MCP", "ideas:write", "mcp")).key;
    expect((await lastSpec(u, id, { authorization: `Bearer ${read}` })).status).toBe(200);
    const refused = await lastSpec(u, id, { authorization: `Bearer ${write}` });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: "Insufficient scope: requires ideas:read" });
    expect((await call(t, "GET", `/ideas/${id}/develop`)).status).toBe(401);
  });
});

// The web app's read: "no spec yet" is an answer, so a fresh idea's page logs no failed request in the browser.
describe("GET /ideas/:id/spec", () => {
  const spec = (u: TestUser, id: number | string, headers?: Record<string, string>) =>
    call(t, "GET", `/ideas/${id}/spec`, headers ? { headers } : { key: u.key });

  test("before any develop: 200 with every field null", async () => {
    const u = await makeUser(t, { plan: "free" });
    const id = await createIdea(u, "Nothing generated");
    const r = await spec(u, id);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ spec: null, provider: null, model: null, usage: null, created_at: null });
  });

  test("after a develop: exactly what GET /ideas/:id/develop answers", async () => {
    const u = await proWithKey();
    const id = await createIdea(u, "Keep my spec");
    expect((await develop(u, id)).status).toBe(200);
    const r = await spec(u, id);
    expect(r.status).toBe(200);
    expect(r.body).toEqual((await lastSpec(u, id)).body);
    expect(r.body.spec).toMatch(/^## Problem\nSpec number \d+\.$/);
    expect(r.body.created_at).toBe("2026-11-20 10:00:00");
  });

  test("another account's idea and an absent id are 404 Idea not found; a non-numeric id is 400", async () => {
    const u = await proWithKey();
    const id = await createIdea(u, "Private spec");
    await develop(u, id);
    const other = await makeUser(t, { plan: "pro" });
    expect(await spec(other, id)).toMatchObject({ status: 404, body: { error: "Idea not found" } });
    expect(await spec(u, 987654)).toMatchObject({ status: 404, body: { error: "Idea not found" } });
    expect(await spec(u, "abc")).toMatchObject({ status: 400, body: { error: "Invalid idea ID" } });
  });

  test("scopes: ideas:read reads it; a write-only token is refused; no credential is 401", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const id = await createIdea(u, "Scoped");
    const keys = createApiKeysService(t.deps);
    const read = (await keys.mint(u.id, "MCP", "ideas:read", "mcp")).key;
    const write = (await keys.mint(u.id, "MCP", "ideas:write", "mcp")).key;
    expect((await spec(u, id, { authorization: `Bearer ${read}` })).status).toBe(200);
    expect(await spec(u, id, { authorization: `Bearer ${write}` })).toMatchObject({ status: 403, body: { error: "Insufficient scope: requires ideas:read" } });
    expect((await call(t, "GET", `/ideas/${id}/spec`)).status).toBe(401);
  });
});
