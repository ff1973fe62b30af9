// Streams an import's request body to a temporary file, so a large ZIP is never held in memory whole.
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppError } from "../../errors";

const STALE_MS = 24 * 3600 * 1000;

/**
 * Beside the database when the data directory exists (it has the room; /tmp may be memory), else the system's temp
 * directory. Files an interrupted server left behind are removed after a day.
 */
function tempFolder(dataDir: string): string {
  const dir = existsSync(dataDir) ? join(dataDir, "tmp") : join(tmpdir(), "idearepo-import");
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    try {
      if (name.startsWith("import-") && Date.now() - statSync(full).mtimeMs > STALE_MS) rmSync(full, { force: true });
    } catch { /* raced with another request: fine */ }
  }
  return dir;
}

/** Writes the body to a new file and returns its path; 413 past `limit` bytes. The caller removes the file. */
export async function spoolBody(body: ReadableStream<Uint8Array> | null, dataDir: string, limit: number): Promise<string> {
  const path = join(tempFolder(dataDir), `import-${Date.now()}-${crypto.randomUUID()}.part`);
  const fd = openSync(path, "w", 0o600);
  let size = 0;
  try {
    if (body) {
      for await (const chunk of body) {
        size += chunk.length;
        if (size > limit) throw new AppError(413, { error: "Request body too large" });
        for (let off = 0; off < chunk.length;) off += writeSync(fd, chunk, off);
      }
    }
  } catch (e) {
    closeSync(fd);
    rmSync(path, { force: true });
    throw e;
  }
  closeSync(fd);
  return path;
}
