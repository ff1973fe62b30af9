// A line diff of two versions of an idea's text, for the History panel: what was removed, added and left alone.
export type LineOp = "same" | "del" | "add";
export interface DiffLine { op: LineOp; text: string }

// The LCS table is lines × lines; past this many cells (a rewrite of two long notes) the changed middle is shown as
// removed then added, whole, rather than holding up the page (bodies run to 50,000 characters).
const MAX_CELLS = 2_000_000;

/**
 * The lines of `older` and `newer` in order, each marked same, del (only in older) or add (only in newer). The common
 * start and end are matched first, so a local edit of a long note costs only its changed middle.
 */
export function lineDiff(older: string, newer: string): DiffLine[] {
  const a = older.split("\n"), b = newer.split("\n");
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length, endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) { endA--; endB--; }
  const head = a.slice(0, start).map((text): DiffLine => ({ op: "same", text }));
  const tail = a.slice(endA).map((text): DiffLine => ({ op: "same", text }));
  const midA = a.slice(start, endA), midB = b.slice(start, endB);
  if (midA.length * midB.length > MAX_CELLS) {
    return [...head, ...midA.map((text): DiffLine => ({ op: "del", text })), ...midB.map((text): DiffLine => ({ op: "add", text })), ...tail];
  }
  // lcs[i][j]: length of the longest common subsequence of midA[i..] and midB[j..]
  const lcs = Array.from({ length: midA.length + 1 }, () => new Uint32Array(midB.length + 1));
  for (let i = midA.length - 1; i >= 0; i--)
    for (let j = midB.length - 1; j >= 0; j--)
      lcs[i][j] = midA[i] === midB[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const mid: DiffLine[] = [];
  let i = 0, j = 0;
  while (i < midA.length || j < midB.length) {
    if (i < midA.length && j < midB.length && midA[i] === midB[j]) {
      mid.push({ op: "same", text: midA[i++] });
      j++;
    } else if (i < midA.length && (j === midB.length || lcs[i + 1][j] >= lcs[i][j + 1])) mid.push({ op: "del", text: midA[i++] });
    else mid.push({ op: "add", text: midB[j++] });
  }
  return [...head, ...mid, ...tail];
}

/** Unchanged runs longer than 2 × `context` lines fold to a count, keeping `context` lines around each change. */
export type Shown = DiffLine | { op: "fold"; count: number };
export function foldUnchanged(lines: DiffLine[], context = 2): Shown[] {
  const near = lines.map(() => false);
  lines.forEach((l, k) => {
    if (l.op === "same") return;
    for (let d = Math.max(0, k - context); d <= Math.min(lines.length - 1, k + context); d++) near[d] = true;
  });
  const out: Shown[] = [];
  for (let k = 0; k < lines.length; k++) {
    if (lines[k].op !== "same" || near[k]) {
      out.push(lines[k]);
      continue;
    }
    let n = 0;
    while (k + n < lines.length && lines[k + n].op === "same" && !near[k + n]) n++;
    out.push({ op: "fold", count: n });
    k += n - 1;
  }
  return out;
}
