// sigma's WebGL set-up in tasks of its own, against sigma 3.0.3's internals (the version is pinned in package.json): its
// three WebGL contexts made one per task before its constructor (which then takes them up), each program's shaders
// compiled and linked without the page waiting on the GPU process (KHR_parallel_shader_compile's completion status, or a
// WebGL2 fence, polled from tasks), and the wait for the GPU to finish a frame. Without a GPU (SwiftShader) each of these
// was a synchronous wait of 60–190 ms under load (docs/performance.md, "sigma's WebGL set-up, a piece per task").
import type Sigma from "sigma";
import { Cancelled } from "./yield";

type GL = WebGLRenderingContext | WebGL2RenderingContext;

/** sigma 3.0.3's WebGL layers, in the order its constructor makes them. */
export const WEBGL_LAYERS = ["edges", "nodes", "hoverNodes"] as const;
/** The attributes sigma asks its contexts for. */
const CONTEXT_ATTRIBUTES: WebGLContextAttributes = { preserveDrawingBuffer: false, antialias: false };

/**
 * A canvas with its WebGL context for each of sigma's WebGL layers, one per task (`step` awaited before each), sized as
 * sigma's first resize will size it. Each is marked `map:context` (its layer in the detail).
 */
export async function makeLayerCanvases(container: HTMLElement, step: () => Promise<void>): Promise<Map<string, HTMLCanvasElement>> {
  const canvases = new Map<string, HTMLCanvasElement>();
  try {
    for (const id of WEBGL_LAYERS) {
      await step();
      const canvas = document.createElement("canvas");
      const ratio = window.devicePixelRatio ?? 1;
      canvas.setAttribute("width", `${container.offsetWidth * ratio}px`);
      canvas.setAttribute("height", `${container.offsetHeight * ratio}px`);
      const gl = (canvas.getContext("webgl2", CONTEXT_ATTRIBUTES) ?? canvas.getContext("webgl", CONTEXT_ATTRIBUTES)) as GL | null;
      // Asked for before any shader: where the driver has it, compiles then run off the GPU process's main thread.
      gl?.getExtension("KHR_parallel_shader_compile");
      canvases.set(id, canvas);
      performance.mark("map:context", { detail: id });
    }
  } catch (e) {
    loseCanvases(canvases);
    throw e;
  }
  return canvases;
}

/** Frees the contexts of canvases sigma never took up (a page allows only so many). */
export function loseCanvases(canvases: Map<string, HTMLCanvasElement>): void {
  for (const canvas of canvases.values()) {
    const gl = (canvas.getContext("webgl2") ?? canvas.getContext("webgl")) as GL | null;
    gl?.getExtension("WEBGL_lose_context")?.loseContext();
  }
}

/**
 * sigma, taking up the canvases made beforehand for its WebGL layers: its createWebGLContext is handed the canvas (an
 * option of sigma's own), after what its createLayer would have done to a new one. getContext then answers the
 * context the canvas already has.
 */
export function sigmaOnCanvases(SigmaClass: typeof Sigma, canvases: Map<string, HTMLCanvasElement>): typeof Sigma {
  type Options = NonNullable<Parameters<Sigma["createWebGLContext"]>[1]>;
  return class SigmaOnCanvases extends SigmaClass {
    override createWebGLContext(id: string, options: Options = {}): WebGLRenderingContext {
      const canvas = canvases.get(id);
      if (!canvas || options.canvas) return super.createWebGLContext(id, options);
      canvases.delete(id);
      canvas.style.position = "absolute";
      canvas.setAttribute("class", `sigma-${id}`);
      (this as unknown as { elements: Record<string, HTMLElement> }).elements[id] = canvas;
      this.getContainer().appendChild(canvas);
      return super.createWebGLContext(id, { ...options, style: undefined, canvas });
    }
  } as typeof Sigma;
}

/** What sigma 3.0.3's Program#getProgramInfo answers (rendering/program.ts). */
interface ProgramInfo {
  name: string;
  program: WebGLProgram;
  gl: GL;
  frameBuffer: WebGLFramebuffer | null;
  buffer: WebGLBuffer;
  constantBuffer: WebGLBuffer | Record<string, never>;
  uniformLocations: Record<string, WebGLUniformLocation>;
  attributeLocations: Record<string, number>;
  isPicking: boolean;
  vertexShader: WebGLShader;
  fragmentShader: WebGLShader;
}
interface ProgramDefinition { UNIFORMS: string[]; ATTRIBUTES: Array<{ name: string }>; CONSTANT_ATTRIBUTES?: Array<{ name: string }> }
interface ProgramPrototype {
  getDefinition(): ProgramDefinition;
  getProgramInfo(name: string, gl: GL, vs: string, fs: string, frameBuffer: WebGLFramebuffer | null): ProgramInfo;
}
/** sigma's Program base class (sigma/rendering), which every program of sigma's extends. */
export type ProgramClass = { prototype: unknown };

/** A program whose shaders are compiled and linked by the GPU process, not yet checked or looked into. */
export interface PendingLink { info: ProgramInfo; def: ProgramDefinition }

/**
 * Runs `make` (something that makes sigma programs: a setSetting of its program classes) with Program#getProgramInfo
 * giving the compile and link to the GPU process without waiting for them: sigma's own checks the status at once, which
 * waits for the compile. Answers the programs made; they must pass finishLinks before anything is drawn with them.
 */
export function issuingLinks(Program: ProgramClass, make: () => void): PendingLink[] {
  const proto = Program.prototype as ProgramPrototype;
  const own = Object.getOwnPropertyDescriptor(proto, "getProgramInfo");
  const pending: PendingLink[] = [];
  proto.getProgramInfo = function (this: ProgramPrototype, name, gl, vs, fs, frameBuffer) {
    const def = this.getDefinition();
    const buffer = gl.createBuffer();
    if (!buffer) throw new Error("Program: error while creating the WebGL buffer.");
    const vertexShader = compile(gl, gl.VERTEX_SHADER, vs), fragmentShader = compile(gl, gl.FRAGMENT_SHADER, fs);
    const program = gl.createProgram();
    if (!program) throw new Error("loadProgram: error while creating the program.");
    gl.attachShader(program, vertexShader);
    gl.attachShader(program, fragmentShader);
    gl.linkProgram(program);
    let constantBuffer: ProgramInfo["constantBuffer"] = {};
    if ("CONSTANT_ATTRIBUTES" in def) {
      const b = gl.createBuffer();
      if (!b) throw new Error("Program: error while creating the WebGL constant buffer.");
      constantBuffer = b;
    }
    const info: ProgramInfo = { name, program, gl, frameBuffer, buffer, constantBuffer, uniformLocations: {}, attributeLocations: {}, isPicking: name === "pick", vertexShader, fragmentShader };
    pending.push({ info, def });
    return info;
  };
  try {
    make();
  } finally {
    if (own) Object.defineProperty(proto, "getProgramInfo", own);
  }
  return pending;
}

function compile(gl: GL, type: number, source: string): WebGLShader {
  const shader = gl.createShader(type);
  if (!shader) throw new Error("loadShader: error while creating the shader");
  gl.shaderSource(shader, source);
  gl.compileShader(shader);
  return shader;
}

/** Every command given to these contexts so far has run (WebGL2 fences, polled from tasks; on WebGL1 at once). */
const POLL_MS = 16;
const MAX_GPU_WAIT_MS = 5_000;
export async function gpuDone(contexts: GL[], signal: AbortSignal): Promise<void> {
  const fences: Array<[WebGL2RenderingContext, WebGLSync]> = [];
  for (const gl of new Set(contexts)) {
    if (typeof WebGL2RenderingContext === "undefined" || !(gl instanceof WebGL2RenderingContext)) continue;
    const f = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
    if (!f) continue;
    gl.flush();
    fences.push([gl, f]);
  }
  const end = performance.now() + MAX_GPU_WAIT_MS;
  try {
    while (fences.length && performance.now() < end) {
      await pause(signal);
      for (let i = fences.length - 1; i >= 0; i--) {
        const [gl, f] = fences[i];
        if (gl.getSyncParameter(f, gl.SYNC_STATUS) === gl.SIGNALED) {
          gl.deleteSync(f);
          fences.splice(i, 1);
        }
      }
    }
  } finally {
    for (const [gl, f] of fences) gl.deleteSync(f);
  }
}

/**
 * Resolves once the GPU process has compiled and linked these programs: their completion status polled from tasks where
 * the context has KHR_parallel_shader_compile, else a fence after the link (at most MAX_GPU_WAIT_MS; the check after it
 * then waits for the rest).
 */
export async function linksDone(links: PendingLink[], signal: AbortSignal): Promise<void> {
  const parallel = links.filter(({ info }) => info.gl.getExtension("KHR_parallel_shader_compile"));
  const end = performance.now() + MAX_GPU_WAIT_MS;
  const done = (l: PendingLink) => l.info.gl.getProgramParameter(l.info.program, l.info.gl.getExtension("KHR_parallel_shader_compile")!.COMPLETION_STATUS_KHR) !== false;
  while (parallel.length && !parallel.every(done) && performance.now() < end) await pause(signal);
  await gpuDone(links.filter((l) => !parallel.includes(l)).map((l) => l.info.gl), signal);
}

/**
 * sigma's checks of each program (loadShader, loadProgram) and its locations, now that the GPU process has them. The
 * link's status first: a program links only if both shaders compiled, so their own status (each a round trip to the GPU
 * process, 40–100 ms under load) is asked for only to say why a link failed.
 */
export function finishLinks(links: PendingLink[]): void {
  for (const { info, def } of links) {
    const { gl, program } = info;
    if (!gl.getProgramParameter(program, gl.LINK_STATUS)) {
      for (const [shader, source] of [[info.vertexShader, "vertex"], [info.fragmentShader, "fragment"]] as const) {
        if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) throw new Error(`loadShader: error while compiling the ${source} shader:\n${gl.getShaderInfoLog(shader)}`);
      }
      throw new Error(`loadProgram: error while linking the program: ${gl.getProgramInfoLog(program)}`);
    }
    for (const u of def.UNIFORMS) {
      const location = gl.getUniformLocation(program, u);
      if (location) info.uniformLocations[u] = location;
    }
    for (const a of [...def.ATTRIBUTES, ...(def.CONSTANT_ATTRIBUTES ?? [])]) info.attributeLocations[a.name] = gl.getAttribLocation(program, a.name);
  }
}

async function pause(signal: AbortSignal): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  if (signal.aborted) throw new Cancelled();
}
