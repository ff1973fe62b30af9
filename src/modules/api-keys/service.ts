// API key rules: minted once and shown once, stored as SHA-256, listed without any key material.
import type { Deps } from "../../deps";
import { notFound } from "../../errors";
import { newApiKey, randomHex, sha256Hex } from "../../lib/crypto";
import { toStamp } from "../../lib/time";
import { createApiKeysRepo } from "./repo";

export function createApiKeysService(deps: Deps) {
  const repo = createApiKeysRepo(deps.store);
  return {
    async mint(userId: string, label: string, scopes: string | null, source: "manual" | "mcp") {
      const key = newApiKey();
      const row = {
        id: randomHex(16),
        user_id: userId,
        key_hash: sha256Hex(key),
        label,
        scopes,
        source,
        last_used_at: null,
        created_at: toStamp(deps.clock()),
      };
      await repo.insert(row);
      return { id: row.id, key, label: row.label, created_at: row.created_at };
    },
    list: async (userId: string) => ({ api_keys: await repo.listForUser(userId) }),
    listMcp: async (userId: string) => ({ tokens: await repo.listForUser(userId, "mcp") }),
    async revoke(userId: string, id: string) {
      if (!(await repo.deleteForUser(userId, id))) throw notFound("API key not found");
      return { success: true as const };
    },
    revokeAny(id: string): Promise<boolean> {
      return repo.deleteById(id);
    },
  };
}
