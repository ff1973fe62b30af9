// Provider-key rules: seal on save, never return, pick the active provider, test a key with a minimal live call.
import type { Deps } from "../../deps";
import { allFields, fieldError, internal, notFound } from "../../errors";
import { accountLock } from "../../db/store";
import { toStamp } from "../../lib/time";
import { SecretBoxError, sealedKeyId, type SecretBox } from "../../lib/secret-box";
import { complete } from "../../ai/client";
import { isProviderName, PROVIDERS, ProviderError, type ProviderEndpoint, type ProviderName } from "../../ai/types";
import { parseSettings } from "../../contract";
import { API_KEY_MAX, API_KEY_MIN, type SaveKeyBody } from "./model";
import { createByokRepo, sealedColumn, type SealedKeysRow } from "./repo";
import { forgetSecretBox, keyContext, secretBoxFor } from "./master-key";
import { recordProviderError } from "../../metrics/registry";

/** A usable key for one provider slot: what develop and test need to make a call. */
export interface ProviderCredential {
  provider: ProviderName;
  endpoint: ProviderEndpoint;
  apiKey: string;
}

/** The stored key exists but cannot be opened (master key changed without a rotation, or the value was damaged). */
export class UnreadableKeyError extends Error {
  constructor(public readonly provider: ProviderName) {
    super(`The stored ${provider} key can no longer be decrypted (the server's master key changed); save the key again`);
  }
}

/** The spec's rule: the preference if its key exists, else the first stored key in order a, b, c, else null. */
export function pickActiveProvider(row: SealedKeysRow): ProviderName | null {
  const preferred = parseSettings(row.settings_json).preferred_ai_provider;
  if (preferred && sealedColumn(row, preferred)) return preferred;
  return PROVIDERS.find((p) => sealedColumn(row, p)) ?? null;
}

// Control characters (newlines above all) can never be sent in an HTTP header, so such a "key" can never work.
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

export function parseProvider(raw: string): ProviderName {
  if (!isProviderName(raw)) throw fieldError("provider", `provider must be one of ${PROVIDERS.join(", ")}`);
  return raw;
}

function parseApiKey(body: SaveKeyBody | null | undefined): string {
  const raw = body?.api_key;
  if (raw === undefined) throw fieldError("api_key", "api_key is required");
  if (typeof raw !== "string") throw fieldError("api_key", "api_key must be a string");
  // Pasted keys often carry a trailing newline or spaces; they are never part of a real key.
  const key = raw.trim();
  if (key.length < API_KEY_MIN) throw fieldError("api_key", `api_key must be at least ${API_KEY_MIN} characters`);
  if (key.length > API_KEY_MAX) throw fieldError("api_key", `api_key must be at most ${API_KEY_MAX} characters`);
  if (CONTROL_CHARS.test(key)) throw fieldError("api_key", "api_key must not contain control characters or line breaks");
  return key;
}

export function createByokService(deps: Deps) {
  const repo = createByokRepo(deps.store);

  async function mustFindKeys(userId: string): Promise<SealedKeysRow> {
    const row = await repo.findKeys(userId);
    if (!row) throw notFound("User not found");
    return row;
  }

  /**
   * This process's secret box, made again from its source when the database was rotated to another key since it was
   * read (`master-key rotate` run beside a running server on its key file), with the key id the database was rotated
   * to (null: never rotated). Still behind when the source gives the old key (a key from configuration, or another
   * node's rotation): this process then needs the new key and a restart.
   */
  async function currentBox(): Promise<{ box: SecretBox; rotatedTo: string | null }> {
    const rotatedTo = await repo.rotatedKeyId();
    const box = await secretBoxFor(deps);
    if (rotatedTo === null || box.kid === rotatedTo) return { box, rotatedTo };
    forgetSecretBox(deps);
    return { box: await secretBoxFor(deps), rotatedTo };
  }

  async function credentialFor(row: SealedKeysRow, provider: ProviderName): Promise<ProviderCredential | null> {
    const sealed = sealedColumn(row, provider);
    if (!sealed) return null;
    let box = await secretBoxFor(deps);
    // Sealed under another key than this process's: re-read the key once, in case a rotation replaced it.
    if (sealedKeyId(sealed) !== box.kid) box = (await currentBox()).box;
    let apiKey: string;
    try {
      apiKey = box.open(sealed, keyContext(row.id, provider));
    } catch (e) {
      if (!(e instanceof SecretBoxError)) throw e;
      deps.log.error("stored provider key cannot be decrypted", { user_id: row.id, provider, reason: e.message });
      throw new UnreadableKeyError(provider);
    }
    return { provider, endpoint: deps.config.providers[provider], apiKey };
  }

  return {
    async saveKey(userId: string, rawProvider: string, body: SaveKeyBody | null | undefined) {
      const [provider, apiKey] = allFields(() => parseProvider(rawProvider), () => parseApiKey(body));
      // Under the account's lock, which a rotation's instance lock excludes: a save waits for a rotation in progress
      // and is then sealed under the key it moved to, never overwritten by it nor left under the key it retired.
      await deps.store.tx(async () => {
        const { box, rotatedTo } = await currentBox();
        if (rotatedTo !== null && box.kid !== rotatedTo) {
          deps.log.error(
            "provider key not saved: the stored provider keys were rotated to another master key than this process's; " +
              "give it that key (database_key_id; master_key / IDEAREPO_MASTER_KEY) and restart it. If that key is lost, " +
              "`idearepo master-key rotate --drop-unreadable` moves the database to a new one (the stored provider keys are cleared)",
            { user_id: userId, provider, key_id: box.kid, database_key_id: rotatedTo },
          );
          throw internal();
        }
        const sealed = box.seal(apiKey, keyContext(userId, provider));
        if (!(await repo.setKey(userId, provider, sealed, toStamp(deps.clock())))) throw notFound("User not found");
      }, { immediate: true, lock: accountLock(userId) });
      return { success: true as const, provider };
    },

    async deleteKey(userId: string, rawProvider: string) {
      const provider = parseProvider(rawProvider);
      if (!(await repo.setKey(userId, provider, null, toStamp(deps.clock())))) throw notFound("User not found");
      return { success: true as const, provider };
    },

    async status(userId: string) {
      const row = await mustFindKeys(userId);
      return {
        active_provider: pickActiveProvider(row),
        has_provider_a_key: row.provider_a_key_enc !== null,
        has_provider_b_key: row.provider_b_key_enc !== null,
        has_provider_c_key: row.provider_c_key_enc !== null,
      };
    },

    /** The active provider's credential, or null when the account stores no key at all. */
    async activeCredential(userId: string): Promise<ProviderCredential | null> {
      const row = await mustFindKeys(userId);
      const provider = pickActiveProvider(row);
      return provider ? await credentialFor(row, provider) : null;
    },

    /** Always an answer, never an error: the spec's `{ok:true}` or `{ok:false, error}`. */
    async testKey(userId: string, rawProvider: string): Promise<{ ok: true } | { ok: false; error: string }> {
      const provider = parseProvider(rawProvider);
      let cred: ProviderCredential | null;
      try {
        cred = await credentialFor(await mustFindKeys(userId), provider);
      } catch (e) {
        if (e instanceof UnreadableKeyError) return { ok: false, error: e.message };
        throw e;
      }
      if (!cred) return { ok: false, error: `No ${provider} key is stored` };
      try {
        await complete(cred.endpoint, cred.apiKey, { system: "", user: "Reply with the single word OK.", maxTokens: 16 }, deps.config.provider_timeout_ms);
        return { ok: true };
      } catch (e) {
        if (e instanceof ProviderError) {
          recordProviderError(provider, "key-test");
          return { ok: false, error: e.message };
        }
        deps.log.error("provider key test failed unexpectedly", { provider, error: (e as Error).message });
        return { ok: false, error: "The provider call failed unexpectedly" };
      }
    },
  };
}
export type ByokService = ReturnType<typeof createByokService>;
