// GET /auth/session: the signed-in account, or user null; the web app's first question, never answered with a 401.
import { afterAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser } from "../helpers";
import { createApiKeysService } from "../../src/modules/api-keys/service";

const t = makeApp({ now: "2026-03-01T12:00:00Z" });
afterAll(() => t.close());

const session = (headers: Record<string, string> = {}) => call(t, "GET", "/auth/session", { headers });

describe("GET /auth/session", () => {
  test("no credential, or one that matches nothing: 200 {user:null}", async () => {
    const u = await makeUser(t);
    for (const headers of <Record<string, string>[]>[{}, { cookie: "svc_session=nope" }, { authorization: "Bearer svc_" + "0".repeat(64) }, { "x-api-key": u.key.slice(4) }]) {
      const r = await session(headers);
      expect([JSON.stringify(headers), r.status, r.body]).toEqual([JSON.stringify(headers), 200, { user: null }]);
    }
  });

  test("a session cookie, a Bearer token or an API key: the body of GET /user/me", async () => {
    const u = await makeUser(t, { password: "session-pass" });
    const token = (await call(t, "POST", "/auth/login", { body: { email: u.email, password: "session-pass" } })).body.token as string;
    const me = (await call(t, "GET", "/user/me", { key: u.key })).body;
    expect(me.email).toBe(u.email);
    for (const headers of <Record<string, string>[]>[{ cookie: `svc_session=${token}` }, { authorization: `Bearer ${token}` }, { "x-api-key": u.key }]) {
      const r = await session(headers);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ user: me });
    }
  });

  test("after sign-out the same cookie is user null, not a 401", async () => {
    const u = await makeUser(t, { password: "logout-pass" });
    const token = (await call(t, "POST", "/auth/login", { body: { email: u.email, password: "logout-pass" } })).body.token as string;
    expect((await session({ cookie: `svc_session=${token}` })).body.user.email).toBe(u.email);
    await call(t, "POST", "/auth/logout", { headers: { cookie: `svc_session=${token}` } });
    expect(await session({ cookie: `svc_session=${token}` })).toMatchObject({ status: 200, body: { user: null } });
  });

  test("reads in flight beside the sign-out (each sliding the session's expiry) do not keep the session alive", async () => {
    const u = await makeUser(t, { password: "race-pass" });
    for (let round = 0; round < 3; round++) {
      const token = (await call(t, "POST", "/auth/login", { body: { email: u.email, password: "race-pass" } })).body.token as string;
      const cookie = { cookie: `svc_session=${token}` };
      const reads = Array.from({ length: 12 }, (_, i) => (i % 2 ? session(cookie) : call(t, "GET", "/user/me", { headers: cookie })));
      const out = await call(t, "POST", "/auth/logout", { headers: cookie });
      expect(out).toMatchObject({ status: 200, body: { success: true } });
      // Those that were read before the sign-out may answer either way; none may bring the session back.
      await Promise.all(reads);
      expect(await session(cookie)).toMatchObject({ status: 200, body: { user: null } });
      expect((await call(t, "GET", "/user/me", { headers: cookie })).status).toBe(401);
      expect((await call(t, "GET", "/user/me", { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    }
  });

  test("an MCP token needs ideas:read, as for GET /user/me", async () => {
    const u = await makeUser(t);
    const keys = createApiKeysService(t.deps);
    const read = (await keys.mint(u.id, "MCP", "ideas:read", "mcp")).key;
    const write = (await keys.mint(u.id, "MCP", "ideas:write", "mcp")).key;
    expect((await session({ authorization: `Bearer ${read}` })).body.user.email).toBe(u.email);
    expect(await session({ authorization: `Bearer ${write}` })).toMatchObject({ status: 403, body: { error: "Insufficient scope: requires ideas:read" } });
  });
});
