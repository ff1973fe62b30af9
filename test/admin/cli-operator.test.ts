// A real server on a data dir set up by the CLI: `users create --operator` makes an operator, `backup` is reported.
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { api, createUser, processScope, runCommand } from "../ops/harness";
import { testStore } from "../support/postgres";

const { newDir, serve } = processScope("idearepo-admin-cli-");

describe("operator set up by the CLI", () => {
  test("users create --operator reaches /admin/*; a plain account does not", async () => {
    const dataDir = newDir();
    const created = runCommand(["users", "create", "--email", "op@example.com", "--plan", "pro", "--operator"], { dataDir });
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    const opKey = JSON.parse(created.stdout).api_key;
    const plainKey = createUser(dataDir, "plain@example.com");

    const server = await serve(dataDir);
    const users = await api(server.base, opKey, "GET", "/admin/users");
    expect(users.status).toBe(200);
    expect(users.body.users.map((u: { email: string; is_operator: boolean }) => [u.email, u.is_operator])).toEqual([
      ["op@example.com", true],
      ["plain@example.com", false],
    ]);
    const refused = await api(server.base, plainKey, "GET", "/admin/users");
    expect(refused.status).toBe(404);
    expect(refused.text).toBe('{"error":"Not found"}');
    const instance = await api(server.base, opKey, "GET", "/admin/instance");
    expect(instance.status).toBe(200);
    expect(instance.body.database_bytes).toBeGreaterThan(0);
  });

  // `idearepo backup` and the download copy the SQLite file; on PostgreSQL they refuse (test/admin/postgres.test.ts).
  test.skipIf(testStore() === "postgres")("the last CLI backup is reported, and the download over HTTP is a SQLite file", async () => {
    const dataDir = newDir();
    const opKey = JSON.parse(runCommand(["users", "create", "--email", "op@example.com", "--plan", "pro", "--operator"], { dataDir }).stdout).api_key;
    createUser(dataDir, "plain@example.com");

    const backupFile = join(newDir(), "nightly.db");
    const backup = runCommand(["backup", backupFile], { dataDir });
    expect(backup.code).toBe(0);

    const server = await serve(dataDir);
    const instance = await api(server.base, opKey, "GET", "/admin/instance");
    expect(instance.status).toBe(200);
    expect(instance.body.last_backup).toEqual({ path: backupFile, created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/) });
    // The data dir holds at least the database file itself.
    expect(instance.body.data_dir_bytes).toBeGreaterThanOrEqual(instance.body.database_bytes);

    // The download over real HTTP is a SQLite file with both accounts.
    const res = await fetch(`${server.base}/api/v1/admin/backup`, { headers: { "x-api-key": opKey } });
    expect(res.status).toBe(200);
    const file = join(newDir(), "download.db");
    await Bun.write(file, await res.arrayBuffer());
    const db = new Database(file, { readonly: true });
    try {
      expect(db.query<{ n: number }, []>("SELECT count(*) AS n FROM users").get()!.n).toBe(2);
    } finally {
      db.close();
    }
    // No scratch copy is left in the data dir.
    expect([...new Bun.Glob(".download-backup-*").scanSync({ cwd: dataDir, dot: true })]).toEqual([]);
  });

  test("--operator is a flag: the next argument is still read as its own option", () => {
    const r = runCommand(["users", "create", "--email", "x@example.com", "--operator", "--plan", "free"], { dataDir: newDir() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).user).toMatchObject({ email: "x@example.com", plan: "free" });
  });
});
