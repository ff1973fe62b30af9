// Vault bindings: an account bound to a folder (connect, disconnect) and the folder's state (last sync, files,
// conflicts, errors) for `vault status` and the Settings page. The sync itself is service-sync.ts, run by process.ts.
import { mkdirSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import type { Deps } from "../../deps";
import { badRequest, conflict, notFound } from "../../errors";
import { toStamp } from "../../lib/time";
import type { VaultIssue, VaultProgress, VaultSkipped, VaultSyncPhase } from "../../contract/responses";
import { createVaultRepo, type BindingRow } from "./repo";

export interface VaultStatus {
  email: string | null;
  path: string;
  connected_at: string;
  /** null until the first sync (existing ideas written out, existing notes read in) has finished. */
  initial_sync_at: string | null;
  last_sync_at: string | null;
  last_error: string | null;
  files: number;
  /** How far the first sync is while it runs (reading, importing, writing), else null. */
  progress: VaultProgress | null;
  conflicts: VaultIssue[];
  skipped: VaultSkipped[];
  errors: VaultIssue[];
}

const overlaps = (a: string, b: string) => {
  const r = relative(a, b);
  return r === "" || (!r.startsWith("..") && !isAbsolute(r));
};

export function createVaultService(deps: Deps) {
  const repo = createVaultRepo(deps.store);

  async function mustFind(email: string): Promise<{ id: string; email: string }> {
    const user = await repo.userByEmail(email.trim());
    if (!user) throw notFound(`No account with e-mail ${email}`);
    return user;
  }

  async function statusOf(b: BindingRow): Promise<VaultStatus> {
    const issues = await repo.issues(b.user_id);
    const p = await repo.progress(b.user_id);
    return {
      email: await repo.emailOf(b.user_id),
      path: b.path,
      connected_at: b.created_at,
      initial_sync_at: b.initial_done_at,
      last_sync_at: b.last_sync_at,
      last_error: b.last_error,
      files: await repo.countFiles(b.user_id),
      progress: p?.phase && p.started_at && p.at ? { phase: p.phase as VaultSyncPhase, done: p.done, total: p.total, started_at: p.started_at, updated_at: p.at } : null,
      conflicts: issues.filter((i) => i.kind === "conflict").map((i) => ({ path: i.path, idea_id: i.idea_id, message: i.message, at: i.at })),
      skipped: issues.filter((i) => i.kind === "skipped").map((i) => ({ path: i.path, reason: i.message, at: i.at })),
      errors: issues.filter((i) => i.kind === "error").map((i) => ({ path: i.path, idea_id: i.idea_id, message: i.message, at: i.at })),
    };
  }

  return {
    /**
     * Binds the account to a folder (made when missing), by its real path (symbolic links resolved). A folder belongs
     * to one account, and no account's folder may hold another's; the data directory is never a vault. A running
     * server picks the binding up within seconds and starts with the first sync.
     */
    async connect(email: string, path: string): Promise<VaultStatus> {
      const user = await mustFind(email);
      if (path.trim() === "") throw badRequest("The folder path is empty");
      const wanted = resolve(path);
      try {
        mkdirSync(wanted, { recursive: true });
      } catch (e) {
        throw badRequest(`Cannot make the folder ${wanted}: ${(e as Error).message}`);
      }
      if (!statSync(wanted).isDirectory()) throw badRequest(`${wanted} is not a folder`);
      const real = realpathSync(wanted);
      const data = resolve(deps.config.data_dir);
      if (overlaps(real, data) || overlaps(data, real)) throw badRequest("The data directory cannot be, hold or be inside a vault");
      const existing = await repo.binding(user.id);
      if (existing) throw conflict(`${user.email} is already connected to ${existing.path}: disconnect it first`);
      for (const b of await repo.bindings()) {
        if (overlaps(b.path, real) || overlaps(real, b.path)) throw conflict(`${real} overlaps the folder of another account (${b.path})`);
      }
      await repo.bind(user.id, real, toStamp(deps.clock()));
      return statusOf((await repo.binding(user.id))!);
    },

    /** Unbinds the account; its files and ideas stay as they are. False when it was not connected. */
    async disconnect(email: string): Promise<{ disconnected: boolean; path: string | null }> {
      const user = await mustFind(email);
      const b = await repo.binding(user.id);
      await deps.store.tx(() => repo.unbind(user.id));
      return { disconnected: b !== null, path: b?.path ?? null };
    },

    /** One account's folder state, or null when it has none. */
    async status(userId: string): Promise<VaultStatus | null> {
      const b = await repo.binding(userId);
      return b ? statusOf(b) : null;
    },

    async statusByEmail(email: string): Promise<VaultStatus | null> {
      return this.status((await mustFind(email)).id);
    },

    /** Every account's folder state (`vault status` without --email). */
    async statusAll(): Promise<VaultStatus[]> {
      return Promise.all((await repo.bindings()).map(statusOf));
    },
  };
}
export type VaultService = ReturnType<typeof createVaultService>;
