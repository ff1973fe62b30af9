// Deleting an account (docs/auth.md, "Deleting an account"): the operator's `users delete` removes the account and
// everything it owns from every table (read back from the database file), leaves every other account's rows exactly
// as they were, and never prints a secret.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cliSandbox, ok, runCli } from "../cli";
import { api, startServer } from "../ops/harness";
import { testStore } from "../support/postgres";
import { dumpDatabase, fillAccount, rowsNamingIdeas, traceOf, waitForVectors } from "./deletion-helpers";

const { dataDir, work, cli } = cliSandbox("idearepo-delete");
const dbFile = join(dataDir, "idearepo.db");

// Read table by table out of the SQLite file, backups included; on PostgreSQL delete-own-account.test.ts deletes.
describe.skipIf(testStore() === "postgres")("idearepo users delete", () => {
  test("asks for --yes without a terminal; then removes the account from every table and nothing else", async () => {
    const made = (email: string, password: string) => JSON.parse(ok(runCli(["users", "create", "--email", email, "--plan", "pro", "--password-stdin"], { dataDir, stdin: password })).stdout);
    const victim = made("Gone@Example.com", "victim password 1");
    const stays = made("stays@example.com", "stays password 1");
    const server = await startServer({ dataDir, timeoutMs: 60_000 });
    let victimIdeas: number[];
    let stayIdeas: number[];
    try {
      victimIdeas = await fillAccount(server.base, victim.api_key, "GONEMARK");
      stayIdeas = await fillAccount(server.base, stays.api_key, "STAYMARK");
      const login = await api(server.base, null, "POST", "/auth/login", { email: "gone@example.com", password: "victim password 1" });
      expect(login.status).toBe(200);
      await waitForVectors(server.base, victim.api_key, victimIdeas.slice(0, 3));
      await waitForVectors(server.base, stays.api_key, stayIdeas.slice(0, 3));
      expect(await server.stop()).toBe(0);
    } catch (e) {
      console.error(`server log:\n${server.logs.join("\n")}`);
      await server.stop();
      throw e;
    }
    // A backup taken before the deletion holds the account; the deletion names it, and one taken after holds none of
    // its rows' text (case-sensitive: the keyword index keeps its words in lower case beside tombstones, docs/auth.md),
    // while it holds the other account.
    const beforeBackup = join(work, "before.db");
    ok(cli("backup", beforeBackup));
    const bytesOf = (file: string) => readFileSync(file).toString("latin1");
    expect(bytesOf(beforeBackup).includes("GONEMARK"), "the backup before the deletion holds the account").toBe(true);

    const before = dumpDatabase(dbFile);
    const isVictims = traceOf(victim.user, "GONEMARK");
    // The fill reached the tables this test is about (else "nothing remains" would prove nothing).
    const tablesWithVictim = [...before].filter(([, rows]) => rows.some(isVictims)).map(([name]) => name);
    for (const t of ["users", "ideas", "tags", "links", "relations", "api_keys", "sessions", "map_positions", "ideas_fts", "duplicate_detections", "idea_tags", "vec_tags_g1", "vec_ideas_g1", "vec_shared_g1"]) {
      expect(tablesWithVictim.concat(rowsNamingIdeas(before, victimIdeas).map((r) => r.split(":")[0])), t).toContain(t);
    }

    const refused = cli("users", "delete", "--email", "gone@example.com");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--yes");
    expect(dumpDatabase(dbFile)).toEqual(before);

    const deleted = ok(cli("users", "delete", "--email", "GONE@example.com", "--yes"));
    expect(JSON.parse(deleted.stdout)).toEqual({
      deleted: { id: victim.user.id, email: "Gone@Example.com", ideas: 4, tags: 5 },
      backups: { known: [beforeBackup], note: expect.stringContaining("Backups taken before this deletion still hold the account") },
    });
    expect(deleted.stdout + deleted.stderr).not.toContain(victim.api_key);

    const after = dumpDatabase(dbFile);
    const left = [...after].flatMap(([name, rows]) => rows.filter(isVictims).map((r) => `${name}: ${r}`));
    expect(left).toEqual([]);
    expect(rowsNamingIdeas(after, victimIdeas)).toEqual([]);
    // Every other row, table by table, exactly as it was.
    const namesVictimIdea = new Set(rowsNamingIdeas(before, victimIdeas).map((r) => r.slice(r.indexOf(": ") + 2)));
    for (const [name, rows] of before) {
      expect(after.get(name), name).toEqual(rows.filter((r) => !isVictims(r) && !namesVictimIdea.has(r)));
    }

    // The live file too: what the deletion freed was zeroed (rows written once, like a link, leave no older copy).
    expect(bytesOf(dbFile).includes("https://example.test/GONEMARK"), "the deleted link is still in the database file").toBe(false);
    const afterBackup = join(work, "after.db");
    ok(cli("backup", afterBackup));
    const copy = bytesOf(afterBackup);
    expect(copy.includes("STAYMARK"), "the backup after the deletion holds the other account").toBe(true);
    for (const trace of ["GONEMARK", "gonemark-tag", "Gone@Example.com", victim.user.id]) {
      expect(copy.includes(trace), `the backup after the deletion holds ${trace}`).toBe(false);
    }

    expect(cli("users", "delete", "--email", "gone@example.com", "--yes").stderr).toContain("No user with e-mail gone@example.com");
    expect(JSON.parse(ok(cli("users", "list")).stdout).users.map((u: { email: string }) => u.email)).toEqual(["stays@example.com"]);

    // On the server again: the deleted account's key and password are dead; the other account searches as before.
    const again = await startServer({ dataDir, timeoutMs: 60_000 });
    try {
      expect((await api(again.base, victim.api_key, "GET", "/ideas")).status).toBe(401);
      expect((await api(again.base, null, "POST", "/auth/login", { email: "gone@example.com", password: "victim password 1" })).status).toBe(401);
      const found = await api(again.base, stays.api_key, "GET", `/ideas/search?mode=semantic&q=${encodeURIComponent("bicycle lamp charged by sunlight")}`);
      expect(found.status).toBe(200);
      expect(found.body.results.map((r: { id: number }) => r.id)).toContain(stayIdeas[0]);
      expect(again.logs.join("\n")).not.toContain("victim password 1");
    } finally {
      await again.stop();
    }
  }, 120_000);
});
