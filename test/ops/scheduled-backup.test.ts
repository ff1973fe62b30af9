// Scheduled verified backups on a real server: copies appear on the schedule, each passes quick_check, only the newest
// backup_keep stay; a run whose writes fail (libfiu) removes nothing and says so; the newest copy restores.
import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { api, createUser, runCommand, sourceCmd, startServer, type ServerProcess } from "./harness";
import { tempDir } from "../cli";
import { testStore } from "../support/postgres";
import { integrity, until } from "../faults/helpers";

const hasFiu = Bun.spawnSync(["which", "fiu-run"]).exitCode === 0;
if (!hasFiu && !process.env.CI) console.warn("scheduled-backup test skipped: fiu-run not installed (Debian: fiu-utils)");

const scratch = tempDir("idearepo-sched-backup-");
const servers: ServerProcess[] = [];
afterAll(() => {
  for (const s of servers) s.proc.kill("SIGKILL");
  rmSync(scratch, { recursive: true, force: true });
});

const quickCheck = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return {
      check: db.query<{ quick_check: string }, []>("PRAGMA quick_check").get()!.quick_check,
      ideas: db.query<{ n: number }, []>("SELECT count(*) AS n FROM ideas").get()!.n,
    };
  } finally {
    db.close();
  }
};

// Copies of the SQLite file; on PostgreSQL backup_cron is not scheduled (test/admin/postgres.test.ts).
describe.if((hasFiu || !!process.env.CI) && testStore() !== "postgres")("scheduled backups", () => {
  test("verified copies on the schedule, the oldest removed only after a newer one is verified; a failing run keeps them all", async () => {
    const dataDir = join(scratch, "data");
    const backups = join(scratch, "backups");
    const key = createUser(dataDir, "sched@example.com", "pro");
    const opKey = JSON.parse(runCommand(["users", "create", "--email", "op@example.com", "--operator"], { dataDir }).stdout).api_key as string;
    const ctrl = join(scratch, "fiu");
    const server = await startServer({
      dataDir,
      cmd: ["fiu-run", "-x", "-f", ctrl, ...sourceCmd()],
      env: { IDEAREPO_BACKUP_CRON: "*/2 * * * * *", IDEAREPO_BACKUP_KEEP: "2", IDEAREPO_BACKUP_DIR: backups },
      timeoutMs: 30_000,
    });
    servers.push(server);
    for (let i = 0; i < 10; i++) expect((await api(server.base, key, "POST", "/ideas", { title: `kept ${i}` })).status).toBe(201);
    const verified = () => server.logs.filter((l) => l.includes("scheduled backup verified")).length;
    const instance = async () => (await api(server.base, opKey, "GET", "/admin/instance")).body.scheduled_backups;

    // The two copies kept are the two newest: wait for three runs verified after the last capture, so both began
    // after it (on a loaded machine the ten captures can outlast several 2-second runs; one may be in flight now).
    const afterCaptures = verified();
    expect(await until(() => verified() >= afterCaptures + 3, 30_000)).toBe(true);
    let s = await instance();
    expect(s).toMatchObject({ schedule: "*/2 * * * * *", keep: 2, dir: backups, last: { ok: true, error: null } });
    expect(s.copies.length).toBe(2);
    expect(readdirSync(backups).sort()).toEqual(s.copies.map((c: { file: string }) => c.file.split("/").pop()).sort());
    for (const c of s.copies) expect(quickCheck(c.file)).toEqual({ check: "ok", ideas: 10 });
    const good = s.copies.map((c: { file: string }) => c.file);

    // The disk refuses writes: each run fails, nothing is removed, and the operator's page says why.
    const runsBefore = server.logs.filter((l) => l.includes("scheduled backup failed")).length;
    expect(Bun.spawnSync(["fiu-ctrl", "-f", ctrl, "-c", "enable name=posix/io/rw/pwrite,failinfo=5", String(server.pid)]).exitCode).toBe(0);
    expect(await until(() => server.logs.filter((l) => l.includes("scheduled backup failed")).length >= runsBefore + 2, 20_000)).toBe(true);
    s = await instance();
    expect(s.last).toMatchObject({ ok: false, file: null, error: expect.stringMatching(/I\/O|disk/i) });
    expect(s.copies.map((c: { file: string }) => c.file)).toEqual(good);
    expect(readdirSync(backups).sort()).toEqual(good.map((f: string) => f.split("/").pop()).sort()); // no partial left
    expect(Bun.spawnSync(["fiu-ctrl", "-f", ctrl, "-c", "disable name=posix/io/rw/pwrite", String(server.pid)]).exitCode).toBe(0);

    // Writes work again: the next verified copy replaces the oldest.
    const after = verified();
    expect(await until(() => verified() > after, 20_000)).toBe(true);
    s = await instance();
    expect(s.last.ok).toBe(true);
    expect(s.copies.length).toBe(2);
    expect(s.copies[1].file).toBe(good[0]);
    expect(await server.stop()).toBe(0);

    // The newest copy restores into a fresh data dir and holds every idea.
    const restoredDir = join(scratch, "restored");
    mkdirSync(restoredDir);
    const restored = runCommand(["restore", s.copies[0].file], { dataDir: restoredDir });
    expect(restored.code).toBe(0);
    expect(JSON.parse(restored.stdout)).toMatchObject({ ideas: 10, users: 2 });
    expect(integrity(restoredDir)).toBe("ok");
  }, 90_000);
});
