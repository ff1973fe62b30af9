// The spec's settings_json keys, their ranges and defaults, and the merge that keeps every key the page does not know.
// The rules are the contract's (src/contract/settings.ts, pure), so page and server cannot disagree on a range.
import { DEFAULT_SETTINGS, parseSettings, STALE_DAYS_RANGE, THRESHOLD_RANGE, type UserSettings } from "../../../contract";

export type Preferences = UserSettings;
export const DEFAULTS: Readonly<Preferences> = DEFAULT_SETTINGS;
export const THRESHOLD = THRESHOLD_RANGE;
export const STALE_DAYS = STALE_DAYS_RANGE;

/** The stored object (unknown keys included); a corrupt string reads as {}. */
export function readRaw(json: string | null | undefined): Record<string, unknown> {
  try {
    const v = JSON.parse(json || "{}");
    return v && typeof v === "object" && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

/** The values in effect, by the spec's rule: out-of-range or mistyped values fall back to the default. */
export const effective = (json: string | null | undefined): Preferences => parseSettings(json);

/** The stored object with the page's values laid over it: unknown keys survive; "no preference" removes the key. */
export function merge(stored: string | null | undefined, prefs: Preferences): string {
  const out: Record<string, unknown> = { ...readRaw(stored), ...prefs };
  if (prefs.preferred_ai_provider === null) delete out.preferred_ai_provider;
  return JSON.stringify(out);
}

/** Keys whose value the server did not keep as sent (it drops what it would ignore and the default applies). */
export function notKept(sent: Preferences, kept: Preferences): Array<keyof Preferences> {
  return (Object.keys(sent) as Array<keyof Preferences>).filter((k) => sent[k] !== kept[k]);
}
