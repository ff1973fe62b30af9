// The signed-in account: profile and settings.
import { del, get, patch } from "./client";
import type { User } from "./types";

export const getMe = (opts?: { quiet401?: boolean }) => get<User>("/user/me", opts);
export const updateMe = (body: { display_name?: string; settings_json?: string }) => patch<User>("/user/me", body);
/** DELETE /user (an addition): the account and everything it owns, for good; the password re-entered confirms it. */
export const deleteAccount = (password: string) => del<{ success: true }>("/user", { body: { password }, quiet401: true });
