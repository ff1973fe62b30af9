// Builds the OpenAPI 3.1 document from the live route table: every registered /api/v1 route, with its TypeBox schemas.
import { API_PREFIX } from "../../auth/plugin";
import { requiredProps, toJsonSchema, type JsonSchema } from "./schema";
import { ERROR_BODIES } from "../../contract/responses";
import { ROUTE_DOCS, type RouteDoc } from "./summaries";
import { requiredByService, withBodyVocabularies, withQueryVocabulary } from "./vocabularies";

/** The part of an Elysia route entry the generator reads (`app.routes`). */
export interface RouteEntry {
  method: string;
  path: string;
  hooks?: Record<string, unknown>;
}

export interface DocumentInfo {
  version: string;
  /** Extra Markdown for info.description (e.g. the configured base URL). */
  note?: string;
}

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);
const CREDENTIAL_HEADERS = new Set(["authorization", "x-api-key", "cookie"]);
const SECURITY = [{ apiKeyHeader: [] }, { bearer: [] }, { sessionCookie: [] }];

// Feature groups for the reference page; the first matching prefix wins, otherwise the first path segment.
const GROUPS: Array<[RegExp, string]> = [
  [/^\/ideas\/search/, "search"],
  [/^\/ideas\/duplicates/, "duplicates"],
  [/^\/ideas\/[^/]+\/links/, "links"],
  [/^\/ideas\/[^/]+\/relations|^\/map\/relations/, "relations"],
  [/^\/user\/(api-keys|mcp-tokens)/, "api-keys"],
  [/^\/user\/byok/, "byok"],
  [/^\/user\/(export|import)/, "export"],
  [/^\/(health|openapi\.json|docs)$/, "meta"],
];

// One line per group for the reference page and the tools that read the document (Redocly's tag-description rule).
const GROUP_DESCRIPTIONS: Record<string, string> = {
  admin: "Instance administration: users, invitations, backups (admin accounts only).",
  agent: "Thinking with an AI about ideas, over a WebSocket, on the person's own provider key.",
  "api-keys": "API keys and MCP tokens of the signed-in account.",
  auth: "Sign-in, registration, invitations and sign-out; they answer with a session token.",
  byok: "The person's own AI provider keys (bring your own key): store, test, remove.",
  duplicates: "Possible duplicates found by the pipeline: list, dismiss, merge.",
  export: "Export of every idea (JSON, CSV, Markdown) and import from other apps.",
  ideas: "Capture, read, edit, archive, merge and develop ideas.",
  links: "Links attached to an idea.",
  map: "The mind map: ideas and their relations as a graph.",
  meta: "Health and this reference; public, no credential.",
  relations: "Typed relations between ideas, set by people or found by the pipeline.",
  review: "The review queue of ideas waiting for a decision.",
  search: "Keyword and meaning search over the account's ideas.",
  setup: "First-run setup of the instance.",
  tags: "Tags of the account, and tag suggestions.",
  vault: "The account's folder of Markdown kept in step with its ideas: state, choose, disconnect.",
  user: "The signed-in account: profile, shortcuts, billing links, support, digest test.",
};
const describeGroup = (name: string) => GROUP_DESCRIPTIONS[name] ?? `Routes under /api/v1/${name}.`;

const routeKey = (method: string, rel: string) => `${method} ${rel}`;

/** Does the route run the central auth plugin? It is the only derive our modules register (src/auth/plugin.ts). */
export function requiresAuth(route: RouteEntry): boolean {
  const transform = route.hooks?.transform;
  return Array.isArray(transform) && transform.some((h) => (h as { subType?: string })?.subType === "derive");
}

export function buildOpenApiDocument(routes: readonly RouteEntry[], info: DocumentInfo) {
  const paths: Record<string, Record<string, unknown>> = {};
  const usedIds = new Set<string>();
  const groups = new Set<string>();
  for (const route of routes) {
    const method = route.method.toUpperCase();
    if (!METHODS.has(method) || !route.path.startsWith(API_PREFIX + "/")) continue;
    // A module's root route ("/" under its prefix) is registered with a trailing slash; clients call it without.
    const rel = route.path.slice(API_PREFIX.length).replace(/(.)\/$/, "$1");
    const doc: RouteDoc = ROUTE_DOCS[routeKey(method, rel)] ?? { summary: `${method} ${rel}` };
    const group = GROUPS.find(([re]) => re.test(rel))?.[1] ?? rel.split("/")[1];
    groups.add(group);
    const oasPath = API_PREFIX + rel.replace(/:(\w+)\??/g, "{$1}");
    paths[oasPath] ??= {};
    paths[oasPath][method.toLowerCase()] = operation(route, method, rel, doc, group, usedIds);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "idearepo API",
      version: info.version,
      // The project's licence (LICENSE at the repository's top level); Redocly's recommended rules ask for it.
      license: { name: "MIT", identifier: "MIT" },
      description:
        "Per-account idea repository. Every route under /api/v1 except health and this reference needs a credential: " +
        "`X-API-Key: svc_…`, `Authorization: Bearer <API key or session token>`, or the `svc_session` cookie. " +
        "Timestamps are UTC strings `YYYY-MM-DD HH:MM:SS`." + (info.note ? `\n\n${info.note}` : ""),
    },
    servers: [{ url: "/" }],
    tags: [...groups].sort().map((name) => ({ name, description: describeGroup(name) })),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      securitySchemes: {
        apiKeyHeader: { type: "apiKey", in: "header", name: "X-API-Key", description: "An API key (svc_ followed by 64 hex characters)." },
        bearer: { type: "http", scheme: "bearer", description: "A session token or an API key." },
        sessionCookie: { type: "apiKey", in: "cookie", name: "svc_session", description: "The web app's session cookie (exempt from the rate limit)." },
      },
      schemas: {
        // The spec's error bodies, from the same models the routes declare.
        ...Object.fromEntries(ERROR_BODIES.map((b) => [b.$id!, toJsonSchema(b)])),
      },
    },
  };
}

function operation(route: RouteEntry, method: string, rel: string, doc: RouteDoc, group: string, usedIds: Set<string>) {
  const hooks = route.hooks ?? {};
  const secured = requiresAuth(route);
  const op: Record<string, unknown> = {
    operationId: uniqueId(method, rel, usedIds),
    summary: doc.summary,
    tags: [group],
  };
  if (doc.description) op.description = doc.description;
  if (doc.internal) op["x-internal"] = true;
  const parameters = [...pathParams(route.path, hooks.params), ...objectParams(hooks.query, "query", routeKey(method, rel)), ...objectParams(hooks.headers, "header", routeKey(method, rel))];
  if (parameters.length) op.parameters = parameters;
  if (hooks.body) {
    op.requestBody = { required: true, content: { "application/json": { schema: withBodyVocabularies(toJsonSchema(hooks.body), routeKey(method, rel)) } } };
  }
  op.responses = responses(hooks.response, doc, secured, parameters.length > 0 || hooks.body !== undefined, route.path.includes(":"), method !== "GET" && method !== "DELETE");
  op.security = secured ? SECURITY : [];
  return op;
}

function uniqueId(method: string, rel: string, used: Set<string>): string {
  const words = rel.split("/").filter(Boolean).map((seg) => (seg.startsWith(":") ? `by-${seg.slice(1)}` : seg));
  const base = [method.toLowerCase(), ...words]
    .join("-")
    .replace(/[^a-zA-Z0-9]+(.)/g, (_, c: string) => c.toUpperCase())
    .replace(/[^a-zA-Z0-9]/g, "");
  let id = base;
  for (let n = 2; used.has(id); n++) id = `${base}${n}`;
  used.add(id);
  return id;
}

function pathParams(path: string, schema: unknown) {
  const props = (toJsonSchema(schema).properties ?? {}) as Record<string, JsonSchema>;
  return [...path.matchAll(/:(\w+)/g)].map(([, name]) => ({
    name,
    in: "path",
    required: true,
    schema: props[name] ?? { type: "string" },
  }));
}

function objectParams(schema: unknown, where: "query" | "header", route: string) {
  if (!schema) return [];
  const json = toJsonSchema(schema);
  const required = new Set([...requiredProps(json), ...(where === "query" ? requiredByService(route) : [])]);
  return Object.entries((json.properties ?? {}) as Record<string, JsonSchema>)
    .filter(([name]) => where !== "header" || !CREDENTIAL_HEADERS.has(name.toLowerCase()))
    .map(([name, s]) => {
      const { description, ...rest } = s;
      return { name, in: where, required: required.has(name), schema: withQueryVocabulary(name, rest), ...(description ? { description } : {}) };
    });
}

const errorRef = (name: string, description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } },
});

// What each shared error status means when the route's own entry (summaries.ts) does not say more.
const ERROR_MEANINGS: Record<string, string> = {
  "400": "Invalid input",
  "401": "Missing, malformed, revoked or expired credential: always `{error:\"Unauthorized\"}`",
  "403": "Missing scope, or a Pro feature on the Free plan",
  "404": "Absent, or owned by another account (indistinguishable)",
  "429": "Daily request quota spent",
};
const ERROR_NAMES = new Set(ERROR_BODIES.map((b) => b.$id!));

function responses(declared: unknown, doc: RouteDoc, secured: boolean, validated: boolean, hasId: boolean, bodyMethod: boolean) {
  const out: Record<string, unknown> = {};
  const byStatus = declaredByStatus(declared);
  const success = String(doc.status ?? 200);
  // A route that declares no success yet, neither a 2xx nor a WebSocket's 101 (the contract test fails on it), still
  // shows one, of unknown shape.
  if (!Object.keys(byStatus).some((s) => s.startsWith("2") || s === "101")) byStatus[success] = undefined;
  for (const [status, schema] of Object.entries(byStatus)) {
    if (status === "101") {
      out[status] = { description: (schema as { description?: string }).description ?? "Switching Protocols" };
      continue;
    }
    // A shared error body (its $id names it) becomes a reference to components/schemas.
    const shared = (schema as { $id?: string } | undefined)?.$id;
    if (shared && ERROR_NAMES.has(shared)) {
      out[status] = errorRef(shared, doc.errors?.[Number(status)] ?? ERROR_MEANINGS[status] ?? "See the error body");
      continue;
    }
    out[status] = {
      description: status.startsWith("2") ? "Success" : (doc.errors?.[Number(status)] ?? "See the error body"),
      content: { [doc.contentType ?? "application/json"]: { schema: schema === undefined ? {} : toJsonSchema(jsonOf(schema)) } },
    };
  }
  // OpenAPI tools (Redocly's operation-2xx-response) expect a 2XX on every operation; an upgrade has none to give.
  if (out["101"] && !Object.keys(out).some((s) => s.startsWith("2"))) {
    out["200"] = { description: "Never sent: a successful upgrade answers 101 Switching Protocols (listed because OpenAPI tools expect a 2XX)." };
  }
  for (const [status, meaning] of Object.entries(doc.errors ?? {})) out[status] ??= errorRef(status === "400" ? "ValidationError" : "Error", meaning);
  // Routes without declared errors yet (declaredByStatus found none): the statuses their plugins and checks answer.
  if (validated) out["400"] ??= errorRef("ValidationError", ERROR_MEANINGS["400"]);
  if (secured) {
    out["401"] ??= errorRef("Error", ERROR_MEANINGS["401"]);
    out["403"] ??= errorRef("PlanGate", ERROR_MEANINGS["403"]);
    out["429"] ??= errorRef("Error", ERROR_MEANINGS["429"]);
  }
  if (hasId) out["404"] ??= errorRef("Error", ERROR_MEANINGS["404"]);
  // Transport answers, before any route code runs: body over the configured limit, request line or headers too long.
  if (bodyMethod) out["413"] ??= errorRef("Error", "Request body over the limit: `{error:\"Request body too large\"}`");
  out["431"] ??= errorRef("Error", "Request line or headers too large");
  out["500"] ??= errorRef("Error", "Unexpected failure: `{error:\"Internal server error\"}`");
  return out;
}

/** A model of JSON text a route sends as it is (contentMediaType/contentSchema): the client reads the JSON. */
function jsonOf(schema: unknown): unknown {
  const s = schema as { contentMediaType?: string; contentSchema?: unknown };
  return s.contentMediaType === "application/json" && s.contentSchema ? s.contentSchema : schema;
}

// Elysia keeps `response` either as one schema (the 200 body) or as a map of status → schema.
function declaredByStatus(declared: unknown): Record<string, unknown> {
  if (!declared || typeof declared !== "object") return {};
  const isSchema = Object.getOwnPropertySymbols(declared).length > 0 || "type" in declared || "anyOf" in declared;
  if (isSchema) return { "200": declared };
  return Object.fromEntries(Object.entries(declared).filter(([k]) => /^\d{3}$/.test(k)));
}
