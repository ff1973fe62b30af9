// `backup` while the server runs and writes, `restore` into a data dir: the restored copy exports the same data.
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { api, createUser, listAllIdeas, runCommand, waitForQuiescence, processScope } from "./harness";
import { testStore } from "../support/postgres";

const { newDir, serve } = processScope("idearepo-backup-");

/** The account's full JSON export, minus the moment it was taken. */
async function exportOf(base: string, key: string) {
  const res = await api(base, key, "POST", "/user/export");
  expect(res.status).toBe(200);
  const { exported_at: _stamp, ...rest } = res.body;
  return rest;
}

// The SQLite file's own backups; on PostgreSQL they refuse, pointing to pg_dump (test/admin/postgres.test.ts).
describe.skipIf(testStore() === "postgres")("backup and restore", () => {
  test("an online backup taken mid-write restores to a server that exports the same data", async () => {
    const live = newDir();
    const key = createUser(live, "owner@example.com");
    const server = await serve(live);
    for (let i = 0; i < 30; i++) {
      const res = await api(server.base, key, "POST", "/ideas", { title: `seed ${i}`, body: `seed body ${i}`, tags: [`t${i % 4}`] });
      expect(res.status).toBe(201);
    }

    // Writers keep capturing while the backup runs.
    const acked: number[] = [];
    let writing = true;
    const writers = Array.from({ length: 4 }, async (_, w) => {
      for (let n = 0; writing; n++) {
        const res = await api(server.base, key, "POST", "/ideas", { title: `during ${w}-${n}`, tags: ["during"] });
        if (res.status === 201) acked.push(res.body.id);
      }
    });
    while (acked.length < 20) await Bun.sleep(5);
    const ackedBeforeBackup = [...acked];
    const backupDir = newDir();
    const midFile = join(backupDir, "mid.db");
    const mid = runCommand(["backup", midFile], { dataDir: live });
    expect(mid.stderr).toBe("");
    expect(mid.code).toBe(0);
    const midSummary = JSON.parse(mid.stdout);
    expect(midSummary).toMatchObject({ file: midFile, users: 1 });
    expect(midSummary.ideas).toBeGreaterThanOrEqual(30 + ackedBeforeBackup.length);
    writing = false;
    await Promise.all(writers);
    expect(acked.length).toBeGreaterThan(ackedBeforeBackup.length); // writes really overlapped the backup

    // A quiescent backup must round-trip exactly.
    await waitForQuiescence(live);
    const expected = await exportOf(server.base, key);
    const finalFile = join(backupDir, "final.db");
    expect(runCommand(["backup", finalFile], { dataDir: live }).code).toBe(0);

    // restore refuses while a server holds the data dir.
    const refused = runCommand(["restore", finalFile], { dataDir: live });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`server (pid ${server.pid})`);
    expect(await server.stop()).toBe(0);

    // Restore into a brand-new data dir and compare the full export.
    const fresh = newDir();
    const restored = runCommand(["restore", finalFile], { dataDir: fresh });
    expect(restored.code).toBe(0);
    expect(JSON.parse(restored.stdout)).toMatchObject({ previous: null, users: 1, ideas: expected.ideas.length });
    const copy = await serve(fresh);
    expect(await exportOf(copy.base, key)).toEqual(expected);
    await copy.stop();

    // Restore the mid-write backup over the original dir: every idea acknowledged before the backup began is
    // there and identical to the original; the replaced database is kept aside.
    const back = runCommand(["restore", midFile], { dataDir: live });
    expect(back.code).toBe(0);
    const previous = JSON.parse(back.stdout).previous as string;
    expect(existsSync(previous)).toBe(true);
    const again = await serve(live);
    const restoredIdeas = new Map((await listAllIdeas(again.base, key)).map((i) => [i.id, i]));
    expect(restoredIdeas.size).toBe(midSummary.ideas);
    const originals = new Map(expected.ideas.map((i: { id: number }) => [i.id, i]));
    for (const id of ackedBeforeBackup) {
      expect(restoredIdeas.get(id)?.title).toBe((originals.get(id) as { title: string }).title);
    }
    await again.stop();
  }, 120_000);

  test("refuses a file that is not an idearepo database, and an existing backup target", () => {
    const dataDir = newDir();
    createUser(dataDir, "x@example.com");
    const junk = join(dataDir, "junk.db");
    writeFileSync(junk, "not a database at all, just text ".repeat(200));
    const bad = runCommand(["restore", junk], { dataDir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/idearepo: .*junk\.db/);
    expect(bad.stderr).not.toContain("    at "); // one clear line, no stack trace

    const target = join(dataDir, "exists.db");
    writeFileSync(target, "");
    const clash = runCommand(["backup", target], { dataDir });
    expect(clash.code).toBe(2);
    expect(clash.stderr).toContain("already exists");

    const usage = runCommand(["backup"], { dataDir });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("Usage: idearepo backup FILE");
  });

  test("refuses a backup from a newer schema than this build knows", () => {
    const dataDir = newDir();
    createUser(dataDir, "y@example.com");
    const file = join(dataDir, "future.db");
    expect(runCommand(["backup", file], { dataDir }).code).toBe(0);
    const db = new Database(file);
    db.exec("PRAGMA user_version = 9999");
    db.close();
    const out = runCommand(["restore", file], { dataDir });
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("newer idearepo");
    // The current database is untouched.
    expect(JSON.parse(runCommand(["users", "list"], { dataDir }).stdout).users).toHaveLength(1);
  });
});
