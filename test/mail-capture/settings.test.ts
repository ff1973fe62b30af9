// The account's capture options through PATCH /user/me (checked, because a bad allow-list would read as none) and what
// GET /user/shortcuts says the instance can do for them (authenticate senders, send replies). No mailbox is read here.
import { afterAll, describe, expect, test } from "bun:test";
import { call, makeApp, makeUser, type TestApp, type TestUser } from "../helpers";

const IMAP = { host: "127.0.0.1", port: 1, secure: false, user: "ideas", pass: "secret-pass", address: "ideas@example.org" };
const apps: TestApp[] = [];
const appWith = (config: Record<string, unknown>) => {
  const t = makeApp({ config });
  apps.push(t);
  return t;
};
afterAll(() => apps.forEach((t) => t.close()));

const patchSettings = (t: TestApp, u: TestUser, settings: unknown) =>
  call(t, "PATCH", "/user/me", { key: u.key, body: { settings_json: JSON.stringify(settings) } });
const stored = async (t: TestApp, u: TestUser) => JSON.parse((await call(t, "GET", "/user/me", { key: u.key })).body.settings_json);

describe("PATCH /user/me: the capture keys of settings_json", () => {
  const t = appWith({ imap: IMAP });

  test("valid options are stored as sent, beside the other keys", async () => {
    const u = await makeUser(t);
    const settings = { my_client_key: "keep me", dedup_threshold: 0.6, email_capture_reply: true, email_capture_authenticated_only: false, email_capture_senders: ["me@example.com", "@example.net"] };
    expect((await patchSettings(t, u, settings)).status).toBe(200);
    expect(await stored(t, u)).toEqual(settings);
  });

  const refusals: Array<[string, unknown, string]> = [
    ["a word that is no address", { email_capture_senders: ["bob"] }, 'email_capture_senders: "bob" is not an address or a domain; write name@example.com, or @example.com for a whole domain'],
    ["an address with a space", { email_capture_senders: ["ann@example.com", " bob@example.com"] }, 'email_capture_senders: " bob@example.com" is not an address or a domain; write name@example.com, or @example.com for a whole domain'],
    ["two @", { email_capture_senders: ["a@b@example.com"] }, 'email_capture_senders: "a@b@example.com" is not an address or a domain; write name@example.com, or @example.com for a whole domain'],
    ["over 254 characters", { email_capture_senders: [`${"a".repeat(250)}@example.com`] }, "email_capture_senders: an address has at most 254 characters"],
    ["101 senders", { email_capture_senders: Array.from({ length: 101 }, (_, i) => `s${i}@example.com`) }, "email_capture_senders holds at most 100 senders"],
    ["a string, not a list", { email_capture_senders: "me@example.com" }, "email_capture_senders must be a list of addresses (name@example.com) or domains (@example.com)"],
    ["a number in the list", { email_capture_senders: [42] }, "email_capture_senders must be a list of addresses (name@example.com) or domains (@example.com)"],
    ["a reply flag as text", { email_capture_reply: "true" }, "email_capture_reply must be true or false"],
    ["authenticated-only as 1", { email_capture_authenticated_only: 1 }, "email_capture_authenticated_only must be true or false"],
  ];
  for (const [name, settings, message] of refusals) {
    test(`400 for ${name}, naming the key; nothing is stored`, async () => {
      const u = await makeUser(t);
      expect((await patchSettings(t, u, { my_client_key: 1, email_capture_senders: ["me@example.com"] })).status).toBe(200);
      const r = await patchSettings(t, u, { my_client_key: 2, ...(settings as object) });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: { settings_json: [message] } });
      expect(await stored(t, u)).toEqual({ my_client_key: 1, email_capture_senders: ["me@example.com"] });
    });
  }

  test("100 senders, an empty list and null are accepted (null and [] mean no list)", async () => {
    const u = await makeUser(t);
    const hundred = Array.from({ length: 100 }, (_, i) => `s${i}@example.com`);
    expect((await patchSettings(t, u, { email_capture_senders: hundred })).status).toBe(200);
    expect((await patchSettings(t, u, { email_capture_senders: [] })).status).toBe(200);
    expect((await patchSettings(t, u, { email_capture_senders: null, email_capture_reply: null })).status).toBe(200);
    expect(await stored(t, u)).toEqual({ email_capture_senders: null, email_capture_reply: null });
  });

  test("a bad value already stored (from before the check) does not block saving other keys", async () => {
    const u = await makeUser(t);
    // Written as an older server accepted it: straight into the row, since today's PATCH refuses it.
    await t.deps.store.query("UPDATE users SET settings_json = ? WHERE id = ?").run(JSON.stringify({ email_capture_senders: ["bob"] }), u.id);
    const r = await patchSettings(t, u, { email_capture_senders: ["bob"], weekly_digest: false });
    expect(r.status).toBe(200);
    expect(await stored(t, u)).toEqual({ email_capture_senders: ["bob"], weekly_digest: false });
    expect((await patchSettings(t, u, { email_capture_senders: ["bob", "carl"] })).status).toBe(400); // a change is checked
  });
});

describe("GET /user/shortcuts: what the instance can do for the capture options", () => {
  test("capture off: no address, and neither authentication nor replies", async () => {
    const t = appWith({ smtp: { host: "127.0.0.1" }, imap: { ...IMAP, host: null }, });
    const u = await makeUser(t);
    expect((await call(t, "GET", "/user/shortcuts", { key: u.key })).body).toEqual({
      quick_capture_url: "http://localhost/capture", capture_email: null, capture_email_can_authenticate: false, capture_email_can_reply: false,
    });
  });

  test("capture on without a trusted mail server or SMTP: an address, and both false", async () => {
    const t = appWith({ imap: IMAP });
    const u = await makeUser(t);
    const body = (await call(t, "GET", "/user/shortcuts", { key: u.key })).body;
    expect(body.capture_email).toMatch(/^ideas\+[a-z2-7]{20}@example\.org$/);
    expect(body).toMatchObject({ capture_email_can_authenticate: false, capture_email_can_reply: false });
  });

  test("capture on with imap.trusted_authserv_ids and smtp.host: both true", async () => {
    const t = appWith({ imap: { ...IMAP, trusted_authserv_ids: ["mx.example.org"] }, smtp: { host: "127.0.0.1" } });
    const u = await makeUser(t);
    expect((await call(t, "GET", "/user/shortcuts", { key: u.key })).body).toMatchObject({ capture_email_can_authenticate: true, capture_email_can_reply: true });
  });
});
