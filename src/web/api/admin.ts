// The operator's routes (docs/admin.md): accounts, invitations, instance health, backup. Anyone else gets 404.
import { apiUrl, del, get, patch, post } from "./client";
import type { SessionOut } from "./session";

export interface AdminUser {
  id: string;
  email: string;
  display_name: string;
  plan: "free" | "pro";
  is_operator: boolean;
  disabled: boolean;
  is_trialing: boolean;
  trial_ends_at: string | null;
  /** The Stripe subscription's last known status; null when the account never had one (docs/billing.md). */
  subscription_status: string | null;
  active_idea_count: number;
  created_at: string;
}

/** One plan change: who made it (the operator, the command line, a Stripe event) and what happened. */
export interface HistoryEntry {
  source: "operator" | "cli" | "billing";
  plan_before: "free" | "pro";
  plan_after: "free" | "pro";
  note: string;
  created_at: string;
}

export interface Invitation { token: string; expires_at: string }

export interface InstanceInfo {
  version: string;
  /** The store holding the data: the backup download exists on "sqlite" only (PostgreSQL is copied with pg_dump). */
  database: "sqlite" | "postgresql";
  data_dir_bytes: number;
  database_bytes: number;
  queue: { pending: number; locked: number };
  embeddings: {
    model: string; search_model: string; reindexing: boolean; pending: number; total: number; rescoring?: number; subjects_fitting?: number;
    /** The configured model's name and the languages it reads (null: not known). */
    model_name?: string | null; languages?: string[] | null;
  };
  /** Accounts whose recent ideas are mostly in scripts the model does not read. */
  unread_accounts?: Array<{ user_id: string; email: string; sampled: number; unread: number }>;
  last_backup: { path: string | null; created_at: string } | null;
  durability: "power-safe" | "crash-safe";
  scheduled_backups: {
    schedule: string | null;
    keep: number;
    dir: string;
    last: { ok: boolean; at: string; file: string | null; error: string | null } | null;
    copies: Array<{ file: string; bytes: number; created_at: string }>;
  };
}

export interface CreateUserBody { email: string; display_name?: string; password?: string; plan?: "free" | "pro" }
export interface UpdateUserBody { plan?: "free" | "pro"; trial_days?: number; disabled?: boolean; password?: string }

export const listUsers = () => get<{ users: AdminUser[] }>("/admin/users");
export const createUser = (body: CreateUserBody) => post<{ user: AdminUser; invitation?: Invitation }>("/admin/users", body);
export const updateUser = (id: string, body: UpdateUserBody) => patch<{ user: AdminUser }>(`/admin/users/${encodeURIComponent(id)}`, body);
/** Deletes the account and everything it owns (an addition, docs/admin.md); never the operator's own. */
export const deleteUser = (id: string) => del<{ deleted: { id: string; ideas: number; tags: number } }>(`/admin/users/${encodeURIComponent(id)}`);
export const getUserHistory = (id: string) => get<{ history: HistoryEntry[] }>(`/admin/users/${encodeURIComponent(id)}/history`);
export const getInstance = () => get<InstanceInfo>("/admin/instance");
/** The backup is a plain link (the browser downloads it with the session cookie); this is its URL. */
export const backupUrl = () => apiUrl("/admin/backup");
/** Public: sets the invitee's password and signs them in (same body and cookie as sign-in). */
export const acceptInvitation = (token: string, password: string) => post<SessionOut>("/auth/accept-invitation", { token, password }, { quiet401: true });
