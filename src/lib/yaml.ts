// Minimal YAML emitting for front matter: every string double-quoted with escapes, so any title reads back exactly.

/** Characters YAML 1.2 forbids raw, plus the ones some parsers treat as line breaks or strip (NEL, LS, PS, BOM). */
function mustEscape(cp: number): boolean {
  if (cp === 0x22 || cp === 0x5c) return true; // " and \
  if (cp < 0x20 || cp === 0x7f) return true; // C0 controls (tab and newlines included: escaped is unambiguous) and DEL
  if (cp >= 0x80 && cp <= 0x9f) return true; // C1 controls, NEL among them
  if (cp === 0x2028 || cp === 0x2029 || cp === 0xfeff) return true;
  if (cp >= 0xd800 && cp <= 0xdfff) return true; // a lone surrogate (a pair arrives here as one code point)
  return cp === 0xfffe || cp === 0xffff;
}

const SHORT: Record<number, string> = { 0x22: '\\"', 0x5c: "\\\\", 0x09: "\\t", 0x0a: "\\n", 0x0d: "\\r", 0x00: "\\0" };

/** A double-quoted YAML scalar that every YAML 1.1/1.2 parser reads back as exactly `s`. */
export function yamlString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (!mustEscape(cp)) out += ch;
    else if (SHORT[cp]) out += SHORT[cp];
    else if (cp <= 0xff) out += "\\x" + cp.toString(16).padStart(2, "0");
    else out += "\\u" + cp.toString(16).padStart(4, "0");
  }
  return out + '"';
}

export type FrontMatterValue = string | number | string[];

/** `---` block with one key per line; arrays become block sequences (or `[]` when empty). */
export function frontMatter(fields: Array<[string, FrontMatterValue]>): string {
  let out = "---\n";
  for (const [key, value] of fields) {
    if (Array.isArray(value)) {
      out += value.length === 0 ? `${key}: []\n` : `${key}:\n${value.map((v) => `  - ${yamlString(v)}\n`).join("")}`;
    } else if (typeof value === "number") out += `${key}: ${value}\n`;
    else out += `${key}: ${yamlString(value)}\n`;
  }
  return out + "---\n";
}

const UNESCAPE: Record<string, string> = {
  "0": "\0", a: "\x07", b: "\b", t: "\t", "\t": "\t", n: "\n", v: "\v", f: "\f", r: "\r", e: "\x1b",
  " ": " ", '"': '"', "/": "/", "\\": "\\", N: "\x85", _: "\xa0", L: "\u2028", P: "\u2029",
};
const HEX_LEN: Record<string, number> = { x: 2, u: 4, U: 8 };

/** Reads one double-quoted scalar (the whole line remainder), resolving every YAML escape; null if malformed. */
function readDoubleQuoted(s: string): string | null {
  if (s.length < 2 || s[0] !== '"' || s[s.length - 1] !== '"') return null;
  let out = "";
  for (let i = 1; i < s.length - 1; i++) {
    const c = s[i];
    if (c === '"') return null;
    if (c !== "\\") {
      out += c;
      continue;
    }
    const e = s[++i];
    if (e in HEX_LEN) {
      const hex = s.slice(i + 1, i + 1 + HEX_LEN[e]);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== HEX_LEN[e]) return null;
      out += String.fromCodePoint(parseInt(hex, 16));
      i += HEX_LEN[e];
    } else if (e in UNESCAPE) out += UNESCAPE[e];
    else return null;
  }
  return out;
}

/** A scalar as front matter carries it: double- or single-quoted, an integer, or a plain word (hand edits). */
function readScalar(raw: string): string | number | null {
  const s = raw.replace(/\s+#.*$/, "").trim(); // a trailing comment after a plain scalar
  const quoted = raw.trim();
  if (quoted.startsWith('"')) return readDoubleQuoted(quoted);
  if (quoted.startsWith("'")) {
    if (quoted.length < 2 || !quoted.endsWith("'")) return null;
    return quoted.slice(1, -1).replace(/''/g, "'");
  }
  if (/^-?\d+$/.test(s)) return Number(s);
  return s;
}

export type FrontMatter = Record<string, string | number | Array<string | number> | null>;

/**
 * Parses the front matter this module writes (and simple hand edits of it): `key: scalar`, `key: []`,
 * `key: [a, b]` of plain words, and block lists of `  - scalar`. Returns null on anything it cannot read exactly.
 */
export function parseFrontMatter(text: string): FrontMatter | null {
  const out: FrontMatter = {};
  const blockKeys: string[] = [];
  let list: Array<string | number> | null = null;
  for (const line of text.split("\n")) {
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const item = /^\s+-\s(.*)$/.exec(line) ?? /^\s*-$/.exec(line);
    if (item) {
      if (!list) return null;
      const v = item[1] === undefined ? "" : readScalar(item[1]);
      if (v === null) return null;
      list.push(v);
      continue;
    }
    const kv = /^([A-Za-z_][\w-]*):(?:\s+(.*))?$/.exec(line);
    if (!kv) return null;
    const [, key, rest] = kv;
    list = null;
    if (rest === undefined || rest.trim() === "") {
      out[key] = list = [];
      blockKeys.push(key);
    }
    else if (rest.trim() === "[]") out[key] = [];
    else if (/^\[.*\]$/.test(rest.trim())) {
      const inner = rest.trim().slice(1, -1);
      const values = inner.split(",").map((v) => readScalar(v));
      if (values.some((v) => v === null)) return null;
      out[key] = values as Array<string | number>;
    } else {
      const v = readScalar(rest);
      if (v === null) return null;
      out[key] = v;
    }
  }
  // `key:` with no items below is YAML's null, not an empty list.
  for (const k of blockKeys) if ((out[k] as unknown[]).length === 0) out[k] = null;
  return out;
}
