// Request generators: from one operation of the document, a valid request or one of the hostile variants.
import { validate, type Schema } from "./json-schema";
import type { Operation, Sent } from "./checks";
import type { Rng } from "./rng";
import { EVIL_NUMBERS, EVIL_PARAMS, EVIL_STRINGS, validValue, type Pools } from "./values";

export interface Built {
  method: string;
  /** Path with parameters filled in, plus the query string. */
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array | ReadableStream<Uint8Array>;
  /** "key" sends the API key, "cookie" the session cookie, "none" nothing, "garbage" a wrong credential. */
  auth: "key" | "cookie" | "none" | "garbage";
  sent: Sent;
}

export const MB = 1024 * 1024;
const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

const MALFORMED_JSON = [
  "{", "{\"title\":", "{\"title\":\"a\"}{", "[]", "null", "\"x\"", "1", "{'title':'a'}", "{\"title\":\"a\",}", "\uFEFF{\"title\":\"a\"}",
  "{\"title\":\"\\ud800\"}", "{\"title\":\"a\u0000\"}", "[".repeat(5000) + "]".repeat(5000), "{\"a\":".repeat(3000) + "1" + "}".repeat(3000),
  "{\"title\":\"a\",\"title\":\"b\"}", "{\"__proto__\":{\"admin\":true},\"title\":\"a\"}", "{\"constructor\":{\"prototype\":{\"x\":1}}}", "\u0000",
];
const WRONG_TYPES = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml", "", "application/json; charset=utf-16", "application/json-patch+json"];

export function bodySchema(o: Operation): Schema | undefined {
  return o.op.requestBody?.content?.["application/json"]?.schema;
}

const params = (o: Operation, where: string): Schema[] => ((o.op.parameters ?? []) as Schema[]).filter((p) => p.in === where);

function fillPath(o: Operation, rng: Rng, pools: Pools, evil?: string): string {
  const names = params(o, "path").map((p) => p.name as string);
  const target = evil !== undefined ? rng.pick(names) : undefined;
  return o.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === target) return evil!;
    return encodeURIComponent(String(pathValue(o.path, name, rng, pools)));
  });
}

function pathValue(path: string, name: string, rng: Rng, pools: Pools): string | number {
  const pick = (list?: Array<number | string>) => (list?.length ? rng.pick(list) : rng.int(1, 30));
  if (name === "provider") return rng.pick(["provider_a", "provider_b", "provider_c"]);
  if (name === "linkId") return pick(pools.links);
  if (path.includes("/tags/")) return pick(pools.tags);
  if (path.includes("/map/relations/")) return pick(pools.relations);
  if (path.includes("/duplicates/")) return pick(pools.detections);
  if (path.includes("/api-keys/")) return pick(pools.keys);
  if (path.includes("/admin/users/")) return "0".repeat(32);
  return pick(pools.ideas);
}

function validQuery(o: Operation, rng: Rng, pools: Pools): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const p of params(o, "query")) {
    if (p.required || rng.chance(0.5)) out.push([p.name, String(validValue(p.schema ?? {}, rng, p.name, pools))]);
  }
  return out;
}

function queryProblems(o: Operation, query: Array<[string, string]>): string[] {
  const out: string[] = [];
  for (const p of params(o, "query")) {
    const values = query.filter(([k]) => k === p.name).map(([, v]) => v);
    if (p.required && values.length === 0) out.push(`query ${p.name}: required`);
    // Only string limits are checked: numbers are clamped by design, and strings are all the document types query values as.
    if (p.schema?.type === "string") for (const v of values) out.push(...validate(p.schema, v).map((m) => `query ${p.name}${m.slice(1)}`));
  }
  return out;
}

const encodeQuery = (q: Array<[string, string]>, raw = false) =>
  q.length ? "?" + q.map(([k, v]) => `${encodeURIComponent(k)}=${raw ? v : encodeLoosely(v)}`).join("&") : "";

/** encodeURIComponent, except that a lone surrogate goes out as the invalid UTF-8 bytes it would be (%ED%A0%80). */
function encodeLoosely(v: string): string {
  return v.replace(/[\uD800-\uDFFF]/g, (c, i: number) => {
    const code = c.charCodeAt(0);
    const paired = code < 0xdc00 ? /[\uDC00-\uDFFF]/.test(v[i + 1] ?? "") : /[\uD800-\uDBFF]/.test(v[i - 1] ?? "");
    return paired ? c : "\u0001" + code.toString(16);
  }).split(/\u0001([0-9a-f]{4})/).map((part, i) => (i % 2 ? "%ED%" + (0x80 | ((parseInt(part, 16) >> 6) & 0x3f)).toString(16).toUpperCase() + "%" + (0x80 | (parseInt(part, 16) & 0x3f)).toString(16).toUpperCase() : encodeURIComponent(part))).join("");
}

/** A value of the wrong kind or over the limit for a property schema. */
function breakValue(s: Schema, rng: Rng): unknown {
  const alts = s.anyOf ? (s.anyOf as Schema[]).filter((a) => a.type !== "null") : [s];
  const base = alts[0] ?? {};
  const options: unknown[] = [];
  if (base.type === "string") {
    options.push(12, true, [], {}, ["a"]);
    if (typeof base.maxLength === "number") options.push("x".repeat(base.maxLength + 1), "\uD83D\uDE00".repeat(base.maxLength + 1), "x".repeat(base.maxLength * 20 + 1));
    if ((base.minLength ?? 0) > 0) options.push("");
    if (base.pattern) options.push("#fff", "red", "#GGGGGG");
    if (Array.isArray(base.enum)) options.push("bogus", String(base.enum[0]).toUpperCase(), ` ${base.enum[0]}`);
  } else if (base.type === "integer" || base.type === "number") {
    options.push("12", "0x5", " 6 ", 5.5, true, "5", [5], 2 ** 64, 1e308);
  } else if (base.type === "array") {
    options.push("12", 12, { 0: 1 }, "a,b");
    if (typeof base.maxItems === "number") options.push(Array.from({ length: base.maxItems + 1 }, (_, i) => validValue(base.items ?? {}, rng, "", {}) ?? i));
    if ((base.minItems ?? 0) > 0) options.push([]);
    if (base.items?.type === "integer") options.push(["12"], [1.5], [true], [null], ["0x5"]);
    if (base.items?.type === "string") options.push([1], [null], ["x".repeat((base.items.maxLength ?? 50) + 1)]);
  } else if (base.type === "boolean") {
    options.push("true", 1, "yes", null);
  } else {
    options.push(12, "x", null);
  }
  return rng.pick(options);
}

export function buildCase(o: Operation, rng: Rng, pools: Pools): Built {
  const schema = bodySchema(o);
  const hasBody = schema !== undefined;
  const canBody = BODY_METHODS.has(o.method);
  const hasPath = params(o, "path").length > 0;
  const hasQuery = params(o, "query").length > 0;
  const secured = ((o.op.security ?? []) as unknown[]).length > 0;
  const strategies: Array<[string, number]> = [
    ["valid", 30],
    ["body-fields", hasBody ? 22 : 0],
    ["evil-strings", hasBody || hasQuery ? 10 : 0],
    ["evil-path", hasPath ? 10 : 0],
    ["evil-query", hasQuery ? 10 : 0],
    ["repeated-params", hasQuery ? 3 : 0],
    ["malformed-json", canBody ? 7 : 0],
    ["content-type", hasBody ? 4 : 0],
    ["huge-body", canBody && !o.path.endsWith("/user/import") ? 1 : 0],
    ["no-credential", secured ? 3 : 0],
  ];
  const total = strategies.reduce((s, [, w]) => s + w, 0);
  let roll = rng.next() * total;
  const kind = strategies.find(([, w]) => (roll -= w) < 0)?.[0] ?? "valid";

  let path = fillPath(o, rng, pools);
  let query = validQuery(o, rng, pools);
  let rawQuery: string | undefined;
  let body: unknown = hasBody ? validValue(schema!, rng, "", pools) : undefined;
  const headers: Record<string, string> = {};
  let raw: Built["body"];
  const invalid: string[] = [];
  const badFields: string[] = [];
  let oversized: Sent["oversized"];
  let auth: Built["auth"] = rng.chance(0.2) ? "key" : "cookie";

  switch (kind) {
    case "body-fields": {
      const props = Object.entries((schema!.properties ?? {}) as Record<string, Schema>);
      const n = Math.min(props.length, rng.int(1, 3));
      const chosen = new Set<string>();
      for (let i = 0; i < n; i++) chosen.add(rng.pick(props)[0]);
      for (const name of chosen) (body as Record<string, unknown>)[name] = breakValue(schema!.properties[name], rng);
      if (rng.chance(0.15) && schema!.required?.length) delete (body as Record<string, unknown>)[rng.pick(schema!.required as string[])];
      for (const name of chosen) if (validate(schema!.properties[name], (body as Record<string, unknown>)[name], o.op).length) badFields.push(name);
      break;
    }
    case "evil-strings": {
      if (hasBody && (rng.chance(0.6) || !hasQuery)) {
        for (const [k, s] of Object.entries((schema!.properties ?? {}) as Record<string, Schema>)) {
          const str = s.type === "string" || (s.anyOf ?? []).some((a: Schema) => a.type === "string");
          if (str && rng.chance(0.7)) (body as Record<string, unknown>)[k] = rng.pick(EVIL_STRINGS);
          else if (!str && rng.chance(0.3)) (body as Record<string, unknown>)[k] = rng.pick(EVIL_NUMBERS);
        }
      } else {
        query = query.map(([k, v]) => [k, rng.chance(0.7) ? rng.pick(EVIL_STRINGS) : v]);
        if (!query.length) query = params(o, "query").map((p) => [p.name, rng.pick(EVIL_STRINGS)]);
      }
      break;
    }
    case "evil-path":
      path = fillPath(o, rng, pools, rng.pick(EVIL_PARAMS));
      break;
    case "evil-query": {
      const p = rng.pick(params(o, "query"));
      const value = rng.pick([...EVIL_PARAMS, "x".repeat(501), "x".repeat(rng.pick([2_000, 8_000, 20_000])), "-1", "101", "1e400", "0.0000001", "true"]);
      rawQuery = encodeQuery([...query.filter(([k]) => k !== p.name), [p.name, value]], true);
      const decoded = safeDecode(value);
      query = [...query.filter(([k]) => k !== p.name), [p.name, decoded]];
      if (value.length > 16_000) oversized = "line";
      break;
    }
    case "repeated-params": {
      const p = rng.pick(params(o, "query"));
      query = [...query, [p.name, String(validValue(p.schema ?? {}, rng, p.name, pools))], [p.name, String(validValue(p.schema ?? {}, rng, p.name, pools))]];
      break;
    }
    case "malformed-json":
      raw = rng.pick(MALFORMED_JSON);
      headers["content-type"] = "application/json";
      if (hasBody && !isValidJsonObject(raw as string, schema!, o.op)) invalid.push(`body ${JSON.stringify((raw as string).slice(0, 30))}: malformed JSON or not the documented object`);
      break;
    case "content-type":
      headers["content-type"] = rng.pick(WRONG_TYPES);
      raw = JSON.stringify(body);
      if (headers["content-type"] === "") delete headers["content-type"];
      break;
    case "huge-body": {
      const chunked = rng.chance(0.5);
      const size = 10 * MB;
      headers["content-type"] = "application/json";
      raw = chunked ? chunkedBody(size) : hugeJson(size);
      // A route that reads no body may answer without reading a chunked one (nothing is buffered, nothing accepted);
      // a declared length is refused before routing either way, and a route that reads a body must refuse both.
      if (hasBody || !chunked) oversized = "body";
      break;
    }
    case "no-credential":
      auth = rng.chance(0.5) ? "none" : "garbage";
      invalid.push("no valid credential");
      break;
  }

  if (hasBody && raw === undefined) {
    const problems = validate(schema!, body, o.op);
    invalid.push(...problems);
  }
  invalid.push(...queryProblems(o, query));
  if (raw === undefined && body !== undefined) {
    raw = JSON.stringify(body);
    headers["content-type"] = "application/json";
  }
  const url = path + (rawQuery ?? encodeQuery(query));
  const sentBody = typeof raw === "string" && headers["content-type"] === "application/json" ? tryParse(raw) : undefined;
  return { method: o.method, url, headers, body: raw, auth, sent: { kind, url, invalid, badFields, oversized, body: sentBody } };
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

function isValidJsonObject(text: string, schema: Schema, root: Schema): boolean {
  try {
    // A leading byte-order mark is tolerated by the server, as by most JSON readers.
    return validate(schema, JSON.parse(text.replace(/^\uFEFF/, "")), root).length === 0;
  } catch {
    return false;
  }
}

/** A JSON document of `size` bytes with a Content-Length. */
export function hugeJson(size: number): Uint8Array {
  const head = "{\"title\":\"huge\",\"body\":\"";
  const bytes = new Uint8Array(size).fill(0x61);
  bytes.set(new TextEncoder().encode(head), 0);
  bytes.set(new TextEncoder().encode("\"}"), size - 2);
  return bytes;
}

/** The same document sent as a stream, so the request goes out with Transfer-Encoding: chunked and no length. */
export function chunkedBody(size: number): ReadableStream<Uint8Array> {
  const whole = hugeJson(size);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= whole.length) return controller.close();
      controller.enqueue(whole.subarray(offset, offset + 64 * 1024));
      offset += 64 * 1024;
    },
  });
}
