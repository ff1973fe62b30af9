// Credentials are remembered between requests (src/db/unchanged-memo.ts) yet never outlive a change: writes through
// the API, writes by another process on the same file (the CLI), and expiry decided by the clock with no write at all.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { call, makeApp, makeUser } from "../helpers";
import { runCommand } from "../ops/harness";
import { dataDirStore } from "../cli";

const dir = mkdtempSync(join(tmpdir(), "idearepo-memo-"));
const file = join(dir, "idearepo.db");
const t = makeApp({ now: "2026-03-01T12:00:00Z", dbFile: file });
// What `idearepo keys revoke` or `users set-plan` does while the server runs: its own connection to the same store.
const cli = dataDirStore(dir);
afterAll(async () => {
  await cli.close();
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const me = (headers: Record<string, string>) => call(t, "GET", "/user/me", { headers });

describe("remembered credentials follow every change", () => {
  test("a key revoked through the API is refused on the very next request", async () => {
    const u = await makeUser(t, { plan: "pro" }); // more than one key is a Pro feature
    const spare = await call(t, "POST", "/user/api-keys", { key: u.key, body: { label: "spare" } });
    expect(spare.status).toBe(201);
    const spareKey = spare.body.key as string;
    // Used twice: the second use is answered from memory.
    expect((await me({ "x-api-key": spareKey })).status).toBe(200);
    expect((await me({ "x-api-key": spareKey })).status).toBe(200);
    const listed = await call(t, "GET", "/user/api-keys", { key: u.key });
    const id = listed.body.api_keys.find((k: { label: string }) => k.label === "spare").id;
    expect((await call(t, "DELETE", `/user/api-keys/${id}`, { key: u.key })).status).toBe(200);
    expect((await me({ "x-api-key": spareKey })).status).toBe(401);
    expect((await me({ "x-api-key": u.key })).status).toBe(200);
  });

  test("another process revoking a key, disabling a user or changing a plan is seen at once", async () => {
    const u = await makeUser(t, { plan: "free" });
    expect((await me({ "x-api-key": u.key })).body.plan).toBe("free");
    expect((await me({ "x-api-key": u.key })).body.plan).toBe("free");

    await cli.query("UPDATE users SET plan = 'pro' WHERE id = ?").run(u.id);
    expect((await me({ "x-api-key": u.key })).body.plan).toBe("pro");

    await cli.query("UPDATE users SET disabled_at = '2026-03-01 12:00:00' WHERE id = ?").run(u.id);
    expect((await me({ "x-api-key": u.key })).status).toBe(401);
    await cli.query("UPDATE users SET disabled_at = NULL WHERE id = ?").run(u.id);
    expect((await me({ "x-api-key": u.key })).status).toBe(200);

    await cli.query("DELETE FROM api_keys WHERE user_id = ?").run(u.id);
    expect((await me({ "x-api-key": u.key })).status).toBe(401);
  });

  test("a Bearer key or session (one statement reads the credential and its account) follows another process's writes", async () => {
    const u = await makeUser(t, { plan: "free", password: "memo-bearer-pass" });
    const login = await call(t, "POST", "/auth/login", { body: { email: u.email, password: "memo-bearer-pass" } });
    const session = { authorization: `Bearer ${login.body.token}` };
    const key = { authorization: `Bearer ${u.key}` };
    expect((await me(key)).body.plan).toBe("free");
    expect((await me(session)).body.plan).toBe("free");

    await cli.query("UPDATE users SET plan = 'pro' WHERE id = ?").run(u.id);
    expect((await me(key)).body.plan).toBe("pro");
    expect((await me(session)).body.plan).toBe("pro");

    await cli.query("UPDATE users SET disabled_at = '2026-03-01 12:00:00' WHERE id = ?").run(u.id);
    expect((await me(key)).status).toBe(401);
    expect((await me(session)).status).toBe(401);
    await cli.query("UPDATE users SET disabled_at = NULL WHERE id = ?").run(u.id);
    expect((await me(session)).status).toBe(200);

    await cli.query("DELETE FROM sessions WHERE user_id = ?").run(u.id);
    expect((await me(session)).status).toBe(401);
    expect((await me(key)).status).toBe(200);
    await cli.query("DELETE FROM api_keys WHERE user_id = ?").run(u.id);
    expect((await me(key)).status).toBe(401);
  });

  test("`idearepo keys revoke` run as its own process is seen on the very next request", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const spare = await call(t, "POST", "/user/api-keys", { key: u.key, body: { label: "cli-revoked" } });
    const spareKey = spare.body.key as string;
    expect((await me({ "x-api-key": spareKey })).status).toBe(200);
    expect((await me({ "x-api-key": spareKey })).status).toBe(200); // remembered
    const revoked = runCommand(["keys", "revoke", "--id", String(spare.body.id)], { dataDir: dir });
    expect([revoked.code, revoked.stderr]).toEqual([0, ""]);
    expect((await me({ "x-api-key": spareKey })).status).toBe(401);
    expect((await me({ "x-api-key": u.key })).status).toBe(200);
  });

  test("a remembered session still expires by the clock when nothing is written", async () => {
    const u = await makeUser(t, { password: "memo-session-pass" });
    const login = await call(t, "POST", "/auth/login", { body: { email: u.email, password: "memo-session-pass" } });
    const bearer = { authorization: `Bearer ${login.body.token}` };
    expect((await me(bearer)).status).toBe(200); // slides the expiry: a write
    expect((await me(bearer)).status).toBe(200); // within the minute: no write, answered from memory
    // Exactly 30 days after the slide (the stored expiry; `expires_at > now` no longer holds), nothing written since.
    t.clock.advance(30 * 86_400_000);
    expect((await me(bearer)).status).toBe(401);
    t.clock.set("2026-03-01T12:00:00Z");
  });
});
