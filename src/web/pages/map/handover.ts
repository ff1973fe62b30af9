// When and how sigma (WebGL) takes the map over from the first view: made at once on an interaction (wake) or after the
// page has gone quiet (soon), a step per task; handed the graph once positions are in, and swapped in for the first
// view's canvas in the frame it first draws. Until then the pointer is answered by early-input.ts.
import type Sigma from "sigma";
import type { Settings } from "sigma/settings";
import { createEarlyInput } from "./early-input";
import type { EdgeLod } from "./edges";
import type { PreviewLayer } from "./preview";
import { loadRenderer, makeSigma } from "./renderer";
import { gpuDone } from "./sigma-gl";
import { internals, processSteps, reduceSteps } from "./sigma-process";
import type { SigmaEvents } from "./sigma-events";
import { mounted, type MapState } from "./state";
import type { EdgeAttrs, MapViewEvents, NodeAttrs } from "./types";
import { Cancelled, runInSlices, whenIdle, whenQuiet, yieldToMain } from "./yield";

/**
 * When nobody touches the map, sigma is made once the page has gone QUIET_MS without a long task (the load is over:
 * the first view, its labels and the rest of the page are on screen), each step in an idle period of its own; and at
 * the latest after IDLE_TIMEOUT_MS however busy the page is.
 */
const QUIET_MS = 3_000;
const IDLE_TIMEOUT_MS = 10_000;

export interface HandOver {
  /** Makes sigma at once (an interaction, or the page asks); resolves once it draws the graph (or could not be made). */
  wake(): Promise<void>;
  /** Makes sigma when the page has been idle a while, a step per idle period (unless something wakes it first). */
  soon(): void;
  /** Hands sigma the graph (once positions are in), if it is made; resolves once its first frame is on screen. */
  mount(): Promise<void>;
  /** The graph or how it looks changed while sigma is being handed it: it takes it in again before it shows. */
  changed(): void;
  /** sigma has drawn the graph (the first view is gone). */
  drawn(): boolean;
  kill(): void;
}

export interface HandOverOptions {
  lod: EdgeLod;
  preview: PreviewLayer;
  settings: Partial<Settings<NodeAttrs, EdgeAttrs>>;
  sigma: SigmaEvents;
  canConnect: boolean;
  events: Pick<MapViewEvents, "connect" | "select" | "failed">;
  /** The node under a container point (the first view's placing), for input before sigma. */
  nodeAt(x: number, y: number): number | null;
  /** sigma's first frame is on screen (the labels follow its camera from now on). */
  onScreen(): void;
  /** Aborted when the view is killed. */
  signal: AbortSignal;
}

const GRAPH_EVENTS = ["nodeAdded", "edgeAdded", "nodeDropped", "edgeDropped", "nodeAttributesUpdated", "edgeAttributesUpdated", "eachNodeAttributesUpdated", "eachEdgeAttributesUpdated", "cleared", "edgesCleared"] as const;

export function createHandOver(s: MapState, o: HandOverOptions): HandOver {
  const { lod, preview, sigma, signal } = o;
  let making: Promise<void> | null = null;
  let mounting: Promise<void> | null = null;
  /** An interaction is waiting for sigma: its steps no longer wait for idle time. */
  let hurry = false;
  let queued = false;
  let webglDrawn = false;
  /** Something changed since sigma took in the graph's looks (its reducers ran). */
  let stale = false;

  function wake(): Promise<void> {
    hurry = true;
    making ??= makeRenderer();
    return making;
  }
  function soon() {
    if (queued) return;
    queued = true;
    void whenQuiet(QUIET_MS, IDLE_TIMEOUT_MS).then(() => {
      if (!signal.aborted) making ??= makeRenderer();
    });
  }
  /** Gives the thread back between steps: to input at once while someone waits for sigma, else until the page is idle. */
  const step = async () => {
    await (hurry ? yieldToMain() : whenIdle(IDLE_TIMEOUT_MS));
    if (signal.aborted) throw new Cancelled();
  };

  const early = createEarlyInput(s.container, {
    ready: () => mounted(s),
    wake: () => void wake(),
    nodeAt: o.nodeAt,
    canConnect: o.canConnect,
    connectMode: () => s.connectMode,
    moved: () => s.moved,
    connect: (from, to) => o.events.connect(from, to),
    select: (id) => o.events.select(id),
  });
  const mouseLayer = () => s.container.querySelector<HTMLElement>(".sigma-mouse");

  /** Makes sigma and hands it the graph; each step in a task of its own (idle ones while nobody waits). */
  async function makeRenderer(): Promise<void> {
    if (signal.aborted) return;
    try {
      performance.mark("map:renderer-start", { detail: { hurry } });
      const r = await makeSigma(s, o.settings, step, signal, (made) => {
        sigma.wire(made);
        sigma.showLayers();
        // Until its first frame is on screen the first view answers the pointer (early-input.ts), not sigma.
        const layer = mouseLayer();
        if (layer) layer.style.pointerEvents = "none";
      });
      s.renderer = r;
      lod.attach(r as unknown as Sigma);
      if (s.positioned) await mount();
      else sigma.showLayers();
      performance.mark("map:renderer-ready");
    } catch (e) {
      if (e instanceof Cancelled || signal.aborted) return;
      early.stop();
      o.events.failed(e);
    }
  }

  function mount(): Promise<void> {
    const renderer = s.renderer;
    if (!renderer || mounted(s)) return Promise.resolve();
    if (mounting) {
      stale = true;
      return mounting;
    }
    mounting = attach(renderer).catch((e) => {
      if (e instanceof Cancelled || signal.aborted) return;
      early.stop();
      o.events.failed(e);
    });
    return mounting;
  }

  /**
   * sigma's setGraph in tasks of its own, none of them long. setGraph does in one synchronous call what took 330–400 ms
   * at 10,000 ideas under load: every node's and relation's reducer, then process() (every item written into the
   * programs' buffers), then the frame (buffers uploaded, drawn); and the page's next commit waited ~1 s in a software
   * read-back of that frame (GLES2::ReadPixels) while SwiftShader drew it. Here: the relations kept aside (edges.ts),
   * the reducers and process() in slices (sigma-process.ts), the frame in a task of its own with sigma's layers still
   * out of the page, and the layers shown only once the GPU has finished that frame (a fence, polled from tasks), so the
   * commit that shows them reads back a finished frame.
   */
  async function attach(renderer: Sigma<NodeAttrs, EdgeAttrs>): Promise<void> {
    const x = internals(renderer);
    const graph = s.graph;
    const { utils } = await loadRenderer();
    // A big map hands sigma only the relations it draws at this zoom (edges.ts): it processes every edge it holds.
    lod.prepare();
    await lod.holdOnlyShown(signal);
    await step();
    performance.mark("map:set-graph");
    // The graph is sigma's from here, but its own listeners come only once it is taken in: each would schedule a frame
    // of a half-taken graph. A change meanwhile is noted (here, or by the view: changed()), and then sigma takes the
    // whole graph in again in one go (refresh) before it shows.
    const note = () => { stale = true; };
    for (const ev of GRAPH_EVENTS) graph.on(ev, note);
    try {
      x.unbindGraphHandlers();
      x.graph = graph;
      stale = false;
      await runInSlices(reduceSteps(x), signal);
      performance.mark("map:sigma-reduced");
      if (!stale) await runInSlices(processSteps(x, utils), signal);
    } finally {
      for (const ev of GRAPH_EVENTS) graph.off(ev, note);
      x.bindGraphHandlers();
    }
    performance.mark("map:sigma-processed");
    await step();
    if (stale) renderer.refresh();
    else {
      // render() processes again only if sigma's own listeners asked for it since.
      x.needToProcess = false;
      x.render();
    }
    performance.mark("map:sigma-rendered");
    await gpuDone(Object.values(x.webGLContexts), signal);
    // The first view goes in the task sigma's layers come in: one commit shows the swap.
    s.onScreen = true;
    sigma.showLayers();
    const layer = mouseLayer();
    if (layer) layer.style.pointerEvents = "";
    preview.remove();
    early.stop();
    o.onScreen();
    early.handOver();
    webglDrawn = true;
    performance.mark("map:webgl-drawn");
  }

  return { wake, soon, mount, changed: () => { if (mounting) stale = true; }, drawn: () => webglDrawn, kill: () => early.kill() };
}
