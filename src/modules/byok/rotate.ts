// Master key rotation: re-seal every stored provider key under a new master key in one transaction.
import type { Deps } from "../../deps";
import { OperatorError } from "../../errors";
import { toStamp } from "../../lib/time";
import { PROVIDERS, type ProviderName } from "../../ai/types";
import { createSecretBox, generateMasterKey, keyId, removeIfExists, sealedKeyId, writeKeyFile } from "../../lib/secret-box";
import { createByokRepo, sealedColumn } from "./repo";
import { keyContext, pendingKeyPath, resolveMasterKey } from "./master-key";

export class RotationError extends OperatorError {}

export interface RotationResult {
  success: true;
  source: "config" | "file";
  key_file: string | null;
  previous_key_id: string;
  key_id: string;
  reencrypted: number;
  dropped: number;
}

/** Counts what the current key can and cannot open (for `master-key status`). */
export async function inspectSealedKeys(deps: Deps) {
  const current = await resolveMasterKey(deps);
  const box = createSecretBox(current.key);
  let readable = 0;
  const unreadable: Array<{ user_id: string; provider: ProviderName; key_id: string | null }> = [];
  for (const row of await createByokRepo(deps.store).listAllSealed()) {
    for (const p of PROVIDERS) {
      const sealed = sealedColumn(row, p);
      if (!sealed) continue;
      try {
        box.open(sealed, keyContext(row.id, p));
        readable++;
      } catch {
        unreadable.push({ user_id: row.id, provider: p, key_id: sealedKeyId(sealed) });
      }
    }
  }
  return { source: current.source, key_file: current.path, key_id: box.kid, readable, unreadable };
}

/**
 * Order of events, so a crash at any point loses nothing:
 * 1. the new key goes to master.key.next (fsynced); 2. one immediate store transaction re-seals every value (on
 * PostgreSQL as on SQLite: the rows are read inside it, so no key saved meanwhile is left under the old key);
 * 3. the new key replaces master.key atomically and .next is removed. A crash between 2 and 3 is finished on the
 * next start by recoverInterruptedRotation (the database names the key it uses); before 2 it is simply undone.
 * The transaction also records the new key's id (app_state): a save made meanwhile waits for it (saveKey takes the
 * same lock) and a process still holding the old key re-reads its key or refuses, instead of sealing a value under a
 * key the database no longer uses (byok/service.ts).
 */
export async function rotateMasterKey(deps: Deps, opts: { newKey?: Buffer; dropUnreadable?: boolean } = {}): Promise<RotationResult> {
  const current = await resolveMasterKey(deps);
  if (current.source === "engine") throw new RotationError("The master key was injected by the host process; rotate it there");
  if (current.source === "config" && !opts.newKey) {
    throw new RotationError(
      "The master key comes from configuration (master_key / IDEAREPO_MASTER_KEY). Generate a new one " +
        "(openssl rand -hex 32), pass it with --new-key-stdin, then put it into your configuration before restarting.",
    );
  }
  const newKey = opts.newKey ?? generateMasterKey();
  if (keyId(newKey) === keyId(current.key)) throw new RotationError("The new master key is the same as the current one");
  const oldBox = createSecretBox(current.key);
  const newBox = createSecretBox(newKey);
  const repo = createByokRepo(deps.store);
  const next = current.path ? pendingKeyPath(current.path) : null;
  if (next) writeKeyFile(next, newKey);

  let reencrypted = 0;
  let dropped = 0;
  try {
    // The instance's lock (no TxOptions.lock): it re-seals every account's values at once.
    await deps.store.tx(async () => {
      const unreadable: string[] = [];
      for (const row of await repo.listAllSealed()) {
        for (const p of PROVIDERS) {
          const sealed = sealedColumn(row, p);
          if (!sealed) continue;
          const context = keyContext(row.id, p);
          let plain: string;
          try {
            plain = oldBox.open(sealed, context);
          } catch {
            unreadable.push(`${row.id}/${p}`);
            if (opts.dropUnreadable) {
              await repo.setKey(row.id, p, null, toStamp(deps.clock()));
              dropped++;
            }
            continue;
          }
          await repo.replaceSealed(row.id, p, newBox.seal(plain, context));
          reencrypted++;
        }
      }
      // Processes still holding the old key (a running server, other nodes) read this before sealing anything new.
      await repo.setRotatedKeyId(newBox.kid, toStamp(deps.clock()));
      if (unreadable.length > 0 && !opts.dropUnreadable) {
        throw new RotationError(
          `${unreadable.length} stored provider key(s) cannot be decrypted with the current master key (${unreadable.slice(0, 5).join(", ")}` +
            `${unreadable.length > 5 ? ", …" : ""}). Nothing was changed. Re-run with --drop-unreadable to clear them.`,
        );
      }
    }, { immediate: true });
  } catch (e) {
    if (next) removeIfExists(next);
    throw e;
  }
  if (current.path && next) {
    // Written from memory rather than renamed: even if .next vanished meanwhile, master.key ends up right.
    writeKeyFile(current.path, newKey);
    removeIfExists(next);
  }
  return {
    success: true,
    source: current.source,
    key_file: current.path,
    previous_key_id: oldBox.kid,
    key_id: newBox.kid,
    reencrypted,
    dropped,
  };
}
