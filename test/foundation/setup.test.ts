// First-run setup, open registration, the quick-capture URL and the cross-site guard, through HTTP.
import { afterAll, describe, expect, test } from "bun:test";
import { createSetupService } from "../../src/modules/setup/service";
import { call, makeApp, makeUser } from "../helpers";

describe("GET/POST /setup", () => {
  const t = makeApp();
  afterAll(() => t.close());
  const body = (code: string) => ({ setup_code: code, email: "owner@example.com", display_name: "Owner", password: "owner password" });

  test("an empty instance needs setup; a wrong code is a field error; the right one makes a Pro operator, signed in", async () => {
    expect((await call(t, "GET", "/setup")).body).toEqual({ needs_setup: true, registration_open: false });
    const code = (await createSetupService(t.deps).currentCode())!;
    const wrong = await call(t, "POST", "/setup", { body: body("AAAA-AAAA") });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ error: { setup_code: ["That is not the setup code printed in the server log"] } });
    const bad = await call(t, "POST", "/setup", { body: { setup_code: code, email: "nope", display_name: "", password: "short" } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error).sort()).toEqual(["display_name", "email", "password"]);
    const ok = await call(t, "POST", "/setup", { body: body(code.toLowerCase().replace("-", " ")) });
    expect(ok.status).toBe(201);
    expect(ok.headers.get("set-cookie")).toContain("HttpOnly");
    expect(ok.body.user.plan).toBe("pro");
    const me = await call(t, "GET", "/user/me", { headers: { authorization: `Bearer ${ok.body.token}` } });
    expect(me.body.is_operator).toBe(true);
    // No API key was minted behind the owner's back.
    expect((await call(t, "GET", "/user/api-keys", { headers: { authorization: `Bearer ${ok.body.token}` } })).body.api_keys).toEqual([]);
    expect((await call(t, "GET", "/setup")).body.needs_setup).toBe(false);
    expect(await createSetupService(t.deps).currentCode()).toBeNull();
    expect((await call(t, "POST", "/setup", { body: body(code) })).status).toBe(403);
  });

  test("ten wrong codes stop further tries", async () => {
    const t2 = makeApp();
    try {
      for (let i = 0; i < 10; i++) expect((await call(t2, "POST", "/setup", { body: body("BBBB-BBBB") })).status).toBe(400);
      const code = (await createSetupService(t2.deps).currentCode())!;
      expect((await call(t2, "POST", "/setup", { body: body(code) })).status).toBe(429);
    } finally {
      t2.close();
    }
  });
});

describe("POST /auth/register", () => {
  test("closed by default", async () => {
    const t = makeApp();
    const r = await call(t, "POST", "/auth/register", { body: { email: "a@example.com", display_name: "A", password: "12345678" } });
    expect(r.status).toBe(403);
    expect(r.body.error).toContain("Registration is closed");
    t.close();
  });

  test("open: a Free account, signed in; a taken e-mail is a field error", async () => {
    const t = makeApp({ config: { registration_open: true } });
    await makeUser(t, { email: "taken@example.com" });
    const r = await call(t, "POST", "/auth/register", { body: { email: "new@example.com", display_name: "New", password: "12345678" } });
    expect(r.status).toBe(201);
    expect(r.body.user.plan).toBe("free");
    expect((await call(t, "GET", "/user/me", { headers: { cookie: `svc_session=${r.body.token}` } })).body.email).toBe("new@example.com");
    const dup = await call(t, "POST", "/auth/register", { body: { email: "TAKEN@example.com", display_name: "T", password: "12345678" } });
    expect(dup.status).toBe(400);
    expect(dup.body).toEqual({ error: { email: ["An account with this e-mail already exists"] } });
    t.close();
  });
});

describe("cross-site guard", () => {
  const t = makeApp();
  afterAll(() => t.close());

  test("unsafe requests a browser marks as cross-site are refused; same-origin and non-browser clients pass", async () => {
    const u = await makeUser(t);
    const post = (headers: Record<string, string>) => call(t, "POST", "/ideas", { key: u.key, body: { title: "x" }, headers });
    for (const h of <Array<Record<string, string>>>[{ "sec-fetch-site": "cross-site" }, { "sec-fetch-site": "same-site" }, { origin: "http://evil.example" }, { origin: "null" }]) {
      const r = await post(h);
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ error: "Cross-site request refused" });
    }
    expect((await post({ "sec-fetch-site": "same-origin" })).status).toBe(201);
    expect((await post({ origin: "http://localhost" })).status).toBe(201);
    expect((await post({})).status).toBe(201);
    // Reads are never refused (a link from another site may open a page).
    expect((await call(t, "GET", "/ideas", { key: u.key, headers: { "sec-fetch-site": "cross-site" } })).status).toBe(200);
  });
});

describe("GET /user/shortcuts", () => {
  test("this instance's own capture page, from the configured public address when there is one", async () => {
    const t = makeApp({ config: { public_base_url: "https://ideas.example.com/" } });
    const u = await makeUser(t);
    expect((await call(t, "GET", "/user/shortcuts", { key: u.key })).body).toEqual({ quick_capture_url: "https://ideas.example.com/capture", capture_email: null, capture_email_can_authenticate: false, capture_email_can_reply: false });
    t.close();
  });
});
