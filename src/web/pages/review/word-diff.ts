// A word-level diff of two short texts (duplicate previews are at most 280 characters): LCS over words.
export interface Piece { text: string; changed: boolean }

/** Words and the whitespace after each, so the pieces put back together give the original text. */
function words(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/**
 * Splits `older` and `newer` into pieces; a piece is `changed` when its word is not part of the longest common
 * subsequence (deleted from the older text, inserted in the newer one). Whitespace does not count as a change.
 */
export function wordDiff(older: string, newer: string): { older: Piece[]; newer: Piece[] } {
  const a = words(older), b = words(newer);
  const key = (w: string) => w.trim();
  // lcs[i][j] = length of the LCS of a[i..] and b[j..]
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i][j] = key(a[i]) === key(b[j]) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const outA: Piece[] = [], outB: Piece[] = [];
  const push = (out: Piece[], text: string, changed: boolean) => {
    const last = out[out.length - 1];
    if (last && last.changed === changed) last.text += text;
    else out.push({ text, changed });
  };
  let i = 0, j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && key(a[i]) === key(b[j])) {
      push(outA, a[i++], false);
      push(outB, b[j++], false);
    } else if (j < b.length && (i === a.length || lcs[i][j + 1] >= lcs[i + 1][j])) push(outB, b[j++], true);
    else push(outA, a[i++], true);
  }
  return { older: outA, newer: outB };
}
