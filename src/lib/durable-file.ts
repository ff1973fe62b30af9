// Writes that survive a crash or power cut: data is fsynced before it gets its name, a rename is fsynced in its folder.
import { closeSync, fsyncSync, openSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** Writes `data` to `path` and fsyncs it; flag "wx" refuses to replace an existing file. */
export function writeSynced(path: string, data: string | Uint8Array, flag: "w" | "wx", mode: number): void {
  const fd = openSync(path, flag, mode);
  try {
    writeFileSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Flushes a file (or folder) already on disk, e.g. one another writer (SQLite's VACUUM INTO) produced. */
export function fsyncPath(path: string): void {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Makes the folder's entries (a rename, a removal) durable. */
export function syncDir(dir: string): void {
  try {
    fsyncPath(dir);
  } catch {
    // Not every platform lets a directory be opened for fsync; the rename itself is still atomic.
  }
}

/** Replaces `path` atomically: a reader sees the old file or the whole new one (temp file → fsync → rename → fsync dir). */
export function replaceFile(path: string, data: string | Uint8Array, mode: number): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeSynced(tmp, data, "w", mode);
  renameSync(tmp, path);
  syncDir(dirname(path));
}
