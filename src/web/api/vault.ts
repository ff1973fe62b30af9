// The account's folder of Markdown (docs/vault.md): its state, choosing a folder under the instance's root, disconnecting.
import { del, get, put } from "./client";

export interface VaultIssue { path: string; idea_id: number | null; message: string; at: string }

export interface VaultState {
  can_choose: boolean;
  connected: boolean;
  folder: string | null;
  chosen_by: "person" | "operator" | null;
  connected_at: string | null;
  initial_sync_at: string | null;
  last_sync_at: string | null;
  last_error: string | null;
  files: number;
  conflicts: VaultIssue[];
  skipped: Array<{ path: string; reason: string; at: string }>;
  errors: VaultIssue[];
}

export const getVault = () => get<VaultState>("/vault");
export const chooseVault = (folder: string) => put<VaultState>("/vault", { folder });
export const disconnectVault = () => del<VaultState>("/vault");
