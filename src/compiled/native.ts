// Native libraries inside the single binary: written out under <data_dir>/.native/ once, reused while unchanged.
//
// dlopen() (behind db.loadExtension and process.dlopen) needs a real file; the embedded copy lives at a /$bunfs/...
// path that Bun's file APIs and node:fs reads understand but the dynamic loader does not. Each copy sits in a folder
// named after a hash of its bytes, so an upgraded binary writes its own copy next to the old one instead of
// overwriting a library another running process has mapped.
// The file keeps its own name: SQLite derives the extension's init symbol from it (vec0.so → sqlite3_vec0_init).
import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";

export interface ExtractedLibrary {
  path: string;
  /** false when an identical copy from an earlier start was reused. */
  written: boolean;
}

const hashOf = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex").slice(0, 16);

/**
 * Makes `<dir>/<hash>/<name>` hold exactly `bytes`. An existing file is trusted only if its contents hash the
 * same (a truncated copy from a crash mid-write would otherwise be loaded); writes go to a temp name and are renamed
 * into place, so a concurrent start (server and CLI at once) never sees a half-written library.
 */
export function extractLibrary(bytes: Uint8Array, dir: string, name: string): ExtractedLibrary {
  const hash = hashOf(bytes);
  const folder = join(dir, hash);
  const path = join(folder, name);
  if (existsSync(path) && statSync(path).size === bytes.length) {
    if (hashOf(readFileSync(path)) === hash) return { path, written: false };
  }
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, bytes, { mode: 0o500 });
  chmodSync(tmp, 0o500);
  renameSync(tmp, path);
  removeStaleCopies(dir, name, hash);
  return { path, written: true };
}

export interface EmbeddedFile {
  /** Name on disk; dlopen and $ORIGIN lookups use it. */
  name: string;
  /** Where the binary holds it (a /$bunfs/… path; node:fs reads those, dlopen does not). */
  source: string;
}

/**
 * Writes a set of libraries that load each other (onnxruntime's binding finds libonnxruntime.so.1 through its
 * RUNPATH $ORIGIN) into one folder `<dir>/<hash>/`, where `hash` is computed by the build over all of them.
 * Unlike extractLibrary, nothing is hashed at run time (45 MB would cost ~150 ms on every model load): a copy is
 * reused when its size matches, which is safe because a copy only ever appears at its final name complete
 * (written to a temp name, fsynced, renamed). Returns the folder.
 */
export function extractLibrarySet(files: EmbeddedFile[], dir: string, hash: string): { dir: string; written: number } {
  const folder = join(dir, hash);
  let written = 0;
  for (const file of files) {
    const path = join(folder, file.name);
    const size = statSync(file.source).size;
    if (existsSync(path) && statSync(path).size === size) continue;
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
    const fd = openSync(tmp, "w", 0o500);
    try {
      writeFileSync(fd, readFileSync(file.source));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
    written++;
  }
  if (written > 0) removeStaleCopies(dir, files[0].name, hash);
  return { dir: folder, written };
}

// Copies of this library left by older binaries are removed. One still mapped by a running process stays valid
// (an unlinked file remains readable to whoever has it open), so this is safe during a rolling upgrade.
function removeStaleCopies(dir: string, name: string, current: string): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir)) {
    if (entry === current || !/^[0-9a-f]{16}$/.test(entry) || !existsSync(join(dir, entry, name))) continue;
    try {
      rmSync(join(dir, entry), { recursive: true, force: true });
    } catch {
      // A stale copy only costs disk space.
    }
  }
}
