// Reads an OAuth request body (form-encoded or JSON) into flat string parameters, without Elysia's error shapes.
export type FlatParams = Record<string, string | undefined>;

/** First value per key; non-string JSON values are dropped. null when the body cannot be read as either format. */
export async function readParams(request: Request): Promise<FlatParams | null> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  const text = await request.text().catch(() => null);
  if (text === null) return null;
  const out: FlatParams = {};
  if (type === "application/json") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return null;
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return null;
    for (const [k, v] of Object.entries(parsed)) if (typeof v === "string") out[k] = v;
    return out;
  }
  if (type === "application/x-www-form-urlencoded" || type === "") {
    for (const [k, v] of new URLSearchParams(text)) if (!(k in out)) out[k] = v;
    return out;
  }
  return null;
}

/** Query parameters, first value per key (a repeated parameter never turns into an array). */
export function queryParams(request: Request): FlatParams {
  const out: FlatParams = {};
  for (const [k, v] of new URL(request.url).searchParams) if (!(k in out)) out[k] = v;
  return out;
}

/** The registration body is JSON only (RFC 7591); undefined when it is not JSON at all. */
export async function readJson(request: Request): Promise<unknown> {
  try {
    return JSON.parse(await request.text());
  } catch {
    return undefined;
  }
}
