// What GET/PUT/DELETE /vault answer: the account's folder of Markdown as Settings shows it (docs/vault.md). The server
// builds it (src/modules/vault/folder.ts) and the web app reads it (src/web/api/vault.ts), both typed from here.
import { Type, type Static } from "@sinclair/typebox";
import { Bool, Int, Stamp, Str, list, literalOf, nullable, obj } from "./common";

/** A file of the folder the person may need to look at: a conflict file, or a change the idea refused. */
export const VaultIssue = obj({ path: Str, idea_id: nullable(Int), message: Str, at: Stamp });
export type VaultIssue = Static<typeof VaultIssue>;
export const VaultSkipped = obj({ path: Str, reason: Str, at: Stamp });
export type VaultSkipped = Static<typeof VaultSkipped>;

/** The steps of a first sync, in order (docs/vault.md, The first sync). */
export const VAULT_SYNC_PHASES = ["reading", "importing", "writing"] as const;
export type VaultSyncPhase = (typeof VAULT_SYNC_PHASES)[number];
export const VaultProgress = obj(
  {
    phase: literalOf(...VAULT_SYNC_PHASES),
    done: Type.Integer({ minimum: 0, description: "Notes or files of this phase done so far" }),
    total: Type.Integer({ minimum: 0, description: "Notes or files this phase has to do" }),
    started_at: Stamp,
    updated_at: Stamp,
  },
  "How far the first sync is: reading the folder's notes, importing the new ones as ideas, writing files (ids added, ideas without a file written out). Null when no first sync is running.",
);
export type VaultProgress = Static<typeof VaultProgress>;

export const VaultState = obj({
  /** The instance has a root (vaults_dir): the person may choose and disconnect a folder. */
  can_choose: Bool,
  connected: Bool,
  /** Relative to the root when the folder is under it; otherwise the path the operator bound. */
  folder: nullable(Str),
  /** "person": chosen in Settings under the root; "operator": bound with `idearepo vault connect` outside it. */
  chosen_by: nullable(literalOf("person", "operator")),
  connected_at: nullable(Stamp),
  initial_sync_at: nullable(Stamp),
  last_sync_at: nullable(Stamp),
  last_error: nullable(Str),
  files: Int,
  progress: nullable(VaultProgress),
  conflicts: list(VaultIssue),
  skipped: list(VaultSkipped),
  errors: list(VaultIssue),
});
export type VaultState = Static<typeof VaultState>;
