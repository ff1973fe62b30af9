// settings_json: its keys, ranges and defaults, and the parse that drops out-of-range or mistyped values silently (as
// the spec says). Pure and import-free (part of the contract): the server and the web app's settings page use it alike.
import type { Provider } from "./vocabularies";

export interface UserSettings {
  preferred_ai_provider: Provider | null;
  search_threshold: number;
  dedup_threshold: number;
  related_threshold: number;
  code_mode: boolean;
  weekly_digest: boolean;
  stale_nudges: boolean;
  stale_threshold_days: number;
}

export const DEFAULT_SETTINGS: Readonly<UserSettings> = Object.freeze({
  preferred_ai_provider: null,
  search_threshold: 0.2,
  dedup_threshold: 0.75,
  related_threshold: 0.5,
  code_mode: false,
  weekly_digest: true,
  stale_nudges: true,
  stale_threshold_days: 30,
});

/** The spec's ranges; the web app's settings page shows and checks the same ones. */
export const THRESHOLD_RANGE = { min: 0.1, max: 0.9 } as const;
export const STALE_DAYS_RANGE = { min: 7, max: 180 } as const;

const inRange = (v: unknown, lo: number, hi: number): v is number =>
  typeof v === "number" && Number.isFinite(v) && v >= lo && v <= hi;

/** The account's settings_json as an object; a corrupt or non-object string reads as {} so defaults apply. */
export function settingsRecord(json: string | null | undefined): Record<string, unknown> {
  try {
    const parsed = JSON.parse(json || "{}");
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // A corrupt settings string must never break the account (or capture): defaults apply.
  }
  return {};
}

export function parseSettings(json: string | null | undefined): UserSettings {
  const raw = settingsRecord(json);
  const s: UserSettings = { ...DEFAULT_SETTINGS };
  if (raw.preferred_ai_provider === "provider_a" || raw.preferred_ai_provider === "provider_b" || raw.preferred_ai_provider === "provider_c") {
    s.preferred_ai_provider = raw.preferred_ai_provider;
  }
  for (const k of ["search_threshold", "dedup_threshold", "related_threshold"] as const) {
    if (inRange(raw[k], THRESHOLD_RANGE.min, THRESHOLD_RANGE.max)) s[k] = raw[k] as number;
  }
  if (typeof raw.code_mode === "boolean") s.code_mode = raw.code_mode;
  // Only an explicit false opts out of mail.
  s.weekly_digest = raw.weekly_digest !== false;
  s.stale_nudges = raw.stale_nudges !== false;
  if (inRange(raw.stale_threshold_days, STALE_DAYS_RANGE.min, STALE_DAYS_RANGE.max) && Number.isInteger(raw.stale_threshold_days)) {
    s.stale_threshold_days = raw.stale_threshold_days as number;
  }
  return s;
}

/**
 * Drops known keys whose values are out of range or mistyped, keeping everything else as the client sent it,
 * so settings_json never holds a value the service would ignore.
 */
export function sanitizeSettings(raw: Record<string, unknown>): Record<string, unknown> {
  const parsed = parseSettings(JSON.stringify(raw));
  // Own keys only, into an object without a prototype: a client's "constructor" or "toString" key read as one of
  // ours (`in` follows the prototype) and was dropped, and "__proto__" set the prototype instead of a key.
  const out = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of Object.entries(raw)) {
    if (!Object.hasOwn(DEFAULT_SETTINGS, k)) out[k] = v;
    else if (k === "weekly_digest" || k === "stale_nudges" || k === "code_mode") {
      if (typeof v === "boolean") out[k] = v;
    } else if (parsed[k as keyof UserSettings] === v) out[k] = v;
  }
  return out;
}
