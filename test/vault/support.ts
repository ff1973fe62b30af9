// Vault test kit: an app with the vault sync running on real timers, a temp folder, and waits on either side.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { call, makeApp, makeUser, type TestApp, type TestUser } from "../helpers";
import { createVaultProcess } from "../../src/modules/vault/process";
import { createVaultService } from "../../src/modules/vault/service";

export interface VaultKit {
  t: TestApp;
  user: TestUser;
  dir: string;
  /** One pass of the sync now (with `manual`, the only passes there are). */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

/** An app whose clock is the real one (the sync compares file times with it), a user, and that user's folder. */
export async function vaultKit(opts: { connect?: boolean; manual?: boolean; before?: (dir: string, t: TestApp, user: TestUser) => Promise<void> | void } = {}): Promise<VaultKit> {
  const t = makeApp();
  t.deps.clock = () => new Date();
  const user = await makeUser(t, { plan: "pro" });
  const dir = mkdtempSync(join(tmpdir(), "idearepo-vault-"));
  await opts.before?.(dir, t, user);
  if (opts.connect !== false) await createVaultService(t.deps).connect(user.email, dir);
  const sync = createVaultProcess(t.deps, { tickMs: 100, bindingsMs: 100, fullScanMs: 2_000, retryMs: 500 });
  if (!opts.manual) await sync.start(t.deps);
  return {
    t, user, dir,
    tick: () => sync.tick(),
    async stop() {
      await sync.stop();
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Polls `check` until it returns a value other than undefined/false, or fails after `ms` with what it saw last. */
export async function until<T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, ms = 5_000): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined && v !== false) return v as T;
      last = v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what} (last: ${String(last)})`);
    await Bun.sleep(50);
  }
}

export const read = (dir: string, rel: string) => readFileSync(join(dir, rel), "utf8");
export const notes = (dir: string) => readdirSync(dir).filter((n) => n.endsWith(".md")).sort();

/** Every live idea of the user through the API. */
export async function ideasOf(k: VaultKit): Promise<Array<{ id: number; title: string; body: string }>> {
  const out = await call(k.t, "GET", "/ideas?limit=100", { key: k.user.key });
  return out.body.ideas;
}

export async function ideaTitled(k: VaultKit, title: string) {
  return (await ideasOf(k)).find((i) => i.title === title);
}
