// A small, tolerant HTML/ENML → Markdown converter for note bodies (Evernote, Apple Notes, HTML e-mail) over htmlparser2: blocks, lists, checkboxes, links, emphasis.

import { decodeHTML } from "entities";
import { Tokenizer } from "htmlparser2";

type El = { tag: string; attrs: Record<string, string>; children: Node[] };
type Node = El | string;

export interface Converted { markdown: string; media: number; problems: string[] }

const VOID = new Set(["br", "hr", "img", "en-media", "en-todo", "input", "meta", "link", "col", "wbr", "area", "base", "source"]);
const SKIP = new Set(["head", "script", "style", "title", "object", "svg", "noscript", "template"]);
const BLOCK = new Set([
  "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "blockquote", "pre", "hr", "table", "thead", "tbody", "tfoot",
  "tr", "en-note", "body", "html", "section", "article", "header", "footer", "main", "aside", "nav", "dl", "dt", "dd", "figure", "center",
]);

/** Decodes character references with the WHATWG table (every named one); unknown names stay as written. */
export const decodeEntities = (s: string): string => decodeHTML(s);

/**
 * A forgiving tree from htmlparser2's tokenizer (maintained, linear on any input, the WHATWG entity table, script and
 * style read as raw text): unclosed elements close with their parent, stray end tags are ignored. The tree is built
 * here rather than by its Parser, whose stack of open elements is unbounded and walked per end tag (quadratic on
 * 100 KB of nested tags then stray end tags); this one stops at MAX_DEPTH.
 */
export function parseHtml(html: string): El {
  const root: El = { tag: "#root", attrs: {}, children: [] };
  const stack: El[] = [root];
  const lists: number[] = [0]; // lists open at each level of the stack, itself included
  let skipUntil: string | null = null;
  let tag = "";
  let attrs: Record<string, string> = {};
  let attrName = "";
  let attrValue = "";
  const text = (s: string) => {
    if (skipUntil) return;
    // Text comes in pieces (around each reference): one string per run, as the converter expects.
    const c = stack[stack.length - 1].children;
    if (typeof c[c.length - 1] === "string") c[c.length - 1] += s;
    else c.push(s);
  };
  const openTag = (selfClosing: boolean) => {
    const el: El = { tag, attrs, children: [] };
    attrs = {};
    if (skipUntil) return;
    if (SKIP.has(tag)) {
      if (!selfClosing) skipUntil = tag;
      return;
    }
    // A new <li>/<p> closes an open one, as browsers do.
    if ((tag === "li" || tag === "p") && stack[stack.length - 1].tag === tag) { stack.pop(); lists.pop(); }
    stack[stack.length - 1].children.push(el);
    // Past MAX_DEPTH the children join the element's parent: hostile nesting must not exhaust the converter's stack.
    // Lists stop deeper still: each level indents all the text below it again (200 KB of <ul><li> became 5 MB of
    // Markdown in seconds); past MAX_LIST_DEPTH a list's items join the deepest list as its items.
    const depth = lists[lists.length - 1] + (tag === "ul" || tag === "ol" ? 1 : 0);
    if (!VOID.has(tag) && !selfClosing && stack.length < MAX_DEPTH && depth <= MAX_LIST_DEPTH) { stack.push(el); lists.push(depth); }
  };
  const tokenizer = new Tokenizer({ xmlMode: false, decodeEntities: true }, {
    ontext: (start, end) => text(html.slice(start, end)),
    ontextentity: (cp) => text(String.fromCodePoint(cp)),
    oncdata: (start, end, offset) => text(html.slice(start, end - offset)),
    onopentagname: (start, end) => { tag = html.slice(start, end).toLowerCase(); },
    onattribname: (start, end) => { attrName = html.slice(start, end).toLowerCase(); attrValue = ""; },
    onattribdata: (start, end) => { attrValue += html.slice(start, end); },
    onattribentity: (cp) => { attrValue += String.fromCodePoint(cp); },
    onattribend: () => { if (!Object.hasOwn(attrs, attrName)) attrs[attrName] = attrValue; },
    onopentagend: () => openTag(false),
    onselfclosingtag: () => openTag(true),
    onclosetag: (start, end) => {
      const name = html.slice(start, end).toLowerCase();
      if (skipUntil) { if (name === skipUntil) skipUntil = null; return; }
      for (let at = stack.length - 1; at > 0; at--) if (stack[at].tag === name) { stack.length = lists.length = at; break; }
    },
    oncomment: () => {}, ondeclaration: () => {}, onprocessinginstruction: () => {}, onend: () => {},
  });
  tokenizer.write(html);
  tokenizer.end();
  return root;
}

const MAX_DEPTH = 200;
/** Deeper than any editor nests a list (Word and Google Docs stop at 9 levels). */
const MAX_LIST_DEPTH = 16;
const isSpace = (c: string | undefined) => c !== undefined && /\s/.test(c);
const isEl = (n: Node): n is El => typeof n !== "string";
const hasBlock = (el: El): boolean => el.children.some((c) => isEl(c) && (BLOCK.has(c.tag) || hasBlock(c)));
const style = (el: El) => (el.attrs.style ?? "").toLowerCase().replace(/\s+/g, "");

/** Characters that would turn plain text into Markdown syntax. */
const escapeInline = (s: string) => s.replace(/([\\`*_])/g, "\\$1").replace(/<(?=[a-zA-Z/!?])/g, "\\<");
const escapeLineStart = (s: string) => s.replace(/^(\s*)([#>+-]|\d+[.)])(?=\s|$)/, "$1\\$2");

interface Ctx { problems: string[]; media: number; pre: boolean }
type Block = { text: string; kind: "para" | "line" | "blank" };

/** `mark` around the text of `inner`, its leading and trailing white space left outside (counted, not matched by a pattern). */
function wrap(inner: string, mark: string): string {
  let start = 0;
  while (isSpace(inner[start])) start++;
  if (start === inner.length) return inner;
  let end = inner.length;
  while (isSpace(inner[end - 1])) end--;
  return `${inner.slice(0, start)}${mark}${inner.slice(start, end)}${mark}${inner.slice(end)}`;
}

/** `text-decoration[^;]*line-through` without its pattern, which went to the end of the style from every mention. */
const struckThrough = (st: string) => st.split(";").some((d) => { const at = d.indexOf("text-decoration"); return at >= 0 && d.includes("line-through", at + 15); });

function inline(nodes: Node[], ctx: Ctx): string {
  let out = "";
  for (const n of nodes) {
    if (!isEl(n)) {
      out += ctx.pre ? n : escapeInline(n.replace(/[ \t\r\n\u00a0]+/g, " "));
      continue;
    }
    const inner = () => inline(n.children, ctx);
    const st = style(n);
    switch (n.tag) {
      case "br": out += "\n"; break;
      case "b": case "strong": out += wrap(inner(), "**"); break;
      case "i": case "em": case "cite": out += wrap(inner(), "*"); break;
      case "s": case "strike": case "del": out += wrap(inner(), "~~"); break;
      case "code": case "tt": case "kbd": { const c = n.children.map(textOf).join(""); out += c ? `\`${c.replace(/`/g, "ˋ")}\`` : ""; break; }
      case "en-todo": out += n.attrs.checked === "true" ? "[x] " : "[ ] "; break;
      case "input": if (n.attrs.type === "checkbox") out += "checked" in n.attrs ? "[x] " : "[ ] "; break;
      case "en-media": case "img": ctx.media++; break;
      case "en-crypt": ctx.problems.push("encrypted text is not imported"); break;
      case "a": {
        const href = (n.attrs.href ?? "").trim();
        const text = inner();
        if (/^(https?|mailto):/i.test(href)) out += text.trim() === "" || text.trim() === escapeInline(href) ? `<${href}>` : `[${text.trim()}](${/[()\s<>]/.test(href) ? `<${href.replace(/[\s<>]/g, encodeURIComponent)}>` : href})`;
        else out += text;
        break;
      }
      default: {
        let s = inner();
        if (/font-weight:(bold|[6-9]00)/.test(st)) s = wrap(s, "**");
        if (/font-style:italic/.test(st)) s = wrap(s, "*");
        if (struckThrough(st)) s = wrap(s, "~~");
        out += s;
      }
    }
  }
  return out;
}

const textOf = (n: Node): string => (isEl(n) ? (n.tag === "br" ? "\n" : n.children.map(textOf).join("")) : n);

const tidy = (s: string) => s.split("\n").map((l) => l.replace(/[ \t]+/g, " ").trim()).join("\n").replace(/\n{3,}/g, "\n\n").trim();

function joinBlocks(blocks: Block[]): string {
  let out = "";
  let prev: Block | null = null;
  for (const b of blocks) {
    if (b.kind === "blank") { prev = b; continue; }
    if (prev && out) out += prev.kind === "line" && b.kind === "line" ? "\n" : "\n\n";
    out += b.text;
    prev = b;
  }
  return out;
}

function listItems(el: El, ctx: Ctx): string {
  const ordered = el.tag === "ol";
  const todoList = /--en-todo:true/.test(style(el));
  let i = Number(el.attrs.start) || 1;
  const lines: string[] = [];
  for (const li of el.children) {
    if (!isEl(li)) { if (li.trim()) lines.push(`- ${escapeInline(li.trim())}`); continue; }
    if (li.tag === "ul" || li.tag === "ol") { lines.push(indent(listItems(li, ctx), "  ")); continue; }
    let marker = ordered ? `${i++}. ` : "- ";
    if (todoList || /--en-checked:/.test(style(li))) marker += /--en-checked:true/.test(style(li)) ? "[x] " : "[ ] ";
    const body = blocks(li.children, ctx, "\n").replace(/^\\-(?= )/, "-");
    lines.push(marker + indent(body, " ".repeat(marker.length)).trimStart());
  }
  return lines.join("\n");
}

/** Every line but the first and the empty ones, indented; one native pass, since nested lists indent their text once per level. */
const indent = (s: string, pad: string) => s.replace(/\n(?=[^\n])/g, `\n${pad}`);

function block(el: El, ctx: Ctx): Block | null {
  const t = el.tag;
  if (/^h[1-6]$/.test(t)) { const s = tidy(inline(el.children, ctx)).replace(/\n/g, " "); return s ? { text: `${"#".repeat(Number(t[1]))} ${s}`, kind: "para" } : null; }
  if (t === "ul" || t === "ol") { const s = listItems(el, ctx); return s ? { text: s, kind: "para" } : null; }
  if (t === "hr") return { text: "---", kind: "para" };
  if (t === "pre") { const s = el.children.map(textOf).join("").replace(/^\n/, "").replace(/\s+$/, ""); return { text: `\`\`\`\n${s}\n\`\`\``, kind: "para" }; }
  if (t === "blockquote") { const s = blocks(el.children, ctx); return s ? { text: s.split("\n").map((l) => (l ? `> ${l}` : ">")).join("\n"), kind: "para" } : null; }
  if (t === "table" || t === "thead" || t === "tbody" || t === "tfoot") {
    const rows = collectRows(el).map((tr) => tr.children.filter(isEl).filter((c) => c.tag === "td" || c.tag === "th").map((c) => tidy(inline(c.children, ctx)).replace(/\n/g, " ").replace(/\|/g, "\\|")));
    if (!rows.length) return null;
    const width = Math.max(...rows.map((r) => r.length));
    const line = (r: string[]) => `| ${[...r, ...Array(width - r.length).fill("")].join(" | ")} |`;
    return { text: [line(rows[0]), `|${" --- |".repeat(width)}`, ...rows.slice(1).map(line)].join("\n"), kind: "para" };
  }
  if (t === "en-crypt") { ctx.problems.push("encrypted text is not imported"); return null; }
  if (t === "div" || t === "p" || t === "li" || t === "dt" || t === "dd" || !hasBlock(el)) {
    if (hasBlock(el)) { const s = blocks(el.children, ctx); return s ? { text: s, kind: "para" } : null; }
    let s = tidy(inline(el.children, ctx));
    if (!s) return { text: "", kind: "blank" };
    if (/^\[[ x]\] /.test(s)) return { text: `- ${s}`, kind: "line" };
    s = s.split("\n").map(escapeLineStart).join("\n");
    return { text: s, kind: t === "div" ? "line" : "para" };
  }
  const s = blocks(el.children, ctx);
  return s ? { text: s, kind: "para" } : null;
}

function collectRows(el: El): El[] {
  const rows: El[] = [];
  for (const c of el.children) if (isEl(c)) c.tag === "tr" ? rows.push(c) : rows.push(...collectRows(c));
  return rows;
}

function blocks(nodes: Node[], ctx: Ctx, sep?: string): string {
  const out: Block[] = [];
  let run: Node[] = [];
  const flush = () => {
    if (!run.length) return;
    const s = tidy(inline(run, ctx));
    run = [];
    if (s) out.push({ text: s.split("\n").map(escapeLineStart).join("\n"), kind: "line" });
  };
  for (const n of nodes) {
    if (isEl(n) && (BLOCK.has(n.tag) || hasBlock(n))) {
      flush();
      const b = block(n, ctx);
      if (b) out.push(b);
    } else run.push(n);
  }
  flush();
  if (sep !== undefined) return out.filter((b) => b.kind !== "blank").map((b) => b.text).join(sep);
  return joinBlocks(out);
}

/** Converts an HTML or ENML fragment to Markdown; images and media are dropped and counted. */
export function htmlToMarkdown(html: string): Converted {
  const ctx: Ctx = { problems: [], media: 0, pre: false };
  try {
    const markdown = blocks(parseHtml(html).children, ctx).replace(/\n{3,}/g, "\n\n").trim();
    return { markdown, media: ctx.media, problems: [...new Set(ctx.problems)] };
  } catch {
    // Whatever the markup, the words survive: tags stripped, with the loss said.
    const text = decodeEntities(stripTags(html)).replace(/[ \t]+/g, " ").trim();
    return { markdown: text, media: 0, problems: ["the formatting could not be converted; imported as plain text"] };
  }
}

/**
 * Scripts and styles with their content, then every `<…>`, each replaced by a space: what the patterns
 * `<(script|style)[\s\S]*?<\/\1>` then `<[^>]*>` did, by search, as those patterns restarted at every unclosed `<`.
 */
function stripTags(html: string): string {
  let out = "";
  let at = 0;
  const open = /<(script|style)/gi;
  const unclosed = new Set<string>();
  for (let m = open.exec(html); m; m = open.exec(html)) {
    const name = m[1].toLowerCase();
    if (unclosed.has(name)) continue;
    const close = new RegExp(`</${name}>`, "gi");
    close.lastIndex = open.lastIndex;
    if (!close.exec(html)) { unclosed.add(name); continue; }
    out += `${html.slice(at, m.index)} `;
    at = open.lastIndex = close.lastIndex;
  }
  const rest = out + html.slice(at);
  let text = "";
  let i = 0;
  for (let lt = rest.indexOf("<"); lt >= 0; lt = rest.indexOf("<", i)) {
    const gt = rest.indexOf(">", lt);
    if (gt < 0) break;
    text += `${rest.slice(i, lt)} `;
    i = gt + 1;
  }
  return text + rest.slice(i);
}

/**
 * The text of a document's <title>, if any (Apple Notes exporters write the note's title there): the first `<title`,
 * its `>` and the first `</title>` after it, as `<title[^>]*>([\s\S]*?)<\/title>` found them (when the first fails,
 * every later one does), by search: the pattern scanned to the end from each unclosed `<title`.
 */
export function htmlTitle(html: string): string | null {
  const open = /<title/gi;
  if (!open.exec(html)) return null;
  const gt = html.indexOf(">", open.lastIndex);
  if (gt < 0) return null;
  const close = /<\/title>/gi;
  close.lastIndex = gt + 1;
  const end = close.exec(html);
  const t = end ? decodeEntities(html.slice(gt + 1, end.index)).replace(/\s+/g, " ").trim() : "";
  return t || null;
}
