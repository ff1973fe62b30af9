// The master key on disk: generated once with owner-only permissions, rotated by the CLI (a real process),
// interrupted rotations finished or undone on the next start, bad keys refused with one clear line; a key a host
// process injects instead.
import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { rotateMasterKey } from "../../src/modules/byok/rotate";
import { createUsersService } from "../../src/modules/users/service";
import { dataDirStore, runCli, tempDir } from "../cli";
import { makeApp } from "../helpers";
import { fakeKey, providersConfig, startFakes } from "../fakes/ai-app";

const fakes = startFakes();
afterAll(() => fakes.stop());

/**
 * The app in-process on a real data dir (file database, key from <data_dir>/master.key unless a host process injects
 * `masterKey` through deps.engines or `config.master_key` gives one), requests through HTTP handling.
 */
function fileApp(dataDir: string, masterKey: Uint8Array | null = null, config: { master_key?: string } = {}) {
  const t = makeApp({ dbFile: join(dataDir, "idearepo.db"), config: { ...config, providers: providersConfig(fakes), provider_timeout_ms: 1000 } });
  t.deps.engines.masterKey = masterKey;
  const req = async (method: string, path: string, key: string, body?: unknown) => {
    const res = await t.handle(new Request(`http://localhost/api/v1${path}`, {
      method,
      headers: { "x-api-key": key, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    }));
    return { status: res.status, body: (await res.json()) as any };
  };
  return { req, deps: t.deps, close: t.close };
}

/** The sealed provider keys as the data dir's store holds them (the CLI's and the server's). */
const sealedValues = async (dataDir: string) => {
  const db = dataDirStore(dataDir, { readonly: true });
  try {
    return await db.query<{ a: string | null; b: string | null }, []>("SELECT provider_a_key_enc AS a, provider_b_key_enc AS b FROM users WHERE provider_a_key_enc IS NOT NULL").all();
  } finally {
    await db.close();
  }
};

const modeOf = (path: string) => statSync(path).mode & 0o777;
const json = (s: string) => JSON.parse(s.trim().split("\n").pop()!);

describe("master key file and rotation", () => {
  const dataDir = tempDir("idearepo-mk-");
  const keyFile = join(dataDir, "master.key");
  const providerKeys = { a: fakeKey("sk-ant"), b: fakeKey("sk-proj") };
  fakes.a.validKeys.add(providerKeys.a);
  fakes.b.validKeys.add(providerKeys.b);
  let userKey = "";

  const bothKeysWork = async () => {
    const app = fileApp(dataDir);
    try {
      const a = await app.req("POST", "/user/byok/provider_a/test", userKey);
      const b = await app.req("POST", "/user/byok/provider_b/test", userKey);
      return [a.body, b.body];
    } finally {
      await app.close();
    }
  };

  test("the first use generates <data_dir>/master.key: 32 random bytes in hex, mode 0600", async () => {
    const created = runCli(["users", "create", "--email", "rot@example.com", "--plan", "pro"], { dataDir });
    expect(created.code).toBe(0);
    userKey = JSON.parse(created.stdout).api_key;
    const app = fileApp(dataDir);
    try {
      expect((await app.req("PUT", "/user/byok/provider_a", userKey, { api_key: providerKeys.a })).status).toBe(200);
      expect((await app.req("PUT", "/user/byok/provider_b", userKey, { api_key: providerKeys.b })).status).toBe(200);
    } finally {
      await app.close();
    }
    expect(readFileSync(keyFile, "utf8")).toMatch(/^[0-9a-f]{64}\n$/);
    expect(modeOf(keyFile)).toBe(0o600);
    expect(await bothKeysWork()).toEqual([{ ok: true }, { ok: true }]);
  });

  test("master-key status reports the key id and what it can open", async () => {
    const r = runCli(["master-key", "status"], { dataDir });
    expect(r.code).toBe(0);
    const out = json(r.stdout);
    expect(out).toMatchObject({ source: "file", key_file: keyFile, readable: 2, unreadable: [] });
    expect(out.key_id).toBe((await sealedValues(dataDir))[0].a!.split(":")[1]);
  });

  test("master-key rotate re-seals every value under a new key and replaces the file atomically", async () => {
    const before = readFileSync(keyFile, "utf8");
    const sealedBefore = (await sealedValues(dataDir))[0];
    const r = runCli(["master-key", "rotate"], { dataDir });
    expect(r.code).toBe(0);
    const out = json(r.stdout);
    expect(out).toMatchObject({ success: true, source: "file", key_file: keyFile, reencrypted: 2, dropped: 0 });
    expect(out.key_id).not.toBe(out.previous_key_id);
    expect(r.stdout).not.toContain(readFileSync(keyFile, "utf8").trim()); // the new key is never printed
    const after = readFileSync(keyFile, "utf8");
    expect(after).toMatch(/^[0-9a-f]{64}\n$/);
    expect(after).not.toBe(before);
    expect(modeOf(keyFile)).toBe(0o600);
    expect(existsSync(`${keyFile}.next`)).toBe(false);
    const sealedAfter = (await sealedValues(dataDir))[0];
    expect(sealedAfter.a!.split(":")[1]).toBe(out.key_id);
    expect(sealedAfter.a).not.toBe(sealedBefore.a);
    expect(await bothKeysWork()).toEqual([{ ok: true }, { ok: true }]);
  });

  test("a rotation that crashed after the database commit is completed on the next start", async () => {
    const oldCopy = join(dataDir, "old.key");
    copyFileSync(keyFile, oldCopy);
    expect(runCli(["master-key", "rotate"], { dataDir }).code).toBe(0);
    // Recreate the crash window: the database uses the new key, master.key is still the old one, .next holds the new.
    copyFileSync(keyFile, `${keyFile}.next`);
    const newKey = readFileSync(keyFile, "utf8");
    copyFileSync(oldCopy, keyFile);
    expect(await bothKeysWork()).toEqual([{ ok: true }, { ok: true }]);
    expect(readFileSync(keyFile, "utf8")).toBe(newKey);
    expect(existsSync(`${keyFile}.next`)).toBe(false);
  });

  test("a rotation that crashed before the commit is undone on the next start", async () => {
    const current = readFileSync(keyFile, "utf8");
    writeFileSync(`${keyFile}.next`, randomBytes(32).toString("hex") + "\n", { mode: 0o600 });
    expect(await bothKeysWork()).toEqual([{ ok: true }, { ok: true }]);
    expect(readFileSync(keyFile, "utf8")).toBe(current);
    expect(existsSync(`${keyFile}.next`)).toBe(false);
  });

  test("values the current key cannot open stop the rotation unchanged, unless --drop-unreadable", async () => {
    const wrong = randomBytes(32).toString("hex");
    const env = { IDEAREPO_MASTER_KEY: wrong };
    const sealedBefore = (await sealedValues(dataDir));
    const refused = runCli(["master-key", "rotate", "--new-key-stdin"], { dataDir, env, stdin: randomBytes(32).toString("hex") });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("cannot be decrypted with the current master key");
    expect(refused.stderr).toContain("Nothing was changed");
    expect((await sealedValues(dataDir))).toEqual(sealedBefore);

    const status = json(runCli(["master-key", "status"], { dataDir, env }).stdout);
    expect(status).toMatchObject({ source: "config", key_file: null, readable: 0 });
    expect(status.unreadable).toHaveLength(2);

    const dropped = runCli(["master-key", "rotate", "--new-key-stdin", "--drop-unreadable"], { dataDir, env, stdin: randomBytes(32).toString("hex") });
    expect(dropped.code).toBe(0);
    expect(json(dropped.stdout)).toMatchObject({ success: true, reencrypted: 0, dropped: 2 });
    expect((await sealedValues(dataDir))).toEqual([]);
  });

  test("a key from configuration is rotated only with --new-key-stdin; the operator then updates the config", () => {
    const dir = tempDir("idearepo-mk-cfg-");
    const env = { IDEAREPO_MASTER_KEY: randomBytes(32).toString("hex") };
    const refused = runCli(["master-key", "rotate"], { dataDir: dir, env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--new-key-stdin");
    const same = runCli(["master-key", "rotate", "--new-key-stdin"], { dataDir: dir, env, stdin: env.IDEAREPO_MASTER_KEY });
    expect(same.code).toBe(2);
    expect(same.stderr).toContain("same as the current one");
    const ok = runCli(["master-key", "rotate", "--new-key-stdin"], { dataDir: dir, env, stdin: randomBytes(32).toString("base64") });
    expect(ok.code).toBe(0);
    expect(json(ok.stdout)).toMatchObject({ success: true, source: "config", key_file: null, reencrypted: 0, next_step: expect.stringContaining("IDEAREPO_MASTER_KEY") });
    expect(existsSync(join(dir, "master.key"))).toBe(false);
  });

  test("a server running through a rotation: on its key file it saves and reads under the new key; with the old key from configuration it refuses to save", async () => {
    const dir = tempDir("idearepo-mk-live-");
    const key = JSON.parse(runCli(["users", "create", "--email", "live@example.com", "--plan", "pro"], { dataDir: dir }).stdout).api_key;
    const app = fileApp(dir); // stays open through the rotation, holding the key it read first
    try {
      expect((await app.req("PUT", "/user/byok/provider_a", key, { api_key: providerKeys.a })).status).toBe(200);
      const rotated = runCli(["master-key", "rotate"], { dataDir: dir });
      expect(rotated.code).toBe(0);
      const newKid = json(rotated.stdout).key_id;
      // The value the rotation re-sealed opens, and a new save is sealed under the new key, not the retired one.
      expect((await app.req("POST", "/user/byok/provider_a/test", key)).body).toEqual({ ok: true });
      expect((await app.req("PUT", "/user/byok/provider_b", key, { api_key: providerKeys.b })).status).toBe(200);
      const [sealed] = await sealedValues(dir);
      expect([sealed.a!.split(":")[1], sealed.b!.split(":")[1]]).toEqual([newKid, newKid]);
    } finally {
      await app.close();
    }
    // Every value opens for a process started afresh on the new key.
    const fresh = fileApp(dir);
    try {
      expect((await fresh.req("POST", "/user/byok/provider_b/test", key)).body).toEqual({ ok: true });
    } finally {
      await fresh.close();
    }

    // A key from configuration: the rotation cannot change what a running process was given.
    const cfgDir = tempDir("idearepo-mk-live-cfg-");
    const oldKey = randomBytes(32).toString("hex");
    const newKey = randomBytes(32).toString("hex");
    const cfgUser = JSON.parse(runCli(["users", "create", "--email", "cfg@example.com", "--plan", "pro"], { dataDir: cfgDir }).stdout).api_key;
    const cfgApp = fileApp(cfgDir, null, { master_key: oldKey });
    const logged: string[] = [];
    const error = cfgApp.deps.log.error.bind(cfgApp.deps.log);
    cfgApp.deps.log.error = (msg: string, fields?: Record<string, unknown>) => void (logged.push(msg + JSON.stringify(fields ?? {})), error(msg, fields));
    const put = (provider: string, apiKey: string) => cfgApp.req("PUT", `/user/byok/${provider}`, cfgUser, { api_key: apiKey });
    try {
      expect((await put("provider_a", providerKeys.a)).status).toBe(200);
      const rotated = runCli(["master-key", "rotate", "--new-key-stdin"], { dataDir: cfgDir, env: { IDEAREPO_MASTER_KEY: oldKey }, stdin: newKey });
      expect(rotated.code).toBe(0);
      const before = await sealedValues(cfgDir);
      const refused = await put("provider_b", providerKeys.b);
      expect(refused).toEqual({ status: 500, body: { error: "Internal server error" } });
      expect(await sealedValues(cfgDir)).toEqual(before); // nothing sealed under the retired key
      expect(logged.join("\n")).toContain("restart it");
      expect(logged.join("\n")).not.toContain(oldKey);
      expect(logged.join("\n")).not.toContain(providerKeys.b);
    } finally {
      await cfgApp.close();
    }
    // Restarted with the new key, the same save goes through and both values open.
    const restarted = fileApp(cfgDir, null, { master_key: newKey });
    try {
      expect((await restarted.req("PUT", "/user/byok/provider_b", cfgUser, { api_key: providerKeys.b })).status).toBe(200);
      for (const p of ["provider_a", "provider_b"]) {
        expect((await restarted.req("POST", `/user/byok/${p}/test`, cfgUser)).body).toEqual({ ok: true });
      }
    } finally {
      await restarted.close();
    }
  }, 60_000);

  test("a data dir restored without its key file: a new key is made, the orphaned values are reported, not destroyed", async () => {
    const dir = tempDir("idearepo-mk-lost-");
    const key = JSON.parse(runCli(["users", "create", "--email", "lost@example.com", "--plan", "pro"], { dataDir: dir }).stdout).api_key;
    const app = fileApp(dir);
    try {
      expect((await app.req("PUT", "/user/byok/provider_a", key, { api_key: providerKeys.a })).status).toBe(200);
    } finally {
      await app.close();
    }
    const original = readFileSync(join(dir, "master.key"));
    unlinkSync(join(dir, "master.key"));
    const r = runCli(["master-key", "status"], { dataDir: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("sealed under a different master key");
    expect(json(r.stdout)).toMatchObject({ readable: 0, unreadable: [{ provider: "provider_a" }] });
    writeFileSync(join(dir, "master.key"), original, { mode: 0o600 }); // the backup turns up
    expect(json(runCli(["master-key", "status"], { dataDir: dir }).stdout)).toMatchObject({ readable: 1, unreadable: [] });
  });

  test("a malformed master key is one clear line, for the CLI and for the server at boot", () => {
    const dir = tempDir("idearepo-mk-bad-");
    const env = { IDEAREPO_MASTER_KEY: "not-a-real-key" };
    const cli = runCli(["master-key", "status"], { dataDir: dir, env });
    expect(cli.code).toBe(2);
    expect(cli.stderr.trim()).toMatch(/^idearepo: master_key \(IDEAREPO_MASTER_KEY\): master key must be 32 bytes/);
    const serve = runCli(["serve"], { dataDir: dir, env: { ...env, IDEAREPO_PORT: "0" } });
    expect(serve.code).toBe(2);
    expect(serve.stderr).toContain("master_key (IDEAREPO_MASTER_KEY)");
    const short = runCli(["master-key", "rotate", "--new-key-stdin"], { dataDir: dir, stdin: "abc" });
    expect(short.code).toBe(2);
    expect(short.stderr).toContain("--new-key-stdin");
  });
});

describe("a master key injected by a host process (deps.engines.masterKey)", () => {
  const dataDir = tempDir("idearepo-injected-");
  const hostKey = randomBytes(32);
  const providerKey = fakeKey("sk-ant");
  fakes.a.validKeys.add(providerKey);
  let apiKey = "";

  test("seals provider keys without writing a key file, and opens them again", async () => {
    const app = fileApp(dataDir, hostKey);
    try {
      apiKey = (await createUsersService(app.deps).createUser({ email: "host@example.com", plan: "pro" })).api_key;
      expect((await app.req("PUT", "/user/byok/provider_a", apiKey, { api_key: providerKey })).status).toBe(200);
      expect(existsSync(join(dataDir, "master.key"))).toBe(false);
      expect((await app.req("POST", "/user/byok/provider_a/test", apiKey)).body).toMatchObject({ ok: true });
    } finally {
      await app.close();
    }
  });

  test("another injected key cannot open them; rotation is the host's to do", async () => {
    const other = fileApp(dataDir, randomBytes(32));
    try {
      const tested = await other.req("POST", "/user/byok/provider_a/test", apiKey);
      expect(tested.body).toMatchObject({ ok: false });
      expect(tested.body.error).toContain("can no longer be decrypted");
    } finally {
      await other.close();
    }
    const app = fileApp(dataDir, hostKey);
    try {
      await expect(rotateMasterKey(app.deps)).rejects.toThrow("The master key was injected by the host process; rotate it there");
    } finally {
      await app.close();
    }
  });
});
