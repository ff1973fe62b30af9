// The page of scripts/bench/web-labels.ts (bundled for the browser by it): a map of N nodes in sigma, as the map page
// holds it, with two label layers over it, the product's (src/web/pages/map/labels.ts) and the baseline's (the same file
// as of an earlier commit, resolved by the bench's bundler plugin), both wired as view.ts wires them. The camera moves
// through a scripted path; after each render both layers lay out and draw the labels, in alternating order, timed, and
// their boxes are compared.
import Graph from "graphology";
import Sigma from "sigma";
import { createLabelLayer } from "../../src/web/pages/map/labels";
// @ts-expect-error resolved by the bench's bundler plugin to the baseline's labels.ts
import { createLabelLayer as createBaselineLayer } from "bench-baseline/labels";

import type { BenchData, Frame, Step } from "./web-labels-types";

interface Attrs { x: number; y: number; size: number; label: string }
type Layer = { draw(): void; boxes(): Array<{ id: number; x: number; y: number; w: number; h: number }>; setStyle(c: string, h: string, f: string): void; moved?(key?: string): void };

declare global {
  interface Window { benchLabels(data: BenchData, steps: Step[]): Promise<Frame[]> }
}

window.benchLabels = async (data, steps) => {
  const container = document.getElementById("map")!;
  const graph = new Graph<Attrs>({ multi: true, type: "directed" });
  data.keys.forEach((key, i) => graph.addNode(key, { x: data.xs[i], y: data.ys[i], size: data.sizes[i], label: data.labels[i] }));
  let selected: string | null = null;
  const renderer = new Sigma(graph, container, {
    renderLabels: false,
    renderEdgeLabels: false,
    zIndex: true,
    labelSize: 13,
    minCameraRatio: 0.02,
    maxCameraRatio: 4,
    stagePadding: 24,
    nodeReducer: (node, a) => (node === selected ? { ...a, highlighted: true, zIndex: 2 } : a),
  });
  // As view.ts: the order array is the same until it changes; hidden by no filter; the selected node forced.
  const order = () => data.order;
  const forced = () => (selected !== null ? [selected] : []);
  const read = (key: string) => {
    if (!graph.hasNode(key)) return null;
    const a = graph.getNodeAttributes(key);
    return { key, label: a.label, size: a.size, x: a.x, y: a.y, hidden: false };
  };
  const product: Layer = createLabelLayer(container, () => renderer, order, forced, read);
  const baseline: Layer = createBaselineLayer(container, () => renderer, order, forced, read);
  for (const layer of [product, baseline]) layer.setStyle("#1d1e20", "#ffffff", "system-ui, sans-serif");
  graph.on("nodeAttributesUpdated", ({ key }) => product.moved?.(key));
  graph.on("eachNodeAttributesUpdated", () => product.moved?.());

  // The floor: the same labels' titles drawn alone on a canvas like the layers' (clear, stroke and fill each), no layout.
  const floorCanvas = document.createElement("canvas");
  Object.assign(floorCanvas.style, { position: "absolute", inset: "0", pointerEvents: "none" });
  container.appendChild(floorCanvas);
  const fctx = floorCanvas.getContext("2d")!;
  const drawAlone = (boxes: ReturnType<Layer["boxes"]>) => {
    const t0 = performance.now();
    const w = container.clientWidth, h = container.clientHeight;
    if (floorCanvas.width !== w || floorCanvas.height !== h) { floorCanvas.width = w; floorCanvas.height = h; }
    fctx.clearRect(0, 0, w, h);
    Object.assign(fctx, { font: "500 13px system-ui, sans-serif", textBaseline: "middle", lineJoin: "round", lineWidth: 3, strokeStyle: "#ffffff", fillStyle: "#1d1e20" });
    for (const b of boxes) {
      const title = data.labels[b.id - 1];
      const text = title.length > 40 ? title.slice(0, 39).trimEnd() + "…" : title;
      fctx.strokeText(text, b.x + 2, b.y + b.h / 2);
      fctx.fillText(text, b.x + 2, b.y + b.h / 2);
    }
    return performance.now() - t0;
  };
  const frames: Frame[] = [];
  const time = (layer: Layer) => {
    const t0 = performance.now();
    layer.draw();
    return performance.now() - t0;
  };
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i];
    selected = s.selected;
    if (s.move) graph.mergeNodeAttributes(s.move.key, { x: s.move.x, y: s.move.y });
    const rendered = new Promise<void>((resolve) => renderer.once("afterRender", () => resolve()));
    renderer.getCamera().setState({ x: s.x, y: s.y, ratio: s.ratio });
    if (s.move || i === 0) renderer.refresh({ schedule: true });
    await rendered;
    // Three passes of each, alternating (which goes first alternates by frame), the fastest of each kept: on a shared
    // machine a pass is often preempted, and the fastest is the pass's own cost. Caches are warm after the first pass.
    let p = Infinity, b = Infinity;
    for (let k = 0; k < 3; k++) {
      if ((i + k) % 2 === 0) { p = Math.min(p, time(product)); b = Math.min(b, time(baseline)); } else { b = Math.min(b, time(baseline)); p = Math.min(p, time(product)); }
    }
    const pb = product.boxes(), bb = baseline.boxes();
    const same = JSON.stringify(pb) === JSON.stringify(bb);
    let diff = "";
    if (!same) {
      const at = pb.findIndex((box, k) => JSON.stringify(box) !== JSON.stringify(bb[k]));
      diff = `${pb.length} vs ${bb.length} labels; first difference at ${at}: ${JSON.stringify(pb[at])} vs ${JSON.stringify(bb[at])}`;
    }
    frames.push({ segment: s.segment, ratio: s.ratio, product: p, baseline: b, floor: drawAlone(pb), labels: pb.length, same, diff });
  }
  renderer.kill();
  return frames;
};
