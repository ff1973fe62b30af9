// The one place the web app talks to the server: JSON over /api/v1 with the session cookie, errors as ApiError.
//
// Pages never call fetch themselves; they call the typed functions in api/*.ts, which call request() here.

/** The server answered with an error status; `body` is the spec's error body. */
export class ApiError extends Error {
  constructor(readonly status: number, readonly body: { error?: unknown; [k: string]: unknown }) {
    super(typeof body?.error === "string" ? body.error : `Request failed (${status})`);
  }
  /** Per-field messages of a 400 validation body (`{error:{field:[messages]}}`), else null. */
  get fields(): Record<string, string[]> | null {
    const e = this.body?.error;
    return e && typeof e === "object" && !Array.isArray(e) ? (e as Record<string, string[]>) : null;
  }
}

/** The server could not be reached at all (offline, restarting): the request may be retried later. */
export class NetworkError extends Error {
  constructor() {
    super("The server cannot be reached. Check the connection; nothing was changed.");
  }
}

type Listener = () => void;
const unauthorizedListeners = new Set<Listener>();
/** The app shell listens here: any 401 means the session ended, so it shows the sign-in page. */
export function onUnauthorized(fn: Listener): () => void {
  unauthorizedListeners.add(fn);
  return () => unauthorizedListeners.delete(fn);
}

/**
 * From the moment sign-out is asked until the next sign-in (or setup) answers, the account's reads are not sent: one
 * started by a timer meanwhile (the navigation badge's, 600 ms after a page opens) would reach the server after the
 * session ended and come back 401, which the browser logs as an error and which would reopen the sign-in page twice.
 * Only /auth/* and /setup go out then; the rest reject as aborted, which every caller already takes as "never mind".
 */
let sessionEnded = false;
/**
 * Counts sign-outs. An account's read sent before one and answered after it is dropped as aborted too: its answer
 * describes the session that ended (the shell's GET /user/me after signing in, slow on a loaded server, put the
 * account back on screen once the sign-in page was up).
 */
let sessions = 0;
/** Called by api/session.ts's signOut before it asks the server. */
export function endSession(): void {
  sessionEnded = true;
  sessions++;
}
const SIGNED_OUT_PATH = /^\/(auth\/|setup$)/;

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  signal?: AbortSignal;
  /** Return the raw Response (downloads) instead of parsed JSON. */
  raw?: boolean;
  /** A 401 here is an expected answer (sign-in form), not an ended session. */
  quiet401?: boolean;
}

export function apiUrl(path: string, query?: RequestOptions["query"]): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== "") qs.set(k, String(v));
  const s = qs.toString();
  return `/api/v1${path}${s ? `?${s}` : ""}`;
}

// GETs started before the page that reads them has rendered (src/web/boot.ts): the page's own identical GET takes
// the answer once, if it is fresh; otherwise it asks again.
const early = new Map<string, { at: number; answer: Promise<unknown> }>();
const EARLY_FRESH_MS = 5000;

/** Starts a GET now, for a page about to ask for exactly this (same path and query). */
export function prefetch(path: string, query?: RequestOptions["query"]): void {
  const url = apiUrl(path, query);
  if (early.has(url)) return;
  const answer = request("GET", path, { query, quiet401: true });
  answer.catch(() => {}); // read (or dropped) later; never an unhandled rejection
  early.set(url, { at: performance.now(), answer });
}

// Answers the server put inline in the signed-in shell (src/web/boot.ts): the first GET of each URL takes its answer
// at once, without a request; they are dropped when the boot looks again (after a sign-out, a 401 …).
const inlined = new Map<string, unknown>();

export function seedAnswers(answers: Record<string, unknown>): void {
  for (const [url, answer] of Object.entries(answers)) inlined.set(url, answer);
}

export function forgetAnswers(): void {
  inlined.clear();
}

/** The inline answer of GET `path` + `query`, once; undefined when the shell carried none (ask the server). */
export function takeAnswer<T>(path: string, query?: RequestOptions["query"]): T | undefined {
  const url = apiUrl(path, query);
  const answer = inlined.get(url);
  inlined.delete(url);
  return answer as T | undefined;
}

function takeEarly(url: string): Promise<unknown> | null {
  const e = early.get(url);
  if (!e) return null;
  early.delete(url);
  return performance.now() - e.at <= EARLY_FRESH_MS ? e.answer : null;
}

export async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  const signedOutPath = SIGNED_OUT_PATH.test(path);
  if (sessionEnded && !signedOutPath) throw new DOMException("The session has ended", "AbortError");
  const session = sessions;
  if (method === "GET" && !opts.raw && inlined.size) {
    const answer = takeAnswer<T>(path, opts.query);
    if (answer !== undefined) return answer;
  }
  if (method === "GET" && !opts.raw && early.size) {
    const answer = takeEarly(apiUrl(path, opts.query));
    if (answer) return answer as Promise<T>;
  }
  const headers: Record<string, string> = { accept: "application/json" };
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData || opts.body instanceof Blob) body = opts.body;
  else if (opts.body !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(opts.body);
  }
  let res: Response;
  try {
    res = await fetch(apiUrl(path, opts.query), { method, headers, body, credentials: "same-origin", signal: opts.signal });
  } catch (e) {
    if ((e as Error).name === "AbortError") throw e;
    throw new NetworkError();
  }
  if (session !== sessions && !signedOutPath) throw new DOMException("The session has ended", "AbortError");
  if (res.status === 401 && !opts.quiet401) for (const fn of unauthorizedListeners) fn();
  // Signed in again (or set up): the account's reads go out again. A sign-out's own answer does not reopen them.
  if (res.ok && signedOutPath && method === "POST" && path !== "/auth/logout") sessionEnded = false;
  if (res.ok && opts.raw) return res as unknown as T;
  const text = await res.text();
  if (session !== sessions && !signedOutPath) throw new DOMException("The session has ended", "AbortError");
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = { error: text.slice(0, 200) || `Request failed (${res.status})` };
  }
  if (!res.ok) throw new ApiError(res.status, (parsed ?? {}) as ApiError["body"]);
  return parsed as T;
}

export const get = <T>(path: string, opts?: RequestOptions) => request<T>("GET", path, opts);
export const post = <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>("POST", path, { ...opts, body });
export const patch = <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>("PATCH", path, { ...opts, body });
export const put = <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>("PUT", path, { ...opts, body });
export const del = <T>(path: string, opts?: RequestOptions) => request<T>("DELETE", path, opts);
