// The map's first view, drawn on a plain 2D canvas before the WebGL renderer (sigma) exists: the same nodes, colours,
// sizes and drawn relations at the same places (projection.ts), so sigma takes over without a visible jump. Without a GPU
// making sigma's WebGL contexts and reading its layers back cost the page's load several long tasks (docs/performance.md,
// "The mind map, fourth pass"); a 2D canvas of a few hundred dots is a few milliseconds. Sigma is made on the first
// interaction or when the page is idle (view.ts), and this canvas is removed in the frame sigma first draws.
import { fitCanvas } from "./canvas";
import type { Projection } from "./projection";

export interface PreviewNode { x: number; y: number; size: number; colour: string; hidden: boolean; top: boolean }
export interface PreviewEdge { from: PreviewNode; to: PreviewNode; colour: string; size: number; arrow: boolean; under: boolean }

export interface PreviewLayer {
  /** Draws the given nodes and edges with `project` (sized to the container); answers the ms it took. */
  draw(project: Projection, nodes: Iterable<PreviewNode>, edges: Iterable<PreviewEdge>): number;
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

export function createPreviewLayer(container: HTMLElement): PreviewLayer {
  const canvas = document.createElement("canvas");
  canvas.className = "map-preview";
  canvas.setAttribute("aria-hidden", "true");
  Object.assign(canvas.style, { position: "absolute", left: "0", top: "0", pointerEvents: "none", zIndex: "1" });
  container.appendChild(canvas);
  const ctx = canvas.getContext("2d")!;
  let drawn = false;

  const size = () => ({ width: container.offsetWidth || 1, height: container.offsetHeight || 1 });

  return {
    get drawn() { return drawn; },
    size,
    draw(project, nodes, edges) {
      const t0 = performance.now();
      const { width, height } = size();
      fitCanvas(canvas, ctx, width, height);
      ctx.clearRect(0, 0, width, height);
      // Relations first (system-suggested ones under the person's own, as sigma's zIndex orders them), then nodes.
      const over: PreviewEdge[] = [];
      const line = (e: PreviewEdge) => {
        if (e.from.hidden || e.to.hidden) return;
        const a = project.graphToViewport(e.from), b = project.graphToViewport(e.to);
        const w = Math.max(project.scaleSize(e.size), MIN_EDGE);
        ctx.strokeStyle = e.colour;
        ctx.fillStyle = e.colour;
        ctx.lineWidth = w / 2;
        const dx = b.x - a.x, dy = b.y - a.y, len = Math.hypot(dx, dy) || 1;
        const ux = dx / len, uy = dy / len;
        // An arrow stops at the target's rim, where its head begins.
        const r = e.arrow ? project.scaleSize(e.to.size) : 0;
        const head = e.arrow ? w * HEAD_LENGTH : 0;
        const ex = b.x - ux * (r + head), ey = b.y - uy * (r + head);
        ctx.beginPath();
        ctx.moveTo(a.x, a.y);
        ctx.lineTo(ex, ey);
        ctx.stroke();
        if (e.arrow) {
          const tipX = b.x - ux * r, tipY = b.y - uy * r, half = w * HEAD_HALF_WIDTH;
          ctx.beginPath();
          ctx.moveTo(tipX, tipY);
          ctx.lineTo(ex - uy * half, ey + ux * half);
          ctx.lineTo(ex + uy * half, ey - ux * half);
          ctx.closePath();
          ctx.fill();
        }
      };
      for (const e of edges) {
        if (e.under) line(e);
        else over.push(e);
      }
      for (const e of over) line(e);
      const top: PreviewNode[] = [];
      const dot = (n: PreviewNode) => {
        const p = project.graphToViewport(n);
        ctx.fillStyle = n.colour;
        ctx.beginPath();
        ctx.arc(p.x, p.y, project.scaleSize(n.size), 0, Math.PI * 2);
        ctx.fill();
      };
      for (const n of nodes) {
        if (n.hidden) continue;
        if (n.top) top.push(n);
        else dot(n);
      }
      for (const n of top) dot(n);
      drawn = true;
      return performance.now() - t0;
    },
    remove() {
      canvas.remove();
    },
  };
}
