// Capture by e-mail's keys of settings_json (additions, docs/email.md): how they read, and why a PATCH may not store
// one. Pure and import-free (part of the contract): the mail reader, PATCH /user/me and the settings page use it alike.
import { settingsRecord } from "./settings";

/** The account's capture settings, read from settings_json like the spec's keys: a mistyped value counts as unset. */
export interface CaptureSettings {
  /** Answer each captured (or refused) message to its sender; default false. */
  email_capture_reply: boolean;
  /** Only these senders (addresses, or "@domain") may file ideas; empty (the default): anyone with the address. */
  email_capture_senders: string[];
  /** File only mail whose From the operator's mail server authenticated (DMARC or aligned DKIM); default false. */
  email_capture_authenticated_only: boolean;
}

const SENDER = /^[^@\s]*@[^@\s]+$/;
export const MAX_ALLOWED_SENDERS = 100;
const MAX_SENDER_LENGTH = 254;
const CAPTURE_FLAGS = ["email_capture_reply", "email_capture_authenticated_only"] as const;

/**
 * Why a PATCH /user/me must not store these capture settings (a sentence naming the key), or null. The reader treats a
 * bad list as no list at all, so an allow-list with one typo would silently let everyone in: PATCH refuses it instead.
 * A value equal to the one stored passes, so an account holding one from before this check can still save others.
 */
export function captureSettingsProblem(next: Record<string, unknown>, stored: Record<string, unknown>): string | null {
  const changed = (k: string) => Object.hasOwn(next, k) && next[k] !== null && JSON.stringify(next[k]) !== JSON.stringify(stored[k]);
  for (const k of CAPTURE_FLAGS) {
    if (changed(k) && typeof next[k] !== "boolean") return `${k} must be true or false`;
  }
  if (!changed("email_capture_senders")) return null;
  const senders = next.email_capture_senders;
  if (!Array.isArray(senders)) return "email_capture_senders must be a list of addresses (name@example.com) or domains (@example.com)";
  if (senders.length > MAX_ALLOWED_SENDERS) return `email_capture_senders holds at most ${MAX_ALLOWED_SENDERS} senders`;
  for (const a of senders) {
    if (typeof a !== "string") return "email_capture_senders must be a list of addresses (name@example.com) or domains (@example.com)";
    if (a.length > MAX_SENDER_LENGTH) return `email_capture_senders: an address has at most ${MAX_SENDER_LENGTH} characters`;
    if (!SENDER.test(a)) {
      return `email_capture_senders: ${JSON.stringify(a)} is not an address or a domain; write name@example.com, or @example.com for a whole domain`;
    }
  }
  return null;
}

export function parseCaptureSettings(json: string | null | undefined): CaptureSettings {
  const raw = settingsRecord(json);
  const senders = raw.email_capture_senders;
  const valid = Array.isArray(senders) && senders.length <= MAX_ALLOWED_SENDERS
    && senders.every((a) => typeof a === "string" && a.length <= MAX_SENDER_LENGTH && SENDER.test(a));
  return {
    email_capture_reply: raw.email_capture_reply === true,
    email_capture_authenticated_only: raw.email_capture_authenticated_only === true,
    email_capture_senders: valid ? (senders as string[]).map((a) => a.trim().toLowerCase()) : [],
  };
}
