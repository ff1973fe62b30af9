// The map's node labels, drawn on a canvas of their own after each render: the most important nodes first (the
// selected one, then by connections, then newest), each label only where it overlaps no label already drawn, so
// labels never pile up at any zoom. Sigma's own label grid picks one node per cell and lets long titles overlap.
// A frame looks only at the nodes that can be on screen (label-index.ts), so its cost follows the view, not the map.
import { fitCanvas } from "./canvas";
import { createLabelIndex, type LabelIndex } from "./label-index";
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
  /** A node moved (its key), or any may have (no key): where the pass looks for nodes follows (label-index.ts). */
  moved(key?: string): void;
  /** Empties the layer (while the camera moves) until the next draw. */
  clear(): void;
  kill(): void;
}

/**
 * How far (px) the affine stand-in for the projection (affineOf) may land from it: it only passes over nodes that
 * cannot be labelled or rules out labels that surely overlap, so within this it changes nothing that is drawn.
 */
const NEAR = 0.25;
const SPAN = 1024;

interface Near {
  x(gx: number, gy: number): number;
  y(gx: number, gy: number): number;
  /** The index's nodes that can land within the pixel rectangle (a pixel of margin for rounding). */
  within(index: LabelIndex, x0: number, y0: number, x1: number, y1: number): Int32Array;
}

/**
 * The projection as one affine map, read off three points. sigma's graphToViewport is affine (a normalisation, then the
 * camera's matrix) but costs an allocation or two per call; two more points check it, and when they do not agree (or the
 * map is degenerate) the pass visits every node with the exact projection instead.
 */
function affineOf(p: Projection): Near | null {
  const o = p.graphToViewport({ x: 0, y: 0 }), ex = p.graphToViewport({ x: SPAN, y: 0 }), ey = p.graphToViewport({ x: 0, y: SPAN });
  const a = (ex.x - o.x) / SPAN, b = (ey.x - o.x) / SPAN, c = (ex.y - o.y) / SPAN, d = (ey.y - o.y) / SPAN;
  const det = a * d - b * c;
  if (!Number.isFinite(det) || det === 0) return null;
  const x = (gx: number, gy: number) => o.x + a * gx + b * gy;
  const y = (gx: number, gy: number) => o.y + c * gx + d * gy;
  for (const q of [{ x: 7 * SPAN, y: -5 * SPAN }, { x: -3 * SPAN, y: 11 * SPAN }]) {
    const e = p.graphToViewport(q);
    if (!(Math.abs(e.x - x(q.x, q.y)) < NEAR / 4 && Math.abs(e.y - y(q.x, q.y)) < NEAR / 4)) return null;
  }
  return {
    x,
    y,
    within(index, x0, y0, x1, y1) {
      let gx0 = Infinity, gy0 = Infinity, gx1 = -Infinity, gy1 = -Infinity;
      for (const [px, py] of [[x0 - 1, y0 - 1], [x1 + 1, y0 - 1], [x0 - 1, y1 + 1], [x1 + 1, y1 + 1]]) {
        const X = px - o.x, Y = py - o.y;
        const gx = (d * X - b * Y) / det, gy = (a * Y - c * X) / det;
        gx0 = Math.min(gx0, gx); gx1 = Math.max(gx1, gx);
        gy0 = Math.min(gy0, gy); gy1 = Math.max(gy1, gy);
      }
      return index.within(gx0, gy0, gx1, gy1);
    },
  };
}

const shorten = (s: string) => (s.length > MAX_CHARS ? s.slice(0, MAX_CHARS - 1).trimEnd() + "…" : s);

/**
 * `order` lists node keys by importance (the same array until the order changes: a new one rebuilds the index, as does
 * `moved()` without a key, which the caller calls when nodes move); `forced` nodes always get a label
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

  /** Each node's title as drawn (cut at MAX_CHARS) and its width, by key: measured once per title and style. */
  const texts = new Map<string, { label: string; text: string; w: number }>();
  const textOf = (key: string, label: string) => {
    let t = texts.get(key);
    if (!t || t.label !== label) {
      const text = shorten(label);
      texts.set(key, (t = { label, text, w: widthOf(text) }));
    }
    return t;
  };
  const index = createLabelIndex(read);

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
    const overlaps = (x: number, y: number, bw: number, bh: number): boolean => {
      for (let cx = Math.floor(x / CELL); cx <= Math.floor((x + bw) / CELL); cx++) {
        for (let cy = Math.floor(y / CELL); cy <= Math.floor((y + bh) / CELL); cy++) {
          const list = grid.get(cx * 100003 + cy);
          if (list?.some((o) => x < o.x + o.w && o.x < x + bw && y < o.y + o.h && o.y < y + bh)) return true;
        }
      }
      return false;
    };
    const add = (b: LabelBox) => {
      for (let cx = Math.floor(b.x / CELL); cx <= Math.floor((b.x + b.w) / CELL); cx++) {
        for (let cy = Math.floor(b.y / CELL); cy <= Math.floor((b.y + b.h) / CELL); cy++) {
          const k = cx * 100003 + cy;
          const list = grid.get(k);
          if (list) list.push(b);
          else grid.set(k, [b]);
        }
      }
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
      let { text, w: tw } = textOf(key, n.label);
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
      // A node just past an edge (the pass looks a little beyond the screen) can have its whole label outside it.
      if (box.x + box.w < 0 || box.x > w || box.y + box.h < 0 || box.y > h) return;
      if (!always && overlaps(box.x, box.y, box.w, box.h)) return;
      add(box);
      drawn.push(box);
      ctx.strokeText(text, box.x + 2, p.y);
      ctx.fillText(text, box.x + 2, p.y);
    };
    for (const key of forced()) consider(key, true);
    if (!index.sync(order())) return;
    // The rest in order, only those that can be on screen (the rectangle's nodes: label-index.ts). A node whose label
    // would surely overlap one already drawn is passed over before reading or projecting it: `near` is where it lands
    // within NEAR px, and a box NEAR px smaller on each side that overlaps is one the exact box overlaps too.
    const near = affineOf(renderer);
    const radius = new Map<number, number>();
    const ranks = near ? near.within(index, -200 - NEAR, -20 - NEAR, w + 20 + NEAR, h + 20 + NEAR) : index.all();
    const { keys, xs, ys, sizes, labels } = index;
    for (const i of ranks) {
      if (drawn.length >= MAX_LABELS) break;
      const key = keys[i];
      if (near && labels[i]) {
        let r = radius.get(sizes[i]);
        if (r === undefined) radius.set(sizes[i], (r = renderer.scaleSize(sizes[i])));
        const bx = near.x(xs[i], ys[i]) + r + PAD, by = near.y(xs[i], ys[i]) - FONT_SIZE / 2 - 2;
        const tw = textOf(key, labels[i]).w;
        if (tw <= w - bx - 6 - 2 * NEAR && overlaps(bx + NEAR, by + NEAR, tw + 4 - 2 * NEAR, FONT_SIZE + 4 - 2 * NEAR)) continue;
      }
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
      texts.clear();
    },
    moved: (key) => index.moved(key),
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
