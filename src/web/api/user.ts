// The signed-in account: profile and settings.
import { get, patch } from "./client";
import type { User } from "./types";

export const getMe = (opts?: { quiet401?: boolean }) => get<User>("/user/me", opts);
export const updateMe = (body: { display_name?: string; settings_json?: string }) => patch<User>("/user/me", body);
