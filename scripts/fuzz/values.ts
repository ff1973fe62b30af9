// Values for the fuzzer: valid ones generated from a JSON Schema, and the hostile ones a careful attacker tries.
import type { Schema } from "./json-schema";
import type { Rng } from "./rng";

/** Strings that have broken parsers, SQL, FTS5, logs and JSON encoders somewhere. */
export const EVIL_STRINGS: readonly string[] = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "'; DROP TABLE ideas; --",
  "\" OR 1=1 --",
  "1) UNION SELECT * FROM users --",
  "NEAR(a b, 2)",
  "title:x OR body:*",
  "\"unterminated",
  "a AND OR NOT b",
  "^x*",
  "(((",
  "*",
  "-x",
  "{\"$gt\":\"\"}",
  "../../../../etc/passwd",
  "%00%ff",
  "<script>alert(1)</script>",
  "\u202Egnirts desrever",
  "\uD83D\uDE00".repeat(101),
  "\uD800",
  "e\u0301".repeat(120),
  "ﷺ".repeat(60),
  "\r\nX-Injected: 1",
  "NaN",
  "Infinity",
  "-0",
  "1e400",
  "9223372036854775807",
  "0x5",
  " 6 ",
  "null",
  "true",
  "[]",
  "{}",
];

/** Numbers (and number-like things) outside every sane range. */
export const EVIL_NUMBERS: readonly unknown[] = [
  // biome-ignore lint/correctness/noPrecisionLoss: INT64_MAX as a client writes it (a double once read, as on any client)
  -1, 0, 1.5, -0, 2 ** 53, 2 ** 63, -(2 ** 63), 9223372036854775807, 1e308, -1e308, "12", "0x5", " 6 ", true, null, [], {}, [1, 2],
];

/** Texts for path and query parameters, as they appear on the wire (already URL-encoded where needed). */
export const EVIL_PARAMS: readonly string[] = [
  "abc", "-3", "0", "007", "1e3", "1.5", "9223372036854775807", "9223372036854775808", "18446744073709551616",
  "1" + "0".repeat(400), "%00", "1%00", "%20 6%20", "NaN", "-0", "0x10", "%F0%9F%98%80", "%E2%80%AE", "%27%20OR%201%3D1",
  "%22", "*", "bulk", "..%2F..%2Fetc%2Fpasswd", "%FF%FE",
];

export function randomText(rng: Rng, min: number, max: number): string {
  const alphabet = ["a", "b", "z", " ", "é", "ß", "日", "\uD83D\uDE00", "-", "'", "\"", "*", "\u0000", "\n"];
  const n = rng.int(min, Math.max(min, Math.min(max, min + 40)));
  let s = "";
  for (let i = 0; i < n; i++) s += rng.pick(alphabet);
  return s;
}

/** A value that satisfies `schema` (best effort for the keywords our document uses); `hint` names the field. */
export function validValue(schema: Schema, rng: Rng, hint = "", pools: Pools = {}): unknown {
  if (!schema || typeof schema !== "object") return null;
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return rng.pick(schema.enum);
  if (schema.anyOf) {
    const options = (schema.anyOf as Schema[]).filter((s) => s.type !== "null");
    return validValue(rng.pick(options.length ? options : schema.anyOf), rng, hint, pools);
  }
  const known = knownField(hint, rng, pools);
  if (known !== undefined && (schema.type === undefined || typeof known === (schema.type === "integer" ? "number" : schema.type))) return known;
  switch (schema.type) {
    case "string": {
      const min = schema.minLength ?? 0;
      const max = schema.maxLength ?? 60;
      if (schema.pattern === "^#[0-9a-fA-F]{6}$") return "#" + rng.int(0, 0xffffff).toString(16).padStart(6, "0");
      if (typeof schema.pattern === "string" && schema.pattern.includes("@")) return `fuzz${rng.int(1, 1e9)}@example.com`;
      // Now and then exactly at the limit, in characters outside the BMP: the limit counts code points, not UTF-16 units.
      if (typeof schema.maxLength === "number" && schema.maxLength <= 50_000 && rng.chance(0.15)) {
        return Array.from({ length: schema.maxLength }, () => rng.pick(["\uD83D\uDE00", "a", "日", "\uD800\uDF48"])).join("");
      }
      return [...randomText(rng, Math.max(min, 1), max)].slice(0, max).join("") || "x";
    }
    case "integer":
      return rng.int(schema.minimum ?? 1, Math.min(schema.maximum ?? 1000, 1000));
    case "number":
      return Math.min(schema.maximum ?? 1, Math.max(schema.minimum ?? 0, rng.next()));
    case "boolean":
      return rng.chance(0.5);
    case "array": {
      const n = rng.int(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, 3));
      return Array.from({ length: n }, () => validValue(schema.items ?? {}, rng, hint.replace(/s$/, ""), pools));
    }
    case "object": {
      const out: Record<string, unknown> = {};
      const required = new Set<string>(schema.required ?? []);
      for (const [k, s] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
        if (required.has(k) || rng.chance(0.6)) out[k] = validValue(s, rng, k, pools);
      }
      return out;
    }
    default:
      return known ?? "x";
  }
}

/** Ids and names the fuzzer has seen the server hand out, so valid requests reach real rows. */
export interface Pools {
  ideas?: number[];
  tags?: number[];
  tagNames?: string[];
  links?: number[];
  relations?: number[];
  detections?: number[];
  keys?: string[];
}

// The document types several enumerations as plain strings; the spec's values make a valid request likelier.
const ENUMS: Record<string, readonly string[]> = {
  status: ["captured", "exploring", "building", "shipped", "shelved"],
  source: ["web", "cli", "assistant-mcp", "siri", "email", "api", "shortcut", "ios"],
  link_type: ["url", "assistant-chat", "code-repo", "code-issue", "attachment"],
  relation_type: ["related", "parent", "blocks", "inspires", "supersedes"],
  mode: ["keyword", "semantic"],
  fts_mode: ["or", "and", "exact"],
  provider: ["provider_a", "provider_b", "provider_c"],
  connection_types: ["related", "parent,blocks", "inspires"],
};

function knownField(hint: string, rng: Rng, pools: Pools): unknown {
  if (ENUMS[hint]) return rng.pick(ENUMS[hint]);
  const pickId = (list?: number[]) => (list?.length ? rng.pick(list) : rng.int(1, 50));
  switch (hint) {
    case "id":
    case "ideaId":
    case "parent_id":
    case "absorb_id":
    case "source_idea_id":
    case "target_idea_id":
    case "ids":
    case "idea_id":
      return pickId(pools.ideas);
    case "linkId":
      return pickId(pools.links);
    case "url":
    case "source_url":
      return rng.pick(["https://example.com/a", "http://127.0.0.1/x?y=1", "https://例え.jp/路径"]);
    case "tag":
    case "name":
      return pools.tagNames?.length && hint === "tag" ? rng.pick(pools.tagNames) : `fuzz-${rng.int(1, 1e6)}`;
    case "settings_json":
      return JSON.stringify({ search_threshold: rng.next(), weekly_digest: rng.chance(0.5) });
    case "api_key":
      return "sk-fuzz-" + "0123456789abcdef".slice(0, rng.int(10, 16));
    case "limit":
      return String(rng.int(1, 100));
    case "offset":
      return String(rng.int(0, 50));
    case "min_score":
      return String(rng.next().toFixed(2));
    case "since":
    case "until":
      return rng.pick(["2020-01-01", "2099-12-31", "2026-11-23 00:00:00"]);
    case "force":
      return rng.pick(["true", "false"]);
    case "q":
      return rng.pick(["idea", "bike garden", "coffee", "fuzz"]);
  }
  return undefined;
}
