// DELETE /user and DELETE /admin/users/:id (additions, docs/auth.md "Deleting an account"): a person deletes their own
// account with the password re-entered (or the e-mail typed, for an account without one), the operator anyone else's;
// refusals leave everything in place.
import { afterAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser } from "../helpers";
import { seedIdeas } from "../fixtures/seed";
import { createUsersService } from "../../src/modules/users/service";

const logs: string[] = [];
const t = makeApp({ logs });
afterAll(() => t.close());

const ideaCount = async (userId: string) => ((await t.deps.store.query("SELECT count(*) AS n FROM ideas WHERE user_id = ?").get(userId)) as { n: number }).n;
const exists = async (userId: string) => (await t.deps.store.query("SELECT 1 FROM users WHERE id = ?").get(userId)) !== null;

describe("DELETE /user", () => {
  test("needs the password; a wrong one is 403 and changes nothing; the right one deletes the account and its cookie", async () => {
    const u = await makeUser(t, { plan: "pro", password: "the right password" });
    const other = await makeUser(t, { plan: "pro" });
    await seedIdeas(t, u, 3);
    await seedIdeas(t, other, 2);

    const missing = await call(t, "DELETE", "/user", { key: u.key });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: { password: ["Enter your password to delete your account"] } });
    const wrong = await call(t, "DELETE", "/user", { key: u.key, body: { password: "not the password" } });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual({ error: "Password is incorrect" });
    expect(await ideaCount(u.id)).toBe(3);

    const login = await call(t, "POST", "/auth/login", { body: { email: u.email, password: "the right password" } });
    const cookie = `svc_session=${login.body.token}`;
    const done = await call(t, "DELETE", "/user", { headers: { cookie, origin: "http://localhost" }, body: { password: "the right password" } });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toEqual({ success: true });
    expect(done.headers.get("set-cookie")).toContain("svc_session=;");
    expect(await exists(u.id)).toBe(false);
    expect(await ideaCount(u.id)).toBe(0);
    // Every credential of the account is gone with it; the other account is untouched.
    expect((await call(t, "GET", "/user/me", { key: u.key })).status).toBe(401);
    expect((await call(t, "GET", "/user/me", { headers: { cookie } })).status).toBe(401);
    expect((await call(t, "GET", "/ideas", { key: other.key })).body.ideas).toHaveLength(2);
    // The password never reaches the log; the deletion is logged by id.
    expect(logs.join("\n")).not.toContain("the right password");
    expect(logs.join("\n")).not.toContain("not the password");
    expect(logs.some((l) => l.includes("account deleted") && l.includes(u.id) && !l.includes(u.email))).toBe(true);
  });

  test("wrong passwords count against the sign-in brake of that e-mail, shared with /auth/login", async () => {
    const u = await makeUser(t, { plan: "pro", password: "guess me if you can" });
    await seedIdeas(t, u, 1);
    for (let i = 0; i < 10; i++) {
      expect((await call(t, "DELETE", "/user", { key: u.key, body: { password: `guess ${i}` } })).status).toBe(403);
    }
    // The eleventh try is refused before the password is checked, the right one included, and sign-in is braked too.
    const braked = await call(t, "DELETE", "/user", { key: u.key, body: { password: "guess me if you can" } });
    expect(braked.status).toBe(429);
    expect(braked.body).toEqual({ error: "Rate limit exceeded" });
    expect((await call(t, "POST", "/auth/login", { body: { email: u.email, password: "guess me if you can" } })).status).toBe(429);
    expect(await exists(u.id)).toBe(true);
    expect(await ideaCount(u.id)).toBe(1);
  });

  test("an account without a password confirms with its e-mail", async () => {
    const u = await makeUser(t, { email: "NoPass@example.com" });
    const wrong = await call(t, "DELETE", "/user", { key: u.key, body: { email: "someone@example.com" } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ error: { email: ["Type your account's e-mail address to delete it"] } });
    expect(await exists(u.id)).toBe(true);
    expect((await call(t, "DELETE", "/user", { key: u.key, body: { email: " nopass@EXAMPLE.com " } })).status).toBe(200);
    expect(await exists(u.id)).toBe(false);
  });

  test("refused while a paid subscription runs, and for the instance's only operator", async () => {
    const paying = await makeUser(t, { plan: "pro", password: "paying password" });
    // What a provider's subscription event leaves on the account (docs/billing.md).
    await t.deps.store.query("UPDATE users SET subscription_id = 'sub_123', subscription_status = 'active' WHERE id = ?").run(paying.id);
    const r = await call(t, "DELETE", "/user", { key: paying.key, body: { password: "paying password" } });
    expect(r.status).toBe(409);
    // It names the web app's section and button as they are (src/web/pages/settings/section.tsx, plan.tsx).
    expect(r.body.error).toContain("cancel it first (Settings → Plan → Manage billing)");
    expect(await exists(paying.id)).toBe(true);

    const users = createUsersService(t.deps);
    const op = await users.createUser({ email: "op1@example.com", password: "operator password", operator: true });
    const only = await call(t, "DELETE", "/user", { key: op.api_key, body: { password: "operator password" } });
    expect(only.status).toBe(409);
    expect(only.body.error).toContain("only operator");
    await users.createUser({ email: "op2@example.com", operator: true });
    expect((await call(t, "DELETE", "/user", { key: op.api_key, body: { password: "operator password" } })).status).toBe(200);
  });
});

describe("DELETE /admin/users/:id", () => {
  test("the operator deletes another account with everything it owns; not their own, not a paying one, not as a non-operator", async () => {
    const users = createUsersService(t.deps);
    const op = await users.createUser({ email: "admin-op@example.com", plan: "pro", operator: true });
    const gone = await makeUser(t, { plan: "pro" });
    const stays = await makeUser(t, { plan: "pro" });
    await seedIdeas(t, gone, 2, (i) => ({ tags: [`g${i}`] }));
    await seedIdeas(t, stays, 1);

    // A non-operator gets the missing route's 404, whoever it names.
    expect((await call(t, "DELETE", `/admin/users/${gone.id}`, { key: stays.key })).body).toEqual({ error: "Not found" });
    expect(await exists(gone.id)).toBe(true);
    const own = await call(t, "DELETE", `/admin/users/${op.user.id}`, { key: op.api_key });
    expect(own.status).toBe(400);
    expect(own.body.error).toContain("You cannot delete your own account here");
    expect((await call(t, "DELETE", "/admin/users/no-such-id", { key: op.api_key })).body).toEqual({ error: "User not found" });

    const done = await call(t, "DELETE", `/admin/users/${gone.id}`, { key: op.api_key });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toEqual({ deleted: { id: gone.id, ideas: 2, tags: 2 } });
    expect(await exists(gone.id)).toBe(false);
    expect((await call(t, "GET", "/user/me", { key: gone.key })).status).toBe(401);
    expect(await ideaCount(stays.id)).toBe(1);
    const listed = (await call(t, "GET", "/admin/users", { key: op.api_key })).body.users.map((u: { id: string }) => u.id);
    expect(listed).not.toContain(gone.id);
    expect(listed).toContain(stays.id);

    await t.deps.store.query("UPDATE users SET subscription_id = 'sub_9', subscription_status = 'active' WHERE id = ?").run(stays.id);
    const paying = await call(t, "DELETE", `/admin/users/${stays.id}`, { key: op.api_key });
    expect(paying.status).toBe(409);
    expect(await exists(stays.id)).toBe(true);
  });
});
