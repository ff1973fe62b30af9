// MCP tool arguments from the REST routes' own TypeBox models: one schema per tool, validated and advertised as JSON Schema.
import { Type, type TObject, type TProperties, type TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { AppError, validationBody } from "../../errors";
import { toJsonSchema, type JsonSchema } from "../openapi/schema";

/**
 * A tool's arguments: property schemas taken from the REST models (so a limit or a message changes in one place),
 * each with an optional note for the assistant. The notes only describe; every rule is the model's.
 */
export function toolInput<P extends TProperties>(properties: P, notes: Partial<Record<keyof P, string>> = {}): TObject<P> {
  const described = Object.fromEntries(
    Object.entries(properties).map(([name, schema]) => [name, notes[name] ? { ...schema, description: notes[name] } : schema]),
  );
  return Type.Object(described as P);
}

/**
 * The arguments a tool runs with, or the REST 400 body for them. Assistants often send null for "not given": a null
 * counts as absent unless the field itself takes null (a REST body's `parent_id: null`). Names the tool does not
 * declare are dropped, as a REST body's unknown fields are.
 */
export function checkedArgs(input: TObject, args: Record<string, unknown>): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(input.properties)) {
    const v = args[name];
    if (v === undefined || (v === null && !Value.Check(schema, null))) continue;
    value[name] = v;
  }
  if (!Value.Check(input, value)) throw new AppError(400, validationBody([...Value.Errors(input, value)]));
  return value;
}

/** What tools/list shows: the JSON Schema of the arguments, where an optional argument may also be null (see above). */
export function advertisedInput(input: TObject): JsonSchema {
  const schema = toJsonSchema(input); // a fresh object (patternError and other non-JSON-Schema keywords dropped)
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  for (const [name, property] of Object.entries(properties)) {
    if (required.has(name) || Value.Check(input.properties[name] as TSchema, null)) continue;
    const { description, ...rest } = property;
    const choices = Object.keys(rest).length === 1 && Array.isArray(rest.anyOf) ? (rest.anyOf as JsonSchema[]) : [rest];
    properties[name] = { ...(description ? { description } : {}), anyOf: [...choices, { type: "null" }] };
  }
  return { ...schema, type: "object" };
}
