// password_memory_kib: the cost new hashes are made at, hashes of another cost still signing in, and its floor.
import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { dataDirStore, runCli, tempDir } from "../cli";
import { call, makeApp } from "../helpers";
import { storeEnv } from "../support/postgres";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function hashOf(dataDir: string, email: string): Promise<string> {
  const db = dataDirStore(dataDir, { readonly: true });
  try {
    return ((await db.query("SELECT password_hash FROM users WHERE email = ?").get(email)) as { password_hash: string }).password_hash;
  } finally {
    await db.close();
  }
}

describe("password_memory_kib", () => {
  test("new hashes take the setting's cost (64 MiB by default); a hash of another cost still signs in", async () => {
    const dataDir = tempDir("idearepo-passwords-");
    dirs.push(dataDir);
    const made = (email: string, kib?: string) =>
      runCli(["users", "create", "--email", email, "--password-stdin"], { dataDir, stdin: "correct horse battery", env: kib ? { IDEAREPO_PASSWORD_MEMORY_KIB: kib } : {} });
    // The default, with the suite's own setting (test/preload.ts) taken away.
    const { IDEAREPO_PASSWORD_MEMORY_KIB: _, ...inherited } = process.env;
    const byDefault = Bun.spawnSync([process.execPath, join(import.meta.dir, "../../src/main.ts"), "users", "create", "--email", "default@example.com", "--password-stdin"], {
      env: { ...inherited, ...storeEnv(dataDir), IDEAREPO_DATA_DIR: dataDir },
      stdin: Buffer.from("correct horse battery"),
    });
    expect(byDefault.exitCode).toBe(0);
    expect(made("low@example.com", "19456").code).toBe(0);
    expect(made("high@example.com", "131072").code).toBe(0);
    expect(await hashOf(dataDir, "default@example.com")).toStartWith("$argon2id$v=19$m=65536,t=2,");
    expect(await hashOf(dataDir, "low@example.com")).toStartWith("$argon2id$v=19$m=19456,t=2,");
    expect(await hashOf(dataDir, "high@example.com")).toStartWith("$argon2id$v=19$m=131072,t=2,");

    // A server at the floor signs in every one of them: each hash carries its own cost.
    const t = makeApp({ dbFile: join(dataDir, "idearepo.db"), config: { password_memory_kib: 19_456 } });
    try {
      for (const email of ["default@example.com", "low@example.com", "high@example.com"]) {
        expect((await call(t, "POST", "/auth/login", { body: { email, password: "correct horse battery" } })).status).toBe(200);
        expect((await call(t, "POST", "/auth/login", { body: { email, password: "correct horse batterY" } })).status).toBe(401);
      }
    } finally {
      await t.close();
    }
  }, 60_000);

  test("below OWASP's 19 MiB the setting is refused, naming the variable", () => {
    const dataDir = tempDir("idearepo-passwords-");
    dirs.push(dataDir);
    const r = runCli(["users", "create", "--email", "x@example.com", "--password-stdin"], { dataDir, stdin: "correct horse battery", env: { IDEAREPO_PASSWORD_MEMORY_KIB: "1024" } });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("IDEAREPO_PASSWORD_MEMORY_KIB");
  });
});
