// What every fuzzed answer must satisfy: documented status, JSON errors in the spec's shape, no internals, a body that
// matches the document, and no acceptance of input the document calls invalid.
import { validate, type Schema } from "./json-schema";

export interface Operation {
  method: string;
  path: string;
  op: Schema;
}

export interface Sent {
  /** Short label of the generator that built the request (for the summary). */
  kind: string;
  url: string;
  /** The document says this request is invalid (a body or query value breaks its schema, or a limit is exceeded). */
  invalid: string[];
  /** Top-level body fields this request broke on purpose; a 400 with a field map must name every one. */
  badFields: string[];
  /** The JSON body as sent, when it was one. */
  body?: unknown;
  /** The request is over a size limit: only 413 (or 431 for the request line) is acceptable. */
  oversized?: "body" | "line";
}

export interface Answer {
  status: number;
  contentType: string;
  text: string;
}

export interface Finding {
  rule: string;
  operation: string;
  kind: string;
  status: number;
  detail: string;
  url: string;
}

// 5xx answers the spec documents for a route; any other 5xx is a finding (the generic 500 is "unhandled failure").
const DOCUMENTED_5XX: Record<string, number[]> = {
  "PATCH /api/v1/tags/{id}": [500],
  "POST /api/v1/user/test-digest": [500],
  "POST /api/v1/ideas/{id}/develop": [502],
  "GET /api/v1/user/support-link": [502],
  "GET /api/v1/health": [503],
  // Outside the documented surface (spec: shapes not shown); a self-hosted instance answers them 501.
  "GET /api/v1/agent/ws": [501],
  // Billing (docs/billing.md): 501 while billing is off, 502 when Stripe cannot be reached or refuses.
  "POST /api/v1/user/billing/checkout": [501, 502],
  "POST /api/v1/user/billing/portal": [501, 502],
  "POST /api/v1/billing/webhook": [501, 502],
};

const LEAKS: Array<[RegExp, string]> = [
  [/\bat\s+[\w.<>$]+\s+\(?[^()\s]*:\d+:\d+\)?/, "stack frame"],
  [/\b[\w./-]+\.(ts|js|tsx|mjs):\d+/, "source location"],
  [/node_modules|\/src\/(modules|http|auth|db)\//, "source path"],
  [/SQLITE_\w+|SQLiteError|no such (table|column|function)|datatype mismatch|constraint failed|fts5: syntax error|malformed MATCH|unrecognized token/i, "SQLite message"],
  [/TypeError|ReferenceError|RangeError|SyntaxError:|undefined is not|cannot read propert/i, "JavaScript error"],
];

export function checkAnswer(o: Operation, doc: Schema, sent: Sent, ans: Answer, secrets: string[]): Finding[] {
  const name = `${o.method} ${o.path}`;
  const out: Finding[] = [];
  const add = (rule: string, detail: string) => out.push({ rule, operation: name, kind: sent.kind, status: ans.status, detail: detail.slice(0, 300), url: sent.url.slice(0, 200) });
  const responses = (o.op.responses ?? {}) as Record<string, Schema>;
  const documented = responses[String(ans.status)];

  if (ans.status >= 500 && !(DOCUMENTED_5XX[name] ?? []).includes(ans.status)) add("5xx", ans.text);
  else if (!documented) add("undocumented status", ans.text);

  let body: unknown;
  const isJson = /application\/json/.test(ans.contentType);
  if (isJson || ans.status >= 400) {
    try {
      body = JSON.parse(ans.text);
    } catch {
      add(ans.status >= 400 ? "error not JSON" : "body not JSON", `content-type ${ans.contentType || "(none)"}: ${JSON.stringify(ans.text.slice(0, 80))}`);
    }
  }
  if (ans.status >= 400 && body !== undefined && !/application\/json/.test(ans.contentType)) add("error not JSON", `content-type ${ans.contentType || "(none)"}`);

  for (const [re, what] of LEAKS) {
    const m = ans.text.match(re);
    // Success bodies echo what we stored, and we store hostile text on purpose; errors echo nothing of ours.
    if (m && ans.status >= 400) add("leak", `${what}: ${m[0]}`);
  }
  for (const s of secrets) if (s && ans.text.includes(s)) add("leak", `a path or secret of the server (${s.slice(0, 12)}…)`);

  if (documented && body !== undefined) {
    const media = (documented.content ?? {}) as Record<string, { schema?: Schema }>;
    const schema = media["application/json"]?.schema;
    if (schema) {
      const problems = validate(schema, body, doc);
      if (problems.length) add(ans.status >= 400 ? "error shape" : "response schema", problems.slice(0, 4).join("; ") + ` :: ${ans.text.slice(0, 160)}`);
    }
  }

  if (ans.status >= 200 && ans.status < 300) {
    if (sent.oversized) add("limit", `a ${sent.oversized} over the limit was accepted`);
    else if (sent.invalid.length) add("accepted invalid input", sent.invalid.slice(0, 3).join("; "));
  }
  // A refusal before the body is read (credential, operator-only, rate limit) is fine; a 400 means it was read whole.
  if (sent.oversized === "body" && ![401, 403, 404, 413, 429].includes(ans.status) && !(ans.status >= 200 && ans.status < 300)) {
    add("limit", `expected 413 for an oversized body, got ${ans.status}`);
  }

  // A length refusal of a string the document allows (e.g. 200 emoji in a 200-character title).
  if (ans.status === 400 && body && typeof (body as any).error === "object" && sent.body && typeof sent.body === "object") {
    const props = (o.op.requestBody?.content?.["application/json"]?.schema?.properties ?? {}) as Record<string, Schema>;
    for (const [field, messages] of Object.entries((body as any).error as Record<string, string[]>)) {
      const value = (sent.body as Record<string, unknown>)[field];
      if (typeof value !== "string" || typeof props[field]?.maxLength !== "number" || validate(props[field], value, doc).length) continue;
      if ((messages ?? []).some((m) => /at most|characters|too long|longer/i.test(m))) add("rejected valid length", `${field}: ${[...value].length} code points, ${value.length} UTF-16 units: ${messages.join("; ")}`);
    }
  }
  if (ans.status === 400 && sent.badFields.length > 1 && body && typeof (body as any).error === "object") {
    const reported = Object.keys((body as any).error);
    const missing = sent.badFields.filter((f) => !reported.some((r) => r === f || r.startsWith(`${f}.`) || r.startsWith(`${f}[`) || r.startsWith(`${f}/`)));
    if (missing.length) add("invalid field not reported", `sent bad ${sent.badFields.join(", ")}; reported ${reported.join(", ")}`);
  }
  return out;
}
