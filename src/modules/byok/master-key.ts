// Where the master key comes from (deps engine → config → <data_dir>/master.key, created once) and its cache.
import { existsSync, mkdirSync, renameSync } from "node:fs";
import { dirname } from "node:path";
import type { Deps } from "../../deps";
import { ConfigError } from "../../config";
import type { BackgroundProcess } from "../../background-process";
import type { Store } from "../../db/store";
import { PROVIDERS } from "../../ai/types";
import {
  createSecretBox, generateMasterKey, isKeyFileExposed, keyId, masterKeyPath, parseMasterKey, readKeyFile,
  removeIfExists, sealedKeyId, SecretBoxError, writeKeyFile, type SecretBox,
} from "../../lib/secret-box";
import { syncDir } from "../../lib/durable-file";
import { createByokRepo, sealedColumn } from "./repo";

export interface MasterKey {
  key: Buffer;
  source: "engine" | "config" | "file";
  /** The key file, when the key lives in one. */
  path: string | null;
}

/** A rotation writes the new key here first, and renames it over master.key only after the database commit. */
export const pendingKeyPath = (path: string) => `${path}.next`;

/** Key ids named by stored values, with how many values each sealed. */
async function sealedKeyIds(store: Store): Promise<Map<string | null, number>> {
  const ids = new Map<string | null, number>();
  for (const row of await createByokRepo(store).listAllSealed()) {
    for (const p of PROVIDERS) {
      const v = sealedColumn(row, p);
      if (v) ids.set(sealedKeyId(v), (ids.get(sealedKeyId(v)) ?? 0) + 1);
    }
  }
  return ids;
}

/** Does any stored value name this key id? Decides which side of an interrupted rotation the database is on. */
export const databaseUsesKey = async (store: Store, kid: string) => (await sealedKeyIds(store)).has(kid);

/** Finishes (or undoes) a rotation that stopped between the database commit and the key-file rename. */
export async function recoverInterruptedRotation(store: Store, path: string): Promise<"none" | "completed" | "discarded"> {
  const next = pendingKeyPath(path);
  if (!existsSync(next)) return "none";
  const nextKey = readKeyFile(next);
  if (await databaseUsesKey(store, keyId(nextKey))) {
    renameSync(next, path);
    syncDir(dirname(path));
    return "completed";
  }
  removeIfExists(next);
  return "discarded";
}

/** Throws ConfigError (one clear line at boot or in the CLI) when the key is unusable. */
export async function resolveMasterKey(deps: Deps): Promise<MasterKey> {
  const injected = deps.engines.masterKey;
  if (injected) return { key: Buffer.from(injected), source: "engine", path: null };
  if (deps.config.master_key) {
    try {
      return { key: parseMasterKey(deps.config.master_key), source: "config", path: null };
    } catch (e) {
      throw new ConfigError(`master_key (IDEAREPO_MASTER_KEY): ${(e as Error).message}`);
    }
  }
  try {
    return await resolveKeyFile(deps);
  } catch (e) {
    if (e instanceof SecretBoxError) throw new ConfigError(e.message);
    throw e;
  }
}

async function resolveKeyFile(deps: Deps): Promise<MasterKey> {
  const path = masterKeyPath(deps.config.data_dir);
  const recovered = await recoverInterruptedRotation(deps.store, path);
  if (recovered !== "none") deps.log.warn("finished an interrupted master key rotation", { outcome: recovered });
  if (!existsSync(path)) {
    mkdirSync(deps.config.data_dir, { recursive: true });
    try {
      const key = generateMasterKey();
      writeKeyFile(path, key, true);
      deps.log.info("generated a new master key", { path });
      // Nodes sharing one PostgreSQL each have a data dir: each would make a key of its own, and a provider key sealed
      // through one node could not be opened through another.
      if (deps.store.dialect === "postgres") {
        deps.log.warn("master key generated for this node only: with several nodes on one database, give every node the same master_key (IDEAREPO_MASTER_KEY)", { path });
      }
      // A data dir restored without its key file: the old values stay in place (restoring the file makes them
      // readable again) but cannot be opened with the new key, so say so loudly.
      const orphaned = [...(await sealedKeyIds(deps.store)).entries()].filter(([kid]) => kid !== keyId(key));
      if (orphaned.length > 0) {
        deps.log.warn("stored provider keys were sealed under a different master key; restore the original master.key to read them", {
          path,
          values: orphaned.reduce((n, [, c]) => n + c, 0),
          key_ids: orphaned.map(([kid]) => kid),
        });
      }
    } catch (e) {
      // Another process created it first; use theirs.
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
  }
  if (isKeyFileExposed(path)) deps.log.warn("master key file is readable by group or others; chmod 600 it", { path });
  return { key: readKeyFile(path), source: "file", path };
}

const boxes = new WeakMap<Deps, Promise<SecretBox>>();

/**
 * The secret box for this process, resolved on first use and then cached (concurrent first callers share one
 * resolution). A failure is not cached: the next call tries again, as when the key file was fixed meanwhile.
 */
export function secretBoxFor(deps: Deps): Promise<SecretBox> {
  let box = boxes.get(deps);
  if (!box) {
    const made = resolveMasterKey(deps).then((k) => createSecretBox(k.key));
    boxes.set(deps, made);
    made.catch(() => {
      if (boxes.get(deps) === made) boxes.delete(deps);
    });
    box = made;
  }
  return box;
}

/** Forgets this process's key, so the next secretBoxFor reads it again (a rotation by another process replaced it). */
export function forgetSecretBox(deps: Deps): void {
  boxes.delete(deps);
}

/** Resolves the key when the server starts, so a bad key or key file stops the boot instead of a later request. */
export function createMasterKeyCheck(deps: Deps): BackgroundProcess {
  return { name: "master-key", start: async () => void (await secretBoxFor(deps)), stop: () => {} };
}

/** Additional data binding a sealed provider key to its account and slot. */
export const keyContext = (userId: string, provider: string) => `idearepo:provider-key:${userId}:${provider}`;
