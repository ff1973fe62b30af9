// Daily per-user quota: Free 100, Pro 10,000; keys share it; cookies are exempt; resets at 00:00 UTC; survives restart.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { call, makeApp, makeUser } from "../helpers";
import { createApp } from "../../src/app";
import { openDb } from "../../src/db/open";
import { sqliteStore } from "../../src/db/sqlite-store";
import { createApiKeysService } from "../../src/modules/api-keys/service";
import { tempDir } from "../cli";

async function burn(t: ReturnType<typeof makeApp>, n: number, headers: Record<string, string>) {
  let last = 0;
  for (let i = 0; i < n; i++) last = (await call(t, "GET", "/user/me", { headers })).status;
  return last;
}

describe("rate limit", () => {
  test("Free: request 101 of the UTC day is 429 with no Retry-After or rate-limit headers; all keys share it", async () => {
    const t = makeApp({ now: "2026-02-02T23:00:00Z" });
    const u = await makeUser(t);
    const second = (await createApiKeysService(t.deps).mint(u.id, "second", null, "manual")).key;
    expect(await burn(t, 60, { "x-api-key": u.key })).toBe(200);
    expect(await burn(t, 40, { authorization: `Bearer ${second}` })).toBe(200);
    const r = await call(t, "GET", "/user/me", { key: u.key });
    expect(r.status).toBe(429);
    expect(r.body).toEqual({ error: "Rate limit exceeded" });
    expect(r.headers.get("retry-after")).toBeNull();
    expect([...r.headers.keys()].filter((h) => h.includes("ratelimit") || h.includes("rate-limit"))).toEqual([]);
    // Another user is unaffected.
    const other = await makeUser(t);
    expect((await call(t, "GET", "/user/me", { key: other.key })).status).toBe(200);
    // Resets at 00:00 UTC.
    t.clock.set("2026-02-03T00:00:01Z");
    expect((await call(t, "GET", "/user/me", { key: u.key })).status).toBe(200);
    await t.close();
  });

  test("cookie (web session) requests are exempt", async () => {
    const t = makeApp();
    const u = await makeUser(t, { password: "cookie-pass" });
    const token = (await call(t, "POST", "/auth/login", { body: { email: u.email, password: "cookie-pass" } })).body.token;
    expect(await burn(t, 100, { "x-api-key": u.key })).toBe(200);
    expect((await call(t, "GET", "/user/me", { key: u.key })).status).toBe(429);
    expect((await call(t, "GET", "/user/me", { headers: { cookie: `svc_session=${token}` } })).status).toBe(200);
    await t.close();
  });

  test("Pro gets 10,000", async () => {
    const t = makeApp();
    const u = await makeUser(t, { plan: "pro" });
    expect(await burn(t, 150, { "x-api-key": u.key })).toBe(200);
    await t.close();
  });

  test("counts survive a restart on the same database file", async () => {
    const file = join(tempDir(), "idearepo.db");
    const base = makeApp({ now: "2026-04-04T10:00:00Z" });
    const now = () => new Date("2026-04-04T10:00:00Z");
    const mk = () => {
      const db = openDb(file);
      const deps = { ...base.deps, db, store: sqliteStore(db), clock: now };
      return { deps, ...createApp(deps), db };
    };
    const first = mk();
    const u = await makeUser({ deps: first.deps } as never);
    const hit = (a: ReturnType<typeof mk>) =>
      a.app.handle(new Request("http://localhost/api/v1/user/me", { headers: { "x-api-key": u.key } })).then((r) => r.status);
    for (let i = 0; i < 100; i++) expect(await hit(first)).toBe(200);
    await first.close(); // graceful stop flushes the in-memory counters
    first.db.close();
    const second = mk();
    expect(await hit(second)).toBe(429);
    await second.close();
    second.db.close();
    await base.close();
  });
});
