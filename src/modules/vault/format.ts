// The vault's file format (docs/vault.md): one `Title.md` per live idea, YAML front matter for what Markdown has no
// place for, the body as it is. Rendering and reading are each other's inverse for everything the idea holds.
import { createHash } from "node:crypto";
import { yamlString } from "../../lib/yaml";
import { IDEA_STATUSES, type IdeaStatus } from "../../contract";

/** The front matter keys the product writes; any other key of a file is the person's and kept as written. */
const OWNED = new Set(["id", "title", "status", "tags", "created", "updated", "relations", "conflict_of", "version"]);
const STATUSES: ReadonlySet<string> = new Set(IDEA_STATUSES);

/** What a file says, as far as an idea cares. */
export interface ParsedFile {
  id: number | null;
  /** `title:` when the file name could not hold the title (see safeStem). */
  title: string | null;
  status: IdeaStatus | null;
  /** null: the file has no `tags` key. */
  tags: string[] | null;
  /** Set on a conflict file: the idea it belongs to. */
  conflictOf: number | null;
  /** The person's own front matter lines (keys the product does not own), verbatim. */
  extra: string;
  body: string;
  /** Front matter that is not YAML: read as body, and said so. */
  problem: string | null;
}

/** What an idea writes into its file. */
export interface IdeaForFile {
  id: number;
  title: string;
  body: string;
  status: string;
  tags: string[];
  created_at: string;
  updated_at: string;
  /** The person's typed relations other than [[wikilinks]]: "blocks [[Other idea]]". */
  relations: string[];
}

const FENCE = /^---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/** Top-level entries of a front matter block: each key with its continuation lines, in order. */
function entries(raw: string): Array<{ key: string | null; text: string }> {
  const out: Array<{ key: string | null; text: string }> = [];
  for (const line of raw.split("\n")) {
    const m = /^([^\s#][^:]*?)\s*:(\s|$)/.exec(line);
    if (m && !line.startsWith("-")) out.push({ key: m[1].replace(/^["']|["']$/g, ""), text: line });
    else if (out.length > 0) out[out.length - 1].text += `\n${line}`;
    else out.push({ key: null, text: line });
  }
  return out;
}

const asInt = (v: unknown) => (typeof v === "number" && Number.isSafeInteger(v) && v > 0 ? v : typeof v === "string" && /^\d{1,15}$/.test(v) ? Number(v) : null);

function asTags(v: unknown): string[] | null {
  if (v === undefined) return null;
  if (v === null) return [];
  const list = Array.isArray(v) ? v : typeof v === "string" ? v.split(/\s*,\s*|\s+/) : [v];
  return [...new Set(list.filter((x) => x !== null && x !== undefined).map((x) => String(x).replace(/^#/, "").trim()).filter(Boolean))];
}

/** Reads a file's text: front matter (the product's keys and the person's), then the body, exactly. */
export function parseFile(raw: string): ParsedFile {
  const text = raw.replace(/\r\n?/g, "\n");
  const empty: ParsedFile = { id: null, title: null, status: null, tags: null, conflictOf: null, extra: "", body: "", problem: null };
  const m = FENCE.exec(text);
  // The body is the text after the closing fence; the one final newline a file ends with is the file's, not the idea's.
  const bodyOf = (s: string) => (s.endsWith("\n") ? s.slice(0, -1) : s);
  if (!m) return { ...empty, body: bodyOf(text) };
  let fm: unknown;
  try {
    fm = Bun.YAML.parse(m[1]);
  } catch (e) {
    return { ...empty, body: bodyOf(text), problem: `front matter is not valid YAML (${(e as Error).message.split("\n")[0]})` };
  }
  if (fm !== null && fm !== undefined && (typeof fm !== "object" || Array.isArray(fm))) {
    return { ...empty, body: bodyOf(text), problem: "front matter is not a list of keys" };
  }
  const f = (fm ?? {}) as Record<string, unknown>;
  const status = typeof f.status === "string" && STATUSES.has(f.status.trim().toLowerCase()) ? (f.status.trim().toLowerCase() as IdeaStatus) : null;
  const title = typeof f.title === "string" && f.title.trim() ? f.title.trim() : typeof f.title === "number" ? String(f.title) : null;
  const extra = entries(m[1]).filter((e) => e.key === null ? e.text.trim() !== "" : !OWNED.has(e.key)).map((e) => e.text).join("\n");
  return { id: asInt(f.id), title, status, tags: asTags(f.tags), conflictOf: asInt(f.conflict_of), extra, body: bodyOf(text.slice(m[0].length)), problem: null };
}

/** The file of an idea: the product's keys, then the person's own (kept from the file it replaces), then the body. */
export function renderFile(idea: IdeaForFile, stem: string, extra = ""): string {
  let fm = `---\nid: ${idea.id}\n`;
  if (stem !== idea.title) fm += `title: ${yamlString(idea.title)}\n`;
  fm += `status: ${idea.status}\n`;
  fm += idea.tags.length === 0 ? "tags: []\n" : `tags:\n${idea.tags.map((t) => `  - ${yamlString(t)}\n`).join("")}`;
  fm += `created: ${yamlString(idea.created_at)}\nupdated: ${yamlString(idea.updated_at)}\n`;
  if (idea.relations.length > 0) fm += `relations:\n${idea.relations.map((r) => `  - ${yamlString(r)}\n`).join("")}`;
  if (extra.trim() !== "") fm += `${extra.replace(/\n+$/, "")}\n`;
  return `${fm}---\n${idea.body}\n`;
}

/** A conflict file: the text the idea did not keep, marked so the sync never takes it for a new idea. */
export function renderConflict(ideaId: number, version: number, body: string): string {
  return `---\nconflict_of: ${ideaId}\nversion: ${version}\n---\n${body}\n`;
}

export const hashOf = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("base64url");

// Characters no common file system (or Obsidian's links: # ^ [ ] |) takes in a name; control characters too.
const UNSAFE = /[\\/:*?"<>|#^[\]\u0000-\u001f\u007f]/g;
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;
/** Names stay well under the 255 bytes every common file system allows, room left for " (12).md". */
const MAX_STEM_BYTES = 180;

/**
 * A file name stem for a title, safe on Linux, macOS and Windows: unsafe characters become spaces, runs of white space
 * one space, no leading dot (hidden) or trailing dot or space (Windows), no reserved device name, at most 180 bytes
 * of UTF-8 cut at a character, NFC. An empty result is "Untitled".
 */
export function safeStem(title: string): string {
  let s = title.normalize("NFC").replace(UNSAFE, " ").replace(/\s+/g, " ").trim().replace(/^[.\s]+/, "").replace(/[.\s]+$/, "");
  const enc = new TextEncoder();
  if (enc.encode(s).length > MAX_STEM_BYTES) {
    let out = "";
    for (const ch of s) {
      if (enc.encode(out + ch).length > MAX_STEM_BYTES) break;
      out += ch;
    }
    s = out.replace(/[.\s]+$/, "");
  }
  if (s === "") s = "Untitled";
  if (RESERVED.test(s)) s = `${s}_`;
  return s;
}

/** The key two names collide under on a case-insensitive file system (macOS, Windows). */
export const nameKey = (path: string) => path.normalize("NFC").toLowerCase();

export const stemOf = (path: string) => path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/i, "");
export const dirOf = (path: string) => (path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "");
