// The Markdown file format of the vault export, both directions: rendering for export, parsing for import.
import { frontMatter } from "../../lib/yaml";

export const LINKS_HEADING = "## Links";
export const RELATED_HEADING = "## Related";
const OUT = "→";
const IN = "←";

export interface MdLink { url: string; title: string | null; link_type: string }
export interface MdRelation {
  direction: "out" | "in";
  relation_type: string;
  /** The other idea's file stem, the wiki-link target. */
  stem: string;
  created_by: string;
  score: number | null;
  note: string | null;
}
export interface MdIdea {
  number: number;
  title: string;
  status: string;
  source: string;
  source_url: string | null;
  tags: string[];
  created_at: string;
  updated_at: string;
  body: string;
  links: MdLink[];
  relations: MdRelation[];
}

const oneLine = (s: string) => s.replace(/[\r\n\u2028\u2029]+/g, " ");
const escapeLinkText = (s: string) => oneLine(s).replace(/([\\[\]])/g, "\\$1");
const unescapeLinkText = (s: string) => s.replace(/\\([\\[\]])/g, "$1");
// Angle-bracket destinations may hold spaces and parentheses but not < > or line breaks.
const safeUrl = (u: string) => oneLine(u).replace(/</g, "%3C").replace(/>/g, "%3E");

function linkLine(l: MdLink): string {
  const type = ` \`${l.link_type}\``;
  return l.title === null ? `- <${safeUrl(l.url)}>${type}` : `- [${escapeLinkText(l.title)}](<${safeUrl(l.url)}>)${type}`;
}

function relationLine(r: MdRelation): string {
  const auto = r.created_by === "system" ? ` (auto${r.score === null ? "" : `, score ${r.score}`})` : "";
  const note = r.note ? ` — ${oneLine(r.note)}` : "";
  return `- ${r.direction === "out" ? OUT : IN} ${r.relation_type} [[${r.stem}]]${auto}${note}`;
}

/** Front matter, a blank line, the body verbatim, then the Links and Related sections (always both, maybe empty). */
export function renderIdeaMarkdown(i: MdIdea): string {
  const fields: Array<[string, string | number | string[]]> = [
    ["number", i.number],
    ["title", i.title],
    ["status", i.status],
    ["source", i.source],
    ["tags", i.tags],
    ["created", i.created_at],
    ["updated", i.updated_at],
  ];
  if (i.source_url !== null) fields.push(["source_url", i.source_url]);
  const links = i.links.map((l) => linkLine(l) + "\n").join("");
  const related = i.relations.map((r) => relationLine(r) + "\n").join("");
  return `${frontMatter(fields)}\n${i.body}\n\n${LINKS_HEADING}\n\n${links}\n${RELATED_HEADING}\n\n${related}`;
}

export interface ParsedMarkdown {
  frontMatter: string;
  body: string;
  links: MdLink[];
  /** Outgoing relations only: each relation is listed as outgoing in exactly one file. */
  relations: Array<Omit<MdRelation, "direction">>;
}

const LINK_RE = /^- \[((?:\\.|[^\\\]])*)\]\(<(.*)>\) `([a-z-]+)`$/;
const AUTOLINK_RE = /^- <(.*)> `([a-z-]+)`$/;
const RELATION_RE = new RegExp(`^- ${OUT} ([a-z]+) \\[\\[([^\\]|#]+)\\]\\](?: \\((auto)(?:, score ([-0-9.eE]+))?\\))?(?: — (.*))?$`);

/**
 * Splits one exported file. Our sections sit at the very end, so the last headings are ours even when the body
 * itself contains "## Links". Returns null when the file does not have the exported shape.
 */
export function parseIdeaMarkdown(text: string): ParsedMarkdown | null {
  const raw = text.replace(/^\uFEFF/, "");
  // We write LF; a CRLF fence means an editor converted the whole file, otherwise CRs belong to the body.
  const src = raw.startsWith("---\r\n") ? raw.replace(/\r\n/g, "\n") : raw;
  if (!src.startsWith("---\n")) return null;
  const fmEnd = src.indexOf("\n---\n", 3);
  if (fmEnd === -1) return null;
  const fm = src.slice(4, fmEnd + 1);
  const rest = src.slice(fmEnd + 5);
  const linksAt = rest.lastIndexOf(`\n\n${LINKS_HEADING}\n`);
  const relatedAt = rest.lastIndexOf(`\n${RELATED_HEADING}\n`);
  if (!rest.startsWith("\n") || linksAt === -1 || relatedAt < linksAt) return null;
  const body = rest.slice(1, linksAt);
  const lines = (s: string) => s.split("\n").filter((l) => l.startsWith("- "));
  const links: MdLink[] = [];
  for (const l of lines(rest.slice(linksAt, relatedAt))) {
    const m = LINK_RE.exec(l);
    const a = m ? null : AUTOLINK_RE.exec(l);
    if (m) links.push({ title: unescapeLinkText(m[1]), url: m[2], link_type: m[3] });
    else if (a) links.push({ title: null, url: a[1], link_type: a[2] });
  }
  const relations: ParsedMarkdown["relations"] = [];
  for (const l of lines(rest.slice(relatedAt))) {
    const m = RELATION_RE.exec(l);
    if (!m) continue;
    relations.push({
      relation_type: m[1],
      stem: m[2],
      created_by: m[3] === "auto" ? "system" : "user",
      score: m[4] === undefined ? null : Number(m[4]),
      note: m[5] ?? null,
    });
  }
  return { frontMatter: fm, body, links, relations };
}
