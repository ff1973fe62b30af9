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
