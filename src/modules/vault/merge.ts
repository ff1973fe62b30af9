// Three-way merge of two texts by lines, with a common base (diff3): changes on one side only are taken, the same
// change on both sides once, and different changes to the same lines are a conflict, resolved toward the side asked.

/** Pairs of equal lines (index in a, index in b) of a longest common subsequence, in order (Myers' O(ND) diff). */
function lcsPairs(a: string[], b: string[]): Array<[number, number]> {
  // Equal heads and tails first: the usual edit touches a few lines of a long text.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length, endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) { endA--; endB--; }
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < start; i++) pairs.push([i, i]);
  const n = endA - start, m = endB - start;
  if (n > 0 && m > 0) {
    const max = n + m;
    const v = new Int32Array(2 * max + 2);
    const trace: Int32Array[] = [];
    let found = false;
    for (let d = 0; d <= max && !found; d++) {
      trace.push(v.slice());
      for (let k = -d; k <= d; k += 2) {
        let x = k === -d || (k !== d && v[max + k - 1] < v[max + k + 1]) ? v[max + k + 1] : v[max + k - 1] + 1;
        let y = x - k;
        while (x < n && y < m && a[start + x] === b[start + y]) { x++; y++; }
        v[max + k] = x;
        if (x >= n && y >= m) { found = true; break; }
      }
    }
    // Walk the trace back from the end, collecting the diagonal (equal) steps.
    const mid: Array<[number, number]> = [];
    let x = n, y = m;
    for (let d = trace.length - 1; d > 0; d--) {
      const vd = trace[d];
      const k = x - y;
      const prevK = k === -d || (k !== d && vd[max + k - 1] < vd[max + k + 1]) ? k + 1 : k - 1;
      const prevX = vd[max + prevK];
      const prevY = prevX - prevK;
      while (x > prevX && y > prevY) { x--; y--; mid.push([start + x, start + y]); }
      x = prevX;
      y = prevY;
    }
    while (x > 0 && y > 0) { x--; y--; mid.push([start + x, start + y]); }
    pairs.push(...mid.reverse());
  }
  for (let i = 0; i < a.length - endA; i++) pairs.push([endA + i, endB + i]);
  return pairs;
}

export interface MergeResult {
  text: string;
  /** Some lines were changed differently on both sides; the result holds the `prefer` side's lines there. */
  conflict: boolean;
}

const same = (x: string[], y: string[]) => x.length === y.length && x.every((l, i) => l === y[i]);

/** Merges `ours` and `theirs`, both edited from `base`; where they overlap, `prefer`'s lines are kept. */
export function merge3(base: string, ours: string, theirs: string, prefer: "ours" | "theirs"): MergeResult {
  if (ours === theirs) return { text: ours, conflict: false };
  if (ours === base) return { text: theirs, conflict: false };
  if (theirs === base) return { text: ours, conflict: false };
  const o = base.split("\n"), a = ours.split("\n"), b = theirs.split("\n");
  const inA = new Map<number, number>(), inB = new Map<number, number>();
  for (const [i, j] of lcsPairs(o, a)) inA.set(i, j);
  for (const [i, j] of lcsPairs(o, b)) inB.set(i, j);
  const out: string[] = [];
  let conflict = false;
  let i = 0, ia = 0, ib = 0;
  while (i <= o.length) {
    // The next base line both sides kept: everything before it (on each side) is one chunk.
    let k = i;
    while (k < o.length && !(inA.has(k) && inB.has(k))) k++;
    const endA = k < o.length ? inA.get(k)! : a.length;
    const endB = k < o.length ? inB.get(k)! : b.length;
    const co = o.slice(i, k), ca = a.slice(ia, endA), cb = b.slice(ib, endB);
    if (same(ca, co)) out.push(...cb);
    else if (same(cb, co) || same(ca, cb)) out.push(...ca);
    else {
      conflict = true;
      out.push(...(prefer === "ours" ? ca : cb));
    }
    if (k >= o.length) break;
    out.push(o[k]);
    i = k + 1;
    ia = endA + 1;
    ib = endB + 1;
  }
  return { text: out.join("\n"), conflict };
}
