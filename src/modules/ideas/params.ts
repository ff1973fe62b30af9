// Lenient parsing of path ids and list limits, shared by the idea-graph modules.
import { badRequest, invalidIdeaId, type AppError } from "../../errors";

const INTEGER_RE = /^-?\d{1,18}$/;

/**
 * A path id is numeric when it is a plain integer; anything else ("abc", "1.5", "bulk") is the 400 the spec asks for.
 * Numeric ids that cannot exist (0, negative, huge) are left to the lookup, so they answer 404 like any absent id.
 */
export function parseId(raw: string | undefined, invalid: () => AppError): number {
  if (raw === undefined || !INTEGER_RE.test(raw)) throw invalid();
  return Number(raw);
}

export const ideaId = (raw: string | undefined) => parseId(raw, invalidIdeaId);
export const tagId = (raw: string | undefined) => parseId(raw, () => badRequest("Invalid tag ID"));
export const linkId = (raw: string | undefined) => parseId(raw, () => badRequest("Invalid link ID"));
export const duplicateId = (raw: string | undefined) => parseId(raw, () => badRequest("Invalid duplicate ID"));

/**
 * The spec clamps list limits without errors: missing or unreadable → the default; below 1 → 1; above max → max.
 * Fractions are floored. (Zero is raised to 1 so `has_more` can never be true forever.)
 */
export function clampLimit(raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined || raw.trim() === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n)) return fallback;
  return Math.min(max, Math.max(1, Math.floor(n)));
}

/** Offsets below zero or unreadable read as 0. */
export function parseOffset(raw: string | undefined): number {
  if (raw === undefined) return 0;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) return 0;
  return Math.floor(n);
}
