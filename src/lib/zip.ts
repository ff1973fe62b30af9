// A minimal streaming ZIP writer: deflated entries out as soon as they are added, ~100 bytes kept per entry.
// fflate's Zip keeps each entry's stream objects until the end (about 3 KB each); for a 10,000-file vault that
// alone was ~25 MB of the export's peak, measured in scripts/bench/export.ts.

const LOCAL_SIG = 0x04034b50;
const CENTRAL_SIG = 0x02014b50;
const END_SIG = 0x06054b50;
const UTF8_FLAG = 0x0800; // general-purpose bit 11: names are UTF-8
const DEFLATE = 8;
const MAX_U32 = 0xffffffff;

interface CentralEntry { name: Uint8Array; crc: number; compressed: number; size: number; offset: number; time: number; date: number }

/** DOS date/time of a 'YYYY-MM-DD HH:MM:SS' UTC stamp (ZIP has no zone; the stamp's wall clock is written as is). */
function dosDateTime(stamp: string): { time: number; date: number } {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(stamp);
  if (!m) return { time: 0, date: (0 << 9) | (1 << 5) | 1 };
  const year = Math.min(2107, Math.max(1980, Number(m[1])));
  return {
    time: (Number(m[4]) << 11) | (Number(m[5]) << 5) | (Number(m[6]) >> 1),
    date: ((year - 1980) << 9) | (Number(m[2]) << 5) | Number(m[3]),
  };
}

export class ZipWriter {
  private readonly entries: CentralEntry[] = [];
  private offset = 0;
  private readonly enc = new TextEncoder();

  /** Adds one file and returns the bytes to emit for it (local header + deflated data). */
  add(name: string, data: Uint8Array, modified: string): Uint8Array {
    const nameBytes = this.enc.encode(name);
    const body = Bun.deflateSync(data as Uint8Array<ArrayBuffer>, { level: 6 });
    const { time, date } = dosDateTime(modified);
    const entry: CentralEntry = { name: nameBytes, crc: Bun.hash.crc32(data) >>> 0, compressed: body.length, size: data.length, offset: this.offset, time, date };
    if (entry.offset + 30 + nameBytes.length + body.length > MAX_U32 || data.length > MAX_U32) throw new Error("ZIP larger than 4 GiB needs ZIP64");
    const head = new Uint8Array(30 + nameBytes.length);
    const v = new DataView(head.buffer);
    v.setUint32(0, LOCAL_SIG, true);
    v.setUint16(4, 20, true); // version needed: 2.0 (deflate)
    v.setUint16(6, UTF8_FLAG, true);
    v.setUint16(8, DEFLATE, true);
    v.setUint16(10, time, true);
    v.setUint16(12, date, true);
    v.setUint32(14, entry.crc, true);
    v.setUint32(18, entry.compressed, true);
    v.setUint32(22, entry.size, true);
    v.setUint16(26, nameBytes.length, true);
    v.setUint16(28, 0, true);
    head.set(nameBytes, 30);
    this.entries.push(entry);
    this.offset += head.length + body.length;
    const out = new Uint8Array(head.length + body.length);
    out.set(head, 0);
    out.set(body, head.length);
    return out;
  }

  /** The central directory and end record; call once after the last entry. */
  finish(): Uint8Array {
    if (this.entries.length > 0xffff) throw new Error("more than 65,535 ZIP entries needs ZIP64");
    const size = this.entries.reduce((n, e) => n + 46 + e.name.length, 0);
    const out = new Uint8Array(size + 22);
    const v = new DataView(out.buffer);
    let p = 0;
    for (const e of this.entries) {
      v.setUint32(p, CENTRAL_SIG, true);
      v.setUint16(p + 4, (3 << 8) | 20, true); // made by: Unix, 2.0
      v.setUint16(p + 6, 20, true);
      v.setUint16(p + 8, UTF8_FLAG, true);
      v.setUint16(p + 10, DEFLATE, true);
      v.setUint16(p + 12, e.time, true);
      v.setUint16(p + 14, e.date, true);
      v.setUint32(p + 16, e.crc, true);
      v.setUint32(p + 20, e.compressed, true);
      v.setUint32(p + 24, e.size, true);
      v.setUint16(p + 28, e.name.length, true);
      // extra, comment, disk number, internal attributes stay 0
      v.setUint32(p + 38, (0o100644 << 16) >>> 0, true); // external attributes: regular file, rw-r--r--
      v.setUint32(p + 42, e.offset, true);
      out.set(e.name, p + 46);
      p += 46 + e.name.length;
    }
    v.setUint32(p, END_SIG, true);
    v.setUint16(p + 8, this.entries.length, true);
    v.setUint16(p + 10, this.entries.length, true);
    v.setUint32(p + 12, size, true);
    v.setUint32(p + 16, this.offset, true);
    return out;
  }
}
