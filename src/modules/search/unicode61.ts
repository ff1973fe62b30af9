// FTS5's `unicode61 remove_diacritics 2` tokenizer in TypeScript, for the PostgreSQL keyword index (fulltext-pg-repo.ts):
// the same tokens from the same text, so both stores index, match and count alike.
//
// Why a table and not JavaScript's Unicode properties: FTS5 classifies and folds with tables of an older Unicode than
// JavaScript's (letters added since are separators there). unicode61-table.ts is read out of FTS5 itself, code point by
// code point (scripts/gen-unicode61.ts), and test/search/unicode61.test.ts holds the two to each other.
import { CLASS_RUNS, FOLD_RUNS } from "./unicode61-table";

/** FTS5 cuts a token at this many bytes (FTS5_MAX_TOKEN_SIZE). */
const MAX_TOKEN_BYTES = 32768;

const BMP_CLASS = new Uint8Array(0x10000);
const ASTRAL: Array<readonly [number, number]> = [];
for (let i = 0; i < CLASS_RUNS.length; i++) {
  const [from, cls] = CLASS_RUNS[i];
  const to = i + 1 < CLASS_RUNS.length ? CLASS_RUNS[i + 1][0] : 0x110000;
  if (from < 0x10000) BMP_CLASS.fill(cls, from, Math.min(to, 0x10000));
  if (to > 0x10000) ASTRAL.push([Math.max(from, 0x10000), cls]);
}
/** Code point → folded code point, or -1 when the character is dropped (a diacritic). Absent: itself. */
const FOLD = new Map<number, number>();
for (const [from, count, stride, delta] of FOLD_RUNS) {
  for (let k = 0; k < count; k++) FOLD.set(from + k * stride, delta === null ? -1 : from + k * stride + delta);
}

function classOf(cp: number): number {
  if (cp < 0x10000) return BMP_CLASS[cp];
  let lo = 0;
  let hi = ASTRAL.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ASTRAL[mid][0] <= cp) lo = mid;
    else hi = mid - 1;
  }
  return ASTRAL[lo][1];
}

/** The token sequence FTS5 stores for `text` (positions are the indexes). */
export function unicode61Tokens(text: string): string[] {
  const out: string[] = [];
  let token: string | null = null;
  for (let i = 0; i < text.length; i++) {
    let cp = text.charCodeAt(i);
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < text.length) {
      const lo = text.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        i++;
      }
    }
    const cls = classOf(cp);
    if (cls === 0 || (cls === 2 && token === null)) {
      if (token !== null) out.push(capped(token));
      token = null;
      continue;
    }
    const f = FOLD.get(cp) ?? cp;
    token = (token ?? "") + (f === -1 ? "" : String.fromCodePoint(f));
  }
  if (token !== null) out.push(capped(token));
  return out;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** A token longer than FTS5 keeps, cut at its byte limit (the cut may split a character, as FTS5's does). */
function capped(token: string): string {
  if (token.length * 3 <= MAX_TOKEN_BYTES) return token;
  const bytes = encoder.encode(token);
  return bytes.length <= MAX_TOKEN_BYTES ? token : decoder.decode(bytes.subarray(0, MAX_TOKEN_BYTES));
}
