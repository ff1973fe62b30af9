// GET/PUT/DELETE /api/v1/vault through HTTP: a person's folder state, choosing a folder under the operator's root
// (never outside it), disconnecting, and the 403 of an instance without a root.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { call, makeApp, makeUser, STAMP_RE } from "../helpers";
import { createVaultService } from "../../src/modules/vault/service";
import { createVaultProcess } from "../../src/modules/vault/process";
import { until } from "./support";

const made: string[] = [];
const temp = (name: string) => {
  const d = mkdtempSync(join(tmpdir(), `idearepo-${name}-`));
  made.push(d);
  return d;
};
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

describe("without a vaults root", () => {
  test("GET says not connected and not choosable; PUT and DELETE answer 403 in the error shape", async () => {
    const t = makeApp();
    const u = await makeUser(t);
    const got = await call(t, "GET", "/vault", { key: u.key });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ can_choose: false, connected: false, folder: null, files: 0, conflicts: [], errors: [] });
    const put = await call(t, "PUT", "/vault", { key: u.key, body: { folder: "notes" } });
    expect(put.status).toBe(403);
    expect(put.body.error).toContain("not enabled");
    expect((await call(t, "DELETE", "/vault", { key: u.key })).status).toBe(403);
    expect((await call(t, "GET", "/vault")).status).toBe(401);
    await t.close();
  });

  test("an operator's binding shows its path, chosen_by operator", async () => {
    const t = makeApp();
    const u = await makeUser(t);
    const dir = temp("vault-op");
    await createVaultService(t.deps).connect(u.email, dir);
    const got = await call(t, "GET", "/vault", { key: u.key });
    expect(got.body).toMatchObject({ connected: true, chosen_by: "operator", files: 0 });
    expect(got.body.connected_at).toMatch(STAMP_RE);
    await t.close();
  });
});

describe("with a vaults root", () => {
  test("choose a folder, see it relative to the root, refuse escapes, disconnect", async () => {
    const root = temp("vaults");
    const outside = temp("outside");
    symlinkSync(outside, join(root, "escape"));
    writeFileSync(join(root, "plain.txt"), "x");
    const t = makeApp({ config: { vaults_dir: root } as never });
    const a = await makeUser(t);
    const b = await makeUser(t);

    for (const folder of ["../x", "/etc", "a/../../x", "", ".hidden", "escape", "escape/deeper", "plain.txt", 42]) {
      const res = await call(t, "PUT", "/vault", { key: a.key, body: { folder } });
      expect(res.status, `folder ${JSON.stringify(folder)}`).toBe(400);
      expect(res.body.error.folder[0]).toBeString();
    }
    expect(existsSync(join(outside, "deeper"))).toBe(false);

    const put = await call(t, "PUT", "/vault", { key: a.key, body: { folder: "garden notes" } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ can_choose: true, connected: true, folder: "garden notes", chosen_by: "person" });
    expect(existsSync(join(root, "garden notes"))).toBe(true);
    expect(JSON.stringify(put.body)).not.toContain(root);
    // The same folder again is a no-op; another is a 409 until disconnected.
    expect((await call(t, "PUT", "/vault", { key: a.key, body: { folder: "garden notes" } })).status).toBe(200);
    expect((await call(t, "PUT", "/vault", { key: a.key, body: { folder: "other" } })).status).toBe(409);

    // Another account sees only its own state, and cannot take (or nest in) a's folder.
    expect((await call(t, "GET", "/vault", { key: b.key })).body).toMatchObject({ connected: false, folder: null });
    const taken = await call(t, "PUT", "/vault", { key: b.key, body: { folder: "garden notes/inner" } });
    expect(taken.status).toBe(409);
    expect(JSON.stringify(taken.body)).not.toContain(root);

    const del = await call(t, "DELETE", "/vault", { key: a.key });
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ connected: false, folder: null });
    expect((await call(t, "DELETE", "/vault", { key: a.key })).status).toBe(200);
    await t.close();
  });

  test("a chosen folder syncs: a note becomes an idea, and GET counts it with a last sync", async () => {
    const root = temp("vaults");
    const t = makeApp({ config: { vaults_dir: root } as never });
    t.deps.clock = () => new Date();
    const u = await makeUser(t, { plan: "pro" });
    const sync = createVaultProcess(t.deps, { tickMs: 100, bindingsMs: 100, fullScanMs: 2_000, retryMs: 500 });
    await sync.start(t.deps);
    try {
      mkdirSync(join(root, "mine"));
      writeFileSync(join(root, "mine", "Compost bin.md"), "Greens and browns.\n");
      expect((await call(t, "PUT", "/vault", { key: u.key, body: { folder: "mine" } })).status).toBe(200);
      const state = await until("the note counted", async () => {
        const s = (await call(t, "GET", "/vault", { key: u.key })).body;
        return s.files === 1 && s.last_sync_at ? s : undefined;
      });
      expect(state.last_sync_at).toMatch(STAMP_RE);
      const ideas = (await call(t, "GET", "/ideas", { key: u.key })).body;
      expect(JSON.stringify(ideas)).toContain("Compost bin");
    } finally {
      await sync.stop();
      await t.close();
    }
  });

  test("a first sync's progress: GET says its phase and how far (notes read, imported, files written), then that it is done", async () => {
    const root = temp("vaults");
    const t = makeApp({ config: { vaults_dir: root } as never });
    t.deps.clock = () => new Date();
    const u = await makeUser(t, { plan: "pro" });
    const N = 400;
    mkdirSync(join(root, "big"));
    for (let i = 0; i < N; i++) writeFileSync(join(root, "big", `Note ${i}.md`), `Note ${i}, see [[Note ${(i + 1) % N}]].\n`);
    expect((await call(t, "PUT", "/vault", { key: u.key, body: { folder: "big" } })).body).toMatchObject({ connected: true, initial_sync_at: null, progress: null });
    const sync = createVaultProcess(t.deps, { tickMs: 1e9, bindingsMs: 0, fullScanMs: 1e9, retryMs: 0 });
    try {
      // The first sync runs in this process; the reads below are answered between its steps.
      const running = sync.tick();
      let finished = false;
      void running.finally(() => (finished = true));
      const seen: Array<{ phase: string; done: number; total: number }> = [];
      while (!finished) {
        const s = (await call(t, "GET", "/vault", { key: u.key })).body;
        if (s.progress) {
          expect(s.initial_sync_at).toBeNull();
          expect(s.progress.started_at).toMatch(STAMP_RE);
          expect(s.progress.updated_at).toMatch(STAMP_RE);
          expect(s.progress.done).toBeLessThanOrEqual(s.progress.total);
          seen.push(s.progress);
        }
        await Bun.sleep(20);
      }
      await running;
      const phases = [...new Set(seen.map((p) => p.phase))];
      expect(phases.length).toBeGreaterThan(0);
      // In order, and each with the folder's numbers: 400 notes to read, to import, to write back with their ids.
      expect(phases).toEqual(["reading", "importing", "writing"].filter((p) => phases.includes(p)));
      for (const p of seen) if (p.total > 0) expect(p.total).toBe(N);
      const done = (await call(t, "GET", "/vault", { key: u.key })).body;
      expect(done).toMatchObject({ progress: null, files: N, last_error: null });
      expect(done.initial_sync_at).toMatch(STAMP_RE);
    } finally {
      await sync.stop();
      await t.close();
    }
  }, 60_000);

  test("a first sync that fails says why and shows no progress", async () => {
    const root = temp("vaults");
    const t = makeApp({ config: { vaults_dir: root } as never });
    t.deps.clock = () => new Date();
    const u = await makeUser(t, { plan: "free" });
    mkdirSync(join(root, "many"));
    // More notes than the Free plan's 50 ideas: the import is refused as a whole.
    for (let i = 0; i < 60; i++) writeFileSync(join(root, "many", `Note ${i}.md`), `Note ${i}.\n`);
    await call(t, "PUT", "/vault", { key: u.key, body: { folder: "many" } });
    const sync = createVaultProcess(t.deps, { tickMs: 1e9, bindingsMs: 0, fullScanMs: 1e9, retryMs: 0 });
    try {
      await sync.tick();
      const s = (await call(t, "GET", "/vault", { key: u.key })).body;
      expect(s).toMatchObject({ connected: true, initial_sync_at: null, progress: null, files: 0 });
      expect(s.last_error).toMatch(/past its limit of 50 active ideas/);
    } finally {
      await sync.stop();
      await t.close();
    }
  });

  test("an operator's binding outside the root cannot be disconnected by the person", async () => {
    const root = temp("vaults");
    const t = makeApp({ config: { vaults_dir: root } as never });
    const u = await makeUser(t);
    await createVaultService(t.deps).connect(u.email, temp("vault-op"));
    const del = await call(t, "DELETE", "/vault", { key: u.key });
    expect(del.status).toBe(403);
    expect((await call(t, "GET", "/vault", { key: u.key })).body.connected).toBe(true);
    await t.close();
  });
});
