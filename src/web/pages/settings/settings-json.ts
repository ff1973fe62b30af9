// The spec's settings_json keys, their ranges and defaults, and the merge that keeps every key the page does not know.
import { PROVIDERS, type Provider } from "../../api/types";

export interface Preferences {
  preferred_ai_provider: Provider | null;
  search_threshold: number;
  dedup_threshold: number;
  related_threshold: number;
  code_mode: boolean;
  weekly_digest: boolean;
  stale_nudges: boolean;
  stale_threshold_days: number;
}

export const DEFAULTS: Readonly<Preferences> = {
  preferred_ai_provider: null,
  search_threshold: 0.2,
  dedup_threshold: 0.75,
  related_threshold: 0.5,
  code_mode: false,
  weekly_digest: true,
  stale_nudges: true,
  stale_threshold_days: 30,
};

export const THRESHOLD = { min: 0.1, max: 0.9 } as const;
export const STALE_DAYS = { min: 7, max: 180 } as const;

/** The stored object (unknown keys included); a corrupt string reads as {}. */
export function readRaw(json: string | null | undefined): Record<string, unknown> {
  try {
    const v = JSON.parse(json || "{}");
    return v && typeof v === "object" && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

const inRange = (v: unknown, lo: number, hi: number): v is number => typeof v === "number" && Number.isFinite(v) && v >= lo && v <= hi;

/** The values in effect, by the spec's rule: out-of-range or mistyped values fall back to the default. */
export function effective(json: string | null | undefined): Preferences {
  const raw = readRaw(json);
  const p: Preferences = { ...DEFAULTS };
  if (PROVIDERS.includes(raw.preferred_ai_provider as Provider)) p.preferred_ai_provider = raw.preferred_ai_provider as Provider;
  for (const k of ["search_threshold", "dedup_threshold", "related_threshold"] as const) if (inRange(raw[k], THRESHOLD.min, THRESHOLD.max)) p[k] = raw[k];
  if (typeof raw.code_mode === "boolean") p.code_mode = raw.code_mode;
  p.weekly_digest = raw.weekly_digest !== false;
  p.stale_nudges = raw.stale_nudges !== false;
  if (inRange(raw.stale_threshold_days, STALE_DAYS.min, STALE_DAYS.max) && Number.isInteger(raw.stale_threshold_days)) p.stale_threshold_days = raw.stale_threshold_days;
  return p;
}

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
