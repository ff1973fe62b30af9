// SQL for the encrypted provider-key columns on users; the column name always comes from the closed provider list.
import type { Store } from "../../db/store";
import { PROVIDERS, type ProviderName } from "../../ai/types";

const COLUMN: Record<ProviderName, string> = {
  provider_a: "provider_a_key_enc",
  provider_b: "provider_b_key_enc",
  provider_c: "provider_c_key_enc",
};

export interface SealedKeysRow {
  id: string;
  settings_json?: string;
  provider_a_key_enc: string | null;
  provider_b_key_enc: string | null;
  provider_c_key_enc: string | null;
}

/** One statement per provider slot, made once (the column is part of the SQL, never a parameter). */
function perProvider<S>(make: (column: string) => S): Record<ProviderName, S> {
  return Object.fromEntries(PROVIDERS.map((p) => [p, make(COLUMN[p])])) as Record<ProviderName, S>;
}

export function createByokRepo(store: Store) {
  const keysOf = store.query<SealedKeysRow, [string]>(
    "SELECT id, settings_json, provider_a_key_enc, provider_b_key_enc, provider_c_key_enc FROM users WHERE id = ?",
  );
  const setKey = perProvider((column) => store.query<unknown, [string | null, string, string]>(`UPDATE users SET ${column} = ?, updated_at = ? WHERE id = ?`));
  const replaceSealed = perProvider((column) => store.query<unknown, [string, string]>(`UPDATE users SET ${column} = ? WHERE id = ?`));
  const allSealed = store.query<SealedKeysRow, []>(
    `SELECT id, provider_a_key_enc, provider_b_key_enc, provider_c_key_enc FROM users
     WHERE provider_a_key_enc IS NOT NULL OR provider_b_key_enc IS NOT NULL OR provider_c_key_enc IS NOT NULL`,
  );
  // The id of the master key a rotation last sealed every value under (rotate.ts); absent until the first rotation.
  const rotatedTo = store.query<{ value: string }, []>("SELECT value FROM app_state WHERE key = 'master_key_id'");
  const setRotatedTo = store.query<unknown, [string, string]>(
    `INSERT INTO app_state (key, value, updated_at) VALUES ('master_key_id', ?1, ?2)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  );
  return {
    findKeys: (userId: string) => keysOf.get(userId),
    /** The key id the last rotation moved every value to, or null when the instance was never rotated. */
    rotatedKeyId: async () => (await rotatedTo.get())?.value ?? null,
    setRotatedKeyId: (kid: string, now: string) => setRotatedTo.run(kid, now),
    setKey: async (userId: string, provider: ProviderName, sealed: string | null, now: string) =>
      (await setKey[provider].run(sealed, now, userId)).changes > 0,
    /** Every user holding at least one sealed key (rotation, recovery checks). */
    listAllSealed: () => allSealed.all(),
    /** Rewrites sealed values only (no updated_at change: the user changed nothing). */
    replaceSealed: (userId: string, provider: ProviderName, sealed: string) => replaceSealed[provider].run(sealed, userId),
  };
}
export type ByokRepo = ReturnType<typeof createByokRepo>;

export const sealedColumn = (row: SealedKeysRow, provider: ProviderName) => row[COLUMN[provider] as keyof SealedKeysRow];
