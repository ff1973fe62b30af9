// Mermaid diagrams in generated specs, drawn under the page CSP (style-src 'self': no <style> elements, no style="").
//
// Mermaid is imported on demand (its own chunks, fetched only when a spec has a diagram) and renders at securityLevel
// 'strict' with SVG labels. Left alone it writes inline styles three ways, each a CSP violation: setAttribute("style"),
// a <style> element in the SVG, and the style attributes its DOMPurify pass re-parses. So, for the one render only:
// - setAttribute("style", v) goes through CSSOM (el.style.cssText = v), which the CSP does not govern;
// - the <style> element it creates is an inert stand-in whose text becomes a constructed stylesheet (CSSOM too);
// - the markup it serializes for sanitizing carries styles as data-style, so nothing parsed has a style attribute.
// The sanitized SVG is then checked again (SVG elements only, no handlers, no outside links) and drawn in a shadow
// root with its stylesheet adopted there, so the diagram's CSS cannot reach the page.
import { render } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { Markdown } from "./markdown";

type Mermaid = typeof import("mermaid").default;

const SVG_NS = "http://www.w3.org/2000/svg";
const XLINK_NS = "http://www.w3.org/1999/xlink";
/** Elements in a namespace of no meaning to the browser: a "style" here is plain text, never a style sheet. */
const INERT_NS = "urn:idearepo:inert";
const FENCE = /^\s*(```|~~~)\s*mermaid\b/im;

/** Whether a Markdown text holds a ```mermaid block (so mermaid is worth loading). */
export const hasDiagram = (markdown: string) => FENCE.test(markdown);

let loading: Promise<Mermaid> | null = null;
const loadMermaid = () =>
  (loading ??= import("mermaid").then((m) => m.default).catch((e) => {
    loading = null;
    throw e;
  }));

const prefersDark = () => {
  const set = document.documentElement.dataset.theme;
  return set ? set === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
};

/** Settings a diagram's own %%{init}%% directive may not change: how it is drawn safely, and how it looks. */
const SECURE_KEYS = [
  "secure", "securityLevel", "startOnLoad", "maxTextSize", "maxEdges", "suppressErrorRendering", "htmlLabels", "flowchart",
  "theme", "themeVariables", "themeCSS", "fontFamily", "altFontFamily", "darkMode", "logLevel",
];

let seq = 0;
let queue: Promise<unknown> = Promise.resolve();

export interface DrawnDiagram { svg: SVGSVGElement; css: string }

/** Renders one diagram's source to a sanitized SVG element (not yet in the page) and its CSS. One render at a time. */
export function renderDiagram(source: string): Promise<DrawnDiagram> {
  const run = queue.then(async () => {
    const mermaid = await loadMermaid();
    const dark = prefersDark();
    mermaid.initialize({
      startOnLoad: false,
      securityLevel: "strict",
      htmlLabels: false,
      flowchart: { htmlLabels: false },
      suppressErrorRendering: true,
      logLevel: "fatal",
      theme: dark ? "dark" : "default",
      fontFamily: getComputedStyle(document.body).fontFamily,
      secure: SECURE_KEYS,
    });
    const { svg, css } = await renderWithoutInlineStyles(mermaid, `diagram-${++seq}`, source);
    return { svg: toSafeSvg(svg), css };
  });
  queue = run.catch(() => undefined);
  return run;
}

async function renderWithoutInlineStyles(mermaid: Mermaid, id: string, source: string): Promise<{ svg: string; css: string }> {
  const rules: string[] = [];
  // Applied while mermaid measures text, so sizes match the finished drawing; its selectors are scoped to #id.
  const liveSheet = new CSSStyleSheet();
  const addRules = (text: string) => {
    rules.push(text);
    liveSheet.replaceSync(rules.join("\n"));
  };
  const scratch = document.createElement("div");
  scratch.className = "mermaid-scratch";
  scratch.setAttribute("aria-hidden", "true");
  document.body.append(scratch);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, liveSheet];
  const restore = patchDom(addRules);
  try {
    const done = mermaid.render(id, source, scratch);
    // mermaid builds its wrapper <div id="d{id}"> synchronously, then later reads its innerHTML to sanitize and return.
    const wrapper = scratch.querySelector(`#d${id}`);
    if (wrapper) Object.defineProperty(wrapper, "innerHTML", { configurable: true, get: () => serializeWithoutStyles(wrapper) });
    const out = await done;
    return { svg: out.svg, css: rules.join("\n") };
  } finally {
    restore();
    scratch.remove();
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== liveSheet);
  }
}

const innerHTMLGetter = Object.getOwnPropertyDescriptor(Element.prototype, "innerHTML")!.get!;

/** The wrapper's markup with every style attribute moved to data-style and every style element left out. */
function serializeWithoutStyles(el: Element): string {
  const clone = el.cloneNode(true) as Element;
  for (const s of clone.querySelectorAll("style")) s.remove();
  for (const s of clone.querySelectorAll("[style]")) {
    s.setAttribute("data-style", s.getAttribute("style") ?? "");
    s.removeAttribute("style");
  }
  return innerHTMLGetter.call(clone);
}

/** For the duration of one render: inline styles through CSSOM, style elements as inert text. Returns the undo. */
function patchDom(addRules: (css: string) => void): () => void {
  const proto = Element.prototype;
  const setAttribute = proto.setAttribute;
  proto.setAttribute = function (this: Element, name: string, value: string) {
    if (name.toLowerCase() === "style" && (this instanceof HTMLElement || this instanceof SVGElement)) {
      this.style.cssText = String(value);
      return;
    }
    return setAttribute.call(this, name, value);
  };
  const inertStyle = () => {
    const el = document.createElementNS(INERT_NS, "style");
    const capture = { configurable: true, get: () => "", set: (v: string) => addRules(String(v)) };
    Object.defineProperty(el, "innerHTML", capture);
    Object.defineProperty(el, "textContent", capture);
    return el;
  };
  const createElement = document.createElement;
  const createElementNS = document.createElementNS;
  document.createElement = function (this: Document, name: string, opts?: ElementCreationOptions) {
    return String(name).toLowerCase() === "style" ? inertStyle() : createElement.call(this, name, opts);
  } as Document["createElement"];
  document.createElementNS = function (this: Document, ns: string | null, name: string, opts?: ElementCreationOptions) {
    return String(name).toLowerCase() === "style" && ns !== INERT_NS ? inertStyle() : createElementNS.call(this, ns, name, opts as never);
  } as Document["createElementNS"];
  return () => {
    proto.setAttribute = setAttribute;
    delete (document as { createElement?: unknown }).createElement;
    delete (document as { createElementNS?: unknown }).createElementNS;
  };
}

/** Parses mermaid's sanitized markup (it has no style attributes left) and keeps only plain SVG: belt and braces. */
function toSafeSvg(markup: string): SVGSVGElement {
  const doc = new DOMParser().parseFromString(markup, "text/html");
  const svg = doc.body.querySelector("svg");
  if (!svg) throw new Error("The diagram could not be drawn.");
  const walk = (el: Element) => {
    for (const child of [...el.children]) {
      const name = child.localName.toLowerCase();
      if (child.namespaceURI !== SVG_NS || name === "script" || name === "foreignobject" || name === "style") child.remove();
      else walk(child);
    }
    for (const attr of [...el.attributes]) {
      const n = attr.name.toLowerCase();
      const href = n === "href" || n === "xlink:href" || attr.namespaceURI === XLINK_NS;
      if (n.startsWith("on") || (href && !attr.value.trim().startsWith("#"))) el.removeAttributeNode(attr);
    }
  };
  walk(svg);
  return document.importNode(svg, true) as unknown as SVGSVGElement;
}

/** Shows a drawn diagram in a shadow root: its stylesheet is adopted there, its inline styles set through CSSOM. */
function mount(host: HTMLElement, drawn: DrawnDiagram): void {
  const root = host.shadowRoot ?? host.attachShadow({ mode: "open" });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(`:host{display:block}svg{display:block;margin:0 auto;height:auto}\n${drawn.css}`);
  root.adoptedStyleSheets = [sheet];
  root.replaceChildren(drawn.svg);
  for (const el of [drawn.svg, ...drawn.svg.querySelectorAll("[data-style]")] as Array<SVGElement>) {
    const style = el.getAttribute("data-style");
    if (style === null) continue;
    el.style.cssText = style;
    el.removeAttribute("data-style");
  }
}

/** One diagram from its source; while loading and on failure the source stays readable as code. */
export function MermaidDiagram({ source }: { source: string }) {
  const host = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<"drawing" | "drawn" | "failed">("drawing");
  useEffect(() => {
    let live = true;
    setState("drawing");
    renderDiagram(source).then(
      (drawn) => {
        if (!live || !host.current) return;
        mount(host.current, drawn);
        setState("drawn");
      },
      () => live && setState("failed"),
    );
    return () => {
      live = false;
    };
  }, [source]);
  return (
    <figure class="diagram" data-state={state}>
      <div ref={host} class="diagram-canvas" role="img" aria-label="Diagram" hidden={state !== "drawn"} />
      {state !== "drawn" && <pre class="diagram-source"><code>{source}</code></pre>}
      {state === "drawing" && <figcaption class="muted">Drawing the diagram…</figcaption>}
      {state === "failed" && <figcaption class="muted">This diagram could not be drawn; its source is shown instead.</figcaption>}
    </figure>
  );
}

/** Markdown (through the one renderer) whose ```mermaid blocks are drawn as diagrams; mermaid loads only if one is there. */
export function MarkdownWithDiagrams({ text, class: cls }: { text: string; class?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const box = ref.current;
    if (!box || !hasDiagram(text)) return;
    const hosts: HTMLElement[] = [];
    for (const code of box.querySelectorAll<HTMLElement>("pre > code.language-mermaid")) {
      const pre = code.parentElement!;
      const host = document.createElement("div");
      pre.replaceWith(host);
      hosts.push(host);
      render(<MermaidDiagram source={code.textContent ?? ""} />, host);
    }
    return () => hosts.forEach((h) => render(null, h));
  }, [text]);
  return (
    <div ref={ref}>
      <Markdown text={text} class={cls} />
    </div>
  );
}
