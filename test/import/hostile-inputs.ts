// Notes made to be slow to read: ~200 KB of unclosed markup, runs and brackets, as uploads of each source (tests and bench).
import { strToU8, zipSync } from "fflate";

const SIZE = 200_000;
/** `unit` repeated to SIZE characters. */
export const fill = (unit: string, size = SIZE) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);

/**
 * Each case is one upload of one note. What it held the server's thread for before the readers were rewritten
 * (measured at 10 and 20 KB, quadratic, so ~100× that at 200 KB) is in docs/performance.md; every one now reads in
 * well under a second.
 */
export const hostileNotes = (size = SIZE): { name: string; source: string; note: string; text: string }[] => [
  { name: "unclosed <a (HTML)", source: "apple-notes", note: "iCloud/Ideas/links.html", text: fill("<a", size) },
  { name: "unclosed <title (HTML)", source: "apple-notes", note: "iCloud/Ideas/title.html", text: fill("<title", size) },
  { name: "unclosed quotes in a tag (HTML)", source: "apple-notes", note: "iCloud/Ideas/quotes.html", text: `<a ${fill("a'b=\"c'", size)}>x</a>` },
  { name: "a long run of spaces in bold (HTML)", source: "apple-notes", note: "iCloud/Ideas/bold.html", text: `<b>a${fill("\u2003", size)}b</b>` },
  { name: "a long struck-through style (HTML)", source: "apple-notes", note: "iCloud/Ideas/style.html", text: `<span style="${fill("text-decoration", size)}">x</span>` },
  { name: "open tags, then as many stray end tags (HTML)", source: "apple-notes", note: "iCloud/Ideas/stray.html", text: fill("<b>", size / 2) + fill("</i>", size / 2) },
  { name: "lists nested without end (HTML)", source: "apple-notes", note: "iCloud/Ideas/lists.html", text: fill("<ul><li>", size) },
  { name: "unclosed <a in ENML, unclosed <tag>", source: "evernote", note: "Notebook.enex", text: enex(fill("<a", size), fill("<tag>", size)) },
  { name: "a run of letters (Markdown)", source: "markdown", note: "letters.md", text: fill("a", size) },
  { name: "a heading with a long run of spaces (Markdown)", source: "markdown", note: "heading.md", text: `# a${fill(" ", size)}b\n` },
  { name: "wiki-link brackets (Notion)", source: "notion", note: "Page 0123456789abcdef0123456789abcdef.md", text: `# Page\n\n${fill("[[", size)}` },
];
export const HOSTILE_NOTES = hostileNotes();

/** An .enex of one note whose ENML is `content` and whose other fields hold `rest`. */
function enex(content: string, rest: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<en-export><note><title>Hostile</title>` +
    `<content><![CDATA[<en-note>${content}</en-note>]]></content>${rest}</note></en-export>\n`;
}

/** The note as the ZIP its source's exporter writes (detected from the ZIP, as a person uploads it). */
export const hostileZip = (c: { note: string; text: string }) => zipSync({ [c.note]: strToU8(c.text) });
