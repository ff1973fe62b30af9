// The map's first view, drawn on a plain 2D canvas before the WebGL renderer (sigma) exists: the same nodes, colours,
// sizes and drawn relations at the same places (projection.ts), so sigma takes over without a visible jump. Without a GPU
// making sigma's WebGL contexts and reading its layers back cost the page's load several long tasks (docs/performance.md,
// "The mind map, fourth pass"); a 2D canvas of a few hundred dots is a few milliseconds. Sigma is made on the first
// interaction or when the page is idle (view.ts), and this canvas is removed in the frame sigma first draws.
import { fitCanvas } from "./canvas";
import { yieldToMain } from "./yield";
import type { Projection } from "./projection";

export interface PreviewNode { x: number; y: number; size: number; colour: string; hidden: boolean; top: boolean }
export interface PreviewEdge { from: PreviewNode; to: PreviewNode; colour: string; size: number; arrow: boolean; under: boolean }

export interface PreviewLayer {
  /**
   * Draws the given nodes and edges with `project` (sized to the container), then calls `done` with the ms of work it
   * took: at once for a small map, after a few tasks for a big one (see SLICED_OVER). A later draw or remove() calls
   * off one still under way.
   */
  draw(project: Projection, nodes: Iterable<PreviewNode>, edges: Iterable<PreviewEdge>, done: (ms: number) => void): void;
  /** The container's size in CSS pixels, as sigma reads it (offsetWidth/offsetHeight). */
  size(): { width: number; height: number };
  /** Takes the canvas out of the page (sigma draws from now on). */
  remove(): void;
  readonly drawn: boolean;
}

/**
 * sigma's minEdgeThickness and its arrow head's proportions (EdgeArrowHeadProgram's defaults: length 2.5, wideness 2
 * times the thickness); a relation of thickness t is drawn t/2 pixels wide (matched against sigma's own frames).
 */
const MIN_EDGE = 1.7;
const HEAD_LENGTH = 2.5;
const HEAD_HALF_WIDTH = 1;
/**
 * Above this many nodes + relations the drawing is sliced. A 2D canvas records its calls and rasterises them when the
 * task that made them ends; without a GPU that is software rasterising, untraced in DevTools, and for 10,000 nodes and
 * 8,000 relations it held the page's main thread ~130 ms after the 27 ms of script (a key pressed then waited 170 ms:
 * docs/performance.md, "The mind map, the first view's raster"). So a big map is drawn on a canvas outside the page in
 * slices, each rasterised in its own task (a one-pixel read forces it), and copied onto the visible one at the end.
 */
const SLICED_OVER = 3000;
/** Work per slice (script, then the raster it forces) before the thread is given back. */
const SLICE_MS = 10;

type Op = { edge: PreviewEdge } | { node: PreviewNode };

export function createPreviewLayer(container: HTMLElement): PreviewLayer {
  const canvas = document.createElement("canvas");
  canvas.className = "map-preview";
  canvas.setAttribute("aria-hidden", "true");
  Object.assign(canvas.style, { position: "absolute", left: "0", top: "0", pointerEvents: "none", zIndex: "1" });
  container.appendChild(canvas);
  const ctx = canvas.getContext("2d")!;
  let drawn = false;
  /** Bumped by every draw and by remove(): a sliced draw still under way stops when it no longer matches. */
  let generation = 0;

  const size = () => ({ width: container.offsetWidth || 1, height: container.offsetHeight || 1 });

  function line(g: CanvasRenderingContext2D, project: Projection, e: PreviewEdge) {
    if (e.from.hidden || e.to.hidden) return;
    const a = project.graphToViewport(e.from), b = project.graphToViewport(e.to);
    const w = Math.max(project.scaleSize(e.size), MIN_EDGE);
    g.strokeStyle = e.colour;
    g.fillStyle = e.colour;
    g.lineWidth = w / 2;
    const dx = b.x - a.x, dy = b.y - a.y, len = Math.hypot(dx, dy) || 1;
    const ux = dx / len, uy = dy / len;
    // An arrow stops at the target's rim, where its head begins.
    const r = e.arrow ? project.scaleSize(e.to.size) : 0;
    const head = e.arrow ? w * HEAD_LENGTH : 0;
    const ex = b.x - ux * (r + head), ey = b.y - uy * (r + head);
    g.beginPath();
    g.moveTo(a.x, a.y);
    g.lineTo(ex, ey);
    g.stroke();
    if (e.arrow) {
      const tipX = b.x - ux * r, tipY = b.y - uy * r, half = w * HEAD_HALF_WIDTH;
      g.beginPath();
      g.moveTo(tipX, tipY);
      g.lineTo(ex - uy * half, ey + ux * half);
      g.lineTo(ex + uy * half, ey - ux * half);
      g.closePath();
      g.fill();
    }
  }
  function dot(g: CanvasRenderingContext2D, project: Projection, n: PreviewNode) {
    const p = project.graphToViewport(n);
    g.fillStyle = n.colour;
    g.beginPath();
    g.arc(p.x, p.y, project.scaleSize(n.size), 0, Math.PI * 2);
    g.fill();
  }

  /** What to draw, in order: relations (system-suggested ones under the person's own, as sigma's zIndex orders them), then nodes. */
  function order(nodes: Iterable<PreviewNode>, edges: Iterable<PreviewEdge>): Op[] {
    const ops: Op[] = [], over: Op[] = [], top: Op[] = [];
    for (const e of edges) (e.under ? ops : over).push({ edge: e });
    ops.push(...over);
    for (const n of nodes) {
      if (n.hidden) continue;
      (n.top ? top : ops).push({ node: n });
    }
    ops.push(...top);
    return ops;
  }

  async function sliced(project: Projection, ops: Op[], width: number, height: number, mine: number, t0: number, done: (ms: number) => void) {
    const off = document.createElement("canvas");
    const g = off.getContext("2d", { willReadFrequently: true })!;
    fitCanvas(off, g, width, height);
    let work = performance.now() - t0;
    let since = performance.now();
    // The script's share of a slice, adjusted after each one to what its raster cost (about 5× the script here).
    let script = SLICE_MS / 4;
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i];
      if ("edge" in op) line(g, project, op.edge);
      else dot(g, project, op.node);
      if ((i & 31) === 31 && performance.now() - since > script) {
        const recorded = performance.now() - since;
        // Rasterise what this slice recorded now, in this task, not all of it at the end of the last one.
        g.getImageData(0, 0, 1, 1);
        const took = performance.now() - since;
        work += took;
        script = Math.min(SLICE_MS, Math.max(0.5, (recorded * SLICE_MS) / Math.max(took, 0.1)));
        await yieldToMain();
        if (mine !== generation) return;
        since = performance.now();
      }
    }
    g.getImageData(0, 0, 1, 1);
    fitCanvas(canvas, ctx, width, height);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(off, 0, 0);
    drawn = true;
    done(work + performance.now() - since);
  }

  return {
    get drawn() { return drawn; },
    size,
    draw(project, nodes, edges, done) {
      const t0 = performance.now();
      const mine = ++generation;
      const { width, height } = size();
      const ops = order(nodes, edges);
      if (ops.length > SLICED_OVER) {
        void sliced(project, ops, width, height, mine, t0, done);
        return;
      }
      fitCanvas(canvas, ctx, width, height);
      ctx.clearRect(0, 0, width, height);
      for (const op of ops) {
        if ("edge" in op) line(ctx, project, op.edge);
        else dot(ctx, project, op.node);
      }
      drawn = true;
      done(performance.now() - t0);
    },
    remove() {
      generation++;
      canvas.remove();
    },
  };
}
