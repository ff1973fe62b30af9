// The CLI's one failure mapping (src/cli/failure.ts), through the real process: every kind of operator error is one
// line `idearepo: <sentence>` with exit 2, a service's HTTP refusal is shown with its command, anything else is exit 1.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { dataDirStore, runCli, tempDir } from "../cli";
import { testStore } from "../support/postgres";

/** Exactly one line on stderr, nothing on stdout, no stack frame. */
function oneLine(r: { stdout: string; stderr: string }): string {
  const lines = r.stderr.split("\n").filter((l) => l !== "");
  expect(lines).toHaveLength(1);
  expect(r.stderr).not.toMatch(/^\s+at /m);
  expect(r.stdout).toBe("");
  return lines[0];
}

describe("CLI failures", () => {
  const dataDir = tempDir();
  const created = runCli(["users", "create", "--email", "owner@example.com"], { dataDir });

  test("each kind of operator error is one line and exit 2", () => {
    expect(created.code).toBe(0);
    const cases: Array<{ args: string[]; env?: Record<string, string>; line: RegExp }> = [
      // a command line the CLI cannot run
      { args: ["keys", "create", "--email", "owner@example.com", "--colour", "red"], line: /^idearepo: Unknown option --colour$/ },
      // an account rule from the users service (shared with the setup and operator routes)
      { args: ["users", "create", "--email", "owner@example.com"], line: /^idearepo: A user with e-mail owner@example.com already exists$/ },
      { args: ["users", "set-password", "--email", "owner@example.com", "--password-stdin"], line: /^idearepo: Password must be at least 8 characters$/ },
      // an unusable configuration
      { args: ["users", "list"], env: { IDEAREPO_PORT: "eighty" }, line: /^idearepo: Invalid configuration at \/port/ },
      // a model the configuration names but the models folder lacks
      { args: ["reindex"], env: { IDEAREPO_EMBED_MODEL: "no-such-model", IDEAREPO_MODELS_DIR: dataDir }, line: /^idearepo: model folder .*no-such-model does not exist; download it with `idearepo models pull no-such-model`/ },
      // a file system refusal, named with its path
      { args: ["export", "--email", "owner@example.com", "--out", join(dataDir, "missing-folder", "out.json")], line: /^idearepo: ENOENT: .*missing-folder\/out\.json/ },
      // a master key rotation the CLI cannot do
      { args: ["master-key", "rotate"], env: { IDEAREPO_MASTER_KEY: "ab".repeat(32) }, line: /^idearepo: The master key comes from configuration/ },
    ];
    for (const c of cases) {
      const r = runCli(c.args, { dataDir, env: c.env, stdin: "short" });
      expect([c.args.join(" "), r.code]).toEqual([c.args.join(" "), 2]);
      expect(oneLine(r)).toMatch(c.line);
    }
  });

  test("a database from a newer build is one line and exit 2, and is left as it was", async () => {
    const dir = tempDir();
    expect(runCli(["users", "create", "--email", "future@example.com"], { dataDir: dir }).code).toBe(0);
    // Each store keeps its schema's version in its own place: SQLite's user_version, PostgreSQL's idearepo_schema.
    const pg = testStore() === "postgres";
    const version = pg ? "SELECT version AS v FROM idearepo_schema" : "SELECT user_version AS v FROM pragma_user_version";
    const db = dataDirStore(dir);
    await db.exec(pg ? "UPDATE idearepo_schema SET version = 9999" : "PRAGMA user_version = 9999");
    await db.close();
    const r = runCli(["users", "list"], { dataDir: dir });
    expect(r.code).toBe(2);
    expect(oneLine(r)).toMatch(/^idearepo: The database schema is version 9999, newer than this idearepo build supports/);
    const after = dataDirStore(dir, { readonly: true });
    expect((await after.query<{ v: number }, []>(version).get())!.v).toBe(9999);
    await after.close();
  });

  test("a service's HTTP refusal is shown with the command that got it, exit 2", () => {
    const file = join(dataDir, "not-ours.json");
    writeFileSync(file, JSON.stringify({ ideas: [{ title: "" }] }));
    const r = runCli(["import", file, "--email", "owner@example.com", "--from", "idearepo"], { dataDir });
    expect(r.code).toBe(2);
    // import reports its progress on stderr before the refusal; the refusal itself is the last line, the spec's body.
    const last = r.stderr.trim().split("\n").at(-1)!;
    expect(last).toStartWith("idearepo: import refused: {");
    const body = JSON.parse(last.slice("idearepo: import refused: ".length));
    expect(Object.keys(body.error)).toContain("format");
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });

  // The example is a damaged store: a SQLite file that is not a database, or on PostgreSQL (IDEAREPO_TEST_STORE) a
  // migrated database that lost a table (the migrations are not run again).
  test("anything else is an unexpected error: one line and exit 1, never a stack trace", async () => {
    const dir = tempDir();
    if (testStore() === "sqlite") writeFileSync(join(dir, "idearepo.db"), "this is not a database ".repeat(300));
    else {
      expect(runCli(["users", "create", "--email", "owner@example.com"], { dataDir: dir }).code).toBe(0);
      const store = dataDirStore(dir);
      try {
        await store.exec("DROP TABLE users CASCADE");
      } finally {
        await store.close();
      }
    }
    const r = runCli(["users", "list"], { dataDir: dir });
    expect(r.code).toBe(1);
    expect(oneLine(r)).toBe(testStore() === "sqlite" ? "idearepo: unexpected error: file is not a database" : 'idearepo: unexpected error: relation "users" does not exist');
  });
});
