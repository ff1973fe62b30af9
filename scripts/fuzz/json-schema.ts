// A small JSON Schema (2020-12 subset) checker for the fuzzer: the keywords the OpenAPI document uses, nothing more.
//
// No dependency on purpose: TypeBox's Value.Check needs TypeBox's own Kind symbols, which a served document has lost.
export type Schema = Record<string, any>;

/**
 * Problems of `value` against `schema` as "path: message" lines; empty when it validates. `closed`: an object's fields
 * beyond its declared properties are problems too (the contract test's reading; the document's objects are open).
 */
export function validate(schema: Schema | boolean, value: unknown, root: Schema = schema as Schema, path = "$", closed = false): string[] {
  if (schema === true || schema === undefined) return [];
  if (schema === false) return [`${path}: not allowed`];
  if (typeof schema.$ref === "string") return validate(resolveRef(root, schema.$ref), value, root, path, closed);
  const out: string[] = [];
  if (schema.anyOf && !(schema.anyOf as Schema[]).some((s) => validate(s, value, root, path, closed).length === 0)) {
    out.push(`${path}: matches no alternative of anyOf`);
  }
  if (schema.oneOf && (schema.oneOf as Schema[]).filter((s) => validate(s, value, root, path, closed).length === 0).length !== 1) {
    out.push(`${path}: must match exactly one alternative of oneOf`);
  }
  for (const s of (schema.allOf ?? []) as Schema[]) out.push(...validate(s, value, root, path, closed));
  if ("const" in schema && !deepEqual(schema.const, value)) out.push(`${path}: must be ${JSON.stringify(schema.const)}`);
  if (Array.isArray(schema.enum) && !schema.enum.some((e: unknown) => deepEqual(e, value))) out.push(`${path}: must be one of ${JSON.stringify(schema.enum)}`);
  if (schema.type !== undefined) {
    const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((t) => isType(t, value))) return [...out, `${path}: must be ${types.join(" or ")}, got ${describe(value)}`];
  }
  if (typeof value === "string") {
    const len = [...value].length;
    if (typeof schema.minLength === "number" && len < schema.minLength) out.push(`${path}: shorter than ${schema.minLength}`);
    if (typeof schema.maxLength === "number" && len > schema.maxLength) out.push(`${path}: longer than ${schema.maxLength}`);
    if (typeof schema.pattern === "string" && !new RegExp(schema.pattern, "u").test(value)) out.push(`${path}: does not match ${schema.pattern}`);
  }
  if (typeof value === "number") {
    if (typeof schema.minimum === "number" && value < schema.minimum) out.push(`${path}: below ${schema.minimum}`);
    if (typeof schema.maximum === "number" && value > schema.maximum) out.push(`${path}: above ${schema.maximum}`);
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === "number" && value.length < schema.minItems) out.push(`${path}: fewer than ${schema.minItems} items`);
    if (typeof schema.maxItems === "number" && value.length > schema.maxItems) out.push(`${path}: more than ${schema.maxItems} items`);
    if (schema.items && typeof schema.items === "object") value.forEach((v, i) => out.push(...validate(schema.items, v, root, `${path}[${i}]`, closed)));
  }
  if (isPlainObject(value)) {
    for (const key of (schema.required ?? []) as string[]) if (!(key in value)) out.push(`${path}.${key}: required`);
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    for (const [key, v] of Object.entries(value)) {
      if (key in props) out.push(...validate(props[key], v, root, `${path}.${key}`, closed));
      else if (schema.additionalProperties === false) out.push(`${path}.${key}: not allowed`);
      else if (closed && schema.properties && !schema.additionalProperties && !schema.patternProperties) out.push(`${path}.${key}: not declared`);
      else if (isPlainObject(schema.additionalProperties)) out.push(...validate(schema.additionalProperties, v, root, `${path}.${key}`, closed));
    }
  }
  return out;
}

function resolveRef(root: Schema, ref: string): Schema {
  if (!ref.startsWith("#/")) throw new Error(`unsupported $ref ${ref}`);
  return ref
    .slice(2)
    .split("/")
    .reduce<any>((node, key) => node?.[key.replace(/~1/g, "/").replace(/~0/g, "~")], root);
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function isType(type: string, v: unknown): boolean {
  switch (type) {
    case "string": return typeof v === "string";
    case "number": return typeof v === "number" && Number.isFinite(v);
    case "integer": return typeof v === "number" && Number.isInteger(v);
    case "boolean": return typeof v === "boolean";
    case "null": return v === null;
    case "array": return Array.isArray(v);
    case "object": return isPlainObject(v);
    default: return true;
  }
}

const describe = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
