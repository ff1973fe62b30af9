// SQL for the encrypted provider-key columns on users; the column name always comes from the closed provider list.
import type { Db } from "../../db/open";
import type { ProviderName } from "../../ai/types";

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

export function createByokRepo(db: Db) {
  const keysOf = db.query<SealedKeysRow, [string]>(
    "SELECT id, settings_json, provider_a_key_enc, provider_b_key_enc, provider_c_key_enc FROM users WHERE id = ?",
  );
  return {
    findKeys: (userId: string) => keysOf.get(userId),
    setKey: (userId: string, provider: ProviderName, sealed: string | null, now: string) =>
      db.query(`UPDATE users SET ${COLUMN[provider]} = ?, updated_at = ? WHERE id = ?`).run(sealed, now, userId).changes > 0,
    /** Every user holding at least one sealed key (rotation, recovery checks). */
    listAllSealed: () =>
      db.query<SealedKeysRow, []>(
        `SELECT id, provider_a_key_enc, provider_b_key_enc, provider_c_key_enc FROM users
         WHERE provider_a_key_enc IS NOT NULL OR provider_b_key_enc IS NOT NULL OR provider_c_key_enc IS NOT NULL`,
      ).all(),
    /** Rewrites sealed values only (no updated_at change: the user changed nothing). */
    replaceSealed: (userId: string, provider: ProviderName, sealed: string) =>
      db.query(`UPDATE users SET ${COLUMN[provider]} = ? WHERE id = ?`).run(sealed, userId),
  };
}
export type ByokRepo = ReturnType<typeof createByokRepo>;

export const sealedColumn = (row: SealedKeysRow, provider: ProviderName) => row[COLUMN[provider] as keyof SealedKeysRow];
