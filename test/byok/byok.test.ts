// Provider keys: save (Pro), delete (any plan), status and its active_provider rule, live key tests, sealing at rest.
import { describe, expect, test } from "bun:test";
import { call, makeUser } from "../helpers";
import { createUsersService } from "../../src/modules/users/service";
import { fakeKey, makeAiApp, startFakes, useAiApp } from "../fakes/ai-app";

const { fakes, t, logs } = useAiApp();

// Read and written through the store, so the file runs on either (IDEAREPO_TEST_STORE).
const sealedColumns = async (userId: string) =>
  (await t.deps.store.query<Record<string, string | null>, [string]>(
    "SELECT provider_a_key_enc, provider_b_key_enc, provider_c_key_enc FROM users WHERE id = ?",
  ).get(userId))!;

const status = async (key: string) => (await call(t, "GET", "/user/byok/status", { key })).body;

describe("PUT /user/byok/:provider", () => {
  test("Pro stores the key sealed and answers {success, provider}; the key is never shown again", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const apiKey = fakeKey();
    const r = await call(t, "PUT", "/user/byok/provider_a", { key: u.key, body: { api_key: apiKey } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, provider: "provider_a" });

    const stored = (await sealedColumns(u.id)).provider_a_key_enc!;
    expect(stored).toMatch(/^v1:[0-9a-f]{8}:[A-Za-z0-9+/=]+$/);
    expect(stored).not.toContain(apiKey);
    expect(Buffer.from(stored.split(":")[2], "base64").toString("latin1")).not.toContain(apiKey);

    const me = await call(t, "GET", "/user/me", { key: u.key });
    expect(me.body).toMatchObject({ has_provider_a_key: true, has_provider_b_key: false, has_provider_c_key: false });
    for (const text of [me.text, (await call(t, "GET", "/user/byok/status", { key: u.key })).text, logs.join("\n")]) {
      expect(text).not.toContain(apiKey);
    }
  });

  test("every save uses a fresh nonce: the same key twice gives different sealed values", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const apiKey = fakeKey();
    await call(t, "PUT", "/user/byok/provider_b", { key: u.key, body: { api_key: apiKey } });
    const first = (await sealedColumns(u.id)).provider_b_key_enc;
    await call(t, "PUT", "/user/byok/provider_b", { key: u.key, body: { api_key: apiKey } });
    const second = (await sealedColumns(u.id)).provider_b_key_enc;
    expect(second).not.toBe(first);
    expect(second!.split(":")[1]).toBe(first!.split(":")[1]); // same master key id
  });

  test("keys shorter than 10 characters, missing or with line breaks are 400 on api_key", async () => {
    const u = await makeUser(t, { plan: "pro" });
    for (const body of [{ api_key: "short" }, { api_key: "123456789" }, {}, { api_key: 12345678901 }, { api_key: "   abc    " }, { api_key: "sk-abc\ndef-ghi" }]) {
      const r = await call(t, "PUT", "/user/byok/provider_a", { key: u.key, body });
      expect(r.status).toBe(400);
      expect(Object.keys(r.body.error)).toEqual(["api_key"]);
      expect(r.body.error.api_key[0]).toEqual(expect.any(String));
    }
    expect((await sealedColumns(u.id)).provider_a_key_enc).toBeNull();
    // exactly 10 characters is enough; surrounding whitespace from a paste is dropped
    const ok = await call(t, "PUT", "/user/byok/provider_a", { key: u.key, body: { api_key: "  0123456789\n" } });
    expect(ok.status).toBe(200);
  });

  test("an unknown provider is 400", async () => {
    const u = await makeUser(t, { plan: "pro" });
    for (const p of ["provider_d", "openai", "PROVIDER_A"]) {
      const r = await call(t, "PUT", `/user/byok/${p}`, { key: u.key, body: { api_key: fakeKey() } });
      expect(r.status).toBe(400);
      expect(r.body.error).toHaveProperty("provider");
    }
  });

  test("Free accounts get the plan gate before any validation", async () => {
    const u = await makeUser(t, { plan: "free" });
    for (const [method, path, body] of [
      ["PUT", "/user/byok/provider_a", { api_key: fakeKey() }],
      ["PUT", "/user/byok/nope", { api_key: "x" }],
      ["POST", "/user/byok/provider_a/test", undefined],
    ] as const) {
      const r = await call(t, method, path, { key: u.key, body });
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ pro_required: true, feature: "byok", upgrade_url: expect.any(String) });
      expect(r.body.error).toMatch(/requires a Pro plan$/);
    }
    expect((await sealedColumns(u.id)).provider_a_key_enc).toBeNull();
  });
});

describe("DELETE /user/byok/:provider", () => {
  test("removes the key on any plan (a downgraded account can still clear its keys)", async () => {
    const u = await makeUser(t, { plan: "pro" });
    await call(t, "PUT", "/user/byok/provider_c", { key: u.key, body: { api_key: fakeKey() } });
    await createUsersService(t.deps).setPlan(u.id, "free");
    const r = await call(t, "DELETE", "/user/byok/provider_c", { key: u.key });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, provider: "provider_c" });
    expect((await sealedColumns(u.id)).provider_c_key_enc).toBeNull();
    expect((await call(t, "GET", "/user/me", { key: u.key })).body.has_provider_c_key).toBe(false);
  });

  test("deleting a key that is not stored still succeeds; an unknown provider is 400", async () => {
    const u = await makeUser(t);
    expect((await call(t, "DELETE", "/user/byok/provider_a", { key: u.key })).body).toEqual({ success: true, provider: "provider_a" });
    const bad = await call(t, "DELETE", "/user/byok/provider_x", { key: u.key });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toHaveProperty("provider");
  });
});

describe("GET /user/byok/status", () => {
  test("nothing stored: active_provider null and every flag false", async () => {
    const u = await makeUser(t);
    expect(await status(u.key)).toEqual({ active_provider: null, has_provider_a_key: false, has_provider_b_key: false, has_provider_c_key: false });
  });

  test("without a preference the first stored key in order a, b, c is active", async () => {
    const u = await makeUser(t, { plan: "pro" });
    await call(t, "PUT", "/user/byok/provider_c", { key: u.key, body: { api_key: fakeKey() } });
    expect((await status(u.key)).active_provider).toBe("provider_c");
    await call(t, "PUT", "/user/byok/provider_b", { key: u.key, body: { api_key: fakeKey() } });
    expect(await status(u.key)).toEqual({ active_provider: "provider_b", has_provider_a_key: false, has_provider_b_key: true, has_provider_c_key: true });
    await call(t, "PUT", "/user/byok/provider_a", { key: u.key, body: { api_key: fakeKey() } });
    expect((await status(u.key)).active_provider).toBe("provider_a");
  });

  test("the preference wins only when its key is stored; otherwise it is silently ignored", async () => {
    const u = await makeUser(t, { plan: "pro" });
    await call(t, "PUT", "/user/byok/provider_b", { key: u.key, body: { api_key: fakeKey() } });
    await call(t, "PUT", "/user/byok/provider_c", { key: u.key, body: { api_key: fakeKey() } });
    const prefer = (p: string) => call(t, "PATCH", "/user/me", { key: u.key, body: { settings_json: JSON.stringify({ preferred_ai_provider: p }) } });
    await prefer("provider_c");
    expect((await status(u.key)).active_provider).toBe("provider_c");
    await prefer("provider_a"); // no key for it
    expect((await status(u.key)).active_provider).toBe("provider_b");
    await prefer("provider_z"); // not a provider: discarded at parse time
    expect((await status(u.key)).active_provider).toBe("provider_b");
    await prefer("provider_c");
    await call(t, "DELETE", "/user/byok/provider_c", { key: u.key });
    expect((await status(u.key)).active_provider).toBe("provider_b");
  });

  test("accounts never see or touch each other's keys", async () => {
    const a = await makeUser(t, { plan: "pro" });
    const b = await makeUser(t, { plan: "pro" });
    await call(t, "PUT", "/user/byok/provider_a", { key: a.key, body: { api_key: fakeKey() } });
    expect((await status(b.key)).has_provider_a_key).toBe(false);
    await call(t, "DELETE", "/user/byok/provider_a", { key: b.key });
    expect((await status(a.key)).has_provider_a_key).toBe(true);
    const test = await call(t, "POST", "/user/byok/provider_a/test", { key: b.key });
    expect(test.body.ok).toBe(false);
    expect(fakes.a.requests.length).toBe(0);
  });
});

describe("POST /user/byok/:provider/test", () => {
  test("no key stored: 200 {ok:false, error} without calling the provider", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const r = await call(t, "POST", "/user/byok/provider_b/test", { key: u.key });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: false, error: expect.stringContaining("provider_b") });
    expect(fakes.b.requests.length).toBe(0);
  });

  test("a valid key: one minimal live call in each provider's real format, then {ok:true}", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const keys = { a: fakeKey("sk-ant"), b: fakeKey("sk-proj"), c: fakeKey("AIza") };
    fakes.a.validKeys.add(keys.a);
    fakes.b.validKeys.add(keys.b);
    fakes.c.validKeys.add(keys.c);
    await call(t, "PUT", "/user/byok/provider_a", { key: u.key, body: { api_key: keys.a } });
    await call(t, "PUT", "/user/byok/provider_b", { key: u.key, body: { api_key: keys.b } });
    await call(t, "PUT", "/user/byok/provider_c", { key: u.key, body: { api_key: keys.c } });
    for (const p of ["a", "b", "c"] as const) {
      const r = await call(t, "POST", `/user/byok/provider_${p}/test`, { key: u.key });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ ok: true });
    }
    const [a] = fakes.a.requests;
    expect(a.headers["x-api-key"]).toBe(keys.a);
    expect(a.headers["anthropic-version"]).toBe("2023-06-01");
    expect(a.body.max_tokens).toBeLessThanOrEqual(32);
    const [b] = fakes.b.requests;
    expect(b.headers.authorization).toBe(`Bearer ${keys.b}`);
    expect(b.body.max_tokens).toBeLessThanOrEqual(32);
    const [c] = fakes.c.requests;
    expect(c.headers["x-goog-api-key"]).toBe(keys.c);
    expect(c.body.generationConfig.maxOutputTokens).toBeLessThanOrEqual(32);
    expect(logs.join("\n")).not.toContain(keys.a);
  });

  test("a rejected key: {ok:false} with the provider's own message, never the key", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const keys = { a: fakeKey("sk-ant"), b: fakeKey("sk-proj"), c: fakeKey("AIza") };
    for (const p of ["a", "b", "c"] as const) await call(t, "PUT", `/user/byok/provider_${p}`, { key: u.key, body: { api_key: keys[p] } });
    const a = await call(t, "POST", "/user/byok/provider_a/test", { key: u.key });
    expect(a.body).toEqual({ ok: false, error: expect.stringContaining("invalid x-api-key") });
    const b = await call(t, "POST", "/user/byok/provider_b/test", { key: u.key });
    expect(b.body.ok).toBe(false);
    expect(b.body.error).toContain("Incorrect API key provided");
    expect(fakes.b.lastReply.error.message).toContain(keys.b); // the fake did echo it…
    expect(b.text).not.toContain(keys.b); // …and idearepo did not pass it on
    expect(b.body.error).toContain("[redacted]");
    const c = await call(t, "POST", "/user/byok/provider_c/test", { key: u.key });
    expect(c.body).toEqual({ ok: false, error: expect.stringContaining("API key not valid") });
    expect(logs.join("\n")).not.toContain(keys.b);
  });

  test("an unreachable provider: {ok:false, error}", async () => {
    const down = startFakes();
    down.stop();
    const t2 = makeAiApp(down);
    try {
      const u = await makeUser(t2, { plan: "pro" });
      await call(t2, "PUT", "/user/byok/provider_a", { key: u.key, body: { api_key: fakeKey() } });
      const r = await call(t2, "POST", "/user/byok/provider_a/test", { key: u.key });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ ok: false, error: expect.stringContaining("Could not reach provider") });
    } finally {
      t2.close();
    }
  });
});

describe("sealing at rest", () => {
  test("neither the key nor its sealed value is ever in an export", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const apiKey = fakeKey();
    await call(t, "PUT", "/user/byok/provider_a", { key: u.key, body: { api_key: apiKey } });
    const sealed = (await sealedColumns(u.id)).provider_a_key_enc!;
    const r = await call(t, "POST", "/user/export", { key: u.key });
    expect(r.status).toBe(200);
    expect(r.body.profile.has_provider_a_key).toBe(true);
    for (const secret of [apiKey, sealed, sealed.split(":")[2], "key_enc"]) expect(r.text).not.toContain(secret);
  });


  test("a sealed value is bound to its account and slot: copied elsewhere it does not open", async () => {
    const a = await makeUser(t, { plan: "pro" });
    const b = await makeUser(t, { plan: "pro" });
    const apiKey = fakeKey();
    fakes.a.validKeys.add(apiKey);
    fakes.b.validKeys.add(apiKey);
    await call(t, "PUT", "/user/byok/provider_a", { key: a.key, body: { api_key: apiKey } });
    const sealed = (await sealedColumns(a.id)).provider_a_key_enc;
    await t.deps.store.query("UPDATE users SET provider_a_key_enc = ? WHERE id = ?").run(sealed, b.id);
    await t.deps.store.query("UPDATE users SET provider_b_key_enc = ? WHERE id = ?").run(sealed, a.id);
    for (const [u, p] of [[b, "provider_a"], [a, "provider_b"]] as const) {
      const r = await call(t, "POST", `/user/byok/${p}/test`, { key: u.key });
      expect(r.body).toEqual({ ok: false, error: expect.stringContaining("can no longer be decrypted") });
    }
    expect((await call(t, "POST", "/user/byok/provider_a/test", { key: a.key })).body).toEqual({ ok: true });
  });

  test("values sealed under another master key are refused, not mis-decrypted", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const other = makeAiApp(fakes);
    try {
      const v = await makeUser(other, { plan: "pro" });
      await call(other, "PUT", "/user/byok/provider_a", { key: v.key, body: { api_key: fakeKey() } });
      const foreign = (await other.deps.store.query<{ s: string }, [string]>("SELECT provider_a_key_enc AS s FROM users WHERE id = ?").get(v.id))!.s;
      await t.deps.store.query("UPDATE users SET provider_a_key_enc = ? WHERE id = ?").run(foreign, u.id);
    } finally {
      other.close();
    }
    const r = await call(t, "POST", "/user/byok/provider_a/test", { key: u.key });
    expect(r.body.ok).toBe(false);
    expect(fakes.a.requests.length).toBe(0);
  });
});
