// The shape every import source reader shares (agreed for issue 13; the framework owns detection order, idempotency, writing).
/** One note read from a source, before it becomes an idea. */
export interface SourceNote {
  origin: string;            // stable id of the note inside its source (relative path, Keep file name, Memos uid…)
  title: string;             // already chosen by the reader (front matter title → first # heading → file name …)
  body: string;              // Markdown text, front matter removed
  tags: string[];            // names as written (nested "a/b" kept), not yet normalised
  status?: "captured" | "exploring" | "building" | "shipped" | "shelved";
  archived?: boolean;        // the source's archived state (see docs/export-import.md for how it maps)
  pinned?: boolean;
  created_at?: Date; updated_at?: Date;
  links: { url: string; title?: string | null }[];   // external URLs found in the note
  related: string[];         // references to other notes of the same import, as written ([[name]], relative path…)
  problems: string[];        // non-fatal problems for the report ("front matter is not valid YAML: …")
  aliases?: string[];        // other names links may use for this note (Obsidian `aliases`, Logseq `alias::`)
}
export interface SkippedItem { skipped: string; reason: string }   // attachments, trashed notes, unreadable files
/** What an import reads from: a ZIP's entries, a directory's files (CLI only) or one file. Entries are read lazily. */
export interface ImportEntry { path: string; size: number; modified?: Date; bytes(): Promise<Uint8Array>; /** Its path on disk, when it is a whole file there (readers may stream it). */ file?: string }
export interface ImportInput { name: string; entries(): AsyncIterable<ImportEntry> }
export interface SourceReader {
  id: string;                // "idearepo" | "markdown" | "obsidian" | "logseq" | "keep" | "apple-notes" | "notion" | "evernote" | "memos" | "karakeep" …
  label: string;             // for the CLI and the web app
  /** Cheap: looks at names and the first bytes of a few entries. */
  detect(input: ImportInput): Promise<boolean>;
  read(input: ImportInput): AsyncIterable<SourceNote | SkippedItem>;
  /** Readers of one format family share remembered origins (a folder read as "markdown", later as "obsidian"); default: id. */
  store?: string;
}
