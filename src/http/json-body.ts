// JSON request bodies are objects: malformed JSON, or JSON that is not an object, is a 400 on every API route.
//
// Elysia reads a JSON body with request.json() and, for a route whose body schema is optional, swallows what that
// throws (malformed JSON on POST /user/api-keys minted a key); it also turns a JSON `1` or `[]` into `{}` before
// validation (PATCH /ideas/:id answered 200). Every body in the API is an object, so the request's json reader is
// replaced on API requests by a strict one, and a refusal is remembered here and answered by `assertJsonBody` (a
// transform hook, after parsing) even where Elysia swallowed the throw. An empty body stays "no body", as before.
import { AppError } from "../errors";

const refused = new WeakMap<Request, AppError>();

/** Installs the strict reader; call after any other reader replacement (body-limit.ts), whose text() it reads. */
export function strictJsonBody(request: Request): void {
  // A media type is case-insensitive (RFC 9110 §8.3.1), but Elysia picks its parser by exact match: "Application/JSON"
  // left the body unread, and a valid capture was refused with "title is required".
  const type = request.headers.get("content-type");
  if (type !== null && type !== type.toLowerCase() && /^\s*application\/json\s*(;|$)/i.test(type)) {
    request.headers.set("content-type", type.toLowerCase());
  }
  const text = request.text.bind(request);
  const json = async () => {
    const raw = await text();
    if (raw.trim() === "") throw new SyntaxError("empty body");
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      refused.set(request, new AppError(400, { error: "Invalid JSON body" }));
      throw e;
    }
    const problem = value === null || typeof value !== "object" || Array.isArray(value)
      ? "Request body must be a JSON object"
      : nestedTooDeep(value) ? `Request body is nested too deeply (at most ${MAX_DEPTH} levels)` : null;
    if (problem) {
      const err = new AppError(400, { error: problem });
      refused.set(request, err);
      throw err;
    }
    return value;
  };
  Object.defineProperty(request, "json", { value: json, configurable: true });
}

/**
 * No body of this API nests beyond a few levels (bulk relations: object, array, object). A value nested ~100,000 deep
 * parses, but Elysia's validation error serialises it recursively and overflowed the stack: a 500.
 */
const MAX_DEPTH = 32;

/** Walks the parsed value without recursion (its own depth is the danger). */
function nestedTooDeep(root: object): boolean {
  const stack: Array<[unknown, number]> = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (depth > MAX_DEPTH) return true;
    for (const child of Object.values(value as object)) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return false;
}

export function assertJsonBody({ request }: { request: Request }): void {
  const err = refused.get(request);
  if (err) throw err;
}

/** The refusal for a request whose parse failed, so the error handler answers with it rather than a generic 400. */
export const jsonRefusal = (request: Request) => refused.get(request);
