// Import inputs from disk: a ZIP (read lazily), a directory (CLI only) or one plain file, all as one ImportInput shape.
import { lstatSync, openSync, readSync, closeSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, relative, sep } from "node:path";
import { AppError, badRequest } from "../../errors";
import type { ImportEntry, ImportInput, SkippedItem } from "./sources/types";
import { openZipFile, ZIP_LIMITS } from "./zip-input";

export type OpenedInput = ImportInput & { refused: SkippedItem[]; kind: "zip" | "directory" | "file" };

// "PK\x03\x04" opens a ZIP with entries, "PK\x05\x06" an empty one.
const isZipMagic = (h: Uint8Array) => h.length === 4 && h[0] === 0x50 && h[1] === 0x4b && ((h[2] === 3 && h[3] === 4) || (h[2] === 5 && h[3] === 6));

function firstBytes(path: string, n: number): Uint8Array {
  const fd = openSync(path, "r");
  try {
    const buf = new Uint8Array(n);
    return buf.subarray(0, readSync(fd, buf, 0, n, 0));
  } finally {
    closeSync(fd);
  }
}

/** Every regular file below `dir`, sorted, by its path relative to it; symbolic links are not followed. */
function* walk(dir: string, root: string): Generator<{ path: string; full: string }> {
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    const st = lstatSync(full);
    if (st.isDirectory()) yield* walk(full, root);
    else if (st.isFile()) yield { path: relative(root, full).split(sep).join("/"), full };
  }
}

export function directoryInput(dir: string): OpenedInput {
  const refused: SkippedItem[] = [];
  return {
    name: basename(dir), kind: "directory", refused,
    async *entries(): AsyncIterable<ImportEntry> {
      for (const { path, full } of walk(dir, dir)) {
        const st = statSync(full);
        if (st.size > ZIP_LIMITS.entryBytes) continue;
        yield { path, size: st.size, modified: st.mtime, bytes: async () => new Uint8Array(readFileSync(full)) };
      }
    },
  };
}

/** A single file that is not a ZIP (a JSON export, an .enex, a Memos database): one entry named after the file. */
export function singleFileInput(path: string, name: string): OpenedInput {
  const st = statSync(path);
  // Detection peeks at it through several readers: they share one read while someone still holds it (a weak
  // reference, so the file's bytes are not kept alive for the whole import once the reader has parsed them).
  let cached: WeakRef<Uint8Array> | null = null;
  const read = () => {
    const hit = cached?.deref();
    if (hit) return hit;
    const fresh = new Uint8Array(readFileSync(path));
    cached = new WeakRef(fresh);
    return fresh;
  };
  const entry: ImportEntry = { path: name, size: st.size, modified: st.mtime, bytes: async () => read(), file: path };
  return { name, kind: "file", refused: [], async *entries() { yield entry; } };
}

/** A file on disk as an input: a ZIP by its signature or declared type, anything else as one file. */
export function fileInput(path: string, name: string, declaredZip = false): OpenedInput {
  const head = firstBytes(path, 4);
  if (declaredZip || isZipMagic(head)) {
    try {
      return { ...openZipFile(path, name), kind: "zip" };
    } catch (e) {
      // Limits refuse with their own message; anything else that fails to parse is simply not a ZIP.
      if (e instanceof AppError) throw e;
      throw badRequest("Invalid ZIP file");
    }
  }
  return singleFileInput(path, name);
}
