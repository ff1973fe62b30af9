// Which app an import comes from: named by the caller, or detected in a fixed order (most specific signs first).
import { badRequest, fieldError } from "../../errors";
import { parseFrontMatter } from "../../lib/yaml";
import { parseIdeaMarkdown } from "../export/markdown-format";
import type { ImportInput, SourceReader } from "./sources/types";
import { appleNotesReader } from "./sources/apple-notes";
import { evernoteReader } from "./sources/evernote";
import { karakeepReader } from "./sources/karakeep";
import { keepReader } from "./sources/keep";
import { memosReader } from "./sources/memos";
import { notionReader } from "./sources/notion";
import { basicMemoryReader, logseqReader, markdownReader, obsidianReader } from "./sources/markdown";
import { decodeText, extOf, isJunk } from "./sources/reader-kit";

export const IDEAREPO = { id: "idearepo", label: "idearepo export (JSON, or the Markdown vault ZIP)" } as const;

/**
 * Detection order: an app's own folder (`.obsidian/`, `logseq/`) beats everything; then formats with unmistakable
 * signs (Notion's ids in names, Keep's keys, `<en-export>`, a SQLite header, Karakeep's shape, an Apple Notes account
 * folder); Basic Memory's permalinks; any folder of Markdown last.
 */
export const READERS: SourceReader[] = [
  obsidianReader, logseqReader, notionReader, keepReader, evernoteReader, memosReader, karakeepReader, appleNotesReader,
  basicMemoryReader, markdownReader,
];

export const SOURCE_IDS = [IDEAREPO.id, ...READERS.map((r) => r.id)];
const supported = () => [`${IDEAREPO.id} (${IDEAREPO.label})`, ...READERS.map((r) => `${r.id} (${r.label})`)].join(", ");

export function namedSource(from: string): SourceReader | typeof IDEAREPO {
  if (from === IDEAREPO.id) return IDEAREPO;
  const r = READERS.find((x) => x.id === from);
  if (!r) throw fieldError("from", `from must be one of ${SOURCE_IDS.join(", ")}`);
  return r;
}

export function undetectable(): Error {
  return badRequest(`Cannot tell which app this file comes from. Supported sources: ${supported()}. Name one with ?from=SOURCE (CLI: --from SOURCE).`);
}

/** Our own vault: most Markdown files have front matter and the Links/Related sections the export writes. */
async function isOwnVault(input: ImportInput): Promise<boolean> {
  let seen = 0, ours = 0;
  for await (const e of input.entries()) {
    if (isJunk(e.path) || extOf(e.path) !== "md") continue;
    const md = parseIdeaMarkdown(decodeText(await e.bytes()).text);
    if (md && parseFrontMatter(md.frontMatter)) ours++;
    if (++seen >= 20) break;
  }
  return seen > 0 && ours * 2 > seen;
}

async function isOwnJson(input: ImportInput): Promise<boolean> {
  for await (const e of input.entries()) {
    const head = new TextDecoder().decode((await e.bytes()).subarray(0, 4096));
    return /"format"\s*:\s*"idearepo-export"/.test(head);
  }
  return false;
}

export async function detectSource(input: ImportInput, kind: "zip" | "directory" | "file"): Promise<SourceReader | typeof IDEAREPO | null> {
  if (kind === "file" ? await isOwnJson(input) : await isOwnVault(input)) return IDEAREPO;
  for (const r of READERS) if (await r.detect(input)) return r;
  return null;
}
