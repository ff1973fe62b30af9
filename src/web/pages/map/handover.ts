// When and how sigma (WebGL) takes the map over from the first view: made at once on an interaction (wake) or after the
// page has gone quiet (soon), a step per task; handed the graph once positions are in, and swapped in for the first
// view's canvas in the frame it first draws. Until then the pointer is answered by early-input.ts.
import type Sigma from "sigma";
import type { Settings } from "sigma/settings";
import { createEarlyInput } from "./early-input";
import type { EdgeLod } from "./edges";
import type { PreviewLayer } from "./preview";
import { makeSigma } from "./renderer";
import type { SigmaEvents } from "./sigma-events";
import { mounted, type MapState } from "./state";
import type { EdgeAttrs, MapViewEvents, NodeAttrs } from "./types";
import { Cancelled, whenIdle, whenQuiet, yieldToMain } from "./yield";

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
  /** Hands sigma the graph (once positions are in), if it is made. */
  mount(): void;
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
  /** Aborted when the view is killed. */
  signal: AbortSignal;
}

export function createHandOver(s: MapState, o: HandOverOptions): HandOver {
  const { lod, preview, sigma, signal } = o;
  let making: Promise<void> | null = null;
  /** An interaction is waiting for sigma: its steps no longer wait for idle time. */
  let hurry = false;
  let queued = false;
  let webglDrawn = false;

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

  const early = createEarlyInput(s.container, {
    ready: () => s.renderer !== null,
    wake: () => void wake(),
    nodeAt: o.nodeAt,
    canConnect: o.canConnect,
    connectMode: () => s.connectMode,
    moved: () => s.moved,
    connect: (from, to) => o.events.connect(from, to),
    select: (id) => o.events.select(id),
  });

  /** Makes sigma and hands it the graph; each step in a task of its own (idle ones while nobody waits). */
  async function makeRenderer(): Promise<void> {
    const step = async () => {
      await (hurry ? yieldToMain() : whenIdle(IDLE_TIMEOUT_MS));
      if (signal.aborted) throw new Cancelled();
    };
    if (signal.aborted) return;
    try {
      performance.mark("map:renderer-start", { detail: { hurry } });
      const r = await makeSigma(s, o.settings, step, (made) => {
        sigma.wire(made);
        sigma.showLayers();
      });
      s.renderer = r;
      lod.attach(r as unknown as Sigma);
      if (s.positioned) mount();
      else sigma.showLayers();
      early.handOver();
      performance.mark("map:renderer-ready");
    } catch (e) {
      if (e instanceof Cancelled || signal.aborted) return;
      early.stop();
      o.events.failed(e);
    }
  }

  function mount() {
    const renderer = s.renderer;
    if (!renderer) return;
    if (!mounted(s)) {
      // A big map hands sigma only the relations it draws at this zoom (edges.ts): it processes every edge it holds.
      lod.prepare();
      lod.holdOnlyShown();
      // The first view goes in the frame sigma first draws the graph (same task: one commit shows the swap).
      const swap = () => {
        renderer.off("afterRender", swap);
        preview.remove();
        early.stop();
        webglDrawn = true;
        performance.mark("map:webgl-drawn");
      };
      renderer.on("afterRender", swap);
      renderer.setGraph(s.graph);
    }
    sigma.showLayers();
  }

  return { wake, soon, mount, drawn: () => webglDrawn, kill: () => early.kill() };
}
