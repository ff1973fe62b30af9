// /api/v1/admin/* for the operator alone (everyone else sees the missing-route 404), invitations, instance and backup.
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { call, makeApp, makeUser, STAMP_RE, type TestApp, type TestUser } from "../helpers";
import { testStore } from "../support/postgres";
import { createUsersService } from "../../src/modules/users/service";
import { createApiKeysService } from "../../src/modules/api-keys/service";

let t: TestApp;
let op: TestUser;
beforeEach(async () => {
  t?.close();
  t = makeApp();
  op = await makeOperator();
});
afterAll(() => t.close());

async function makeOperator(): Promise<TestUser> {
  const email = `op-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const out = await createUsersService(t.deps).createUser({ email, plan: "pro", operator: true });
  return { id: out.user.id, email, key: out.api_key };
}

const USER_FIELDS = ["active_idea_count", "created_at", "disabled", "display_name", "email", "id", "is_operator", "is_trialing", "plan", "subscription_status", "trial_ends_at"];
const DAY_MS = 86_400_000;

const login = (email: string, password: string) => call(t, "POST", "/auth/login", { body: { email, password } });

describe("who reaches /admin/*", () => {
  // Every admin route and method, with a valid body and with an invalid one (refusal must come before validation).
  const routes = (id: string): Array<[string, string, unknown?]> => [
    ["GET", "/admin/users"],
    ["POST", "/admin/users", { email: "new@example.com", password: "long enough" }],
    ["POST", "/admin/users", { email: 42 }],
    ["PATCH", `/admin/users/${id}`, { plan: "pro" }],
    ["PATCH", `/admin/users/${id}`, { disabled: true }],
    ["PATCH", `/admin/users/${id}`, { trial_days: 9999 }],
    ["PATCH", "/admin/users/no-such-id", {}],
    ["GET", "/admin/instance"],
    ["GET", "/admin/backup"],
  ];

  test("a non-operator Pro account gets exactly the 404 of a missing route, for every route and method", async () => {
    const pro = await makeUser(t, { plan: "pro" });
    for (const [method, path, body] of routes(op.id)) {
      const missing = await call(t, method, "/no-such-route", { key: pro.key, body });
      const admin = await call(t, method, path, { key: pro.key, body });
      expect(missing.status).toBe(404);
      expect(admin.status, `${method} ${path}`).toBe(missing.status);
      expect(admin.text, `${method} ${path}`).toBe(missing.text);
      expect(admin.text).toBe('{"error":"Not found"}');
      const headers = (h: Headers) => [...h].filter(([k]) => k !== "date");
      expect(headers(admin.headers), `${method} ${path}`).toEqual(headers(missing.headers));
    }
    // A malformed body is not parsed for them either: still the missing-route answer, never "Invalid JSON body".
    for (const [method, path] of [["POST", "/admin/users"], ["PATCH", `/admin/users/${op.id}`]]) {
      const missing = await call(t, method, "/no-such-route", { key: pro.key, raw: "{not json" });
      const admin = await call(t, method, path, { key: pro.key, raw: "{not json" });
      expect(admin.status, `${method} ${path}`).toBe(404);
      expect(admin.text).toBe(missing.text);
      expect((await call(t, method, path, { raw: "{not json" })).status).toBe(401);
    }
    // The operator's malformed body is the usual 400.
    expect((await call(t, "POST", "/admin/users", { key: op.key, raw: "{not json" })).body).toEqual({ error: "Invalid JSON body" });
    // Nothing changed behind the 404s.
    const list = await call(t, "GET", "/admin/users", { key: op.key });
    expect(list.body.users.map((u: { email: string }) => u.email).sort()).toEqual([op.email, pro.email].sort());
    expect(list.body.users.find((u: { id: string }) => u.id === op.id).disabled).toBe(false);
  });

  test("a non-operator's session cookie gets the same 404", async () => {
    const u = await makeUser(t, { plan: "pro", password: "correct horse" });
    const token = (await login(u.email, "correct horse")).body.token;
    const r = await call(t, "GET", "/admin/users", { headers: { cookie: `svc_session=${token}` } });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: "Not found" });
  });

  test("without a credential every admin route answers the usual 401", async () => {
    for (const [method, path, body] of routes(op.id)) {
      const r = await call(t, method, path, { body });
      expect(r.status, `${method} ${path}`).toBe(401);
      expect(r.body).toEqual({ error: "Unauthorized" });
    }
  });

  test("an operator's MCP token is refused: admin routes need account:admin, which no token is granted", async () => {
    const minted = await createApiKeysService(t.deps).mint(op.id, "MCP (Claude)", "ideas:read ideas:write", "mcp");
    for (const [method, path, body] of routes(op.id)) {
      const r = await call(t, method, path, { headers: { authorization: `Bearer ${minted.key}` }, body });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body).toEqual({ error: "Insufficient scope: requires account:admin" });
    }
  });

  test("a non-operator's MCP token gets the 404 too, not a scope error that would reveal the route", async () => {
    const pro = await makeUser(t, { plan: "pro" });
    const minted = await createApiKeysService(t.deps).mint(pro.id, "MCP (Claude)", "ideas:read", "mcp");
    const r = await call(t, "GET", "/admin/users", { headers: { authorization: `Bearer ${minted.key}` } });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: "Not found" });
  });

  test("the operator's session and key both work", async () => {
    await createUsersService(t.deps).setPassword(op.id, "operator password");
    const token = (await login(op.email, "operator password")).body.token;
    expect((await call(t, "GET", "/admin/users", { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await call(t, "GET", "/admin/users", { key: op.key })).status).toBe(200);
  });
});

describe("GET /admin/users", () => {
  test("lists accounts with their figures, never their ideas or keys", async () => {
    const u = await makeUser(t, { plan: "free" });
    const idea = await call(t, "POST", "/ideas", { key: u.key, body: { title: "Secret title nobody else sees", body: "private body" } });
    expect(idea.status).toBe(201);
    const r = await call(t, "GET", "/admin/users", { key: op.key });
    expect(r.status).toBe(200);
    expect(r.body.users.length).toBe(2);
    for (const row of r.body.users) expect(Object.keys(row).sort()).toEqual(USER_FIELDS);
    const row = r.body.users.find((x: { id: string }) => x.id === u.id);
    expect(row).toMatchObject({ email: u.email, plan: "free", is_operator: false, disabled: false, is_trialing: false, trial_ends_at: null, active_idea_count: 1 });
    expect(row.created_at).toMatch(STAMP_RE);
    expect(r.body.users.find((x: { id: string }) => x.id === op.id)).toMatchObject({ is_operator: true, plan: "pro" });
    expect(r.text).not.toContain("Secret title");
    expect(r.text).not.toContain("private body");
    expect(r.text).not.toMatch(/svc_|password|_key/);
  });
});

describe("POST /admin/users", () => {
  test("with a password: 201 {user}, and the account can sign in", async () => {
    const r = await call(t, "POST", "/admin/users", { key: op.key, body: { email: "ada@example.com", display_name: "Ada", password: "analytical engine", plan: "pro" } });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body)).toEqual(["user"]);
    expect(r.body.user).toMatchObject({ email: "ada@example.com", display_name: "Ada", plan: "pro", is_operator: false, disabled: false, active_idea_count: 0 });
    expect(Object.keys(r.body.user).sort()).toEqual(USER_FIELDS);
    expect((await login("ada@example.com", "analytical engine")).status).toBe(200);
  });

  test("defaults: Free plan, display name from the e-mail", async () => {
    const r = await call(t, "POST", "/admin/users", { key: op.key, body: { email: "grace@example.com", password: "compiler first" } });
    expect(r.status).toBe(201);
    expect(r.body.user).toMatchObject({ plan: "free", display_name: "grace" });
  });

  test("invalid input is the validation body; a taken e-mail is a field error", async () => {
    const bad = await call(t, "POST", "/admin/users", { key: op.key, body: { email: "not-an-email", password: "short", plan: "gold" } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error).sort()).toEqual(["email", "password", "plan"]);
    const taken = await call(t, "POST", "/admin/users", { key: op.key, body: { email: op.email, password: "long enough" } });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ error: { email: ["An account with this e-mail already exists"] } });
  });
});

describe("invitations", () => {
  async function invite(email = "invitee@example.com") {
    const r = await call(t, "POST", "/admin/users", { key: op.key, body: { email } });
    expect(r.status).toBe(201);
    return r.body as { user: { id: string }; invitation: { token: string; expires_at: string } };
  }
  const accept = (token: string, password = "my own password") => call(t, "POST", "/auth/accept-invitation", { body: { token, password } });

  test("without a password the account gets a 7-day invitation; accepting sets the password and signs in like login", async () => {
    const out = await invite();
    expect(out.invitation.token).toMatch(/^[0-9a-f]{64}$/);
    expect(out.invitation.expires_at).toMatch(STAMP_RE);
    expect(new Date(out.invitation.expires_at.replace(" ", "T") + "Z").getTime() - t.clock.now.getTime()).toBeGreaterThan(7 * DAY_MS - 2000);
    // Only the hash is stored.
    const stored = await t.deps.store.query<{ token_hash: string }, []>("SELECT token_hash FROM invitations").all();
    expect(stored.length).toBe(1);
    expect(stored[0].token_hash).not.toBe(out.invitation.token);
    // Before accepting, there is no password to sign in with.
    expect((await login("invitee@example.com", "my own password")).status).toBe(401);

    const r = await accept(out.invitation.token);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["expires_at", "token", "user"]);
    const loggedIn = await login("invitee@example.com", "my own password");
    expect(loggedIn.status).toBe(200);
    expect(Object.keys(r.body.user).sort()).toEqual(Object.keys(loggedIn.body.user).sort());
    expect(r.body.user.id).toBe(out.user.id);
    expect(r.headers.get("set-cookie")).toContain(`svc_session=${r.body.token}; Path=/; HttpOnly; SameSite=Lax`);
    // The session works.
    const me = await call(t, "GET", "/user/me", { headers: { cookie: `svc_session=${r.body.token}` } });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe("invitee@example.com");
  });

  test("a used invitation is refused, and the password stays what the invitee set", async () => {
    const out = await invite();
    expect((await accept(out.invitation.token)).status).toBe(200);
    const again = await accept(out.invitation.token, "attacker password");
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: "Invitation is invalid or has expired" });
    expect((await login("invitee@example.com", "attacker password")).status).toBe(401);
    expect((await login("invitee@example.com", "my own password")).status).toBe(200);
  });

  test("an invitation expires after 7 days", async () => {
    const out = await invite();
    t.clock.advance(7 * DAY_MS + 1000);
    const r = await accept(out.invitation.token);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: "Invitation is invalid or has expired" });
  });

  test("still valid just before it expires", async () => {
    const out = await invite();
    t.clock.advance(7 * DAY_MS - 60_000);
    expect((await accept(out.invitation.token)).status).toBe(200);
  });

  test("an unknown token, or the invitation of a disabled account, is refused the same way", async () => {
    expect((await accept("0".repeat(64))).body).toEqual({ error: "Invitation is invalid or has expired" });
    const out = await invite();
    expect((await call(t, "PATCH", `/admin/users/${out.user.id}`, { key: op.key, body: { disabled: true } })).status).toBe(200);
    const r = await accept(out.invitation.token);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: "Invitation is invalid or has expired" });
  });

  test("a short password or a missing token is a validation error", async () => {
    const out = await invite();
    const r = await accept(out.invitation.token, "short");
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.error)).toEqual(["password"]);
    expect((await call(t, "POST", "/auth/accept-invitation", { body: { password: "long enough" } })).status).toBe(400);
    // The invitation is still usable after a rejected attempt.
    expect((await accept(out.invitation.token)).status).toBe(200);
  });
});

describe("PATCH /admin/users/:id", () => {
  const patch = (id: string, body: unknown) => call(t, "PATCH", `/admin/users/${id}`, { key: op.key, body });

  test("plan, trial and password go through the account rules the CLI uses", async () => {
    const u = await makeUser(t, { plan: "free" });
    const pro = await patch(u.id, { plan: "pro" });
    expect(pro.status).toBe(200);
    expect(pro.body.user).toMatchObject({ id: u.id, plan: "pro", is_trialing: false, trial_ends_at: null });
    expect(Object.keys(pro.body.user).sort()).toEqual(USER_FIELDS);

    const trial = await patch(u.id, { trial_days: 14 });
    expect(trial.body.user).toMatchObject({ plan: "pro", is_trialing: true });
    expect(trial.body.user.trial_ends_at).toMatch(STAMP_RE);
    t.clock.advance(15 * DAY_MS);
    expect((await call(t, "GET", "/user/me", { key: u.key })).body.plan).toBe("free");
    // Setting a plan ends the trial bookkeeping, as `users set-plan` does.
    expect((await patch(u.id, { plan: "pro" })).body.user).toMatchObject({ plan: "pro", trial_ends_at: null });

    expect((await patch(u.id, { password: "a brand new one" })).status).toBe(200);
    expect((await login(u.email, "a brand new one")).status).toBe(200);
  });

  test("a new password ends the account's sign-in sessions; its API key and other accounts' sessions go on", async () => {
    const u = await makeUser(t, { plan: "pro", password: "leaked password" });
    const other = await makeUser(t, { plan: "pro", password: "other password" });
    const stolen = (await login(u.email, "leaked password")).body.token;
    const bystander = (await login(other.email, "other password")).body.token;
    const me = (headers: Record<string, string>) => call(t, "GET", "/user/me", { headers });
    expect((await me({ authorization: `Bearer ${stolen}` })).status).toBe(200);
    expect((await patch(u.id, { password: "a fresh password" })).status).toBe(200);
    // Neither as a Bearer token nor as the web app's cookie.
    expect((await me({ authorization: `Bearer ${stolen}` })).status).toBe(401);
    expect((await me({ cookie: `svc_session=${stolen}` })).status).toBe(401);
    expect((await login(u.email, "leaked password")).status).toBe(401);
    const fresh = (await login(u.email, "a fresh password")).body.token;
    expect((await me({ authorization: `Bearer ${fresh}` })).status).toBe(200);
    expect((await call(t, "GET", "/user/me", { key: u.key })).status).toBe(200);
    expect((await me({ authorization: `Bearer ${bystander}` })).status).toBe(200);
  });

  test("disabling stops the account's key and sessions; enabling restores the key", async () => {
    const u = await makeUser(t, { plan: "pro", password: "correct horse" });
    const session = (await login(u.email, "correct horse")).body.token;
    const off = await patch(u.id, { disabled: true });
    expect(off.status).toBe(200);
    expect(off.body.user.disabled).toBe(true);
    expect((await call(t, "GET", "/user/me", { key: u.key })).status).toBe(401);
    expect((await call(t, "GET", "/user/me", { headers: { authorization: `Bearer ${session}` } })).status).toBe(401);
    expect((await login(u.email, "correct horse")).status).toBe(401);

    const on = await patch(u.id, { disabled: false });
    expect(on.body.user.disabled).toBe(false);
    expect((await call(t, "GET", "/user/me", { key: u.key })).status).toBe(200);
    // Sessions were ended by disabling; signing in again works.
    expect((await call(t, "GET", "/user/me", { headers: { authorization: `Bearer ${session}` } })).status).toBe(401);
    expect((await login(u.email, "correct horse")).status).toBe(200);
  });

  test("an operator cannot disable themselves", async () => {
    const r = await patch(op.id, { disabled: true });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: "You cannot disable your own account" });
    expect((await call(t, "GET", "/admin/users", { key: op.key })).status).toBe(200);
  });

  test("invalid fields, plan with trial_days, and an unknown id", async () => {
    const u = await makeUser(t);
    const bad = await patch(u.id, { plan: "gold", trial_days: 0, disabled: "yes", password: "short" });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error).sort()).toEqual(["disabled", "password", "plan", "trial_days"]);
    expect((await patch(u.id, { trial_days: 366 })).status).toBe(400);
    const both = await patch(u.id, { plan: "pro", trial_days: 3 });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ error: "Give plan or trial_days, not both" });
    const missing = await patch("no-such-id", { plan: "pro" });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: "User not found" });
  });
});

describe("GET /admin/instance", () => {
  test("version, sizes, queue, the /health embeddings block and the last backup", async () => {
    const u = await makeUser(t);
    await call(t, "POST", "/ideas", { key: u.key, body: { title: "Queued for the pipeline" } });
    const r = await call(t, "GET", "/admin/instance", { key: op.key });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["data_dir_bytes", "database", "database_bytes", "durability", "embeddings", "last_backup", "queue", "scheduled_backups", "unread_accounts", "version"]);
    expect(r.body.database).toBe(testStore() === "postgres" ? "postgresql" : "sqlite");
    expect(r.body.durability).toBe("power-safe"); // the default: every acknowledged write is fsynced
    expect(r.body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(r.body.database_bytes).toBeGreaterThan(0);
    expect(r.body.data_dir_bytes).toBeGreaterThanOrEqual(0);
    expect(r.body.queue).toEqual({ pending: 1, locked: 0 });
    const health = await call(t, "GET", "/health");
    expect(r.body.embeddings).toEqual(health.body.embeddings);
    expect(r.body.last_backup).toBeNull();
    // No schedule configured: nothing is taken, and the page can say so (test/ops/scheduled-backup.test.ts runs one).
    expect(r.body.scheduled_backups).toMatchObject({ schedule: null, keep: 7, last: null, copies: [] });
  });

  test("data_dir_bytes adds up the files in the data dir", async () => {
    const dir = mkdtempSync(join(tmpdir(), "idearepo-admin-"));
    try {
      writeFileSync(join(dir, "a.bin"), Buffer.alloc(1000));
      writeFileSync(join(dir, "b.bin"), Buffer.alloc(234));
      const app = makeApp({ config: { data_dir: dir } });
      try {
        const out = await createUsersService(app.deps).createUser({ email: "o@example.com", operator: true });
        const r = await call(app, "GET", "/admin/instance", { key: out.api_key });
        expect(r.body.data_dir_bytes).toBe(1234);
      } finally {
        app.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("GET /admin/backup", () => {
  // A copy of the SQLite file; on PostgreSQL the route answers 501 pointing to pg_dump (test/admin/postgres.test.ts).
  test.skipIf(testStore() === "postgres")("downloads a consistent SQLite copy holding the accounts, and is noted as the last backup", async () => {
    const u = await makeUser(t);
    const res = await t.handle(new Request("http://localhost/api/v1/admin/backup", { headers: { "x-api-key": op.key } }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/vnd.sqlite3");
    const day = t.clock.now.toISOString().slice(0, 10);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="idearepo-backup-${day}.db"`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Number(res.headers.get("content-length"))).toBe(bytes.length);
    expect(new TextDecoder().decode(bytes.slice(0, 15))).toBe("SQLite format 3");

    const dir = mkdtempSync(join(tmpdir(), "idearepo-admin-backup-"));
    try {
      const file = join(dir, "copy.db");
      writeFileSync(file, bytes);
      const db = new Database(file, { readonly: true });
      try {
        expect(db.query<{ quick_check: string }, []>("PRAGMA quick_check").get()!.quick_check).toBe("ok");
        const emails = db.query<{ email: string }, []>("SELECT email FROM users ORDER BY email").all().map((r) => r.email);
        expect(emails).toEqual([op.email, u.email].sort());
      } finally {
        db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    const info = await call(t, "GET", "/admin/instance", { key: op.key });
    expect(info.body.last_backup).toEqual({ path: null, created_at: expect.stringMatching(STAMP_RE) });
  });
});
