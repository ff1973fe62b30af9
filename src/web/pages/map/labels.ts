// The map's node labels, drawn on a canvas of their own after each render: the most important nodes first (the
// selected one, then by connections, then newest), each label only where it overlaps no label already drawn, so
// labels never pile up at any zoom. Sigma's own label grid picks one node per cell and lets long titles overlap.
import { fitCanvas } from "./canvas";
import type { Projection } from "./projection";

export interface LabelBox { id: number; x: number; y: number; w: number; h: number }

export interface LabelNode { key: string; label: string; size: number; x: number; y: number; hidden: boolean }

const FONT_SIZE = 13;
const PAD = 3;
const MAX_CHARS = 40;
/** At most this many labels at once: beyond that a map reads as a wall of text. */
const MAX_LABELS = 250;
const CELL = 64;

export interface LabelLayer {
  /** Lays the labels out and draws them for where the nodes are now (after each render of the map). */
  draw(): void;
  /** The boxes drawn by the last render, in container pixels. */
  boxes(): LabelBox[];
  setStyle(colour: string, halo: string, font: string): void;
  /** Empties the layer (while the camera moves) until the next draw. */
  clear(): void;
  kill(): void;
}

const shorten = (s: string) => (s.length > MAX_CHARS ? s.slice(0, MAX_CHARS - 1).trimEnd() + "…" : s);

/**
 * `order` lists node keys by importance (recomputed by the caller when it changes); `forced` nodes always get a label
 * first. `read(key)` gives a node's display data (graph coordinates and size) or null when hidden. `projection()` is
 * where nodes are on screen now: the first view's (preview.ts) until sigma draws, then sigma itself.
 */
export function createLabelLayer(
  container: HTMLElement,
  projection: () => Projection,
  order: () => readonly string[],
  forced: () => readonly string[],
  read: (key: string) => LabelNode | null,
): LabelLayer {
  const canvas = document.createElement("canvas");
  canvas.className = "map-labels";
  canvas.setAttribute("aria-hidden", "true");
  Object.assign(canvas.style, { position: "absolute", inset: "0", pointerEvents: "none", zIndex: "2" });
  container.appendChild(canvas);
  const ctx = canvas.getContext("2d")!;
  const widths = new Map<string, number>();
  let colour = "#1d1e20", halo = "#ffffff", font = "system-ui, sans-serif";
  let drawn: LabelBox[] = [];

  function resize(): { w: number; h: number } {
    const w = container.clientWidth, h = container.clientHeight;
    fitCanvas(canvas, ctx, w, h);
    return { w, h };
  }

  /**
   * A label's width as the sum of its characters' widths, each measured once: measuring every distinct title of a big
   * map on the first frame cost hundreds of ms; the sum is the drawn width within kerning, so it is padded by 4%.
   */
  function widthOf(text: string): number {
    let w = 0;
    for (const ch of text) {
      let cw = widths.get(ch);
      if (cw === undefined) widths.set(ch, (cw = ctx.measureText(ch).width));
      w += cw;
    }
    return Math.ceil(w * 1.04);
  }

  function draw() {
    const renderer = projection();
    const { w, h } = resize();
    ctx.clearRect(0, 0, w, h);
    ctx.font = `500 ${FONT_SIZE}px ${font}`;
    ctx.textBaseline = "middle";
    ctx.lineJoin = "round";
    ctx.lineWidth = 3;
    ctx.strokeStyle = halo;
    ctx.fillStyle = colour;
    const grid = new Map<number, LabelBox[]>();
    const cellsOf = (b: LabelBox, add: boolean): boolean => {
      for (let cx = Math.floor(b.x / CELL); cx <= Math.floor((b.x + b.w) / CELL); cx++) {
        for (let cy = Math.floor(b.y / CELL); cy <= Math.floor((b.y + b.h) / CELL); cy++) {
          const k = cx * 100003 + cy;
          const list = grid.get(k);
          if (add) {
            if (list) list.push(b);
            else grid.set(k, [b]);
          } else if (list?.some((o) => b.x < o.x + o.w && o.x < b.x + b.w && b.y < o.y + o.h && o.y < b.y + b.h)) return true;
        }
      }
      return false;
    };
    drawn = [];
    const seen = new Set<string>();
    const consider = (key: string, always: boolean) => {
      if (seen.has(key) || drawn.length >= MAX_LABELS) return;
      seen.add(key);
      const n = read(key);
      if (!n || n.hidden || !n.label) return;
      const p = renderer.graphToViewport(n);
      const r = renderer.scaleSize(n.size);
      if (p.x < -200 || p.y < -20 || p.x > w + 20 || p.y > h + 20) return;
      let text = shorten(n.label);
      let tw = widthOf(text);
      // A label running past the right edge (a narrow phone screen) is cut to what fits, or left out when little would.
      const room = w - (p.x + r + PAD) - 6;
      if (tw > room) {
        if (room < 60 && !always) return;
        text = text.replace(/…$/, "");
        while (text.length > 4 && widthOf(text + "…") > room) text = text.slice(0, -1);
        text = text.trimEnd() + "…";
        tw = widthOf(text);
      }
      const box = { id: Number(key), x: p.x + r + PAD, y: p.y - FONT_SIZE / 2 - 2, w: tw + 4, h: FONT_SIZE + 4 };
      if (box.x + box.w < 0 || box.x > w) return;
      if (!always && cellsOf(box, false)) return;
      cellsOf(box, true);
      drawn.push(box);
      ctx.strokeText(text, box.x + 2, p.y);
      ctx.fillText(text, box.x + 2, p.y);
    };
    for (const key of forced()) consider(key, true);
    for (const key of order()) {
      if (drawn.length >= MAX_LABELS) break;
      consider(key, false);
    }
  }

  return {
    draw,
    boxes: () => drawn.slice(),
    setStyle(c, hl, f) {
      colour = c;
      halo = hl;
      font = f;
      widths.clear();
    },
    clear() {
      const { w, h } = resize();
      ctx.clearRect(0, 0, w, h);
      drawn = [];
    },
    kill() {
      canvas.remove();
    },
  };
}
