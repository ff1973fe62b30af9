// Two app nodes on one PostgreSQL database: whatever one node changes, the other applies on its very next request.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { call, makeClock, type TestApp, type TestUser } from "../helpers";
import { makePgApp } from "../support/pg-app";
import { requirePostgres } from "../support/postgres";
import { createUsersService } from "../../src/modules/users/service";
import { createSetupService } from "../../src/modules/setup/service";
import { Browser, authorizeUrl, formOf, pkce, register, token, PASSWORD } from "../mcp/helpers";

const run = requirePostgres();

/** A node listening on 127.0.0.1, for the flows a browser or an OAuth client drives over real HTTP. */
function listen(t: TestApp) {
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => t.handle(req) });
  return { base: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) };
}

describe.skipIf(!run)("two nodes on one PostgreSQL database", () => {
  let a: TestApp & { url: string };
  let b: TestApp;
  const clock = makeClock("2026-05-04T10:00:00Z");
  beforeAll(async () => {
    a = await makePgApp({ clock });
    b = await makePgApp({ clock, url: a.url });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const me = (t: TestApp, headers: Record<string, string>) => call(t, "GET", "/user/me", { headers });
  const user = async (opts: { plan?: "free" | "pro"; password?: string; operator?: boolean } = {}): Promise<TestUser> => {
    const email = `node-${Math.random().toString(36).slice(2, 10)}@example.com`;
    const out = await createUsersService(a.deps).createUser({ email, plan: opts.plan ?? "free", password: opts.password ?? null, operator: opts.operator ?? false });
    return { id: out.user.id, email, key: out.api_key };
  };

  test("a key revoked on A is refused by B on the next request", async () => {
    const u = await user({ plan: "pro" });
    const spare = await call(a, "POST", "/user/api-keys", { key: u.key, body: { label: "spare" } });
    expect(spare.status).toBe(201);
    expect((await me(b, { "x-api-key": spare.body.key })).status).toBe(200);
    expect((await me(b, { "x-api-key": spare.body.key })).status).toBe(200);
    expect((await call(a, "DELETE", `/user/api-keys/${spare.body.id}`, { key: u.key })).status).toBe(200);
    expect((await me(b, { "x-api-key": spare.body.key })).status).toBe(401);
    expect((await me(b, { "x-api-key": u.key })).status).toBe(200);
  });

  test("GET /ideas, its page read in the credential's own statement, answers as the usual read and applies A's changes on B's next request", async () => {
    const u = await user({ plan: "pro", password: "list password" });
    const titles = ["first", "second", "third", "fourth", "fifth"];
    const ids: number[] = [];
    for (const title of titles) ids.push((await call(a, "POST", "/ideas", { key: u.key, body: { title, status: title === "third" ? "shipped" : "captured" } })).body.id);
    expect((await call(a, "DELETE", `/ideas/${ids[1]}`, { key: u.key })).status).toBe(200);
    // A session cookie is never counted, so its list is read the usual way, after the credential: the reference.
    const login = await call(b, "POST", "/auth/login", { body: { email: u.email, password: "list password" } });
    const cookie = { cookie: `svc_session=${login.body.token}` };
    const bearer = { authorization: `Bearer ${login.body.token}` };
    for (const query of ["", "?limit=2", "?limit=2&offset=2", "?limit=3&offset=1", "?status=shipped", "?status=building", "?offset=99", "?limit=500"]) {
      const usual = await call(b, "GET", `/ideas${query}`, { headers: cookie });
      expect(usual.status).toBe(200);
      for (const headers of [{ "x-api-key": u.key }, bearer]) {
        const rode = await call(b, "GET", `/ideas${query}`, { headers });
        expect(rode.status).toBe(200);
        expect(rode.headers.get("content-type")).toBe("application/json");
        expect(rode.text).toBe(usual.text);
      }
    }
    // Same clock, so newest first means the highest id first; the archived idea is left out.
    expect((await call(b, "GET", "/ideas?limit=2", { key: u.key })).body).toMatchObject({ ideas: [{ title: "fifth" }, { title: "fourth" }], has_more: true });
    expect((await call(b, "GET", "/ideas?status=shipped", { key: u.key })).body.ideas.map((i: { id: number }) => i.id)).toEqual([ids[2]]);
    // A query the schema refuses is refused as before, after the credential; an unknown credential still hears 401.
    const refused = await call(b, "GET", "/ideas?status=sideways", { key: u.key });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual((await call(b, "GET", "/ideas?status=sideways", { headers: cookie })).body);
    expect((await call(b, "GET", "/ideas?status=%00", { key: u.key })).status).toBe(400);
    expect((await call(b, "GET", "/ideas?status=sideways", { key: "svc_not-a-key" })).status).toBe(401);

    // A key revoked, an account disabled on A: B refuses the list on its next request, and lists again once enabled.
    const spare = await call(a, "POST", "/user/api-keys", { key: u.key, body: { label: "spare" } });
    expect((await call(b, "GET", "/ideas", { key: spare.body.key })).status).toBe(200);
    expect((await call(a, "DELETE", `/user/api-keys/${spare.body.id}`, { key: u.key })).status).toBe(200);
    expect((await call(b, "GET", "/ideas", { key: spare.body.key })).status).toBe(401);
    const op = await user({ plan: "pro", operator: true });
    expect((await call(a, "PATCH", `/admin/users/${u.id}`, { key: op.key, body: { disabled: true } })).status).toBe(200);
    expect((await call(b, "GET", "/ideas", { key: u.key })).status).toBe(401);
    expect((await call(b, "GET", "/ideas", { headers: bearer })).status).toBe(401);
    expect((await call(a, "PATCH", `/admin/users/${u.id}`, { key: op.key, body: { disabled: false } })).status).toBe(200);
    expect((await call(b, "GET", "/ideas", { key: u.key })).status).toBe(200);

    // Each list is counted once against the Free day's quota, across both nodes, and the 101st is refused as any route's.
    const f = await user();
    const stored = a.deps.store.query<{ count: number }, [string]>("SELECT count FROM usage_counters WHERE user_id = ? AND kind = 'requests'");
    const statuses = await Promise.all(Array.from({ length: 100 }, (_, i) => call(i % 2 ? a : b, "GET", "/ideas?limit=1", { key: f.key }).then((r) => r.status)));
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect((await stored.get(f.id))!.count).toBe(100);
    const over = await call(b, "GET", "/ideas", { key: f.key });
    expect(over.status).toBe(429);
    expect(over.body).toEqual((await call(a, "GET", "/user/me", { key: f.key })).body);
    expect((await stored.get(f.id))!.count).toBe(100);
  });

  test("a password changed, an account disabled and a plan changed on A are applied by B at once", async () => {
    const op = await user({ plan: "pro", operator: true });
    const u = await user({ password: "first password" });
    const login = await call(b, "POST", "/auth/login", { body: { email: u.email, password: "first password" } });
    expect(login.status).toBe(200);
    const bearer = { authorization: `Bearer ${login.body.token}` };
    expect((await me(b, bearer)).body.plan).toBe("free");

    expect((await call(a, "PATCH", `/admin/users/${u.id}`, { key: op.key, body: { plan: "pro" } })).status).toBe(200);
    expect((await me(b, bearer)).body.plan).toBe("pro");
    expect((await me(b, { "x-api-key": u.key })).body.plan).toBe("pro");

    expect((await call(a, "PATCH", `/admin/users/${u.id}`, { key: op.key, body: { disabled: true } })).status).toBe(200);
    expect((await me(b, { "x-api-key": u.key })).status).toBe(401);
    expect((await me(b, bearer)).status).toBe(401);
    expect((await call(a, "PATCH", `/admin/users/${u.id}`, { key: op.key, body: { disabled: false } })).status).toBe(200);
    expect((await me(b, { "x-api-key": u.key })).status).toBe(200);

    // A new password ends every session, on every node; the new one signs in on either.
    const again = await call(b, "POST", "/auth/login", { body: { email: u.email, password: "first password" } });
    const bearer2 = { authorization: `Bearer ${again.body.token}` };
    expect((await me(b, bearer2)).status).toBe(200);
    expect((await call(a, "PATCH", `/admin/users/${u.id}`, { key: op.key, body: { password: "second password" } })).status).toBe(200);
    expect((await me(b, bearer2)).status).toBe(401);
    expect((await call(b, "POST", "/auth/login", { body: { email: u.email, password: "first password" } })).status).toBe(401);
    expect((await call(b, "POST", "/auth/login", { body: { email: u.email, password: "second password" } })).status).toBe(200);
  });

  test("the daily rate limit is one count across both nodes: request 101 of a Free day is refused wherever it lands", async () => {
    const u = await user();
    // 100 requests alternating between the nodes, half of them at once.
    const statuses = await Promise.all(Array.from({ length: 100 }, (_, i) => me(i % 2 ? a : b, { "x-api-key": u.key }).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200).length).toBe(100);
    expect((await me(a, { "x-api-key": u.key })).status).toBe(429);
    expect((await me(b, { "x-api-key": u.key })).status).toBe(429);
    // A burst past the limit is granted exactly the quota, never more.
    const v = await user();
    const burst = await Promise.all(Array.from({ length: 130 }, (_, i) => me(i % 2 ? a : b, { "x-api-key": v.key }).then((r) => r.status)));
    expect(burst.filter((s) => s === 200).length).toBe(100);
    expect(burst.filter((s) => s === 429).length).toBe(30);
    // The count rides in the credential's statement, up to the highest plan's quota before the plan is known: what the
    // plan refused was given back, so the stored count is the requests granted.
    const stored = a.deps.store.query<{ count: number }, [string]>("SELECT count FROM usage_counters WHERE user_id = ? AND kind = 'requests'");
    expect((await stored.get(v.id))!.count).toBe(100);
    // A Bearer session counts on the same quota; a request the operators' routes refuse counts nothing.
    const w = await user({ password: "a password for w" });
    const login = await call(b, "POST", "/auth/login", { body: { email: w.email, password: "a password for w" } });
    expect((await me(a, { authorization: `Bearer ${login.body.token}` })).status).toBe(200);
    expect((await me(b, { "x-api-key": w.key })).status).toBe(200);
    expect((await call(a, "GET", "/admin/users", { key: w.key })).status).toBe(404);
    expect((await stored.get(w.id))!.count).toBe(2);
  });

  test("the sign-in brake counts wrong passwords across both nodes", async () => {
    const u = await user({ password: "the right password" });
    const login = (t: TestApp, password: string) => call(t, "POST", "/auth/login", { body: { email: u.email, password } });
    for (let i = 0; i < 10; i++) expect((await login(i % 2 ? a : b, "a wrong guess")).status).toBe(401);
    expect((await login(a, "the right password")).status).toBe(429);
    expect((await login(b, "the right password")).status).toBe(429);
  });

  test("the Free plan's 10 monthly semantic searches are counted once across both nodes", async () => {
    const u = await user();
    const types = [];
    for (let i = 0; i < 12; i++) {
      const r = await call(i % 2 ? a : b, "GET", "/ideas/search?q=anything&mode=semantic", { key: u.key });
      expect(r.status).toBe(200);
      types.push(r.body.semantic_limit_reached === true);
    }
    expect(types).toEqual([...Array(10).fill(false), true, true]);
  });

  test("OAuth: the consent page rendered by A is approved on B, and the code from B is exchanged on A", async () => {
    const u = await user({ password: PASSWORD });
    const na = listen(a);
    const nb = listen(b);
    try {
      const client = (await register(na.base)).body;
      const { verifier, challenge } = pkce();
      const browser = new Browser();
      const page = await browser.get(authorizeUrl(na.base, { client_id: client.client_id, code_challenge: challenge, state: "s1" }));
      expect(page.status).toBe(200);
      const form = formOf(await page.text());
      const approved = await browser.post(`${nb.base}/mcp/authorize`, { ...form, email: u.email, password: PASSWORD, decision: "approve" });
      expect(approved.status).toBe(302);
      const code = new URL(approved.headers.get("location")!).searchParams.get("code")!;
      const out = await token(na.base, { code, client_id: client.client_id, code_verifier: verifier });
      expect(out.status).toBe(200);
      // The MCP token works on both nodes.
      expect((await me(b, { authorization: `Bearer ${out.body.access_token}` })).status).toBe(200);
      expect((await me(a, { authorization: `Bearer ${out.body.access_token}` })).status).toBe(200);
      // A code is spent once, whichever node is asked again.
      expect((await token(nb.base, { code, client_id: client.client_id, code_verifier: verifier })).status).toBe(400);
    } finally {
      na.stop();
      nb.stop();
    }
  });
});

describe.skipIf(!run)("first run with two nodes", () => {
  test("both nodes print the same setup code, and wrong guesses count across them", async () => {
    const a = await makePgApp();
    const b = await makePgApp({ url: a.url });
    try {
      const code = await createSetupService(a.deps).currentCode();
      expect(code).not.toBeNull();
      expect(await createSetupService(b.deps).currentCode()).toBe(code);
      const body = (setup_code: string) => ({ setup_code, email: "owner@example.com", display_name: "Owner", password: "owner password" });
      // Ten wrong guesses spread over both nodes spend the code on both.
      for (let i = 0; i < 10; i++) expect((await call(i % 2 ? a : b, "POST", "/setup", { body: body("AAAA-AAAA") })).status).toBe(400);
      expect((await call(a, "POST", "/setup", { body: body(code!) })).status).toBe(429);
      expect((await call(b, "POST", "/setup", { body: body(code!) })).status).toBe(429);
      // A node started afterwards prints a new code, which every node accepts.
      const c = await makePgApp({ url: a.url });
      const fresh = await createSetupService(c.deps).currentCode(true);
      await c.close();
      expect(fresh).not.toBe(code);
      expect((await call(b, "POST", "/setup", { body: body(fresh!) })).status).toBe(201);
    } finally {
      await b.close();
      await a.close();
    }
  });
});
