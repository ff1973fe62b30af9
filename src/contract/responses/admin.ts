// What the operator's routes (/admin/*) answer: accounts, their plan history, invitations and the instance's state.
// The spec leaves these shapes to the implementation ("not shown"); docs/admin.md describes them.
import { Type, type Static } from "@sinclair/typebox";
import { Bool, Int, Stamp, Str, list, literalOf, nullable, obj } from "./common";
import { Embeddings } from "./account";

const Plan = literalOf("free", "pro");

/** An account as the operator sees it: never its ideas or key material. */
export const AdminUser = obj({
  id: Str,
  email: Str,
  display_name: Str,
  plan: Plan,
  is_operator: Bool,
  disabled: Bool,
  is_trialing: Bool,
  trial_ends_at: nullable(Stamp),
  subscription_status: Type.Union([Str, Type.Null()], { description: "The payment subscription's last known status; null when the account never had one." }),
  active_idea_count: Int,
  created_at: Stamp,
});
export type AdminUser = Static<typeof AdminUser>;
export const AdminUsers = obj({ users: list(AdminUser) });
export type AdminUsers = Static<typeof AdminUsers>;
export const OneAdminUser = obj({ user: AdminUser });
export type OneAdminUser = Static<typeof OneAdminUser>;

/** A one-time token for POST /auth/accept-invitation (shown once; only its hash is kept). */
export const Invitation = obj({ token: Str, expires_at: Stamp });
export type Invitation = Static<typeof Invitation>;
/** POST /admin/users: the account, and an invitation when it was made without a password. */
export const CreatedAdminUser = obj({ user: AdminUser, invitation: Type.Optional(Invitation) });
export type CreatedAdminUser = Static<typeof CreatedAdminUser>;

export const DeletedAccount = obj({ deleted: obj({ id: Str, ideas: Int, tags: Int }) });
export type DeletedAccount = Static<typeof DeletedAccount>;

/** One plan change: who made it (the operator, the command line, a payment event) and what happened. */
export const HistoryEntry = obj({ source: literalOf("operator", "cli", "billing"), plan_before: Plan, plan_after: Plan, note: Str, created_at: Stamp });
export type HistoryEntry = Static<typeof HistoryEntry>;
export const AccountHistory = obj({ history: list(HistoryEntry) });
export type AccountHistory = Static<typeof AccountHistory>;

const BackupRun = obj({
  ok: Bool,
  at: Stamp,
  file: Type.Union([Str, Type.Null()], { description: "The verified copy (ok)…" }),
  error: Type.Union([Str, Type.Null()], { description: "…or why there is none this time (older copies were left alone)." }),
});
export const ScheduledBackups = obj({
  schedule: nullable(Str),
  keep: Int,
  dir: Str,
  last: nullable(BackupRun),
  copies: Type.Array(obj({ file: Str, bytes: Int, created_at: Stamp }), { description: "Verified copies on disk, newest first." }),
});
/** An account whose recent ideas are mostly in scripts the embedding model does not read. */
export const UnreadAccount = obj({ user_id: Str, email: Str, sampled: Int, unread: Int });

/** GET /admin/instance. */
export const InstanceInfo = obj({
  version: Str,
  durability: literalOf("power-safe", "crash-safe"),
  // The store holding the data: the backup download exists on sqlite only (PostgreSQL is copied with pg_dump).
  database: literalOf("sqlite", "postgresql"),
  data_dir_bytes: Int,
  database_bytes: Int,
  queue: obj({ pending: Int, locked: Int }),
  embeddings: Embeddings,
  unread_accounts: list(UnreadAccount),
  last_backup: nullable(obj({ path: nullable(Str), created_at: Stamp })),
  scheduled_backups: ScheduledBackups,
});
export type InstanceInfo = Static<typeof InstanceInfo>;

/** GET /admin/backup: the SQLite file itself. */
export const BackupFile = Type.String({ contentMediaType: "application/vnd.sqlite3", description: "A consistent copy of the SQLite database." });
