// The mind map's force layout, framework-free so it runs in the layout worker: a velocity-Verlet simulation (springs
// on relations, many-body repulsion by a Barnes–Hut quadtree, a weak pull to the centre). A fresh layout is multilevel:
// the graph is coarsened by merging neighbours until a few hundred nodes remain, that one is laid out in full, and each
// finer level starts from its coarser level's positions and only needs a few dozen ticks to untangle locally, so the
// cost is a few dozen ticks at full size instead of ~400 (ForceAtlas2 from random positions). Ideas with a remembered
// position are fixed: only the others move, starting next to their placed neighbours ("only new ideas are placed").

export interface LayoutInput {
  /** Number of nodes; nodes are 0..n-1. */
  n: number;
  /** Relation ends as index pairs: [s0, t0, s1, t1, …]. */
  links: Int32Array;
  /** Remembered positions [x0, y0, …]; NaN where a node has none (it will be placed). */
  fixed: Float64Array;
  /** Seed for the deterministic jitter, so the same account gets the same layout. */
  seed: number;
}

export interface LayoutProgress { positions: Float64Array; tick: number; done: boolean }

/** The distance a relation pulls its two ends to, in layout units (the view scales everything to the screen). */
export const LINK_DISTANCE = 30;
const CHARGE = -40;
const THETA2 = 0.81; // Barnes–Hut opening criterion θ = 0.9, squared
const DISTANCE_MIN2 = 1;
const CENTRE_PULL = 0.03;
const VELOCITY_DECAY = 0.4;
const ALPHA_MIN = 0.002;
/** Ticks of a fresh layout and of placing a few new ideas among fixed ones (alpha starts lower: less to move). */
export const TICKS_FRESH = 160;
export const TICKS_WARM = 80;
/** Ticks of each finer level of a multilevel layout, and the alpha it starts from (its start is already close). */
const TICKS_REFINE = 45;
const ALPHA_REFINE = 0.25;
/** Coarsening stops below this many nodes, or when a level merges too little to be worth it. */
const COARSEST = 250;
/** Stop early once the average step is below this share of the link distance. */
const STILL = 0.002;

function random(seed: number): () => number {
  let s = (seed >>> 0) || 1;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Adjacency in CSR form: the neighbours of i are adj[start[i] .. start[i+1]). */
function adjacency(n: number, links: Int32Array): { start: Int32Array; adj: Int32Array; degree: Int32Array } {
  const degree = new Int32Array(n);
  for (let k = 0; k < links.length; k++) degree[links[k]]++;
  const start = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) start[i + 1] = start[i] + degree[i];
  const fill = start.slice(0, n);
  const adj = new Int32Array(links.length);
  for (let k = 0; k < links.length; k += 2) {
    const s = links[k], t = links[k + 1];
    adj[fill[s]++] = t;
    adj[fill[t]++] = s;
  }
  return { start, adj, degree };
}

/**
 * First positions: remembered ones as they are; then breadth-first from the best-connected unplaced node, each node at
 * the centre of its already placed neighbours plus a small random step; a new component's root goes on a spiral
 * around the rest. Neighbours start near each other, so the simulation only has to untangle, not assemble.
 */
export function initialPositions(input: LayoutInput, graph = adjacency(input.n, input.links)): { pos: Float64Array; free: Uint8Array } {
  const { n, fixed } = input;
  const { start, adj, degree } = graph;
  const rnd = random(input.seed);
  const pos = new Float64Array(n * 2);
  const free = new Uint8Array(n);
  const placed = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (Number.isFinite(fixed[i * 2]) && Number.isFinite(fixed[i * 2 + 1])) {
      pos[i * 2] = fixed[i * 2];
      pos[i * 2 + 1] = fixed[i * 2 + 1];
      placed[i] = 1;
    } else free[i] = 1;
  }
  const order = Array.from({ length: n }, (_, i) => i).filter((i) => free[i]).sort((a, b) => degree[b] - degree[a]);
  const queue = new Int32Array(n);
  let roots = 0;
  const spread = Math.sqrt(n) * LINK_DISTANCE * 0.6;
  for (const root of order) {
    if (placed[root]) continue;
    let head = 0, tail = 0;
    queue[tail++] = root;
    placed[root] = 2; // queued
    while (head < tail) {
      const i = queue[head++];
      let sx = 0, sy = 0, c = 0;
      for (let k = start[i]; k < start[i + 1]; k++) {
        const j = adj[k];
        if (placed[j] === 1) { sx += pos[j * 2]; sy += pos[j * 2 + 1]; c++; }
      }
      if (c > 0) {
        const a = rnd() * Math.PI * 2, r = LINK_DISTANCE * (0.5 + rnd());
        pos[i * 2] = sx / c + Math.cos(a) * r;
        pos[i * 2 + 1] = sy / c + Math.sin(a) * r;
      } else {
        // Golden-angle spiral: component roots spread evenly and deterministically.
        const a = roots * 2.399963, r = spread * Math.sqrt((roots + 0.5) / Math.max(order.length, 1)) * 2;
        roots++;
        pos[i * 2] = Math.cos(a) * r + (rnd() - 0.5);
        pos[i * 2 + 1] = Math.sin(a) * r + (rnd() - 0.5);
      }
      placed[i] = 1;
      for (let k = start[i]; k < start[i + 1]; k++) {
        const j = adj[k];
        if (placed[j] === 0) { placed[j] = 2; queue[tail++] = j; }
      }
    }
  }
  return { pos, free };
}

/** A Barnes–Hut quadtree over the node positions, rebuilt each tick into preallocated typed arrays. */
class QuadTree {
  private cap: number;
  child: Int32Array; // 4 per cell, -1 empty
  body: Int32Array; // the one node of a leaf, -1 for internal cells
  mass: Float64Array;
  cx: Float64Array;
  cy: Float64Array;
  x0: Float64Array;
  y0: Float64Array;
  size: Float64Array;
  count = 0;

  constructor(n: number) {
    this.cap = Math.max(16, n * 3);
    this.child = new Int32Array(this.cap * 4);
    this.body = new Int32Array(this.cap);
    this.mass = new Float64Array(this.cap);
    this.cx = new Float64Array(this.cap);
    this.cy = new Float64Array(this.cap);
    this.x0 = new Float64Array(this.cap);
    this.y0 = new Float64Array(this.cap);
    this.size = new Float64Array(this.cap);
  }

  private grow() {
    const cap = this.cap * 2;
    const g = <T extends Int32Array | Float64Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(a === this.child ? cap * 4 : cap);
      b.set(a);
      return b;
    };
    this.child = g(this.child); this.body = g(this.body); this.mass = g(this.mass);
    this.cx = g(this.cx); this.cy = g(this.cy); this.x0 = g(this.x0); this.y0 = g(this.y0); this.size = g(this.size);
    this.cap = cap;
  }

  private cell(x0: number, y0: number, size: number): number {
    if (this.count === this.cap) this.grow();
    const c = this.count++;
    this.child.fill(-1, c * 4, c * 4 + 4);
    this.body[c] = -1;
    this.mass[c] = 0; this.cx[c] = 0; this.cy[c] = 0;
    this.x0[c] = x0; this.y0[c] = y0; this.size[c] = size;
    return c;
  }

  build(pos: Float64Array, n: number, weight: Float64Array) {
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (let i = 0; i < n; i++) {
      const x = pos[i * 2], y = pos[i * 2 + 1];
      if (x < minX) minX = x; if (x > maxX) maxX = x;
      if (y < minY) minY = y; if (y > maxY) maxY = y;
    }
    const size = Math.max(maxX - minX, maxY - minY, 1) * 1.0001;
    this.count = 0;
    const root = this.cell(minX, minY, size);
    for (let i = 0; i < n; i++) this.insert(root, i, pos, 0);
    this.accumulate(pos, weight);
  }

  private insert(c: number, i: number, pos: Float64Array, depth: number) {
    const x = pos[i * 2], y = pos[i * 2 + 1];
    for (;;) {
      const half = this.size[c] / 2;
      const q = (x >= this.x0[c] + half ? 1 : 0) + (y >= this.y0[c] + half ? 2 : 0);
      const k = c * 4 + q;
      const existing = this.child[k];
      if (existing === -1) {
        const leaf = this.cell(this.x0[c] + (q & 1 ? half : 0), this.y0[c] + (q & 2 ? half : 0), half);
        this.body[leaf] = i;
        this.child[k] = leaf;
        return;
      }
      const b = this.body[existing];
      if (b >= 0) {
        // A leaf: split it, pushing its body one level down (coincident bodies stop splitting at depth 40).
        if (depth > 40) {
          this.body[existing] = b; // keep the first; the other is approximated by it
          return;
        }
        this.body[existing] = -1;
        this.insertInto(existing, b, pos);
      }
      c = existing;
      depth++;
    }
  }

  private insertInto(c: number, b: number, pos: Float64Array) {
    const half = this.size[c] / 2;
    const x = pos[b * 2], y = pos[b * 2 + 1];
    const q = (x >= this.x0[c] + half ? 1 : 0) + (y >= this.y0[c] + half ? 2 : 0);
    const leaf = this.cell(this.x0[c] + (q & 1 ? half : 0), this.y0[c] + (q & 2 ? half : 0), half);
    this.body[leaf] = b;
    this.child[c * 4 + q] = leaf;
  }

  /** Post-order: each cell's total mass and centre of mass (cells are created after their parents). */
  private accumulate(pos: Float64Array, weight: Float64Array) {
    for (let c = this.count - 1; c >= 0; c--) {
      const b = this.body[c];
      if (b >= 0) {
        this.mass[c] = weight[b];
        this.cx[c] = pos[b * 2];
        this.cy[c] = pos[b * 2 + 1];
        continue;
      }
      let m = 0, sx = 0, sy = 0;
      for (let q = 0; q < 4; q++) {
        const k = this.child[c * 4 + q];
        if (k < 0) continue;
        m += this.mass[k];
        sx += this.cx[k] * this.mass[k];
        sy += this.cy[k] * this.mass[k];
      }
      this.mass[c] = m;
      this.cx[c] = m ? sx / m : 0;
      this.cy[c] = m ? sy / m : 0;
    }
  }
}

interface Level { n: number; links: Int32Array; weight: Float64Array; /** this level's node → the coarser level's */ up: Int32Array | null }

/**
 * One coarser level: each node merged with its lightest unmerged neighbour; a node left alone joins its lightest
 * neighbour's group (so a hub's leaves collapse into it). Null when that would shrink the graph by less than 15%.
 */
export function coarsen(level: Level, rnd: () => number): Level | null {
  const { n, links, weight } = level;
  const { start, adj } = adjacency(n, links);
  const group = new Int32Array(n).fill(-1);
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  let m = 0;
  const alone: number[] = [];
  for (const i of order) {
    if (group[i] >= 0) continue;
    let best = -1, bw = Infinity;
    for (let k = start[i]; k < start[i + 1]; k++) {
      const j = adj[k];
      if (group[j] < 0 && j !== i && weight[j] < bw) { best = j; bw = weight[j]; }
    }
    group[i] = m;
    if (best >= 0) group[best] = m;
    else alone.push(i);
    m++;
  }
  const size = new Float64Array(m);
  for (let i = 0; i < n; i++) size[group[i]] += weight[i];
  let merged = 0;
  for (const i of alone) {
    let best = -1, bw = Infinity;
    for (let k = start[i]; k < start[i + 1]; k++) {
      const g = group[adj[k]];
      if (g !== group[i] && size[g] < bw) { best = g; bw = size[g]; }
    }
    if (best < 0) continue;
    size[group[i]] -= weight[i];
    group[i] = best;
    size[best] += weight[i];
    merged++;
  }
  // Renumber the groups that are left, dropping the emptied ones.
  const id = new Int32Array(m).fill(-1);
  let c = 0;
  for (let i = 0; i < n; i++) if (id[group[i]] < 0) id[group[i]] = c++;
  if (c > n * 0.85) return null;
  const up = new Int32Array(n);
  const w = new Float64Array(c);
  for (let i = 0; i < n; i++) { up[i] = id[group[i]]; w[up[i]] += weight[i]; }
  const seen = new Set<number>();
  const out: number[] = [];
  for (let k = 0; k < links.length; k += 2) {
    const a = up[links[k]], b = up[links[k + 1]];
    if (a === b) continue;
    const key = a < b ? a * c + b : b * c + a;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(a, b);
  }
  level.up = up;
  void merged;
  return { n: c, links: Int32Array.from(out), weight: w, up: null };
}

/**
 * Ticks of the simulation over one level, moving only `free` nodes, until `ticks` or until nothing moves; reports
 * progress through `onTick` (a no-op for the coarse levels). Returns the ticks run.
 */
function simulate(level: Level, pos: Float64Array, free: Uint8Array, ticks: number, alphaStart: number, onTick: (tick: number) => void): number {
  const { n, links, weight } = level;
  const { degree } = adjacency(n, links);
  let freeCount = 0;
  for (let i = 0; i < n; i++) freeCount += free[i];
  if (freeCount === 0 || links.length === 0) return 0;
  let alpha = alphaStart;
  const alphaDecay = 1 - Math.pow(ALPHA_MIN / alpha, 1 / ticks);
  const m = links.length / 2;
  // d3-force's link defaults: strength 1/min(degree), the lighter end moving more; a merged node is as wide as the
  // square root of what it holds, so its relations are that much longer.
  const strength = new Float64Array(m);
  const bias = new Float64Array(m);
  const length = new Float64Array(m);
  for (let e = 0; e < m; e++) {
    const s = links[e * 2], t = links[e * 2 + 1];
    strength[e] = 1 / Math.max(1, Math.min(degree[s], degree[t]));
    bias[e] = degree[s] / Math.max(1, degree[s] + degree[t]);
    length[e] = (LINK_DISTANCE * (Math.sqrt(weight[s]) + Math.sqrt(weight[t]))) / 2;
  }
  const vel = new Float64Array(n * 2);
  const tree = new QuadTree(n);
  const stack = new Int32Array(4096);
  let tick = 0;
  for (; tick < ticks; tick++) {
    alpha += -alpha * alphaDecay;
    // Springs.
    for (let e = 0; e < m; e++) {
      const s = links[e * 2], t = links[e * 2 + 1];
      let dx = pos[t * 2] + vel[t * 2] - pos[s * 2] - vel[s * 2];
      let dy = pos[t * 2 + 1] + vel[t * 2 + 1] - pos[s * 2 + 1] - vel[s * 2 + 1];
      if (dx === 0 && dy === 0) { dx = 1e-3 * (e % 7 - 3); dy = 1e-3 * (e % 5 - 2); }
      const l = Math.sqrt(dx * dx + dy * dy);
      const f = ((l - length[e]) / l) * alpha * strength[e];
      dx *= f; dy *= f;
      const b = bias[e];
      vel[t * 2] -= dx * b; vel[t * 2 + 1] -= dy * b;
      vel[s * 2] += dx * (1 - b); vel[s * 2 + 1] += dy * (1 - b);
    }
    // Repulsion (Barnes–Hut) and the pull to the centre, for the nodes that move.
    tree.build(pos, n, weight);
    const k = CHARGE * alpha;
    const { cx, cy, size, body, mass, child } = tree;
    for (let i = 0; i < n; i++) {
      if (!free[i]) continue;
      const x = pos[i * 2], y = pos[i * 2 + 1];
      let fx = 0, fy = 0, sp = 0;
      stack[sp++] = 0;
      while (sp > 0) {
        const c = stack[--sp];
        const dx = cx[c] - x, dy = cy[c] - y;
        let l2 = dx * dx + dy * dy;
        const w = size[c];
        const b = body[c];
        if (b >= 0 || (w * w) / THETA2 < l2) {
          if (b === i) continue;
          if (l2 === 0) continue;
          if (l2 < DISTANCE_MIN2) l2 = Math.sqrt(DISTANCE_MIN2 * l2);
          const f = (k * mass[c]) / l2;
          fx += dx * f; fy += dy * f;
          continue;
        }
        for (let q = 0; q < 4; q++) {
          const ch = child[c * 4 + q];
          if (ch >= 0 && sp < stack.length) stack[sp++] = ch;
        }
      }
      vel[i * 2] += fx - x * CENTRE_PULL * alpha;
      vel[i * 2 + 1] += fy - y * CENTRE_PULL * alpha;
    }
    // Integrate; fixed nodes never move.
    let moved = 0;
    for (let i = 0; i < n; i++) {
      if (!free[i]) { vel[i * 2] = 0; vel[i * 2 + 1] = 0; continue; }
      vel[i * 2] *= 1 - VELOCITY_DECAY;
      vel[i * 2 + 1] *= 1 - VELOCITY_DECAY;
      pos[i * 2] += vel[i * 2];
      pos[i * 2 + 1] += vel[i * 2 + 1];
      moved += Math.abs(vel[i * 2]) + Math.abs(vel[i * 2 + 1]);
    }
    onTick(tick);
    if (moved / freeCount < STILL * LINK_DISTANCE && tick > 10) return tick + 1;
  }
  return tick;
}

/**
 * Runs the layout, calling `progress` every `everyMs` during the full-size ticks and once at the end. Synchronous: the
 * worker owns a thread. Returns the final positions [x0, y0, …] of every node.
 */
export function runLayout(input: LayoutInput, progress?: (p: LayoutProgress) => void, everyMs = 250): Float64Array {
  const { n, links } = input;
  const graph = adjacency(n, links);
  const { pos, free } = initialPositions(input, graph);
  let freeCount = 0;
  for (let i = 0; i < n; i++) freeCount += free[i];
  let last = performance.now();
  let ticks = 0;
  const report = (tick: number) => {
    ticks++;
    const now = performance.now();
    if (progress && now - last >= everyMs) {
      last = now;
      progress({ positions: pos, tick, done: false });
    }
  };
  const finest: Level = { n, links, weight: new Float64Array(n).fill(1), up: null };
  if (freeCount > 0 && links.length > 0) {
    if (freeCount < n) simulate(finest, pos, free, TICKS_WARM, 0.5, report);
    else {
      const rnd = random(input.seed ^ 0x5bd1e995);
      const levels = [finest];
      while (levels[levels.length - 1].n > COARSEST) {
        const next = coarsen(levels[levels.length - 1], rnd);
        if (!next) break;
        levels.push(next);
      }
      if (levels.length === 1) simulate(finest, pos, free, TICKS_FRESH, 1, report);
      else {
        const top = levels[levels.length - 1];
        let p = initialPositions({ n: top.n, links: top.links, fixed: new Float64Array(top.n * 2).fill(NaN), seed: input.seed }).pos;
        simulate(top, p, new Uint8Array(top.n).fill(1), TICKS_FRESH, 1, () => {});
        for (let l = levels.length - 2; l >= 0; l--) {
          const level = levels[l];
          const up = level.up!;
          const fine = l === 0 ? pos : new Float64Array(level.n * 2);
          // Each node starts where its merged node was, spread a little so merged pairs do not coincide.
          for (let i = 0; i < level.n; i++) {
            const a = rnd() * Math.PI * 2, r = LINK_DISTANCE * 0.3 * Math.sqrt(level.weight[i]) * rnd();
            fine[i * 2] = p[up[i] * 2] + Math.cos(a) * r;
            fine[i * 2 + 1] = p[up[i] * 2 + 1] + Math.sin(a) * r;
          }
          simulate(level, fine, new Uint8Array(level.n).fill(1), TICKS_REFINE, ALPHA_REFINE, l === 0 ? report : () => {});
          p = fine;
        }
      }
    }
  }
  progress?.({ positions: pos, tick: ticks, done: true });
  return pos;
}
