// The operator's routes (docs/admin.md): accounts, invitations, instance health, backup. Anyone else gets 404.
import { apiUrl, del, get, patch, post } from "./client";
import type { SessionOut } from "./session";
import type { AccountHistory, AdminUser, AdminUsers, CreatedAdminUser, DeletedAccount, HistoryEntry, InstanceInfo, Invitation, OneAdminUser } from "../../contract/responses";

export type { AdminUser, HistoryEntry, InstanceInfo, Invitation };

export interface CreateUserBody { email: string; display_name?: string; password?: string; plan?: "free" | "pro" }
export interface UpdateUserBody { plan?: "free" | "pro"; trial_days?: number; disabled?: boolean; password?: string }

export const listUsers = () => get<AdminUsers>("/admin/users");
export const createUser = (body: CreateUserBody) => post<CreatedAdminUser>("/admin/users", body);
export const updateUser = (id: string, body: UpdateUserBody) => patch<OneAdminUser>(`/admin/users/${encodeURIComponent(id)}`, body);
/** Deletes the account and everything it owns (an addition, docs/admin.md); never the operator's own. */
export const deleteUser = (id: string) => del<DeletedAccount>(`/admin/users/${encodeURIComponent(id)}`);
export const getUserHistory = (id: string) => get<AccountHistory>(`/admin/users/${encodeURIComponent(id)}/history`);
export const getInstance = () => get<InstanceInfo>("/admin/instance");
/** The backup is a plain link (the browser downloads it with the session cookie); this is its URL. */
export const backupUrl = () => apiUrl("/admin/backup");
/** Public: sets the invitee's password and signs them in (same body and cookie as sign-in). */
export const acceptInvitation = (token: string, password: string) => post<SessionOut>("/auth/accept-invitation", { token, password }, { quiet401: true });
