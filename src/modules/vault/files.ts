// The folder's side of the sync: which files are notes, reading one safely, writing one atomically, moving one to the
// vault's trash. Every path is relative to the bound folder and checked to stay inside it; symbolic links are never followed.
import { closeSync, fstatSync, fsyncSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { mkdir, open, rename, rm } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import { randomBytes } from "node:crypto";
import { LIMITS } from "../../contract";

/** A note file as the scan sees it. */
export interface Seen { path: string; size: number; mtime_ms: number }

/** Larger than any idea's body can be (50,000 characters, 4 bytes each at most) plus generous front matter. */
export const MAX_NOTE_BYTES = LIMITS.body * 4 + 64 * 1024;

/** Hidden files and folders (.obsidian/, .git/, .trash/, editors' temporary files) are never the sync's. */
const hidden = (name: string) => name.startsWith(".");
export const isNoteName = (name: string) => /\.md$/i.test(name) && !hidden(name);

/** The absolute path of `rel` inside `root`, or an error when it would leave it (`..`, an absolute path). */
export function inside(root: string, rel: string): string {
  const full = resolve(root, rel);
  const back = relative(root, full);
  if (back === "" || back.startsWith("..") || resolve(root, back) !== full) throw new Error(`refused: ${rel} is outside the folder`);
  return full;
}

/**
 * Every note below `root` (relative paths with `/`), sorted; hidden entries and symbolic links are skipped, so nothing
 * outside the folder is ever read. Folders that cannot be read and links with a note's name are reported (`onSkip`
 * with the reason), not fatal.
 */
export function walkNotes(root: string, onSkip: (path: string, reason: string) => void): Seen[] {
  const out: Seen[] = [];
  const visit = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (e) {
      onSkip(relative(root, dir).split(sep).join("/") || ".", `folder not readable: ${(e as Error).message}`);
      return;
    }
    for (const name of names) {
      if (hidden(name)) continue;
      const full = join(dir, name);
      let st;
      try {
        st = lstatSync(full);
      } catch {
        continue; // removed between the listing and the look
      }
      if (st.isSymbolicLink()) {
        if (isNoteName(name)) onSkip(relative(root, full).split(sep).join("/"), "a symbolic link: never followed, so nothing outside the folder is read");
        continue;
      }
      if (st.isDirectory()) visit(full);
      else if (st.isFile() && isNoteName(name)) out.push({ path: relative(root, full).split(sep).join("/"), size: st.size, mtime_ms: Math.floor(st.mtimeMs) });
    }
  };
  visit(root);
  return out;
}

/** The file's state now, or null when it is gone or no longer a plain file. */
export function statNote(root: string, rel: string): Seen | null {
  try {
    const st = lstatSync(inside(root, rel));
    return st.isFile() ? { path: rel, size: st.size, mtime_ms: Math.floor(st.mtimeMs) } : null;
  } catch {
    return null;
  }
}

/**
 * `gone`: the file vanished between the listing and the read (removed mid-read): not a problem of the file's.
 * `io`: the read failed (permissions, a lock, the disk), not the file's content: worth trying again soon.
 */
export type ReadResult = { ok: true; text: string; bytes: Uint8Array } | { ok: false; reason: string; gone?: boolean; io?: boolean };

/** A note's text; a file that is too large, binary or not UTF-8 is refused with the reason (and never changed). */
export function readNote(root: string, rel: string): ReadResult {
  let bytes: Uint8Array;
  try {
    const full = inside(root, rel);
    const st = lstatSync(full);
    if (!st.isFile()) return { ok: false, reason: "not a plain file" };
    if (st.size > MAX_NOTE_BYTES) return { ok: false, reason: `larger than ${Math.round(MAX_NOTE_BYTES / 1024)} KB: more than an idea holds, not read` };
    bytes = new Uint8Array(readFileSync(full));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { ok: false, reason: `cannot be read: ${fsReason(e)}`, gone: code === "ENOENT", io: code !== "ENOENT" };
  }
  if (bytes.includes(0)) return { ok: false, reason: "binary (holds NUL bytes), not a text note" };
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return { ok: true, text: text.replace(/^\uFEFF/, ""), bytes };
  } catch {
    return { ok: false, reason: "not UTF-8 text" };
  }
}

/**
 * Writes `text` as `rel` atomically: a hidden temporary file beside it, synced, then renamed over it, and the folder
 * synced, so an editor or a sync tool never sees half a file and a power cut never leaves the database saying a write
 * happened that the folder lost. A failed write (a full disk, an immutable file) removes its temporary file and
 * throws, the old file whole. Returns the file's state after the write.
 */
export function writeAtomic(root: string, rel: string, text: string): Seen {
  const full = inside(root, rel);
  const dir = full.slice(0, full.lastIndexOf(sep));
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${randomBytes(6).toString("hex")}${TEMP_SUFFIX}`);
  const fd = openSync(tmp, "w", 0o644);
  let st;
  try {
    writeSync(fd, text);
    fsyncSync(fd);
    // The state of what this write wrote, taken before the rename (which moves the same inode): an edit made right
    // after the rename changes it and is seen; a look after the rename could record the edit as this write's.
    st = fstatSync(fd);
  } catch (e) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  closeSync(fd);
  try {
    renameSync(tmp, full);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  syncFolder(dir);
  return { path: rel, size: st.size, mtime_ms: Math.floor(st.mtimeMs) };
}

/**
 * writeAtomic without holding the event loop: the same temporary file, sync and rename, through the thread pool. Many
 * of these at once let the file system commit their syncs together (a first sync writes thousands of files; one
 * fsync after another was most of its time, docs/performance.md).
 */
export async function writeAtomicAsync(root: string, rel: string, text: string): Promise<Seen> {
  const full = inside(root, rel);
  const dir = full.slice(0, full.lastIndexOf(sep));
  await mkdir(dir, { recursive: true });
  const tmp = join(dir, `.${randomBytes(6).toString("hex")}${TEMP_SUFFIX}`);
  const file = await open(tmp, "w", 0o644);
  let st;
  try {
    await file.writeFile(text);
    await file.sync();
    st = await file.stat(); // before the rename, as writeAtomic
  } catch (e) {
    await file.close();
    await rm(tmp, { force: true });
    throw e;
  }
  await file.close();
  try {
    await rename(tmp, full);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
  await syncFolderAsync(dir);
  return { path: rel, size: st.size, mtime_ms: Math.floor(st.mtimeMs) };
}

/** The sync's temporary files are named `.<12 hex>.idearepo-tmp`: hidden, so never a note and never watched. */
const TEMP_SUFFIX = ".idearepo-tmp";
const TEMP = /^\.[0-9a-f]{12}\.idearepo-tmp$/;

/** Makes a rename in `dir` durable (a power cut after it keeps it); where folders cannot be synced, skipped. */
function syncFolder(dir: string): void {
  let fd: number | null = null;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Not every file system syncs a folder (EINVAL, EISDIR on some): the rename stands, its durability is the OS's.
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** syncFolder through the thread pool (writeAtomicAsync's). */
async function syncFolderAsync(dir: string): Promise<void> {
  try {
    const handle = await open(dir, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // as syncFolder
  }
}

/**
 * Removes temporary files a write cut short left behind (the server was killed between the write and the rename):
 * half a file, never renamed over a note. Only the sync's own names, in the folder and its non-hidden sub-folders.
 */
export function sweepTemp(root: string): number {
  let removed = 0;
  const visit = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isFile() && TEMP.test(e.name)) {
        try {
          rmSync(join(dir, e.name));
          removed++;
        } catch {
          // an immutable folder: the next start tries again
        }
      } else if (e.isDirectory() && !hidden(e.name)) visit(join(dir, e.name));
    }
  };
  visit(root);
  return removed;
}

/**
 * Renames a note inside the folder (the idea was retitled elsewhere); false when the source is gone. Any other failure
 * (the note or its folder immutable, read-only) throws: the caller must not write the new name beside the old one.
 */
export function moveNote(root: string, from: string, to: string): boolean {
  const src = inside(root, from);
  const dst = inside(root, to);
  try {
    mkdirSync(dst.slice(0, dst.lastIndexOf(sep)), { recursive: true });
    renameSync(src, dst);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT" && !exists(root, from)) return false;
    throw e;
  }
  syncFolder(dst.slice(0, dst.lastIndexOf(sep)));
  return true;
}

/** A file-system error as a person reads it, with its code: "no space left on the device: the disk is full (ENOSPC)". */
export function fsReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException)?.code;
  const text: Record<string, string> = {
    ENOSPC: "no space left on the device: the disk is full",
    EDQUOT: "the disk quota is used up",
    EACCES: "permission denied",
    EPERM: "not permitted (an immutable or locked file or folder?)",
    EROFS: "the file system is read-only",
    EIO: "an I/O error of the disk",
    EISDIR: "a folder is in its place",
    ENOTDIR: "a file is in the place of its folder",
    EBUSY: "busy (locked by another program)",
  };
  if (code && text[code]) return `${text[code]} (${code})`;
  return code ? `${(e as Error).message} (${code})` : ((e as Error)?.message ?? String(e));
}

/** A file-system error (it carries an errno code), as opposed to a bug or a database failure. */
export const isFsError = (e: unknown) => /^E[A-Z0-9]+$/.test(String((e as NodeJS.ErrnoException)?.code ?? ""));

/** Moves an archived idea's file into the vault's `.trash/` (Obsidian's trash), never deleting it; its new place. */
export function trashNote(root: string, rel: string): string | null {
  const name = rel.slice(rel.lastIndexOf("/") + 1);
  const stem = name.replace(/\.md$/i, "");
  for (let n = 1; n < 1000; n++) {
    const target = `.trash/${n === 1 ? name : `${stem} (${n}).md`}`;
    try {
      lstatSync(inside(root, target));
      continue; // taken
    } catch {
      // free
    }
    return moveNote(root, rel, target) ? target : null;
  }
  return null;
}

/** Whether `rel` exists at all (a file of any kind): names already used are not written over. */
export function exists(root: string, rel: string): boolean {
  try {
    lstatSync(inside(root, rel));
    return true;
  } catch {
    return false;
  }
}
