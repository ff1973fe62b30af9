// Wikilinks as notes apps write them: [[Title]], [[Title|shown text]], [[Title#Heading]], [[#42]], embeds ![[file]].
// Read the same way by the server (the relations a body's links make) and the web app (the links it renders).

/** One `[[…]]` or `![[…]]`; the inner text holds no brackets and no line break. */
export const WIKILINK_RE = /(!?)\[\[([^[\]\n]+?)\]\]/g;

// Files the product does not hold: an embed of one shows as a placeholder naming it (the import's attachment list).
const FILE_EXT = /\.(png|jpe?g|gif|webp|svg|bmp|tiff?|heic|avif|pdf|mp3|m4a|wav|ogg|webm|mp4|mov|mkv|zip|canvas|excalidraw|docx?|xlsx?|pptx?|csv|json|edn)$/i;

export interface Wikilink {
  /** The idea the link names: a title, or `#42` for idea number 42. "" for `[[#Heading]]`, a place in the same note. */
  target: string;
  heading: string | null;
  /** The shown text of `[[Title|shown text]]`. */
  alias: string | null;
  embed: boolean;
  /** A file (`![[diagram.png]]`, `[[report.pdf]]`): never an idea. */
  file: boolean;
  /** The display number of `[[#42]]`. */
  number: number | null;
}

/** The parts of a link's inner text (`Title#Heading|alias`). */
export function parseWikilink(inner: string, embed = false): Wikilink {
  const bar = inner.indexOf("|");
  const alias = bar === -1 ? null : inner.slice(bar + 1).trim() || null;
  const ref = (bar === -1 ? inner : inner.slice(0, bar)).trim();
  const byNumber = /^#(\d{1,15})$/.exec(ref);
  if (byNumber) return { target: ref, heading: null, alias, embed, file: false, number: Number(byNumber[1]) };
  const hash = ref.indexOf("#");
  const target = (hash === -1 ? ref : ref.slice(0, hash)).trim();
  const heading = hash === -1 ? null : ref.slice(hash + 1).trim() || null;
  return { target, heading, alias, embed, file: FILE_EXT.test(target), number: null };
}

/** What two targets are compared by: case and Unicode form do not matter, nor white space around. */
export const wikilinkKey = (target: string) => target.normalize("NFC").trim().toLowerCase();

/** The text a link shows: its alias, else its target (and heading), as Obsidian does. */
export const wikilinkText = (l: Wikilink) => l.alias ?? (l.heading && l.target ? `${l.target} › ${l.heading}` : l.heading ?? l.target);

// Code is not text: `[[x]]` inside backticks or a fenced block is an example, not a link.
const CODE = /```[\s\S]*?(```|$)|~~~[\s\S]*?(~~~|$)|`[^`\n]*`/g;

/** The distinct ideas a body links to (titles and `#numbers`, by key), leaving out files, code and in-note headings. */
export function wikilinkTargets(body: string): Wikilink[] {
  const out = new Map<string, Wikilink>();
  for (const m of body.replace(CODE, " ").matchAll(WIKILINK_RE)) {
    const l = parseWikilink(m[2], m[1] === "!");
    if (l.target === "" || l.file) continue;
    const key = wikilinkKey(l.target);
    if (!out.has(key)) out.set(key, l);
  }
  return [...out.values()];
}
