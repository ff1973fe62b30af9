// A master key injected by a host process through deps.engines.masterKey: provider keys are sealed with it, no key
// file is written, another key cannot open them, and rotation is refused (the host owns that key).
import { afterAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../src/app";
import { loadConfig } from "../../src/config";
import { openDb } from "../../src/db/open";
import { noEngines, type Deps } from "../../src/deps";
import { createLogger } from "../../src/lib/log";
import { rotateMasterKey } from "../../src/modules/byok/rotate";
import { createUsersService } from "../../src/modules/users/service";
import { tempDir } from "../cli";
import { fakeKey, providersConfig, startFakes } from "../fakes/ai-app";

const fakes = startFakes();
afterAll(() => fakes.stop());

/** An app on a real data dir whose host hands it `masterKey` (as an embedding process would). */
function hostedApp(dataDir: string, masterKey: Uint8Array) {
  const config = loadConfig(
    { IDEAREPO_DATA_DIR: dataDir, IDEAREPO_ENV: "test" },
    { log_level: "silent", providers: providersConfig(fakes), provider_timeout_ms: 1000 },
  );
  const db = openDb(join(dataDir, "idearepo.db"));
  const deps: Deps = { config, db, clock: () => new Date(), log: createLogger("silent"), engines: { ...noEngines(), masterKey } };
  const { app, close } = createApp(deps);
  const req = async (method: string, path: string, key: string, body?: unknown) => {
    const res = await app.handle(new Request(`http://localhost/api/v1${path}`, {
      method,
      headers: { "x-api-key": key, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    }));
    return { status: res.status, body: (await res.json()) as any };
  };
  return { deps, req, close: () => (close(), db.close()) };
}

describe("a master key injected through deps.engines.masterKey", () => {
  const dataDir = tempDir("idearepo-injected-");
  const hostKey = randomBytes(32);
  const providerKey = fakeKey("sk-ant");
  fakes.a.validKeys.add(providerKey);
  let apiKey = "";

  test("seals provider keys without writing a key file, and opens them again", async () => {
    const app = hostedApp(dataDir, hostKey);
    try {
      apiKey = (await createUsersService(app.deps).createUser({ email: "host@example.com", plan: "pro" })).api_key;
      expect((await app.req("PUT", "/user/byok/provider_a", apiKey, { api_key: providerKey })).status).toBe(200);
      expect(existsSync(join(dataDir, "master.key"))).toBe(false);
      expect((await app.req("POST", "/user/byok/provider_a/test", apiKey)).body).toMatchObject({ ok: true });
    } finally {
      app.close();
    }
  });

  test("another injected key cannot open them; rotation is the host's to do", async () => {
    const other = hostedApp(dataDir, randomBytes(32));
    try {
      const tested = await other.req("POST", "/user/byok/provider_a/test", apiKey);
      expect(tested.body).toMatchObject({ ok: false });
      expect(tested.body.error).toContain("can no longer be decrypted");
    } finally {
      other.close();
    }
    const app = hostedApp(dataDir, hostKey);
    try {
      expect(() => rotateMasterKey(app.deps)).toThrow("The master key was injected by the host process; rotate it there");
    } finally {
      app.close();
    }
  });
});
