// The signed-in account: profile and settings.
import { del, get, patch } from "./client";
import { settingsRecord, type User } from "./types";

export const getMe = (opts?: { quiet401?: boolean }) => get<User>("/user/me", opts);
export const updateMe = (body: { display_name?: string; settings_json?: string }) => patch<User>("/user/me", body);

/**
 * Sets some settings_json keys and keeps every other: the stored string is read just before writing, so keys this app
 * does not know, and keys another client set since the page opened, survive. The server's 400 is thrown as it came.
 */
export async function updateSettings(change: Record<string, unknown>): Promise<User> {
  // A corrupt stored string reads as {} (the server's rule, src/contract/settings.ts); this write replaces it.
  const stored = settingsRecord((await getMe()).settings_json);
  return updateMe({ settings_json: JSON.stringify({ ...stored, ...change }) });
}

/** DELETE /user (an addition): the account and everything it owns, for good; the password re-entered confirms it. */
export const deleteAccount = (password: string) => del<{ success: true }>("/user", { body: { password }, quiet401: true });
