// The browsable API reference: one self-contained HTML page rendered on the server from the OpenAPI document.
// No scripts, fonts or CDN assets, so it works offline and under a strict Content-Security-Policy.
import type { JsonSchema } from "./schema";

type Doc = ReturnType<typeof import("./document").buildOpenApiDocument>;
interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters?: Array<{ name: string; in: string; required: boolean; schema: JsonSchema }>;
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }> }>;
  security: unknown[];
  "x-internal"?: boolean;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
// Inline code spans in the summaries' Markdown; everything else stays plain text.
const md = (s: string) => esc(s).replace(/`([^`]+)`/g, "<code>$1</code>");

/** A schema as a short TypeScript-like type, e.g. `{ title: string (1–200), tags?: string[] }`. */
export function renderType(s: JsonSchema, depth = 0): string {
  const pad = "  ".repeat(depth + 1);
  if (s.$ref) return String(s.$ref).split("/").pop()!;
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (Array.isArray(s.anyOf)) return (s.anyOf as JsonSchema[]).map((a) => renderType(a, depth)).join(" | ");
  if (s.type === "array") return `${wrap(renderType((s.items ?? {}) as JsonSchema, depth))}[]${limits(s, "minItems", "maxItems")}`;
  if (s.type === "object" || s.properties) {
    const props = Object.entries((s.properties ?? {}) as Record<string, JsonSchema>);
    if (props.length === 0) return s.patternProperties || s.additionalProperties ? "{ [key: string]: … }" : "object";
    const req = new Set((s.required as string[] | undefined) ?? []);
    const lines = props.map(([k, v]) => `${pad}${k}${req.has(k) ? "" : "?"}: ${renderType(v, depth + 1)}`);
    return `{\n${lines.join("\n")}\n${"  ".repeat(depth)}}`;
  }
  const base = typeof s.type === "string" ? s.type : "any";
  const fmt = typeof s.format === "string" ? ` <${s.format}>` : "";
  return base + fmt + limits(s, "minLength", "maxLength") + limits(s, "minimum", "maximum");
}

const wrap = (t: string) => (t.includes(" | ") ? `(${t})` : t);

function limits(s: JsonSchema, lo: string, hi: string): string {
  const a = s[lo], b = s[hi];
  if (a === undefined && b === undefined) return "";
  if (a !== undefined && b !== undefined) return ` (${a}–${b})`;
  return a !== undefined ? ` (≥ ${a})` : ` (≤ ${b})`;
}

function renderOperation(method: string, path: string, op: Operation): string {
  const params = (op.parameters ?? [])
    .map((p) => `<tr><td><code>${esc(p.name)}</code></td><td>${p.in}</td><td>${p.required ? "yes" : ""}</td><td><code>${esc(renderType(p.schema))}</code></td></tr>`)
    .join("");
  const body = op.requestBody?.content["application/json"]?.schema;
  const responses = Object.entries(op.responses)
    .map(([status, r]) => {
      const [type, media] = Object.entries(r.content ?? {})[0] ?? [];
      const schema = media && Object.keys(media.schema).length ? `<pre>${esc(renderType(media.schema))}</pre>` : "";
      return `<li><b>${status}</b> ${md(r.description)}${type && type !== "application/json" ? ` <code>${esc(type)}</code>` : ""}${schema}</li>`;
    })
    .join("");
  return `<section class="op" id="${esc(op.operationId)}">
<h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${esc(path)}</code>${op.security.length ? "" : ' <span class="pub">no auth</span>'}${op["x-internal"] ? ' <span class="pub">internal</span>' : ""}</h3>
<p>${md(op.summary)}</p>${op.description ? `<p class="d">${md(op.description)}</p>` : ""}
${params ? `<table><tr><th>parameter</th><th>in</th><th>required</th><th>type</th></tr>${params}</table>` : ""}
${body ? `<h4>Request body <small>application/json</small></h4><pre>${esc(renderType(body))}</pre>` : ""}
<h4>Responses</h4><ul>${responses}</ul></section>`;
}

export function renderDocsPage(doc: Doc): string {
  const byTag = new Map<string, string[]>();
  const nav = new Map<string, string[]>();
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(ops)) {
      const op = raw as Operation;
      const tag = op.tags[0];
      (byTag.get(tag) ?? byTag.set(tag, []).get(tag)!).push(renderOperation(method, path, op));
      (nav.get(tag) ?? nav.set(tag, []).get(tag)!).push(`<a href="#${esc(op.operationId)}"><span class="m ${method}">${method.toUpperCase()}</span> ${esc(path.replace("/api/v1", ""))}</a>`);
    }
  }
  const tags = [...byTag.keys()].sort();
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(doc.info.title)} ${esc(doc.info.version)}</title>
<style>
body{margin:0;font:15px/1.5 system-ui,sans-serif;color:#1d1d1f;display:flex}
nav{width:300px;height:100vh;overflow:auto;position:sticky;top:0;background:#f5f5f7;padding:1rem;box-sizing:border-box;font-size:13px}
nav a{display:block;color:inherit;text-decoration:none;padding:1px 0}nav h2{font-size:13px;text-transform:uppercase;margin:1rem 0 .3rem;color:#666}
main{flex:1;padding:1rem 2rem;max-width:960px}pre{background:#f5f5f7;padding:.6rem;overflow:auto;font-size:13px}
code{font-size:13px}.op{border-top:1px solid #ddd;padding:.5rem 0}.d{color:#444}
.m{display:inline-block;min-width:3.8em;font:bold 11px monospace;text-align:center;border-radius:3px;padding:1px 3px;color:#fff;background:#888}
.get{background:#2f7d32}.post{background:#1565c0}.patch{background:#b26a00}.put{background:#6a1b9a}.delete{background:#c62828}
.pub{font-size:11px;border:1px solid #999;border-radius:3px;padding:0 4px;color:#555}
table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ddd;padding:2px 8px;text-align:left}
</style></head><body>
<nav><b>${esc(doc.info.title)}</b> <small>${esc(doc.info.version)}</small><br><a href="openapi.json">openapi.json</a>
${tags.map((t) => `<h2>${esc(t)}</h2>${nav.get(t)!.join("")}`).join("\n")}</nav>
<main><h1>${esc(doc.info.title)}</h1><p>${md(doc.info.description)}</p>
${tags.map((t) => `<h2>${esc(t)}</h2>${byTag.get(t)!.join("\n")}`).join("\n")}
</main></body></html>`;
}
