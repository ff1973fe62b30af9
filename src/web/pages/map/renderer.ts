// sigma (WebGL) for the mind map: its libraries loaded in tasks of their own, its settings (how nodes and relations are
// drawn: reducers over the shared state), and the renderer made step by step, so no step is one long task.
import type Graph from "graphology";
import type Sigma from "sigma";
import type { Settings } from "sigma/settings";
import type { NodeDisplayData } from "sigma/types";
import { labelSettings } from "./hover";
import { finishLinks, issuingLinks, linksDone, loseCanvases, makeLayerCanvases, sigmaOnCanvases, type ProgramClass } from "./sigma-gl";
import type { SigmaUtils } from "./sigma-process";
import { hidden, highlighted, type EdgeLook, type MapState } from "./state";
import type { EdgeAttrs, NodeAttrs } from "./types";
import { yieldToMain } from "./yield";

/** Edge hover (the tooltip) up to this many relations. */
export const EDGE_EVENTS_UP_TO = 6000;
/** sigma's stagePadding: the first view frames the map the same way. */
export const STAGE_PADDING = 24;

export interface Renderer {
  Graph: typeof Graph;
  Sigma: typeof Sigma;
  /** The WebGL programs the map draws with, by sigma's node and edge type. */
  programs: { node: Settings<NodeAttrs, EdgeAttrs>["nodeProgramClasses"]; edge: Settings<NodeAttrs, EdgeAttrs>["edgeProgramClasses"] };
  /** sigma's own helpers, for its first intake of the graph in slices (sigma-process.ts). */
  utils: SigmaUtils;
  /** sigma's Program base class, whose shader compiles are given to the GPU process without waiting (sigma-gl.ts). */
  Program: ProgramClass;
}

let graphLib: Promise<typeof Graph> | null = null;
/** graphology, in a task of its own: started early by the page (prewarm) and awaited by createMapView. */
export function loadGraph(): Promise<typeof Graph> {
  graphLib ??= import("graphology").then((m) => m.default);
  graphLib.catch(() => { graphLib = null; });
  return graphLib;
}

let libs: Promise<Renderer> | null = null;
/**
 * graphology, then sigma, each evaluated in a task of its own (one chunk of both was a 55–130 ms task on the map's
 * first load). Only once the map is to become interactive (the first view needs neither sigma nor WebGL).
 */
export function loadRenderer(): Promise<Renderer> {
  libs ??= (async () => {
    const Graph = await loadGraph();
    await yieldToMain();
    const { default: Sigma } = await import("sigma");
    await yieldToMain();
    const { DEFAULT_NODE_PROGRAM_CLASSES, DEFAULT_EDGE_PROGRAM_CLASSES } = await import("sigma/settings");
    const utils = (await import("sigma/utils")) as unknown as SigmaUtils;
    const { Program } = await import("sigma/rendering");
    return { Graph, Sigma, programs: { node: DEFAULT_NODE_PROGRAM_CLASSES, edge: DEFAULT_EDGE_PROGRAM_CLASSES } as unknown as Renderer["programs"], utils, Program };
  })();
  libs.catch(() => { libs = null; });
  return libs;
}

/** sigma's settings for this map: what it draws itself (labels are labels.ts's), and how each node and relation looks. */
export function sigmaSettings(s: MapState, edgeCount: number, edgeLook: (edge: string, a: EdgeAttrs) => EdgeLook): Partial<Settings<NodeAttrs, EdgeAttrs>> {
  return {
    // Hovering an edge shows what it is; above a few thousand relations the edges are a texture more than lines to point
    // at, and their picking pass (every edge drawn a second time, off screen) doubled the cost of each frame.
    enableEdgeEvents: edgeCount <= EDGE_EVENTS_UP_TO,
    // Big maps draw edges only when the camera rests: without a GPU (software WebGL) a 5,000-edge frame costs ~170 ms,
    // nodes alone ~60 ms; with a GPU both are a few ms and the difference is not seen.
    hideEdgesOnMove: s.bigMap,
    renderEdgeLabels: false,
    // Node labels are drawn by labels.ts (importance order, no overlaps); sigma still draws the hovered node's box.
    renderLabels: false,
    zIndex: true,
    labelSize: 13,
    labelWeight: "500",
    minCameraRatio: 0.02,
    maxCameraRatio: 4,
    stagePadding: STAGE_PADDING,
    nodeReducer: (node, a) => {
      const out: Partial<NodeDisplayData> = { ...a, color: s.colours.status[a.idea.status] ?? s.colours.muted };
      if (hidden(s, a)) out.hidden = true;
      if (highlighted(s, node)) {
        out.highlighted = true;
        out.forceLabel = true;
        out.zIndex = 2;
      }
      return out;
    },
    edgeReducer: (edge, a) => {
      // Big maps draw at most a budget of their edges for the zoom (edges.ts): the rest are hidden, which costs the GPU
      // nothing. The reducer runs for every edge in the frame that draws the graph (25,000 at 10,000 ideas), so a
      // hidden one is answered without working out its colour.
      const look = edgeLook(edge, a);
      return look.hidden ? { ...a, hidden: true, zIndex: look.zIndex } : { ...a, hidden: false, color: look.colour, zIndex: look.zIndex };
    },
  };
}

/**
 * Stands in for a WebGL program while sigma's renderer is made: sigma compiles every program in its constructor (each a
 * synchronous shader link, tens of ms in software WebGL), so the real ones are swapped in afterwards, one per task.
 * It draws nothing; nothing is drawn before the swap, as the renderer starts on an empty graph.
 */
class PendingProgram {
  reallocate() {}
  process() {}
  render() {}
  kill() {}
}
const pending = <T extends object>(classes: T): T =>
  Object.fromEntries(Object.keys(classes).map((k) => [k, PendingProgram])) as unknown as T;

/**
 * Makes sigma on an empty graph in `container`: its WebGL contexts one per task (sigma-gl.ts), then sigma itself, which
 * takes them up; calls `made` (to wire its events), then swaps in each real program class in tasks of its own: its
 * shaders given to the GPU process, waited for from tasks, then each program checked. Awaits `step` before each piece. Throws what `step`
 * throws, or Cancelled once `signal` is aborted (the renderer is killed then).
 */
export async function makeSigma(
  s: MapState,
  settings: Partial<Settings<NodeAttrs, EdgeAttrs>>,
  step: () => Promise<void>,
  signal: AbortSignal,
  made: (r: Sigma<NodeAttrs, EdgeAttrs>) => void,
): Promise<Sigma<NodeAttrs, EdgeAttrs>> {
  const { Graph: G, Sigma, programs, Program } = await loadRenderer();
  const canvases = await makeLayerCanvases(s.container, step);
  let r: Sigma<NodeAttrs, EdgeAttrs>;
  try {
    await step();
    const OnCanvases = sigmaOnCanvases(Sigma, canvases);
    r = new OnCanvases<NodeAttrs, EdgeAttrs>(new G<NodeAttrs, EdgeAttrs>({ multi: true, type: "directed" }), s.container, {
      ...settings,
      ...labelSettings<NodeAttrs, EdgeAttrs>(s.colours),
      nodeProgramClasses: pending(programs.node),
      edgeProgramClasses: pending(programs.edge),
    });
  } finally {
    loseCanvases(canvases); // those sigma did not take up (all of them if it was not made)
  }
  performance.mark("map:contexts");
  made(r);
  // Each swap schedules a render of the (still empty) graph; without a GPU every frame that touches a WebGL canvas
  // costs the page a read-back of all three of sigma's layers at the next commit, so those renders are called off:
  // the graph's own first render is the next.
  const unschedule = () => {
    const x = r as unknown as { renderFrame: number | null };
    if (x.renderFrame !== null) cancelAnimationFrame(x.renderFrame);
    x.renderFrame = null;
  };
  const swap = async (change: () => void) => {
    await step();
    const links = issuingLinks(Program, change);
    unschedule();
    await linksDone(links, signal);
    // Checked a program per task: a check still waits if the GPU process has not finished that program's compile.
    for (const link of links) {
      await step();
      finishLinks([link]);
    }
  };
  try {
    for (const type of Object.keys(programs.node)) {
      await swap(() => r.setSetting("nodeProgramClasses", { ...r.getSetting("nodeProgramClasses"), [type]: programs.node[type] }));
    }
    for (const type of Object.keys(programs.edge)) {
      await swap(() => r.setSetting("edgeProgramClasses", { ...r.getSetting("edgeProgramClasses"), [type]: programs.edge[type] }));
    }
    await step();
  } catch (e) {
    r.kill();
    throw e;
  }
  performance.mark("map:programs");
  return r;
}
