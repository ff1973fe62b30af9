// Native libraries inside the single binary: written out under <data_dir>/.native/ once, reused while unchanged.
//
// dlopen() (behind db.loadExtension) needs a real file; the embedded copy lives at a /$bunfs/... path that only
// Bun's own file APIs can read. Each copy sits in a folder named after a hash of its bytes, so an upgraded binary
// writes its own copy next to the old one instead of overwriting a library another running process has mapped.
// The file keeps its own name: SQLite derives the extension's init symbol from it (vec0.so → sqlite3_vec0_init).
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
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

// Copies of this library left by older binaries are removed. One still mapped by a running process stays valid
// (an unlinked file remains readable to whoever has it open), so this is safe during a rolling upgrade.
function removeStaleCopies(dir: string, name: string, current: string): void {
  for (const entry of readdirSync(dir)) {
    if (entry === current || !/^[0-9a-f]{16}$/.test(entry) || !existsSync(join(dir, entry, name))) continue;
    try {
      rmSync(join(dir, entry), { recursive: true, force: true });
    } catch {
      // A stale copy only costs disk space.
    }
  }
}
