// Notion's "Markdown & CSV" export ZIP: "Title <32-hex id>.md" pages in nested folders, databases as CSV plus one page per row.
import type { ImportEntry, ImportInput, SkippedItem, SourceNote, SourceReader } from "./types";
import { baseName, decodeText, dirName, extOf, externalLinks, firstEntries, isJunk, mergeLinks, note, stripExt, validDate } from "./reader-kit";

type Status = NonNullable<SourceNote["status"]>;

/** Notion appends a space and the page id (32 hex digits, sometimes a dashed UUID) to every page and folder name. */
const ID_SUFFIX = / ([0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
const nameWithoutId = (stem: string) => stem.replace(ID_SUFFIX, "");
const hasId = (stem: string) => ID_SUFFIX.test(stem);
/**
 * A page's origin is its Notion id, which survives renames and moves (its path does not); a link names the same id
 * in its file name, so `related` uses the same form. Names without an id fall back to the path.
 */
const originOf = (path: string) => {
  const id = ID_SUFFIX.exec(stripExt(baseName(path)))?.[1];
  return id ? `notion:${id.replace(/-/g, "")}` : path;
};

const TAG_PROPS = /^(tags?|labels?|categor(y|ies)|topics?|keywords?)$/i;
const STATUS_PROPS = /^(status|stage|state|progress)$/i;
const CREATED_PROPS = /^(created|created time|created at|date created|creation date)$/i;
const UPDATED_PROPS = /^(last edited|last edited time|last edited on|updated|updated at|last updated|last modified|modified)$/i;

/** Notion status options are free text; the usual words map, anything else is reported and left unset. */
const STATUS_WORDS: [RegExp, Status][] = [
  [/^(not started|to ?do|backlog|idea|ideas|inbox|new|captured|draft|someday)$/i, "captured"],
  [/^(in progress|doing|started|exploring|research(ing)?|planning|planned|in review|review)$/i, "exploring"],
  [/^(building|in development|developing|implementing|wip|active)$/i, "building"],
  [/^(done|complete(d)?|shipped|launched|published|released|finished)$/i, "shipped"],
  [/^(archived|cancel+ed|abandoned|won'?t do|on hold|paused|blocked|shelved|dropped|parked)$/i, "shelved"],
];
export function notionStatus(value: string): Status | undefined {
  return STATUS_WORDS.find(([re]) => re.test(value.trim()))?.[1];
}

/** Notion writes dates as "January 2, 2024 3:04 PM" (or "2024/01/02 15:04", ISO); read in UTC, as the export names no zone. */
export function notionDate(value: string): Date | undefined {
  const v = value.trim().replace(/\s*\(.*\)$/, "").replace(/ → .*$/, "");
  if (!v) return undefined;
  const iso = /^\d{4}-\d{2}-\d{2}(T[\d:.]+)?(Z|[+-]\d{2}:?\d{2})?$/.test(v);
  const d = new Date(iso ? (/T/.test(v) && !/(Z|[+-]\d{2}:?\d{2})$/.test(v) ? `${v}Z` : /T/.test(v) ? v : `${v}T00:00:00Z`) : `${v} UTC`);
  return validDate(d);
}

/** RFC 4180 records of a CSV text (quoted fields may hold commas, quotes and line breaks). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === "") quoted = true;
    else if (c === ",") { row.push(field); field = ""; }
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field); field = "";
      if (row.length > 1 || row[0] !== "") rows.push(row);
      row = [];
    } else field += c;
  }
  if (field !== "" || row.length) { row.push(field); rows.push(row); }
  return rows;
}

/** Resolves a relative link of a page to a path in the ZIP (`..` handled; a link can never climb out of the ZIP). */
function resolvePath(fromDir: string, href: string): string {
  const parts = fromDir ? fromDir.split("/") : [];
  for (const seg of href.split("/")) {
    if (seg === "..") parts.pop();
    else if (seg !== "." && seg !== "") parts.push(seg);
  }
  return parts.join("/");
}

interface Properties { tags: string[]; status?: Status; created?: Date; updated?: Date; links: { url: string; title: string | null }[]; problems: string[] }

/** Maps one property onto the note; false when it has no place in an idea (it then stays in the body as written). */
function applyProperty(p: Properties, key: string, value: string): boolean {
  const k = key.trim();
  const v = value.trim();
  if (!v) return true;
  if (TAG_PROPS.test(k)) p.tags.push(...v.split(",").map((t) => t.trim()).filter(Boolean));
  else if (STATUS_PROPS.test(k)) {
    const s = notionStatus(v);
    if (!s) { p.problems.push(`${k} "${v}" matches no idea status; left unset`); return false; }
    p.status = s;
  } else if (CREATED_PROPS.test(k) && notionDate(v)) p.created = notionDate(v);
  else if (UPDATED_PROPS.test(k) && notionDate(v)) p.updated = notionDate(v);
  else if (/^https?:\/\/\S+$/.test(v)) p.links.push({ url: v, title: k });
  else return false;
  return true;
}

interface Page { path: string; dir: string; stem: string }

/** Reads one page: `# Title`, then (for database rows) `Key: value` property lines, then the body. */
function readPage(page: Page, text: string, dbColumns: string[] | null): SourceNote {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let i = 0;
  while (i < lines.length && lines[i].trim() === "") i++;
  let title = nameWithoutId(page.stem);
  if (/^# /.test(lines[i] ?? "")) title = lines[i++].slice(2).trim() || title;
  const props: Properties = { tags: [], links: [], problems: [] };
  // Property lines sit right after the title. In a database folder only the CSV's column names count; a row exported
  // on its own (no CSV) needs a block of such lines naming at least one property we know, so prose stays prose.
  let j = i;
  while (j < lines.length && lines[j].trim() === "") j++;
  const start = j;
  let end = start;
  while (end < lines.length && /^[^:\n]{1,40}: \S/.test(lines[end])) end++;
  const block = lines.slice(start, end).map((l) => l.slice(0, l.indexOf(":")).trim());
  const known = (k: string) => TAG_PROPS.test(k) || STATUS_PROPS.test(k) || CREATED_PROPS.test(k) || UPDATED_PROPS.test(k);
  const standalone = !dbColumns && block.length >= 2 && block.some(known) && (end === lines.length || lines[end].trim() === "");
  if (dbColumns || standalone) {
    const cols = new Set((dbColumns ?? block).map((c) => c.toLowerCase()));
    const kept: string[] = [];
    let any = false;
    while (j < lines.length) {
      const m = /^([^:\n]{1,80}): (.*)$/.exec(lines[j]);
      if (!m || !cols.has(m[1].trim().toLowerCase())) break;
      any = true;
      // Properties with no place in an idea (people, numbers, selects…) stay in the body as Notion wrote them.
      if (!applyProperty(props, m[1], m[2])) kept.push(lines[j]);
      j++;
    }
    if (any) { lines.splice(i, j - i, ...(kept.length ? ["", ...kept] : [])); }
  }
  const body = lines.slice(i).join("\n").trim();
  const related: string[] = [];
  const links = externalLinks(body);
  // As in the Markdown reader: no square bracket in either part, so a failed start stops at the next "[" (from every
  // "[" to the end of its line, 200 KB of "[[" took a minute); Notion encodes brackets in the file names it links.
  for (const m of body.matchAll(/\[[^[\]\n]*\]\(([^)[\]\s]+)\)/g)) {
    const href = m[1];
    if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("#")) continue;
    let decoded: string;
    try { decoded = decodeURIComponent(href); } catch { decoded = href; }
    if (/\.md$/i.test(decoded)) related.push(originOf(resolvePath(page.dir, decoded)));
  }
  return note({
    origin: originOf(page.path), title, body, tags: [...new Set(props.tags)], status: props.status,
    created_at: props.created, updated_at: props.updated, links: mergeLinks(links, props.links), related: [...new Set(related)], problems: props.problems,
  });
}

/** Notion writes each database twice, filtered ("Name.csv") and whole ("Name_all.csv"); the whole one is read. */
const csvBase = (path: string) => path.replace(/(_all)?\.csv$/i, "");

export const notionReader: SourceReader = {
  id: "notion",
  label: "Notion (Markdown & CSV export)",
  async detect(input: ImportInput) {
    for (const e of await firstEntries(input)) {
      if (!isJunk(e.path) && /^(md|csv)$/.test(extOf(e.path)) && hasId(stripExt(baseName(e.path)))) return true;
    }
    return false;
  },
  async *read(input: ImportInput): AsyncIterable<SourceNote | SkippedItem> {
    // Names first (bytes stay unread): which folders are databases (a CSV beside a folder of the same name), which CSV to read.
    const entries: ImportEntry[] = [];
    for await (const e of input.entries()) if (!isJunk(e.path) && !e.path.endsWith("/")) entries.push(e);
    const paths = entries.map((e) => e.path);
    const all = new Set(paths);
    const csvs = paths.filter((p) => extOf(p) === "csv" && !(!/_all\.csv$/i.test(p) && all.has(`${csvBase(p)}_all.csv`)));
    const dbColumns = new Map<string, string[]>();
    const dbRows = new Map<string, string[][]>();
    const pages = new Set(paths.filter((p) => extOf(p) === "md"));
    const byPath = new Map(entries.map((e) => [e.path, e]));
    for (const p of csvs) {
      const rows = parseCsv(decodeText(await byPath.get(p)!.bytes()).text);
      if (!rows.length) continue;
      dbColumns.set(csvBase(p), rows[0].map((c) => c.trim()));
      dbRows.set(csvBase(p), rows.slice(1));
    }

    for (const e of entries) {
      const ext = extOf(e.path);
      if (ext === "csv") continue;
      if (ext === "zip") { yield { skipped: e.path, reason: "a ZIP inside the ZIP: Notion splits big exports into parts; unzip the outer file and import each part" }; continue; }
      if (ext !== "md") { yield { skipped: e.path, reason: "attachment not imported" }; continue; }
      const dir = dirName(e.path);
      const page: Page = { path: e.path, dir, stem: stripExt(baseName(e.path)) };
      const { text, problem } = decodeText(await e.bytes());
      const n = readPage(page, text, dbColumns.get(dir) ?? null);
      if (problem) n.problems.push(problem);
      yield n;
    }

    // Database rows whose page is missing (an empty row in some exports) still hold a title and properties.
    for (const [db, rows] of dbRows) {
      const cols = dbColumns.get(db)!;
      const titles = new Set([...pages].filter((p) => dirName(p) === db).map((p) => nameWithoutId(stripExt(baseName(p))).toLowerCase()));
      for (const row of rows) {
        const title = (row[0] ?? "").trim();
        if (!title || titles.has(title.toLowerCase())) continue;
        const props: Properties = { tags: [], links: [], problems: [] };
        const rest: string[] = [];
        cols.slice(1).forEach((c, k) => {
          const v = row[k + 1] ?? "";
          if (!applyProperty(props, c, v)) rest.push(`${c}: ${v.trim()}`);
        });
        yield note({
          origin: `${originOf(`${db}.csv`)}#${title}`, title, body: rest.join("\n"), tags: [...new Set(props.tags)], status: props.status,
          created_at: props.created, updated_at: props.updated, links: props.links, problems: props.problems,
        });
      }
    }
  },
};
