// Credential resolution order, sessions (sign-in, sliding expiry, logout, cookie), hashing-only storage.
import { afterAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser } from "../helpers";
import { sha256Hex } from "../../src/lib/crypto";

const t = makeApp({ now: "2026-03-01T12:00:00Z" });
afterAll(() => t.close());

async function login(email: string, password: string) {
  return call(t, "POST", "/auth/login", { body: { email, password } });
}

describe("401", () => {
  test("missing, malformed, unknown and revoked credentials all get the same body", async () => {
    const u = await makeUser(t);
    const cases: Record<string, string>[] = [
      {},
      { authorization: "Bearer" },
      { authorization: "Basic abc" },
      { authorization: "Bearer svc_" + "0".repeat(64) },
      { "x-api-key": "svc_" + "1".repeat(64) },
      { "x-api-key": u.key.slice(4) }, // no svc_ prefix: ignored completely
      { cookie: "svc_session=nope" },
      { cookie: "svc_session=%E0%A4%A" }, // a broken %-escape: decoding it threw, a 500
    ];
    for (const headers of cases) {
      const r = await call(t, "GET", "/user/me", { headers });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: "Unauthorized" });
    }
  });
  test("a session cookie with a broken %-escape is no credential: the web app's pages still load", async () => {
    const res = await t.handle(new Request("http://localhost/", { headers: { cookie: "svc_session=%E0%A4%A" } }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
  });
});

describe("API keys as credentials", () => {
  test("work in X-API-Key and as a Bearer token", async () => {
    const u = await makeUser(t);
    expect((await call(t, "GET", "/user/me", { headers: { "x-api-key": u.key } })).body.email).toBe(u.email);
    expect((await call(t, "GET", "/user/me", { headers: { authorization: `Bearer ${u.key}` } })).body.email).toBe(u.email);
  });

  test("only the SHA-256 of a key is stored", async () => {
    const u = await makeUser(t);
    const row = (await t.deps.store.query("SELECT key_hash FROM api_keys WHERE user_id = ?").get(u.id)) as { key_hash: string };
    expect(row.key_hash).toBe(sha256Hex(u.key));
    const dump = JSON.stringify(await t.deps.store.query("SELECT * FROM api_keys").all());
    expect(dump).not.toContain(u.key);
  });

  test("Bearer is tried before X-API-Key: a valid bearer wins over another user's header key", async () => {
    const a = await makeUser(t);
    const b = await makeUser(t);
    const r = await call(t, "GET", "/user/me", { headers: { authorization: `Bearer ${a.key}`, "x-api-key": b.key } });
    expect(r.body.email).toBe(a.email);
  });

  test("X-API-Key is tried before the cookie", async () => {
    const a = await makeUser(t, { password: "correct horse" });
    const b = await makeUser(t);
    const s = await login(a.email, "correct horse");
    const r = await call(t, "GET", "/user/me", { headers: { "x-api-key": b.key, cookie: `svc_session=${s.body.token}` } });
    expect(r.body.email).toBe(b.email);
  });

  test("last_used_at is set on use", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const before = await call(t, "GET", "/user/api-keys", { key: u.key });
    // The listing request itself used the key, so it already shows a time.
    expect(before.body.api_keys[0].last_used_at).toBe("2026-03-01 12:00:00");
  });
});

describe("sessions", () => {
  test("POST /auth/login issues a session usable as Bearer and as the HTTP-only cookie", async () => {
    const u = await makeUser(t, { password: "s3cret-pass" });
    const r = await login(u.email, "s3cret-pass");
    expect(r.status).toBe(200);
    expect(r.body.token).toMatch(/^[0-9a-f]{64}$/);
    expect(r.body.user.email).toBe(u.email);
    expect(r.body.expires_at).toBe("2026-03-31 12:00:00");
    const cookie = r.headers.get("set-cookie")!;
    expect(cookie).toContain(`svc_session=${r.body.token}`);
    expect(cookie).toContain("HttpOnly");
    expect((await call(t, "GET", "/user/me", { headers: { authorization: `Bearer ${r.body.token}` } })).status).toBe(200);
    expect((await call(t, "GET", "/user/me", { headers: { cookie: `svc_session=${r.body.token}` } })).status).toBe(200);
    const stored = (await t.deps.store.query("SELECT token_hash FROM sessions WHERE user_id = ?").all(u.id)) as { token_hash: string }[];
    expect(stored.map((s) => s.token_hash)).toEqual([sha256Hex(r.body.token)]);
  });

  test("wrong password or unknown e-mail: 401 with the standard body", async () => {
    const u = await makeUser(t, { password: "right-password" });
    expect((await login(u.email, "wrong-password")).body).toEqual({ error: "Unauthorized" });
    expect((await login("nobody@example.com", "whatever1")).status).toBe(401);
  });

  test("login with a missing field is a validation error", async () => {
    const r = await call(t, "POST", "/auth/login", { body: { email: "a@b.co" } });
    expect(r.status).toBe(400);
    expect(r.body.error.password).toBeDefined();
  });

  test("sessions slide: each use pushes expiry 30 days ahead; an unused session expires", async () => {
    const u = await makeUser(t, { password: "sliding-pass" });
    const s = (await login(u.email, "sliding-pass")).body.token as string;
    const other = (await login(u.email, "sliding-pass")).body.token as string;
    t.clock.advance(29 * 86_400_000);
    expect((await call(t, "GET", "/user/me", { headers: { authorization: `Bearer ${s}` } })).status).toBe(200);
    t.clock.advance(2 * 86_400_000); // 31 days after login
    expect((await call(t, "GET", "/user/me", { headers: { authorization: `Bearer ${s}` } })).status).toBe(200);
    expect((await call(t, "GET", "/user/me", { headers: { authorization: `Bearer ${other}` } })).status).toBe(401);
    t.clock.set("2026-03-01T12:00:00Z");
  });

  test("logout deletes the session at once and clears the cookie", async () => {
    const u = await makeUser(t, { password: "logout-pass" });
    const s = (await login(u.email, "logout-pass")).body.token as string;
    const out = await call(t, "POST", "/auth/logout", { headers: { cookie: `svc_session=${s}` } });
    expect(out.body).toEqual({ success: true });
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    expect((await call(t, "GET", "/user/me", { headers: { cookie: `svc_session=${s}` } })).status).toBe(401);
  });

  test("repeated failures lock sign-in for that e-mail for a while", async () => {
    const u = await makeUser(t, { password: "brute-force-target" });
    for (let i = 0; i < 10; i++) await login(u.email, `guess-${i}`);
    const r = await login(u.email, "brute-force-target");
    expect(r.status).toBe(429);
    t.clock.advance(16 * 60_000);
    expect((await login(u.email, "brute-force-target")).status).toBe(200);
    t.clock.set("2026-03-01T12:00:00Z");
  });
});
