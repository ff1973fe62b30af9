// Reads a ZIP file lazily from disk: the central directory up front, each entry inflated only when a reader asks for it.
// fflate's unzipSync needs the whole archive in memory and inflates every entry at once; a 10,000-note vault does not
// have to fit in memory that way. Limits guard against ZIP bombs: entry count, declared sizes, compression ratio, and an
// inflated size that exceeds what the directory declared.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { inflateRawSync } from "node:zlib";
import { AppError, badRequest } from "../../errors";
import type { ImportEntry, ImportInput, SkippedItem } from "./sources/types";

export const ZIP_LIMITS = {
  entries: 50_000,
  entryBytes: 64 * 1024 * 1024, // one note, or one entry a reader peeks into
  totalBytes: 2 * 1024 * 1024 * 1024, // declared uncompressed size of the whole archive
  ratio: 1_000, // uncompressed / compressed, above 1 MiB (deflate's ceiling is ~1032: only crafted data gets there)
};

const EOCD_SIG = 0x06054b50;
const EOCD64_LOCATOR_SIG = 0x07064b50;
const CENTRAL_SIG = 0x02014b50;
const LOCAL_SIG = 0x04034b50;

interface CentralEntry { name: string; method: number; crc: number; csize: number; usize: number; offset: number; modified?: Date; encrypted: boolean }

export class ZipError extends Error {}

function readAt(fd: number, position: number, length: number): Uint8Array {
  const buf = new Uint8Array(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, position + got);
    if (n === 0) throw new ZipError("unexpected end of file");
    got += n;
  }
  return buf;
}

const dosDate = (time: number, date: number) =>
  new Date(Date.UTC(1980 + (date >> 9), ((date >> 5) & 15) - 1, date & 31, time >> 11, (time >> 5) & 63, (time & 31) * 2));

/** Backslashes as slashes, no leading `./`; null for names that leave the archive (`..`, absolute, drive letters). */
export function safeEntryPath(name: string): string | null {
  const p = name.replace(/\\/g, "/").replace(/^(\.\/)+/, "");
  if (p.startsWith("/") || /^[A-Za-z]:/.test(p) || p.split("/").includes("..") || p.includes("\0")) return null;
  return p;
}

function readDirectory(fd: number, fileSize: number): CentralEntry[] {
  const tailLen = Math.min(fileSize, 22 + 0xffff);
  const tail = readAt(fd, fileSize - tailLen, tailLen);
  const tv = new DataView(tail.buffer);
  let at = -1;
  for (let i = tailLen - 22; i >= 0; i--) if (tv.getUint32(i, true) === EOCD_SIG) { at = i; break; }
  if (at < 0) throw new ZipError("no end of central directory");
  let count = tv.getUint16(at + 10, true);
  let cdSize = tv.getUint32(at + 12, true);
  let cdOffset = tv.getUint32(at + 16, true);
  if ((count === 0xffff || cdOffset === 0xffffffff) && at >= 20 && tv.getUint32(at - 20, true) === EOCD64_LOCATOR_SIG) {
    const rec = readAt(fd, Number(tv.getBigUint64(at - 20 + 8, true)), 56);
    const rv = new DataView(rec.buffer);
    count = Number(rv.getBigUint64(32, true));
    cdSize = Number(rv.getBigUint64(40, true));
    cdOffset = Number(rv.getBigUint64(48, true));
  }
  if (count > ZIP_LIMITS.entries) throw badRequest(`ZIP refused: ${count} entries; the limit is ${ZIP_LIMITS.entries.toLocaleString("en")}`);
  if (cdOffset + cdSize > fileSize) throw new ZipError("central directory outside the file");
  const cd = readAt(fd, cdOffset, cdSize);
  const v = new DataView(cd.buffer);
  const dec = new TextDecoder();
  const out: CentralEntry[] = [];
  let p = 0;
  let total = 0;
  for (let k = 0; k < count; k++) {
    if (p + 46 > cd.length || v.getUint32(p, true) !== CENTRAL_SIG) throw new ZipError("broken central directory");
    const nlen = v.getUint16(p + 28, true), xlen = v.getUint16(p + 30, true), clen = v.getUint16(p + 32, true);
    const e: CentralEntry = {
      name: dec.decode(cd.subarray(p + 46, p + 46 + nlen)),
      method: v.getUint16(p + 10, true), crc: v.getUint32(p + 16, true),
      csize: v.getUint32(p + 20, true), usize: v.getUint32(p + 24, true), offset: v.getUint32(p + 42, true),
      modified: dosDate(v.getUint16(p + 12, true), v.getUint16(p + 14, true)),
      encrypted: (v.getUint16(p + 8, true) & 1) === 1,
    };
    // Extra fields: ZIP64 sizes/offset (0x0001) and the Unix modification time macOS and Info-ZIP write (0x5455).
    for (let x = p + 46 + nlen; x + 4 <= p + 46 + nlen + xlen;) {
      const id = v.getUint16(x, true), len = v.getUint16(x + 2, true);
      let f = x + 4;
      if (id === 0x0001) {
        if (e.usize === 0xffffffff && f + 8 <= x + 4 + len) { e.usize = Number(v.getBigUint64(f, true)); f += 8; }
        if (e.csize === 0xffffffff && f + 8 <= x + 4 + len) { e.csize = Number(v.getBigUint64(f, true)); f += 8; }
        if (e.offset === 0xffffffff && f + 8 <= x + 4 + len) e.offset = Number(v.getBigUint64(f, true));
      } else if (id === 0x5455 && len >= 5 && (v.getUint8(f) & 1)) e.modified = new Date(v.getUint32(f + 1, true) * 1000);
      x += 4 + len;
    }
    total += e.usize;
    if (total > ZIP_LIMITS.totalBytes) throw badRequest(`ZIP refused: it would unpack to more than ${ZIP_LIMITS.totalBytes / 1024 ** 3} GiB`);
    if (e.usize > 1024 * 1024 && e.usize > e.csize * ZIP_LIMITS.ratio) {
      throw badRequest(`ZIP refused: ${e.name} is compressed ${Math.round(e.usize / Math.max(1, e.csize))}:1, a ZIP bomb`);
    }
    out.push(e);
    p += 46 + nlen + xlen + clen;
  }
  return out;
}

/** zlib stops at `limit` bytes of output (ERR_BUFFER_TOO_LARGE), so an entry lying about its size never unpacks further. */
function inflateCapped(data: Uint8Array, limit: number, name: string): Uint8Array {
  try {
    return inflateRawSync(data, { maxOutputLength: Math.max(1, limit) });
  } catch (e) {
    if ((e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") {
      throw badRequest(`ZIP refused: ${name} unpacks to more than its declared size (a ZIP bomb or a corrupt file)`);
    }
    throw e;
  }
}

/**
 * A ZIP file on disk as an import input. Entries whose names leave the archive, encrypted ones and ones beyond the
 * per-entry limit are not offered to readers; they are listed by `refused`. Throws ZipError when the file is no ZIP.
 */
export function openZipFile(path: string, name: string): ImportInput & { refused: SkippedItem[] } {
  const fd = openSync(path, "r");
  let entries: CentralEntry[];
  try {
    entries = readDirectory(fd, fstatSync(fd).size);
  } finally {
    closeSync(fd);
  }
  const refused: SkippedItem[] = [];
  const offered: ImportEntry[] = [];
  for (const e of entries) {
    if (e.name.endsWith("/")) continue; // directories
    const safe = safeEntryPath(e.name);
    if (safe === null) { refused.push({ skipped: e.name, reason: "unsafe path (leaves the archive): not read" }); continue; }
    if (e.encrypted) { refused.push({ skipped: safe, reason: "encrypted ZIP entry: not read" }); continue; }
    if (e.method !== 0 && e.method !== 8) { refused.push({ skipped: safe, reason: `unsupported compression method ${e.method}` }); continue; }
    if (e.usize > ZIP_LIMITS.entryBytes) { refused.push({ skipped: safe, reason: `larger than ${ZIP_LIMITS.entryBytes / 1024 ** 2} MiB: not read` }); continue; }
    offered.push({ path: safe, size: e.usize, modified: e.modified, bytes: async () => readEntry(path, e) });
  }
  return { name, refused, async *entries() { yield* offered; } };
}

function readEntry(path: string, e: CentralEntry): Uint8Array {
  const fd = openSync(path, "r");
  try {
    const head = readAt(fd, e.offset, 30);
    const hv = new DataView(head.buffer);
    if (hv.getUint32(0, true) !== LOCAL_SIG) throw badRequest(`ZIP entry ${e.name} is corrupt`);
    const start = e.offset + 30 + hv.getUint16(26, true) + hv.getUint16(28, true);
    const raw = readAt(fd, start, e.csize);
    const data = e.method === 0 ? raw : inflateCapped(raw, e.usize, e.name);
    if (data.length !== e.usize || (Bun.hash.crc32(data) >>> 0) !== e.crc) throw badRequest(`ZIP entry ${e.name} is corrupt (size or checksum differs)`);
    return data;
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw badRequest(`ZIP entry ${e.name} is corrupt`);
  } finally {
    closeSync(fd);
  }
}
