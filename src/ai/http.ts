// The one HTTP call all protocols share: bounded by a timeout, errors turned into short, key-free messages.
import { ProviderError } from "./types";

const MAX_MESSAGE = 500;

/** Removes every form in which the key could be echoed back (plain, URL-encoded) from a message. */
export function redact(text: string, secret: string): string {
  if (!secret) return text;
  let out = text;
  for (const form of new Set([secret, encodeURIComponent(secret)])) out = out.split(form).join("[redacted]");
  return out;
}

export function safeMessage(text: string, secret: string): string {
  const clean = redact(text, secret).replace(/\s+/g, " ").trim();
  return clean.length > MAX_MESSAGE ? `${clean.slice(0, MAX_MESSAGE - 1)}…` : clean;
}

export const joinUrl = (base: string, path: string) => `${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;

/**
 * POSTs JSON and returns the parsed 2xx body. Non-2xx answers throw with the provider's own message
 * (extracted by `errorMessage`), timeouts and network failures with a plain description.
 */
export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  opts: { secret: string; timeoutMs: number; errorMessage: (body: unknown) => string | null },
): Promise<unknown> {
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(opts.timeoutMs),
      redirect: "error",
    });
    text = await res.text();
  } catch (e) {
    const err = e as Error;
    if (err.name === "TimeoutError" || err.name === "AbortError") {
      throw new ProviderError(`Provider did not answer within ${Math.round(opts.timeoutMs / 1000)} s`);
    }
    throw new ProviderError(safeMessage(`Could not reach provider: ${err.message}`, opts.secret));
  }
  let parsed: unknown = undefined;
  try {
    parsed = JSON.parse(text);
  } catch {
    // handled below: a non-JSON body is either an error page or a malformed answer
  }
  if (!res.ok) throw httpError(res, text, opts);
  if (parsed === undefined) throw new ProviderError("Provider returned a response that is not JSON");
  return parsed;
}

/** A non-2xx answer as a ProviderError carrying the provider's own message (from its JSON error body) or the start of the body. */
export function httpError(res: Response, text: string, opts: { secret: string; errorMessage: (body: unknown) => string | null }): ProviderError {
  let parsed: unknown = undefined;
  try {
    parsed = JSON.parse(text);
  } catch {
    // an error page rather than the provider's JSON error
  }
  const fromBody = parsed === undefined ? null : opts.errorMessage(parsed);
  const detail = fromBody ?? (text.trim() ? text.trim().slice(0, 200) : res.statusText || "no details");
  return new ProviderError(safeMessage(`Provider returned HTTP ${res.status}: ${detail}`, opts.secret));
}

/** Reads a nested field without trusting the shape. */
export function pick(obj: unknown, ...path: Array<string | number>): unknown {
  let node = obj;
  for (const k of path) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string | number, unknown>)[k];
  }
  return node;
}

export const tokenCount = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.round(v) : 0);
