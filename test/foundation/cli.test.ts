// The operator CLI as a real process: the exact `users create` contract, plans, trials, keys, and clear failures.
import { describe, expect, test } from "bun:test";
import { dataDirStore, runCli, tempDir } from "../cli";
import { storeEnv } from "../support/postgres";

describe("operator CLI", () => {
  const dataDir = tempDir();

  test("users create prints exactly one JSON object {user, api_key}", () => {
    const r = runCli(["users", "create", "--email", "ada@example.com", "--plan", "pro", "--name", "Ada"], { dataDir });
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines.length).toBe(1);
    const out = JSON.parse(lines[0]);
    expect(Object.keys(out).sort()).toEqual(["api_key", "user"]);
    expect(out.api_key).toMatch(/^svc_[0-9a-f]{64}$/);
    expect(out.user).toMatchObject({ email: "ada@example.com", plan: "pro", display_name: "Ada", has_provider_a_key: false });
  });

  test("the minted key works against a server on the same data dir, and the CLI works while it runs", async () => {
    const port = 20000 + Math.floor(Math.random() * 20000);
    const server = Bun.spawn([process.execPath, "src/main.ts", "serve"], {
      env: { ...process.env, ...storeEnv(dataDir), IDEAREPO_DATA_DIR: dataDir, IDEAREPO_PORT: String(port), IDEAREPO_LOG_LEVEL: "warn" },
      stdout: "ignore",
      stderr: "ignore",
    });
    try {
      for (let i = 0; i < 100; i++) {
        try {
          if ((await fetch(`http://127.0.0.1:${port}/api/v1/health`)).ok) break;
        } catch {}
        await Bun.sleep(50);
      }
      const created = runCli(["users", "create", "--email", "live@example.com"], { dataDir });
      expect(created.code).toBe(0);
      const key = JSON.parse(created.stdout).api_key;
      const me = await fetch(`http://127.0.0.1:${port}/api/v1/user/me`, { headers: { "x-api-key": key } });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { plan: string }).plan).toBe("free");
    } finally {
      server.kill();
      await server.exited;
    }
  });

  test("--password-stdin sets a password usable for sign-in", async () => {
    const dir = tempDir();
    const r = runCli(["users", "create", "--email", "pw@example.com", "--password-stdin"], { dataDir: dir, stdin: "long-password\n" });
    expect(r.code).toBe(0);
    const db = dataDirStore(dir);
    const row = (await db.query("SELECT password_hash FROM users WHERE email = 'pw@example.com'").get()) as { password_hash: string };
    expect(await Bun.password.verify("long-password", row.password_hash)).toBe(true);
    expect(await Bun.password.verify("long-password\n", row.password_hash)).toBe(false); // the trailing newline is not part of it
    await db.close();
  });

  test("set-plan, trial and list", () => {
    expect(runCli(["users", "create", "--email", "bob@example.com"], { dataDir }).code).toBe(0);
    const pro = JSON.parse(runCli(["users", "set-plan", "--email", "bob@example.com", "--plan", "pro"], { dataDir }).stdout);
    expect(pro.user.plan).toBe("pro");
    const trial = JSON.parse(runCli(["users", "trial", "--email", "bob@example.com", "--days", "14"], { dataDir }).stdout);
    expect(trial.user).toMatchObject({ plan: "pro", is_trialing: true, trial_days_remaining: 14, trial_used: 1 });
    const list = JSON.parse(runCli(["users", "list"], { dataDir }).stdout);
    expect(list.users.map((u: { email: string }) => u.email)).toContain("bob@example.com");
  });

  test("keys create and keys revoke", () => {
    const key = JSON.parse(runCli(["keys", "create", "--email", "bob@example.com", "--label", "ci"], { dataDir }).stdout);
    expect(key).toMatchObject({ label: "ci" });
    expect(key.key).toMatch(/^svc_[0-9a-f]{64}$/);
    expect(JSON.parse(runCli(["keys", "revoke", "--id", key.id], { dataDir }).stdout)).toEqual({ success: true });
    const again = runCli(["keys", "revoke", "--id", key.id], { dataDir });
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain("No API key");
  });

  test("bad arguments fail with a clear message and a non-zero exit", () => {
    const cases: Array<[string[], string]> = [
      [["users", "create"], "--email is required"],
      [["users", "create", "--email", "not-an-email"], "Invalid e-mail"],
      [["users", "create", "--email", "x@example.com", "--plan", "gold"], "Invalid plan"],
      [["users", "create", "--email", "ada@example.com"], "already exists"],
      [["users", "set-plan", "--email", "ghost@example.com", "--plan", "pro"], "No user"],
      [["users", "trial", "--email", "bob@example.com", "--days", "abc"], "--days"],
      [["users", "frobnicate"], "Unknown users command"],
      [["users", "create", "--email", "y@example.com", "--bogus", "1"], "Unknown option --bogus"],
      [["nonsense"], "Unknown command"],
      [["constructor"], "Unknown command"],
      [["toString"], "Unknown command"],
    ];
    for (const [args, message] of cases) {
      const r = runCli(args, { dataDir });
      expect([args.join(" "), r.code !== 0, r.stderr.includes(message)]).toEqual([args.join(" "), true, true]);
      expect(r.stdout).toBe("");
    }
  });
});
