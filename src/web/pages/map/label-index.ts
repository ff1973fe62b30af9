// Where the map's nodes are, for the labels' pass (labels.ts): the nodes in label order with their graph coordinates in
// arrays, and a grid over those coordinates, so a frame visits only the nodes in a rectangle of the graph, in order,
// instead of reading and projecting every node of the account (at 10,000 ideas that was ~50 ms a frame in software).
import type { LabelNode } from "./labels";

/** Nodes per grid cell on average: a few, so a small rectangle visits few cells and few nodes outside it. */
const PER_CELL = 4;

export interface LabelIndex {
  /** Brings the index up to `order` (rebuilt when the order or positions changed since); false while nodes have none. */
  sync(order: readonly string[]): boolean;
  /** A node moved (its key), or all of them may have (no key). */
  moved(key?: string): void;
  /** Ranks (positions in the order) of the nodes within the rectangle (graph coordinates, edges included), ascending. */
  within(minX: number, minY: number, maxX: number, maxY: number): Int32Array;
  /** Every rank, ascending (when the whole graph is in view). */
  all(): Int32Array;
  readonly keys: readonly string[];
  readonly xs: Float64Array;
  readonly ys: Float64Array;
  readonly sizes: Float64Array;
  readonly labels: readonly string[];
}

export function createLabelIndex(read: (key: string) => LabelNode | null): LabelIndex {
  let order: readonly string[] | null = null;
  let stale = true;
  let keys: string[] = [];
  let labels: string[] = [];
  let xs = new Float64Array(0), ys = new Float64Array(0), sizes = new Float64Array(0);
  let rankOf = new Map<string, number>();
  let cells: number[][] = [];
  /** Nodes without finite coordinates: in every answer (the pass decides what to do with them, as before). */
  let loose: number[] = [];
  let cellOf = new Int32Array(0);
  let cols = 1, rows = 1, minX = 0, minY = 0, cellW = 1, cellH = 1;
  let every = new Int32Array(0);
  let buffer = new Int32Array(0);
  let marks = new Uint8Array(0);

  const col = (x: number) => Math.min(cols - 1, Math.max(0, Math.floor((x - minX) / cellW)));
  const row = (y: number) => Math.min(rows - 1, Math.max(0, Math.floor((y - minY) / cellH)));
  const place = (i: number) => {
    if (!Number.isFinite(xs[i]) || !Number.isFinite(ys[i])) {
      cellOf[i] = -1;
      loose.push(i);
      return;
    }
    const c = row(ys[i]) * cols + col(xs[i]);
    cellOf[i] = c;
    cells[c].push(i);
  };
  const unplace = (i: number) => {
    const list = cellOf[i] < 0 ? loose : cells[cellOf[i]];
    const at = list.indexOf(i);
    if (at >= 0) list.splice(at, 1);
  };

  function rebuild(next: readonly string[]): boolean {
    const n = next.length;
    const k: string[] = new Array(n), l: string[] = new Array(n);
    const x = new Float64Array(n), y = new Float64Array(n), s = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const node = read(next[i]);
      // Not placed yet: nothing to index; the next frame tries again.
      if (!node) return false;
      k[i] = next[i];
      l[i] = node.label;
      x[i] = node.x;
      y[i] = node.y;
      s[i] = node.size;
    }
    keys = k; labels = l; xs = x; ys = y; sizes = s;
    rankOf = new Map(k.map((key, i) => [key, i]));
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    for (let i = 0; i < n; i++) {
      if (!Number.isFinite(x[i]) || !Number.isFinite(y[i])) continue;
      if (x[i] < x0) x0 = x[i];
      if (x[i] > x1) x1 = x[i];
      if (y[i] < y0) y0 = y[i];
      if (y[i] > y1) y1 = y[i];
    }
    if (x0 > x1) { x0 = x1 = y0 = y1 = 0; }
    const side = Math.max(1, Math.ceil(Math.sqrt(n / PER_CELL)));
    cols = rows = side;
    minX = x0;
    minY = y0;
    cellW = (x1 - x0) / side || 1;
    cellH = (y1 - y0) / side || 1;
    cells = Array.from({ length: cols * rows }, () => []);
    loose = [];
    cellOf = new Int32Array(n);
    for (let i = 0; i < n; i++) place(i);
    every = Int32Array.from({ length: n }, (_, i) => i);
    buffer = new Int32Array(n);
    marks = new Uint8Array(n);
    order = next;
    stale = false;
    return true;
  }

  return {
    sync(next) {
      if (stale || next !== order) return rebuild(next);
      return true;
    },
    moved(key) {
      if (stale) return;
      const i = key === undefined ? undefined : rankOf.get(key);
      if (i === undefined) {
        stale = true;
        return;
      }
      const node = read(key!);
      if (!node) {
        stale = true;
        return;
      }
      unplace(i);
      xs[i] = node.x;
      ys[i] = node.y;
      sizes[i] = node.size;
      labels[i] = node.label;
      place(i);
    },
    within(x0, y0, x1, y1) {
      const c0 = col(x0), c1 = col(x1), r0 = row(y0), r1 = row(y1);
      let m = 0;
      for (let r = r0; r <= r1; r++) {
        for (let c = c0; c <= c1; c++) {
          for (const i of cells[r * cols + c]) if (xs[i] >= x0 && xs[i] <= x1 && ys[i] >= y0 && ys[i] <= y1) buffer[m++] = i;
        }
      }
      for (const i of loose) buffer[m++] = i;
      if (m * 8 < keys.length) return buffer.subarray(0, m).sort();
      // Most of the map: marked, then read back in order (cheaper than sorting thousands).
      for (let k = 0; k < m; k++) marks[buffer[k]] = 1;
      let out = 0;
      for (let i = 0; i < keys.length; i++) if (marks[i]) { marks[i] = 0; buffer[out++] = i; }
      return buffer.subarray(0, out);
    },
    all: () => every,
    get keys() { return keys; },
    get xs() { return xs; },
    get ys() { return ys; },
    get sizes() { return sizes; },
    get labels() { return labels; },
  };
}
