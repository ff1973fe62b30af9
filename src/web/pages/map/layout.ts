// Where nodes go: ForceAtlas2 for the connected ideas, run in small batches per animation frame, and a tidy grid below
// the cluster for ideas without relations.
//
// Why batches on the main thread and not a worker: the page CSP allows workers only from 'self', and the package's
// worker is built from a blob: URL. One iteration at 2,000 nodes / 5,000 edges costs ~8 ms with Barnes-Hut (theta 1),
// so each frame runs as many as fit in FRAME_BUDGET_MS (at least one) and the view stays pannable while the layout settles.
import iterate from "graphology-layout-forceatlas2/iterate.js";
import DEFAULTS from "graphology-layout-forceatlas2/defaults.js";

const PPN = 10; // floats per node in the ForceAtlas2 node matrix
const PPE = 3; // floats per edge
const FRAME_BUDGET_MS = 16;
/** Settled when a node moves on average less than this share of the layout's extent per iteration. */
const SETTLE_RATIO = 5e-4;
const MAX_ITERATIONS = 400;

export interface Point { x: number; y: number }

/** A deterministic spread for first positions, so the same account looks the same on every visit. */
function seeded(seed: number): () => number {
  let s = seed % 2147483647 || 1;
  return () => (s = (s * 16807) % 2147483647) / 2147483647;
}

export class ForceLayout {
  private readonly nodes: Float32Array;
  private readonly edges: Float32Array;
  private readonly settings: Record<string, unknown>;
  private raf = 0;
  iterations = 0;
  settled = false;

  /** `ids` are the connected nodes; `links` pairs of indexes into `ids`. */
  constructor(readonly ids: string[], links: Array<[number, number]>) {
    const n = ids.length;
    this.nodes = new Float32Array(n * PPN);
    this.edges = new Float32Array(links.length * PPE);
    const rnd = seeded(n * 7919 + links.length);
    const radius = Math.sqrt(n) * 10;
    for (let i = 0; i < n; i++) {
      const a = rnd() * Math.PI * 2, r = Math.sqrt(rnd()) * radius;
      const j = i * PPN;
      this.nodes[j] = Math.cos(a) * r;
      this.nodes[j + 1] = Math.sin(a) * r;
      this.nodes[j + 6] = 1; // mass: 1 + weighted degree
      this.nodes[j + 7] = 1; // convergence
      this.nodes[j + 8] = 1; // size
    }
    links.forEach(([s, t], k) => {
      this.edges[k * PPE] = s * PPN;
      this.edges[k * PPE + 1] = t * PPN;
      this.edges[k * PPE + 2] = 1;
      this.nodes[s * PPN + 6] += 1;
      this.nodes[t * PPN + 6] += 1;
    });
    this.settings = {
      ...DEFAULTS,
      barnesHutOptimize: n > 300,
      barnesHutTheta: 1,
      strongGravityMode: true,
      gravity: 0.05,
      scalingRatio: 10,
      slowDown: 1 + Math.log(Math.max(n, 1)),
    };
    this.settled = links.length === 0;
  }

  position(i: number): Point {
    return { x: this.nodes[i * PPN], y: this.nodes[i * PPN + 1] };
  }

  /** Runs iterations for up to the frame budget; returns true once settled. */
  step(): boolean {
    if (this.settled) return true;
    const n = this.ids.length;
    const t0 = performance.now();
    const before = new Float32Array(n * 2);
    do {
      for (let i = 0; i < n; i++) {
        before[i * 2] = this.nodes[i * PPN];
        before[i * 2 + 1] = this.nodes[i * PPN + 1];
      }
      iterate(this.settings, this.nodes, this.edges);
      this.iterations++;
    } while (performance.now() - t0 < FRAME_BUDGET_MS && this.iterations < MAX_ITERATIONS);
    let moved = 0, minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
    for (let i = 0; i < n; i++) {
      const x = this.nodes[i * PPN], y = this.nodes[i * PPN + 1];
      moved += Math.hypot(x - before[i * 2], y - before[i * 2 + 1]);
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
    const extent = Math.max(maxX - minX, maxY - minY, 1);
    this.settled = moved / n / extent < SETTLE_RATIO || this.iterations >= MAX_ITERATIONS;
    return this.settled;
  }

  /** Steps once per animation frame, calling `onFrame` after each batch, until settled or stopped. */
  run(onFrame: (done: boolean) => void): void {
    this.stop();
    const tick = () => {
      const done = this.step();
      onFrame(done);
      this.raf = done ? 0 : requestAnimationFrame(tick);
    };
    this.raf = requestAnimationFrame(tick);
  }

  stop(): void {
    if (this.raf) cancelAnimationFrame(this.raf);
    this.raf = 0;
  }
}

export interface Bounds { minX: number; maxX: number; minY: number; maxY: number }

/** Grid positions for `count` unconnected ideas, below a cluster with the given bounds (or alone, around 0). */
export function gridBelow(count: number, bounds: Bounds | null): Point[] {
  if (count === 0) return [];
  const cols = Math.max(1, Math.ceil(Math.sqrt(count * 2.5)));
  const width = bounds ? Math.max(bounds.maxX - bounds.minX, 1) : cols * 10;
  const cell = Math.max(width / cols, width / 60);
  const left = (bounds ? (bounds.minX + bounds.maxX) / 2 : 0) - ((cols - 1) * cell) / 2;
  // Graph y grows upwards in sigma, so "below" is smaller y; leave a gap of two cells under the cluster.
  const top = bounds ? bounds.minY - cell * 2 : 0;
  const out: Point[] = [];
  for (let i = 0; i < count; i++) out.push({ x: left + (i % cols) * cell, y: top - Math.floor(i / cols) * cell });
  return out;
}
