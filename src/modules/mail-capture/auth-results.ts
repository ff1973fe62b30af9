// Authentication-Results (RFC 8601) as the operator's own mail server stamps them: is a message's From authenticated?
// Only headers bearing a trusted authserv-id, and only the topmost of them, count: anything lower was written before
// the message reached that server, which is to say by whoever sent it.

/** What the trusted server said about the From: pass (authenticated), fail (DMARC failed), none, unchecked (no ids set). */
export type SenderAuth = "pass" | "fail" | "none" | "unchecked";

export interface AuthResult {
  method: string;
  result: string;
  /** `ptype.property` → value, lower case (`header.d`, `header.from`, `smtp.mailfrom` …). */
  props: Record<string, string>;
}

/** Drops RFC 5322 comments (nested parentheses, quoted strings respected) and unfolds the lines. */
function stripComments(s: string): string {
  let out = "";
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === "\\" && (quoted || depth > 0)) {
      if (depth === 0) out += c + (s[i + 1] ?? "");
      i++;
    } else if (quoted) {
      out += c;
      if (c === '"') quoted = false;
    } else if (c === "(") depth++;
    else if (c === ")" && depth > 0) depth--;
    else if (depth > 0) continue;
    else {
      if (c === '"') quoted = true;
      out += c;
    }
  }
  return out.replace(/\r?\n[ \t]/g, " ");
}

/** Splits on `sep` outside quoted strings. */
function splitOutsideQuotes(s: string, sep: RegExp): string[] {
  const parts: string[] = [];
  let cur = "";
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === "\\" && quoted) {
      cur += c + (s[i + 1] ?? "");
      i++;
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (!quoted && sep.test(c)) {
      parts.push(cur);
      cur = "";
    } else cur += c;
  }
  parts.push(cur);
  return parts.map((p) => p.trim()).filter(Boolean);
}

const unquote = (v: string) => (v.startsWith('"') && v.endsWith('"') && v.length >= 2 ? v.slice(1, -1).replace(/\\(.)/g, "$1") : v);

/** One header's value (after "Authentication-Results:"): its authserv-id and results; null when it cannot be read. */
export function parseAuthResults(value: string): { authservId: string; results: AuthResult[] } | null {
  const [head, ...resinfos] = splitOutsideQuotes(stripComments(value), /;/);
  if (!head) return null;
  const authservId = unquote(splitOutsideQuotes(head, /\s/)[0] ?? "").toLowerCase();
  if (!authservId) return null;
  const results: AuthResult[] = [];
  for (const info of resinfos) {
    // CFWS is allowed around "=" and "/": closed up so each item is one word. A run of white space is tried only from
    // its start (`\s*=` tried from each of its characters: 50 KB of spaces in a forged header took 37 s).
    const items = splitOutsideQuotes(info.replace(/(?<!\s)\s+(?==)|(?<==)\s+/g, "").replace(/(?<!\s)\s+(?=\/)|(?<=\/)\s+/g, ""), /\s/);
    const spec = /^([a-z0-9_-]+)(?:\/[^=]*)?=([a-z0-9_-]+)$/i.exec(items[0] ?? "");
    if (!spec) continue; // "none", or a method this reader does not understand
    const props: Record<string, string> = {};
    for (const item of items.slice(1)) {
      const eq = item.indexOf("=");
      if (eq > 0) props[item.slice(0, eq).toLowerCase()] = unquote(item.slice(eq + 1)).toLowerCase();
    }
    results.push({ method: spec[1].toLowerCase(), result: spec[2].toLowerCase(), props });
  }
  return { authservId, results };
}

/** The domain of a pvalue: `example.com`, `@example.com` or `user@example.com`. */
const domainOf = (v: string | undefined) => (v === undefined ? undefined : v.slice(v.lastIndexOf("@") + 1));

/**
 * The results of the topmost Authentication-Results with a trusted authserv-id, and of those below it down to the next
 * Received header (one server's milters stamp several, e.g. OpenDKIM's and OpenDMARC's, above its own Received line).
 * Headers are in message order, top first.
 */
export function trustedResults(headers: readonly { key: string; line: string }[], trusted: readonly string[]): AuthResult[] | null {
  const ids = new Set(trusted.map((t) => t.toLowerCase()));
  const out: AuthResult[] = [];
  let found = false;
  for (const h of headers) {
    if (found && h.key === "received") break;
    if (h.key !== "authentication-results") continue;
    const parsed = parseAuthResults(h.line.slice(h.line.indexOf(":") + 1));
    if (!parsed || !ids.has(parsed.authservId)) continue;
    found = true;
    out.push(...parsed.results);
  }
  return found ? out : null;
}

/**
 * Whether the trusted server authenticated `fromDomain`: DMARC passed for it, or (without a DMARC failure) a DKIM
 * signature passed whose d= is that domain or a parent of it (relaxed alignment, without the public suffix list: a
 * signer cannot publish keys for a public suffix it does not own, so a parent domain is as safe as the DMARC rule).
 * SPF alone is not enough: it vouches for the envelope sender, not for the From a reply would go to.
 */
export function senderAuthentication(headers: readonly { key: string; line: string }[], fromDomain: string | null, trusted: readonly string[]): SenderAuth {
  if (trusted.length === 0) return "unchecked";
  const results = trustedResults(headers, trusted);
  if (results === null || fromDomain === null) return "none";
  const from = fromDomain.toLowerCase();
  const dmarc = results.filter((r) => r.method === "dmarc" && (domainOf(r.props["header.from"]) ?? from) === from);
  if (dmarc.some((r) => r.result === "fail")) return "fail";
  if (dmarc.some((r) => r.result === "pass")) return "pass";
  const aligned = (d: string | undefined) => d !== undefined && d.includes(".") && (from === d || from.endsWith(`.${d}`));
  const dkim = results.some((r) => r.method === "dkim" && r.result === "pass" && aligned(domainOf(r.props["header.d"] ?? r.props["header.i"])));
  return dkim ? "pass" : "none";
}
