// The vault sync, running: watches each bound folder (file-system events, plus a periodic full scan for what events
// miss or what happened while the server was down), looks at the ideas' side every tick, and picks up bindings made
// or removed by the CLI within seconds. One pass at a time, accounts in turn.
import { watch, type FSWatcher } from "node:fs";
import type { Deps } from "../../deps";
import type { BackgroundProcess } from "../../background-process";
import { createVaultSync, newAccountState, why, type AccountState } from "./service-sync";
import type { BindingRow } from "./repo";

export interface VaultTiming {
  /** How often the ideas' side is compared and file events are acted on. */
  tickMs: number;
  /** How often bindings are read again (a `vault connect` of the CLI is picked up within this and a tick). */
  bindingsMs: number;
  /** How often every file is looked at, events or not. */
  fullScanMs: number;
  /** After a failed pass, the wait before the account's next; after a pass with files it could not write or read, before it looks at them again. */
  retryMs: number;
}

export const VAULT_TIMING: VaultTiming = { tickMs: 500, bindingsMs: 2_000, fullScanMs: 30_000, retryMs: 5_000 };

interface Account { binding: BindingRow; state: AccountState; watcher: FSWatcher | null; dirty: boolean; lastFull: number; retryAt: number; rescanAt: number }

export function createVaultProcess(deps: Deps, timing: VaultTiming = VAULT_TIMING): BackgroundProcess & { tick(): Promise<void> } {
  const sync = createVaultSync(deps);
  const accounts = new Map<string, Account>();
  let timer: ReturnType<typeof setInterval> | null = null;
  let running: Promise<void> | null = null;
  let lastBindings = 0;
  let stopped = false;

  function watchFolder(a: Account): void {
    try {
      a.watcher = watch(a.binding.path, { recursive: true }, (_event, name) => {
        // Hidden paths (.obsidian/, .git/, this sync's own temporary files) are never notes.
        if (typeof name === "string" && name.split(/[\\/]/).some((p) => p.startsWith("."))) return;
        a.dirty = true;
      });
      a.watcher.on("error", (e) => {
        deps.log.warn("vault folder watch failed; the periodic scan carries on", { user_id: a.binding.user_id, error: e.message });
        a.watcher?.close();
        a.watcher = null;
      });
    } catch (e) {
      deps.log.warn("vault folder cannot be watched; the periodic scan carries on", { user_id: a.binding.user_id, path: a.binding.path, error: (e as Error).message });
      a.watcher = null;
    }
  }

  async function refreshBindings(): Promise<void> {
    const rows = await sync.bindings();
    const wanted = new Map(rows.map((r) => [r.user_id, r]));
    for (const [id, a] of accounts) {
      const b = wanted.get(id);
      if (!b || b.path !== a.binding.path || b.created_at !== a.binding.created_at) {
        a.watcher?.close();
        accounts.delete(id);
        deps.log.info("vault disconnected", { user_id: id, path: a.binding.path });
      } else a.binding = { ...b, initial_done_at: a.binding.initial_done_at ?? b.initial_done_at };
    }
    for (const [id, b] of wanted) {
      if (accounts.has(id)) continue;
      const a: Account = { binding: b, state: newAccountState(), watcher: null, dirty: true, lastFull: 0, retryAt: 0, rescanAt: 0 };
      accounts.set(id, a);
      watchFolder(a);
      deps.log.info("vault connected", { user_id: id, path: b.path });
    }
  }

  async function tick(): Promise<void> {
    const t = Date.now();
    if (t - lastBindings >= timing.bindingsMs) {
      lastBindings = t;
      await refreshBindings();
    }
    for (const a of accounts.values()) {
      if (stopped) return;
      if (t < a.retryAt) continue;
      const full = t - a.lastFull >= timing.fullScanMs;
      // Files that failed last time (a full disk, an immutable note) are looked at again without waiting for an event:
      // a fault that clears (space freed, chattr -i) makes none.
      const scan = a.dirty || (a.rescanAt > 0 && t >= a.rescanAt);
      a.dirty = false;
      try {
        const r = await sync.pass(a.binding, a.state, { scan, full });
        if (full) a.lastFull = t;
        if (r.failed > 0) {
          if (scan || full || a.rescanAt === 0) a.rescanAt = t + timing.retryMs;
        } else if (scan || full) a.rescanAt = 0;
        if (r.captured + r.updated + r.written + r.archived + r.conflicts + r.failed > 0) deps.log.info("vault synced", { user_id: a.binding.user_id, ...r });
      } catch (e) {
        a.dirty = true;
        a.retryAt = t + timing.retryMs;
        const error = why(e);
        deps.log.error("vault sync failed", { user_id: a.binding.user_id, error });
        await sync.failed(a.binding.user_id, error).catch(() => undefined);
      }
    }
  }

  /** One tick at a time: a slow pass makes the next wait, never run beside it. */
  const run = () => {
    if (running || stopped) return;
    running = tick()
      .catch((e) => deps.log.error("vault sync failed", { error: (e as Error)?.message ?? String(e) }))
      .finally(() => (running = null));
  };

  return {
    name: "vault-sync",
    start() {
      timer = setInterval(run, timing.tickMs);
      timer.unref?.();
      run();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running;
      for (const a of accounts.values()) a.watcher?.close();
      accounts.clear();
    },
    /** One tick now, every folder looked at whatever its events said (tests; a caller that wants it in step now). */
    async tick() {
      while (running) await running;
      for (const a of accounts.values()) a.dirty = true;
      await tick();
    },
  };
}
