// The one place that turns a failed request into words for a person (and per-field messages for forms).
import { ApiError, NetworkError } from "./api/client";

/** A sentence for a toast or an inline alert. */
export function describeError(e: unknown): string {
  if (e instanceof NetworkError) return e.message;
  if (e instanceof ApiError) {
    const b = e.body;
    if (b.error === "idea_limit_reached") return String(b.message ?? "The Free plan holds 50 ideas. Archive one or upgrade.");
    if (e.status === 401) return "Your session has ended. Sign in again.";
    if (e.status === 429) return "Too many requests. Wait a moment and try again.";
    if (e.fields) return Object.entries(e.fields).map(([f, m]) => `${f}: ${m.join(", ")}`).join("; ");
    if (typeof b.error === "string") return e.status >= 500 && b.error === "Internal server error" ? "Something went wrong on the server. Try again." : b.error;
  }
  return "Something went wrong. Try again.";
}

/** Per-field messages of a validation error, keyed by the API's field names. */
export function fieldErrors(e: unknown): Record<string, string> {
  if (!(e instanceof ApiError) || !e.fields) return {};
  return Object.fromEntries(Object.entries(e.fields).map(([f, m]) => [f, m.join(" ")]));
}

/** The plan gate's body (403 pro_required) when this error is one, else null: pages show it as a notice. */
export function planGate(e: unknown): { error: string; feature: string; upgrade_url: string } | null {
  return e instanceof ApiError && e.body.pro_required === true ? (e.body as never) : null;
}

/** The Free idea cap's body (403 idea_limit_reached) when this error is one. */
export function ideaCap(e: unknown): { message: string; upgradeUrl: string; featureRequestUrl: string; limit: number } | null {
  return e instanceof ApiError && e.body.error === "idea_limit_reached" ? (e.body as never) : null;
}
