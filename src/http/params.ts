// The one reading of ids and numeric query parameters for every route: path ids, JSON ids, list limits, offsets.
//
// The spec: "a non-numeric id yields 400". An id is numeric when written as a plain decimal integer ("42", "007" which
// is 7, "-3", "0"); "abc", "1.5", "1e3", " 6", "0x5", "%20" are not. A numeric id whose value cannot exist (0,
// negative) is looked up like any other and answers 404. Integers beyond 2^53 - 1 cannot be carried exactly by
// JSON or JavaScript, so they are 400 in a path and in a body alike, and never reach SQLite as a float (2^63 did,
// as a "datatype mismatch" 500). docs/ideas.md ("Ids") says the same to clients.
import { Type } from "@sinclair/typebox";
import { badRequest, fieldError, invalidIdeaId, type AppError } from "../errors";

const INTEGER_RE = /^-?\d+$/;

/** A path id, or throws `invalid()` (the route's own 400 text). */
export function parseId(raw: string | undefined, invalid: () => AppError): number {
  if (raw === undefined || !INTEGER_RE.test(raw)) throw invalid();
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw invalid();
  return n === 0 ? 0 : n; // "-0" reads as 0
}

export const ideaId = (raw: string | undefined) => parseId(raw, invalidIdeaId);
export const tagId = (raw: string | undefined) => parseId(raw, () => badRequest("Invalid tag ID"));
export const linkId = (raw: string | undefined) => parseId(raw, () => badRequest("Invalid link ID"));
export const relationId = (raw: string | undefined) => parseId(raw, () => badRequest("Invalid relation ID"));
export const duplicateId = (raw: string | undefined) => parseId(raw, () => badRequest("Invalid duplicate ID"));
export const versionNumber = (raw: string | undefined) => parseId(raw, () => badRequest("Invalid version"));

/**
 * A comma-separated list of ids in a query parameter ("3,17,42"; "" is an empty list): undefined when absent, a
 * field error naming the parameter when an entry is not an id or there are more than `max`. Repeats count once.
 */
export function parseIdList(raw: string | undefined, field: string, max: number): number[] | undefined {
  if (raw === undefined) return undefined;
  const message = `comma-separated idea ids, at most ${max}`;
  if (raw.trim() === "") return [];
  const ids = new Set<number>();
  for (const part of raw.split(",")) {
    const n = INTEGER_RE.test(part.trim()) ? Number(part.trim()) : NaN;
    if (!Number.isSafeInteger(n)) throw fieldError(field, message);
    ids.add(n === 0 ? 0 : n);
  }
  if (ids.size > max) throw fieldError(field, message);
  return [...ids];
}

/**
 * An id inside a JSON body: a JSON integer within ±(2^53 - 1), never a string or a fraction. TypeBox's own Integer
 * on purpose: Elysia's `t.Integer` also accepts numeric strings and coerces them ("0x5" became 5, " 6 " became 6).
 */
export const IdField = (error: string) =>
  Type.Integer({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER, error });

/** Reads a numeric query parameter: undefined when absent or unreadable ("12abc", ""), ±Infinity for "1e400". */
function readNumber(raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  const n = Number(raw);
  return Number.isNaN(n) ? undefined : n;
}

/**
 * The spec clamps list limits without errors: missing or unreadable → the default; below 1 → 1; above max → max.
 * Fractions are floored. (Zero is raised to 1 so `has_more` can never be true forever.)
 */
export function clampLimit(raw: string | undefined, fallback: number, max: number): number {
  const n = readNumber(raw);
  if (n === undefined) return fallback;
  return Math.min(max, Math.max(1, Math.floor(n)));
}

/**
 * Offsets clamp like limits: missing, unreadable or below zero → 0; beyond 2^53 - 1 (e.g. 2^63, "1e400") → 2^53 - 1,
 * an empty page. Unclamped, 2^63 reached SQLite as a float and failed as a "datatype mismatch" 500.
 */
export function parseOffset(raw: string | undefined): number {
  const n = readNumber(raw);
  if (n === undefined || n <= 0) return 0;
  return Math.min(Number.MAX_SAFE_INTEGER, Math.floor(n));
}

/**
 * A path segment that does not decode (a broken %-escape such as "%E0%A4%A") reaches a route as null, which its
 * params schema refused with a field-shaped 400 ("linkId must be a string"). Given back as the text the client
 * sent, it is refused like any other bad value, with the route's own message ("Invalid link ID", "provider must be
 * one of …"). A global transform: it runs before the params are checked.
 */
export function keepUndecodableSegments({ params, route, request }: { params: Record<string, unknown>; route: string; request: Request }): void {
  if (!params || !Object.values(params).includes(null)) return;
  const pattern = route.split("/");
  const sent = new URL(request.url).pathname.split("/");
  if (pattern.length !== sent.length) return;
  pattern.forEach((part, i) => {
    const name = part.startsWith(":") ? part.slice(1).replace(/\?$/, "") : null;
    if (name !== null && params[name] === null) params[name] = sent[i];
  });
}
