// Turns the TypeBox/Elysia schemas attached to routes into plain JSON Schema 2020-12, the dialect OpenAPI 3.1 uses.
//
// TypeBox schemas are already JSON Schema, plus a few Elysia extras that describe coercion rather than the wire
// format: t.Numeric / t.Integer / t.BooleanString accept a numeric string beside the number, t.Date accepts several
// encodings, t.ObjectString / t.ArrayQuery accept a JSON string. A client sends the plain JSON type, so that is
// what the document shows. Custom error messages (`error`, and `patternError` / `minLengthError`, which word a failed pattern or a
// value too short for people in src/http/schema.ts and are no JSON Schema keywords), symbols and functions are dropped.

export type JsonSchema = Record<string, unknown>;

const DROP = new Set(["error", "patternError", "minLengthError", "elysiaMeta", "nullable", "$id", "noValidate"]);
// String alternatives Elysia adds only so that query strings and form fields coerce.
const COERCION_FORMATS = new Set(["numeric", "integer", "boolean", "ObjectString", "ArrayString"]);
const JSON_TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function toJsonSchema(input: unknown): JsonSchema {
  if (!isObject(input)) return {};
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(input)) {
    if (DROP.has(key) || typeof value === "function" || value === undefined) continue;
    switch (key) {
      case "properties":
      case "patternProperties":
      case "$defs":
        out[key] = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, toJsonSchema(v)]));
        break;
      case "items":
      case "not":
      case "contains":
        out[key] = toJsonSchema(value);
        break;
      case "additionalProperties":
        // true is JSON Schema's default: the response models say it only so that Elysia leaves their objects open.
        if (value === true) break;
        out[key] = typeof value === "boolean" ? value : toJsonSchema(value);
        break;
      case "anyOf":
      case "oneOf":
      case "allOf":
      case "prefixItems":
        out[key] = (value as unknown[]).map(toJsonSchema);
        break;
      default:
        out[key] = isObject(value) && key !== "default" && key !== "const" && key !== "examples" ? toJsonSchema(value) : value;
    }
  }
  return simplify(out, input);
}

function simplify(schema: JsonSchema, original: Record<string, unknown>): JsonSchema {
  // Non-JSON types (t.Date's "Date", t.Undefined's "undefined", Uint8Array …).
  if (typeof schema.type === "string" && !JSON_TYPES.has(schema.type)) {
    if (schema.type === "Date") return { type: "string", format: "date-time" };
    return {};
  }
  if (schema.format === "binary" && schema.default === "File") delete schema.default;
  const alternatives = schema.anyOf as JsonSchema[] | undefined;
  if (!alternatives) return schema;
  const kept = alternatives.filter((alt) => {
    if (Object.keys(alt).length === 0) return false; // an undefined alternative, after the type pass above
    return !(alt.type === "string" && typeof alt.format === "string" && COERCION_FORMATS.has(alt.format) && alternatives.length > 1);
  });
  const meta = original.elysiaMeta;
  const preferred =
    meta === "ObjectString" ? kept.find((a) => a.type === "object")
    : meta === "ArrayQuery" || meta === "ArrayString" ? kept.find((a) => a.type === "array")
    : undefined;
  const { anyOf: _drop, ...rest } = schema;
  if (preferred) return { ...rest, ...preferred };
  // t.Date accepts a Date, several strings and a number; a JSON client sends a date-time string.
  if ((original.anyOf as unknown[]).some((a) => isObject(a) && a.type === "Date")) return { ...rest, type: "string", format: "date-time" };
  if (kept.length === 1) return { ...rest, ...kept[0] }; // wrapper keywords (e.g. minimum on t.Numeric) apply to it
  return { ...rest, anyOf: kept };
}

/** Required-ness of an object property in a TypeBox object (t.Optional leaves it out of `required`). */
export function requiredProps(schema: JsonSchema): Set<string> {
  return new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
}
