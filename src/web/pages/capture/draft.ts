// The capture form's text: kept in localStorage per account so a reload or a closed tab loses nothing, and read
// from ?title=&body=&url=&text= (bookmarklet, iOS Shortcut, the PWA share target).
import type { NewIdea } from "../../api/ideas";
import { LIMITS } from "../../api/types";

export interface ParentRef { id: number; number: number; title: string }
export interface Draft { title: string; body: string; tags: string[]; sourceUrl: string; parent: ParentRef | null }

export const EMPTY_DRAFT: Draft = { title: "", body: "", tags: [], sourceUrl: "", parent: null };
const PARAMS = ["title", "body", "text", "url"] as const;

const key = (userId: string, slot: "draft" | "aside") => `idearepo.capture.${slot}.${userId}`;
/** How many put-aside drafts are kept (the oldest goes first). */
const MAX_ASIDE = 20;

export const isEmptyDraft = (d: Draft) => !d.title.trim() && !d.body.trim() && d.tags.length === 0 && !d.sourceUrl.trim() && !d.parent;

function parseDraft(d: Partial<Draft> | null | undefined): Draft | null {
  if (!d || typeof d !== "object") return null;
  return {
    title: String(d.title ?? ""),
    body: String(d.body ?? ""),
    tags: Array.isArray(d.tags) ? d.tags.map(String) : [],
    sourceUrl: String(d.sourceUrl ?? ""),
    parent: d.parent && typeof d.parent.id === "number" ? d.parent : null,
  };
}

function read(k: string): unknown {
  try {
    const raw = localStorage.getItem(k);
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}

function write(k: string, value: unknown): void {
  try {
    if (value === null) localStorage.removeItem(k);
    else localStorage.setItem(k, JSON.stringify(value));
  } catch {
    // storage full or blocked: the form still works, the text just does not outlive the tab
  }
}

export const loadDraft = (userId: string): Draft | null => parseDraft(read(key(userId, "draft")) as Partial<Draft>);
export const saveDraft = (userId: string, d: Draft | null) => write(key(userId, "draft"), d && !isEmptyDraft(d) ? d : null);

/** Drafts put aside when a share, a bookmarklet or "Clear" replaced the form's text; newest last. */
export function loadAside(userId: string): Draft[] {
  const list = read(key(userId, "aside"));
  return Array.isArray(list) ? list.map((d) => parseDraft(d)).filter((d): d is Draft => d !== null && !isEmptyDraft(d)) : [];
}
export function saveAside(userId: string, list: Draft[]): Draft[] {
  const kept = list.filter((d) => !isEmptyDraft(d)).slice(-MAX_ASIDE);
  write(key(userId, "aside"), kept.length ? kept : null);
  return kept;
}

const URL_ONLY = /^https?:\/\/\S+$/i;

/** The form's fields from a share or bookmarklet URL; null when the URL carries none of them. */
export function draftFromQuery(q: URLSearchParams): Draft | null {
  if (!PARAMS.some((p) => q.get(p)?.trim())) return null;
  let title = q.get("title")?.trim() ?? "";
  let body = q.get("body") ?? "";
  let sourceUrl = q.get("url")?.trim() ?? "";
  const text = q.get("text")?.trim() ?? "";
  // Android shares a page as title + text=<the URL>; some apps put the URL in the title.
  if (URL_ONLY.test(title) && !sourceUrl) [sourceUrl, title] = [title, ""];
  if (text) {
    if (URL_ONLY.test(text)) {
      if (!sourceUrl) sourceUrl = text;
      else if (text !== sourceUrl) body = body ? `${body}\n\n${text}` : text;
    } else if (!title && !body && text.split("\n")[0].length <= LIMITS.title) {
      // Shared text with no title: its first line becomes the title, the rest the body.
      const [first, ...rest] = text.split("\n");
      title = first.trim();
      body = rest.join("\n").trim();
    } else {
      body = body ? `${body}\n\n${text}` : text;
    }
  }
  return { title, body, tags: [], sourceUrl, parent: null };
}

/** Removes the share parameters from the address bar (the draft holds them now; a reload must not re-apply them). */
export function queryWithoutShare(q: URLSearchParams): string {
  const rest = new URLSearchParams(q);
  for (const p of PARAMS) rest.delete(p);
  const s = rest.toString();
  return s ? `?${s}` : "";
}

/** What POST /ideas receives from the form. */
export function toNewIdea(d: Draft): NewIdea {
  const idea: NewIdea = { title: d.title.trim(), source: "web" };
  if (d.body.trim()) idea.body = d.body;
  if (d.tags.length) idea.tags = d.tags;
  if (d.sourceUrl.trim()) idea.source_url = d.sourceUrl.trim();
  if (d.parent) idea.parent_id = d.parent.id;
  return idea;
}

/** The form's own checks against the spec's limits, before anything is sent. */
export function checkDraft(d: Draft): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!d.title.trim()) errors.title = "A title is needed";
  else if (d.title.trim().length > LIMITS.title) errors.title = `The title has ${d.title.trim().length.toLocaleString()} characters; at most ${LIMITS.title} fit`;
  if (d.body.length > LIMITS.body) errors.body = `The body has ${d.body.length.toLocaleString()} characters; at most ${LIMITS.body.toLocaleString()} fit`;
  if (d.tags.length > LIMITS.tags) errors.tags = `At most ${LIMITS.tags} tags`;
  else if (d.tags.some((t) => t.length > LIMITS.tagName)) errors.tags = `A tag has at most ${LIMITS.tagName} characters`;
  if (d.sourceUrl.trim().length > LIMITS.url) errors.source_url = `At most ${LIMITS.url.toLocaleString()} characters`;
  return errors;
}
