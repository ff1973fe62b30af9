// The account's folder of Markdown (docs/vault.md): its state, choosing a folder under the instance's root, disconnecting.
import type { VaultState } from "../../contract/responses";
import { del, get, put } from "./client";

export type { VaultIssue, VaultProgress, VaultState } from "../../contract/responses";

export const getVault = () => get<VaultState>("/vault");
export const chooseVault = (folder: string) => put<VaultState>("/vault", { folder });
export const disconnectVault = () => del<VaultState>("/vault");
