// Domain errors carrying the spec's status and body, and the single mapping from any thrown value to an HTTP answer.
import { codePoints } from "./contract";
import { OperatorError } from "./lib/operator-error";
export type ErrorBody = Record<string, unknown> & { error: unknown };

export class AppError extends Error {
  constructor(public readonly status: number, public readonly body: ErrorBody) {
    super(typeof body.error === "string" ? body.error : "validation");
  }
}

export const badRequest = (error: string | Record<string, string[]>) => new AppError(400, { error });
export const fieldError = (field: string, message: string) => badRequest({ [field]: [message] });
export const unauthorized = () => new AppError(401, { error: "Unauthorized" });
export const forbidden = (error: string) => new AppError(403, { error });
export const notFound = (error: string) => new AppError(404, { error });
export const conflict = (error: string) => new AppError(409, { error });
export const rateLimited = () => new AppError(429, { error: "Rate limit exceeded" });
export const internal = (error = "Internal server error") => new AppError(500, { error });
export const badGateway = (error: string, extra: Record<string, unknown> = {}) => new AppError(502, { error, ...extra });
export const scopeError = (scope: string) => new AppError(403, { error: `Insufficient scope: requires ${scope}` });
export const invalidIdeaId = () => badRequest("Invalid idea ID");

export { OperatorError };

/** An OperatorError about an input, as the 400 a form shows next to that input (`fallback` when it names none). */
export const formFieldError = (e: OperatorError, fallback: string) => fieldError(e.field ?? fallback, e.formMessage ?? e.message);

export function planGate(label: string, feature: string, upgradeUrl: string): AppError {
  return new AppError(403, { error: `${label} requires a Pro plan`, pro_required: true, feature, upgrade_url: upgradeUrl });
}

interface SchemaLike {
  type?: string;
  const?: unknown;
  anyOf?: SchemaLike[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  patternError?: string;
  minLengthError?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  minItems?: number;
}
interface Issue { path?: string; value?: unknown; schema?: SchemaLike & { error?: unknown } }

/** A plain-language message for the common TypeBox failures, so clients never see schema jargon. */
function describeIssue(field: string, issue: Issue): string | null {
  const s = issue.schema;
  const v = issue.value;
  if (!s) return null;
  if (v === undefined) return `${field} is required`;
  const branches = s.anyOf ?? [s];
  const literals = branches.filter((b) => b.const !== undefined).map((b) => String(b.const));
  if (literals.length > 0 && literals.length === branches.filter((b) => b.type !== "null").length) {
    return `${field} must be one of: ${literals.join(", ")}`;
  }
  const str = branches.find((b) => b.type === "string");
  if (typeof v === "string" && str) {
    // Characters are code points, as the schemas count them (an emoji is one).
    const chars = codePoints(v);
    if (str.maxLength !== undefined && chars > str.maxLength) return `${field} must be at most ${str.maxLength} characters`;
    if (str.minLength !== undefined && chars < str.minLength) {
      if (str.minLengthError !== undefined) return str.minLengthError;
      return str.minLength === 1 ? `${field} must not be empty` : `${field} must be at least ${str.minLength} characters`;
    }
    if (str.format === "parsable-url") return `${field} must be a valid URL`;
    if (str.pattern !== undefined && str.patternError !== undefined) return str.patternError;
    if (str.pattern !== undefined || str.format !== undefined) return `${field} has an invalid format`;
  }
  const arr = branches.find((b) => b.type === "array");
  if (Array.isArray(v) && arr) {
    if (arr.maxItems !== undefined && v.length > arr.maxItems) return `${field} must have at most ${arr.maxItems} items`;
    if (arr.minItems !== undefined && v.length < arr.minItems) {
      return arr.minItems === 1 ? `${field} must not be empty` : `${field} must have at least ${arr.minItems} items`;
    }
  }
  const num = branches.find((b) => b.type === "number" || b.type === "integer");
  if (typeof v === "number" && num) {
    if (num.minimum !== undefined && v < num.minimum) return `${field} must be at least ${num.minimum}`;
    if (num.maximum !== undefined && v > num.maximum) return `${field} must be at most ${num.maximum}`;
  }
  const types = [...new Set(branches.map((b) => b.type).filter((t): t is string => !!t))];
  if (types.length > 0 && !types.some((t) => typeMatches(t, v))) return `${field} must be ${types.map(article).join(" or ")}`;
  return null;
}

const typeMatches = (t: string, v: unknown) =>
  t === "null" ? v === null : t === "array" ? Array.isArray(v) : t === "integer" ? Number.isInteger(v) : typeof v === t && !Array.isArray(v);
const article = (t: string) => (t === "null" ? "null" : t === "integer" || t === "array" || t === "object" ? `an ${t}` : `a ${t}`);

/** `links/0/relation_type` → `links[0].relation_type`: the place of a list's item as a client writes it. */
const itemName = (segments: string[]) =>
  segments.reduce((name, s, i) => (i === 0 ? s : /^\d+$/.test(s) ? `${name}[${s}]` : `${name}.${s}`), "");

/**
 * A failure inside a list (or an object) is reported under the list's name, as the spec's shape has it, and says
 * which item: `tags[1] must be a string`, `links[0].relation_type must be one of …` (a member's own text naming it
 * gets the item's place; another text is put after it).
 */
function itemMessage(segments: string[], issue: Issue): string {
  const name = itemName(segments);
  const custom = typeof issue.schema?.error === "string" ? issue.schema.error : null;
  if (!custom) return describeIssue(name, issue) ?? `${name} is not valid`;
  const member = segments.findLast((seg) => !/^\d+$/.test(seg)) ?? "";
  return custom.startsWith(`${member} `) ? `${name}${custom.slice(member.length)}` : `${name}: ${custom}`;
}

/**
 * The message for one failed field, naming the kind of problem (docs/auth.md, "Validation messages"). A schema's own
 * `error` text is written for users but words one kind of failure (a limit, a format, the allowed values), so a
 * top-level field that is missing or of the wrong type (null included) gets the plain words for that instead:
 * "label is required", "label must be a string". Closed vocabularies keep their text whatever was sent (it lists the
 * allowed values). Inside arrays and objects the schema's text is kept: it names the nested member the field's name
 * cannot.
 */
function messageFor(field: string, topLevel: boolean, issue: Issue): string | null {
  const custom = typeof issue.schema?.error === "string" ? issue.schema.error : null;
  if (!custom) return describeIssue(field, issue);
  if (!topLevel || isEnum(issue.schema!)) return custom;
  if (issue.value === undefined) return `${field} is required`;
  return acceptsType(issue.schema!, issue.value) ? custom : describeIssue(field, issue) ?? custom;
}

const isEnum = (s: SchemaLike) => (s.anyOf ?? [s]).some((b) => b.const !== undefined);
/** The value has a JSON type the schema allows (so what failed is its content: length, range, pattern). */
const acceptsType = (s: SchemaLike, v: unknown) => {
  const types = (s.anyOf ?? [s]).map((b) => b.type).filter((t): t is string => !!t);
  return types.length === 0 || types.some((t) => typeMatches(t, v) || (t === "integer" && typeof v === "number"));
};

/** Turn TypeBox/Elysia validation issues into the spec's `{error:{field:[messages]}}` body. */
/**
 * Field name → messages, without a prototype: a client's field may be called "constructor" or "toString", and on a
 * plain object those names found Object's own members (a TypeError inside the error handler: a 500 page, not a 400).
 */
const fieldMessages = (): Record<string, string[]> => Object.create(null) as Record<string, string[]>;

export function validationBody(issues: Array<{ path?: string; message?: string; summary?: string; schema?: { error?: unknown } }>): ErrorBody {
  const fields = fieldMessages();
  for (const issue of issues) {
    // No body at all: name the fields it lacks, not a field called "body" (an idea's own optional body, for clients
    // that show each message beside its field); a schema that requires nothing answers as for a JSON null body.
    if ((issue.path ?? "") === "" && (issue as Issue).value === undefined) {
      const required = (issue.schema as { required?: string[] } | undefined)?.required ?? [];
      if (required.length === 0 && Object.keys(fields).length === 0) return { error: "Request body must be a JSON object" };
      for (const name of required) (fields[name] ??= []).includes(`${name} is required`) || fields[name].push(`${name} is required`);
      continue;
    }
    const segments = (issue.path ?? "").replace(/^\//, "").split("/");
    const field = segments[0] || "body";
    const msg = segments.length === 1
      ? messageFor(field, true, issue as Issue) || issue.summary || issue.message || "Invalid value"
      : itemMessage(segments, issue as Issue);
    (fields[field] ??= []).includes(msg) || fields[field].push(msg);
  }
  if (Object.keys(fields).length === 0) fields.body = ["Invalid request body"];
  return { error: fields };
}

/**
 * Runs every field check and reports all failures in one 400 (the spec maps EACH offending field to its messages),
 * or returns every result. Checks throw `fieldError`s; anything else is rethrown as it is.
 */
export function allFields<T extends unknown[]>(...checks: { [K in keyof T]: () => T[K] }): T {
  const fields = fieldMessages();
  const out = checks.map((check) => {
    try {
      return check();
    } catch (e) {
      if (!(e instanceof AppError) || e.status !== 400 || typeof e.body.error !== "object" || e.body.error === null) throw e;
      for (const [field, messages] of Object.entries(e.body.error as Record<string, string[]>)) (fields[field] ??= []).push(...messages);
      return undefined;
    }
  });
  if (Object.keys(fields).length > 0) throw badRequest(fields);
  return out as T;
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}
