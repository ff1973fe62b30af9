// What an operator gets on PostgreSQL where a feature is the SQLite file's: health, the operator page, backups, metrics, key rotation.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app";
import { loadConfig } from "../../src/config";
import { openDb } from "../../src/db/open";
import { pgStore } from "../../src/db/pg/store";
import { noEngines, type Deps } from "../../src/deps";
import { createScheduler } from "../../src/jobs/scheduler";
import { createLogger } from "../../src/lib/log";
import { rotateMasterKey, RotationError } from "../../src/modules/byok/rotate";
import { createUsersService } from "../../src/modules/users/service";
import { runCli } from "../cli";
import { call, makeUser, type TestApp } from "../helpers";
import { scrape, sampleValue, listen } from "../metrics/scrape";
import { requirePostgres, testCluster } from "../support/postgres";
import { makePgApp } from "../support/pg-app";

const run = requirePostgres();
const dataDir = mkdtempSync(join(tmpdir(), "idearepo-pg-operator-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe.skipIf(!run)("an instance on PostgreSQL", () => {
  const logs: string[] = [];
  let t: TestApp & { url: string };
  let op: { key: string };
  beforeAll(async () => {
    t = await makePgApp({ logs, config: { data_dir: dataDir, backup_cron: "30 3 * * *", metrics: { enabled: true, token: null } } });
    const out = await createUsersService(t.deps).createUser({ email: "op@example.com", operator: true });
    op = { key: out.api_key };
  });
  afterAll(() => t?.close());

  test("GET /health probes PostgreSQL and says so beside the spec's fields", async () => {
    const r = await call(t, "GET", "/health");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: "ok", environment: "test", database: "postgresql" });
  });

  test("an unreachable server is the spec's 503 body, within seconds", async () => {
    const config = loadConfig({ IDEAREPO_DATA_DIR: dataDir, IDEAREPO_ENV: "test" }, { log_level: "silent" });
    const c = testCluster();
    // A port nothing listens on: connecting is refused at once, as when the server is down.
    const store = pgStore(c.url("nowhere").replace(`:${c.port}/`, ":1/"), { connectSeconds: 2 });
    const db = openDb(":memory:", config.durability);
    const deps: Deps = { config, db, store, clock: () => new Date(), log: createLogger("silent"), engines: noEngines() };
    const app = createApp(deps);
    try {
      const began = performance.now();
      const res = await app.app.handle(new Request("http://localhost/api/v1/health"));
      expect(performance.now() - began).toBeLessThan(5_000);
      expect(res.status).toBe(503);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ status: "error", error: "Database unavailable" });
      expect(text).not.toContain(c.password);
    } finally {
      await app.close();
      await store.close();
      db.close();
    }
  });

  test("the operator page names the store, sizes its database, and has no SQLite backups to show", async () => {
    const r = await call(t, "GET", "/admin/instance", { key: op.key });
    expect(r.status).toBe(200);
    expect(r.body.database).toBe("postgresql");
    // pg_database_size: a migrated database is several MB, never the 0 of a missing SQLite file.
    expect(r.body.database_bytes).toBeGreaterThan(1_000_000);
    expect(r.body.last_backup).toBeNull(); // GET /admin/backup (501 here) noted nothing
    // backup_cron is set, but no schedule runs on this store, so none is reported as running.
    expect(r.body.scheduled_backups).toMatchObject({ schedule: null, last: null, copies: [] });
  });

  test("GET /admin/backup answers 501 in the error shape, pointing to pg_dump", async () => {
    const r = await call(t, "GET", "/admin/backup", { key: op.key });
    expect(r.status).toBe(501);
    expect(r.body).toEqual({ error: expect.stringContaining("pg_dump") });
    expect(Object.keys(r.body)).toEqual(["error"]);
  });

  test("a backup_cron is not scheduled: one warning when the scheduler starts, and it starts", async () => {
    const before = logs.length;
    const scheduler = createScheduler(t.deps);
    await scheduler.start(t.deps);
    await scheduler.stop();
    const said = logs.slice(before).map((l) => JSON.parse(l) as { level: string; msg: string; reason?: string });
    const warnings = said.filter((l) => l.msg === "backup_cron is set but not used");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: "warn", reason: expect.stringContaining("pg_dump") });
    expect(existsSync(join(dataDir, "backups"))).toBe(false);
  });

  test("/metrics keeps its names: the database size is PostgreSQL's, the SQLite WAL gauge 0", async () => {
    const server = listen(t);
    try {
      const live = await scrape(server.base);
      expect(sampleValue(live, "idearepo_database_size_bytes")).toBeGreaterThan(1_000_000);
      expect(live.has("idearepo_database_wal_size_bytes")).toBe(true);
      expect(sampleValue(live, "idearepo_database_wal_size_bytes")).toBe(0);
    } finally {
      await server.stop();
    }
  });
});

describe.skipIf(!run)("provider keys on PostgreSQL", () => {
  let t: TestApp & { url: string };
  const keyDir = mkdtempSync(join(tmpdir(), "idearepo-pg-byok-"));
  beforeAll(async () => {
    t = await makePgApp({ config: { data_dir: keyDir } });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(keyDir, { recursive: true, force: true });
  });

  const sealed = async (userId: string) =>
    (await t.deps.store.query<{ a: string | null; b: string | null }, [string]>("SELECT provider_a_key_enc AS a, provider_b_key_enc AS b FROM users WHERE id = ?").get(userId))!;
  const kid = (v: string | null) => v?.split(":")[1] ?? null;

  test("saved sealed, shown in status, deleted", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const put = await call(t, "PUT", "/user/byok/provider_b", { key: u.key, body: { api_key: "sk-test-0123456789abcdef" } });
    expect(put.body).toEqual({ success: true, provider: "provider_b" });
    expect((await sealed(u.id)).b).toMatch(/^v1:[0-9a-f]{8}:/);
    expect((await call(t, "GET", "/user/byok/status", { key: u.key })).body).toEqual({
      active_provider: "provider_b", has_provider_a_key: false, has_provider_b_key: true, has_provider_c_key: false,
    });
    expect((await call(t, "DELETE", "/user/byok/provider_b", { key: u.key })).body).toEqual({ success: true, provider: "provider_b" });
    expect((await sealed(u.id)).b).toBeNull();
  });

  test("master-key rotation is one transaction: an unreadable value rolls every row back; dropping it re-seals the rest", async () => {
    const a = await makeUser(t, { plan: "pro" });
    const b = await makeUser(t, { plan: "pro" });
    for (const u of [a, b]) {
      expect((await call(t, "PUT", "/user/byok/provider_a", { key: u.key, body: { api_key: `sk-test-${u.id.slice(0, 12)}-abcdef` } })).status).toBe(200);
    }
    const oldKid = kid((await sealed(a.id)).a);
    // b's second slot holds a's value: bound to another account, so the current key cannot open it.
    await t.deps.store.query("UPDATE users SET provider_b_key_enc = ? WHERE id = ?").run((await sealed(a.id)).a, b.id);

    const refused = await rotateMasterKey(t.deps).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RotationError);
    expect((refused as Error).message).toContain("Nothing was changed");
    for (const u of [a, b]) expect(kid((await sealed(u.id)).a)).toBe(oldKid);
    expect(existsSync(join(keyDir, "master.key.next"))).toBe(false);

    const done = await rotateMasterKey(t.deps, { dropUnreadable: true });
    expect(done).toMatchObject({ success: true, source: "file", previous_key_id: oldKid, dropped: 1 });
    expect(done.reencrypted).toBeGreaterThanOrEqual(2);
    for (const u of [a, b]) expect(kid((await sealed(u.id)).a)).toBe(done.key_id);
    expect((await sealed(b.id)).b).toBeNull();
  });
});

describe("idearepo backup and restore with database.url set", () => {
  test("refuse in one line pointing to pg_dump, write no file, and never repeat the URL", () => {
    const dir = mkdtempSync(join(tmpdir(), "idearepo-pg-backup-cli-"));
    try {
      const env = { IDEAREPO_DATABASE_URL: "postgres://app:hunter2-secret@127.0.0.1:1/ideas" };
      const target = join(dir, "copy.db");
      for (const argv of [["backup", target], ["restore", target]]) {
        const r = runCli(argv, { dataDir: dir, env });
        expect([argv[0], r.code]).toEqual([argv[0], 2]);
        expect(r.stderr.trim().split("\n")).toHaveLength(1);
        expect(r.stderr).toContain("pg_dump");
        expect(r.stderr + r.stdout).not.toContain("hunter2-secret");
      }
      expect(existsSync(target)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
