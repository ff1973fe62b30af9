// Turns a note read from a source into what an idea can hold: the API's limits, a split of over-long notes, a content hash.
import { createHash } from "node:crypto";
import { codePoints, LIMITS } from "../../contract";
import type { SourceNote } from "./sources/types";

/** One idea to be: a note, or one part of a note longer than an idea's body may be. */
export interface Draft {
  origin: string;
  title: string;
  body: string;
  tags: string[];
  status: SourceNote["status"];
  archived: boolean;
  created_at?: Date;
  updated_at?: Date;
  links: { url: string; title: string | null }[];
  related: string[];
  aliases: string[];
  problems: string[];
  hash: string;
}

const cut = (s: string, max: number) => {
  const cps = [...s];
  return cps.length <= max ? s : `${cps.slice(0, max - 1).join("").trimEnd()}…`;
};

/**
 * Pieces of at most `max` code points, cut at a blank line, else a line end, else a space, when one is near the end.
 * The code points are walked by index: copying the rest after each piece (and shifting each space off its front)
 * made an 800 KB note take seconds.
 */
export function splitBody(body: string, max = LIMITS.body): string[] {
  if (body.length <= max) return [body]; // UTF-16 units ≥ code points: surely short enough, no need to count
  const parts: string[] = [];
  const cps = [...body];
  let start = 0;
  while (cps.length - start > max) {
    const window = cps.slice(start, start + max).join("");
    const min = Math.floor(window.length * 0.5);
    let at = window.lastIndexOf("\n\n");
    if (at < min) at = window.lastIndexOf("\n");
    if (at < min) at = window.lastIndexOf(" ");
    if (at < min) at = window.length;
    const piece = window.slice(0, at);
    parts.push(piece.trimEnd());
    start += [...piece].length;
    while (start < cps.length && /\s/.test(cps[start])) start++;
  }
  parts.push(cps.slice(start).join(""));
  return parts;
}

function cleanTags(raw: string[], problems: string[]): string[] {
  const out: string[] = [];
  for (const t of raw) {
    const name = t.replace(/^#+/, "").trim();
    if (!name || out.includes(name)) continue;
    if (codePoints(name) > LIMITS.tagName) { problems.push(`tag "${cut(name, 40)}" is longer than ${LIMITS.tagName} characters: not imported`); continue; }
    out.push(name);
  }
  if (out.length > LIMITS.tags) {
    problems.push(`${out.length} tags; an idea holds ${LIMITS.tags}: kept the first ${LIMITS.tags} (dropped ${out.slice(LIMITS.tags).join(", ")})`);
    return out.slice(0, LIMITS.tags);
  }
  return out;
}

function cleanLinks(raw: SourceNote["links"], problems: string[]): Draft["links"] {
  const out: Draft["links"] = [];
  for (const l of raw) {
    if (out.some((x) => x.url === l.url)) continue;
    if (l.url.length > LIMITS.url || !URL.canParse(l.url)) { problems.push(`link ${cut(l.url, 60)} is not a URL an idea can hold: not imported`); continue; }
    out.push({ url: l.url, title: l.title ? cut(l.title.replace(/\s+/g, " ").trim(), LIMITS.linkTitle) || null : null });
  }
  return out;
}

function hashOf(d: Omit<Draft, "hash" | "problems">): string {
  // Dates are left out: they often come from the file system (a re-zipped or checked-out folder has new ones), and a
  // note whose words did not change has not changed.
  const stable = [d.title, d.body, d.tags, d.status ?? null, d.archived, d.links, d.related];
  return createHash("sha256").update(JSON.stringify(stable)).digest("base64url");
}

/**
 * A note as one idea, or as several when its body is over 50,000 characters: nothing is truncated; part 2… become
 * ideas titled "… (part 2 of 3)", related to the first, each remembered under `origin#part-N`.
 */
export function draftsOf(n: SourceNote): Draft[] {
  const problems = [...n.problems];
  let title = n.title.replace(/\s+/g, " ").trim();
  if (!title) title = "Untitled";
  if (codePoints(title) > LIMITS.title) {
    problems.push(`title longer than ${LIMITS.title} characters: shortened`);
    title = cut(title, LIMITS.title);
  }
  const tags = cleanTags([...n.tags, ...(n.pinned ? ["pinned"] : [])], problems);
  const links = cleanLinks(n.links, problems);
  const pieces = splitBody(n.body.replace(/\r\n?/g, "\n"));
  if (pieces.length > 1) problems.push(`longer than ${LIMITS.body.toLocaleString("en")} characters: split into ${pieces.length} ideas`);
  const base = { tags, status: n.status, archived: n.archived === true, created_at: n.created_at, updated_at: n.updated_at };
  return pieces.map((body, i) => {
    const d = i === 0
      ? { ...base, origin: n.origin, title, body, links, related: n.related, aliases: n.aliases ?? [] }
      : { ...base, origin: `${n.origin}#part-${i + 1}`, title: `${cut(title, LIMITS.title - 20)} (part ${i + 1} of ${pieces.length})`, body, links: [], related: [n.origin], aliases: [] };
    return { ...d, problems: i === 0 ? problems : [], hash: hashOf(d) };
  });
}
