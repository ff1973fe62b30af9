// Schema building blocks every module's model uses, so a rule is checked by the schema (every bad field reported in
// one 400, the type follows) instead of one field at a time in a service.
import { t } from "elysia";
import { FormatRegistry, Kind, TypeRegistry, type TString } from "@sinclair/typebox";
import { codePoints } from "../contract";

/** A closed vocabulary: `field must be one of a, b, c` (the wording clients and tests already read). */
export const Enum = <T extends string>(field: string, values: readonly T[]) =>
  t.Union(values.map((v) => t.Literal(v)), { error: `${field} must be one of ${values.join(", ")}` });

// Any string `new URL` accepts; stored as given, never fetched or normalised.
// Its own name: Elysia registers a stricter "url" format (it refused vscode://file/x, which the spec allows).
FormatRegistry.Set("parsable-url", (value) => URL.canParse(value));

/** A URL of at most `max` characters (messages: "must be a valid URL", "must be at most N characters"). */
export const UrlString = (max: number) => t.String({ format: "parsable-url", maxLength: max });


interface TextOptions { minLength?: number; maxLength?: number; pattern?: string; patternError?: string; minLengthError?: string; error?: string }
const patterns = new Map<string, RegExp>();

// JSON Schema counts minLength/maxLength in code points; TypeBox's String counts UTF-16 units (a 101-emoji title was
// "over 200"). `Text` keeps the JSON Schema words (type, minLength, maxLength, pattern: the OpenAPI document is
// unchanged) under its own kind, checked here in code points. The web app's counters count the same way.
TypeRegistry.Set<TextOptions>("Text", (schema, value) => {
  if (typeof value !== "string") return false;
  if (schema.pattern !== undefined) {
    let re = patterns.get(schema.pattern);
    if (!re) patterns.set(schema.pattern, (re = new RegExp(schema.pattern)));
    if (!re.test(value)) return false;
  }
  // A string has at most as many code points as UTF-16 units and at least half as many: count only when it matters.
  if (schema.maxLength !== undefined && value.length > schema.maxLength && codePoints(value) > schema.maxLength) return false;
  if (schema.minLength !== undefined && value.length < schema.minLength * 2 && codePoints(value) < schema.minLength) return false;
  return true;
});

/**
 * A string limited in characters (code points); `patternError` words a failed pattern for people, `minLengthError` a
 * value too short (e.g. "password is required" for an empty one). Each words only its own failure: a value too long or
 * of the wrong type still gets the plain message for that (src/errors.ts).
 */
export const Text = (options: TextOptions = {}) => ({ ...options, [Kind]: "Text", type: "string" }) as unknown as TString;
