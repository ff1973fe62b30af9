// GET/PATCH /user/me, API keys, shortcuts, support link; tenant isolation of keys.
import { afterAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser, STAMP_RE } from "../helpers";

const t = makeApp({ now: "2026-06-01T00:00:00Z" });
afterAll(() => t.close());

describe("GET /user/me", () => {
  test("returns the full User object with stats and no key material", async () => {
    const u = await makeUser(t);
    const r = await call(t, "GET", "/user/me", { key: u.key });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual([
      "active_idea_count", "avatar_url", "created_at", "display_name", "email", "has_provider_a_key", "has_provider_b_key",
      "has_provider_c_key", "id", "is_operator", "is_trialing", "plan", "settings_json", "trial_days_remaining", "trial_ends_at", "trial_used", "updated_at",
    ]);
    expect(r.body.created_at).toMatch(STAMP_RE);
    expect(r.body.active_idea_count).toBe(0);
    // An addition for the web app (it shows the operator's page only to the operator).
    expect(r.body.is_operator).toBe(false);
    expect(JSON.stringify(r.body)).not.toContain("password");
  });
});

describe("PATCH /user/me", () => {
  test("changes only given fields and answers without the GET-only fields", async () => {
    const u = await makeUser(t);
    const r = await call(t, "PATCH", "/user/me", { key: u.key, body: { display_name: "Ada" } });
    expect(r.status).toBe(200);
    expect(r.body.display_name).toBe("Ada");
    expect(r.body.settings_json).toBe("{}");
    expect(r.body).not.toHaveProperty("active_idea_count");
    expect(r.body).not.toHaveProperty("is_trialing");
    expect(r.body).not.toHaveProperty("trial_days_remaining");
  });

  test("settings_json: out-of-range or mistyped values are discarded silently, the rest kept", async () => {
    const u = await makeUser(t);
    const settings = JSON.stringify({
      search_threshold: 5, dedup_threshold: 0.8, related_threshold: "0.5", stale_threshold_days: 14,
      weekly_digest: false, stale_nudges: "no", preferred_ai_provider: "provider_z", theme: "dark",
    });
    const r = await call(t, "PATCH", "/user/me", { key: u.key, body: { settings_json: settings } });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body.settings_json)).toEqual({ dedup_threshold: 0.8, stale_threshold_days: 14, weekly_digest: false, theme: "dark" });
    expect((await call(t, "GET", "/user/me", { key: u.key })).body.settings_json).toBe(r.body.settings_json);
  });

  test("settings_json: a client's own keys are kept whatever their name (constructor, toString, __proto__)", async () => {
    const u = await makeUser(t);
    const settings = '{"constructor":1,"toString":"x","__proto__":{"a":1},"search_threshold":0.4}';
    const r = await call(t, "PATCH", "/user/me", { key: u.key, body: { settings_json: settings } });
    expect(r.status).toBe(200);
    expect(r.body.settings_json).toBe(settings);
  });

  test("limits: display name 1-100, settings_json ≤ 10,000 chars and a JSON object", async () => {
    const u = await makeUser(t);
    expect((await call(t, "PATCH", "/user/me", { key: u.key, body: { display_name: "x".repeat(101) } })).body.error.display_name).toBeDefined();
    expect((await call(t, "PATCH", "/user/me", { key: u.key, body: { settings_json: "{" } })).body.error.settings_json).toBeDefined();
    expect((await call(t, "PATCH", "/user/me", { key: u.key, body: { settings_json: "[1]" } })).status).toBe(400);
    expect((await call(t, "PATCH", "/user/me", { key: u.key, body: { display_name: 42 } })).status).toBe(400);
  });
});

describe("API keys", () => {
  test("Pro creates a key: svc_ + 64 hex, shown once; list is newest first without any key material", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const created = await call(t, "POST", "/user/api-keys", { key: u.key, body: { label: "laptop" } });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(["created_at", "id", "key", "label"]);
    expect(created.body.key).toMatch(/^svc_[0-9a-f]{64}$/);
    expect(created.body.id).toMatch(/^[0-9a-f]{32}$/);
    const list = await call(t, "GET", "/user/api-keys", { key: created.body.key });
    expect(list.body.api_keys.map((k: { label: string }) => k.label)).toEqual(["laptop", "default"]);
    expect(JSON.stringify(list.body)).not.toContain("svc_");
    expect(Object.keys(list.body.api_keys[0]).sort()).toEqual(["created_at", "id", "label", "last_used_at", "scopes", "source"]);
    expect(list.body.api_keys[0]).toMatchObject({ scopes: null, source: "manual" });
  });

  test("label defaults to 'default'; over 100 chars is 400", async () => {
    const u = await makeUser(t, { plan: "pro" });
    expect((await call(t, "POST", "/user/api-keys", { key: u.key })).body.label).toBe("default");
    const r = await call(t, "POST", "/user/api-keys", { key: u.key, body: { label: "x".repeat(101) } });
    expect(r.status).toBe(400);
    expect(r.body.error.label).toBeDefined();
  });

  test("revoking works on every plan and stops the key on the next request; other accounts' ids are 404", async () => {
    const a = await makeUser(t, { plan: "pro" });
    const b = await makeUser(t);
    const extra = await call(t, "POST", "/user/api-keys", { key: a.key, body: {} });
    expect((await call(t, "DELETE", `/user/api-keys/${extra.body.id}`, { key: b.key })).status).toBe(404);
    expect((await call(t, "GET", "/user/me", { key: extra.body.key })).status).toBe(200);
    const own = (await call(t, "GET", "/user/api-keys", { key: b.key })).body.api_keys[0].id;
    // Free may revoke: revoke b's only key with itself.
    expect((await call(t, "DELETE", `/user/api-keys/${own}`, { key: b.key })).body).toEqual({ success: true });
    expect((await call(t, "GET", "/user/me", { key: b.key })).status).toBe(401);
    expect((await call(t, "DELETE", `/user/api-keys/${extra.body.id}`, { key: a.key })).body).toEqual({ success: true });
    expect((await call(t, "GET", "/user/me", { key: extra.body.key })).status).toBe(401);
  });

  test("an account never sees another account's keys", async () => {
    const a = await makeUser(t, { plan: "pro" });
    const b = await makeUser(t, { plan: "pro" });
    await call(t, "POST", "/user/api-keys", { key: a.key, body: { label: "secret-a" } });
    const list = await call(t, "GET", "/user/api-keys", { key: b.key });
    expect(list.body.api_keys.map((k: { label: string }) => k.label)).toEqual(["default"]);
  });
});

describe("shortcuts and support link", () => {
  test("GET /user/shortcuts gives the same URL to every account: this instance's capture page", async () => {
    const a = await makeUser(t);
    const b = await makeUser(t);
    const ra = await call(t, "GET", "/user/shortcuts", { key: a.key });
    const rb = await call(t, "GET", "/user/shortcuts", { key: b.key });
    // No public address configured: the address the request came to (in-process requests use http://localhost).
    expect(ra.body).toEqual({ quick_capture_url: "http://localhost/capture", capture_email: null, capture_email_can_authenticate: false, capture_email_can_reply: false }); // no mailbox configured: capture by e-mail is off
    expect(rb.body).toEqual(ra.body);
  });

  test("GET /user/support-link asks the configured service; 502 body when unreachable or unconfigured", async () => {
    const seen: unknown[] = [];
    const support = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(req) {
        seen.push(await req.json());
        return Response.json({ url: "https://support.example/sso?token=one-time" });
      },
    });
    const withSupport = makeApp({ config: { support_url: `http://127.0.0.1:${support.port}/sso` } });
    const u = await makeUser(withSupport);
    const ok = await call(withSupport, "GET", "/user/support-link", { key: u.key });
    expect(ok.body).toEqual({ url: "https://support.example/sso?token=one-time" });
    expect(seen).toEqual([{ user_id: u.id, email: u.email, display_name: u.email.split("@")[0] }]);
    support.stop(true);
    const down = await call(withSupport, "GET", "/user/support-link", { key: u.key });
    expect(down.status).toBe(502);
    expect(down.body).toEqual({ error: "Failed to generate support link" });
    withSupport.close();
    const none = await makeUser(t);
    expect((await call(t, "GET", "/user/support-link", { key: none.key })).status).toBe(502);
  });
});
