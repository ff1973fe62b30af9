// Reads our JSON export from disk one idea at a time: the top-level fields parsed whole, each element of `ideas` as
// its own byte range, so a 10,000-idea file never becomes one 10,000-object tree in memory.
//
// A byte scanner is enough: every structural character of JSON ({ } [ ] " , : \) is ASCII, and UTF-8 never uses
// ASCII bytes inside a multi-byte character. Anything this reader does not expect (the top level is not an object,
// `ideas` is not an array, a trailing character) throws NotStreamable, and the caller parses the file whole instead,
// so malformed files keep the answers they always had.
import { closeSync, openSync, readSync } from "node:fs";

export class NotStreamable extends Error {}

export type ExportEvent =
  | { kind: "field"; key: string; value: unknown } // `ideas` arrives here as [] before its elements
  | { kind: "idea"; index: number; bytes: Uint8Array };

const CHUNK = 1 << 20;
const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
const QUOTE = 0x22, BACKSLASH = 0x5c, COMMA = 0x2c, COLON = 0x3a;
const OPEN = new Set([0x7b, 0x5b]), CLOSE = new Set([0x7d, 0x5d]);
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Bytes of a file, one byte at a time, with the ability to cut out what was read since a mark. */
class Reader {
  private fd: number;
  private buf = new Uint8Array(0);
  private pos = 0;
  private eof = false;
  private parts: Uint8Array[] = [];
  private mark = -1;

  constructor(path: string) {
    this.fd = openSync(path, "r");
  }
  close() {
    closeSync(this.fd);
  }
  /** The next byte, or -1 at the end of the file. */
  next(): number {
    if (this.pos >= this.buf.length) {
      if (this.eof) return -1;
      if (this.mark >= 0) {
        this.parts.push(this.buf.slice(this.mark));
        this.mark = 0;
      }
      const b = new Uint8Array(CHUNK);
      const n = readSync(this.fd, b, 0, CHUNK, null);
      if (n === 0) {
        this.eof = true;
        this.buf = new Uint8Array(0);
        this.pos = 0;
        return -1;
      }
      this.buf = b.subarray(0, n);
      this.pos = 0;
    }
    return this.buf[this.pos++];
  }
  /** Starts capturing at the byte just read. */
  startCapture() {
    this.pos--;
    this.mark = this.pos;
    this.parts = [];
    this.pos++;
  }
  /** Everything from the capture's start up to and including the byte just read. */
  endCapture(): Uint8Array {
    const tail = this.buf.subarray(this.mark, this.pos);
    const out = this.parts.length === 0 ? tail.slice() : Buffer.concat([...this.parts, tail]);
    this.parts = [];
    this.mark = -1;
    return out;
  }
  /** Puts back the byte just read (one byte of look-ahead is all the scanner needs). */
  unread() {
    this.pos--;
  }
}

function skipWs(r: Reader): number {
  let c: number;
  do c = r.next(); while (WS.has(c));
  return c;
}

/** Reads one JSON value starting at byte `c` (already read), capturing its bytes. Scalars end at , } ] or space. */
function captureValue(r: Reader, c: number): Uint8Array {
  r.startCapture();
  if (c === QUOTE) {
    skipString(r);
    return r.endCapture();
  }
  if (OPEN.has(c)) {
    let depth = 1;
    while (depth > 0) {
      const d = r.next();
      if (d === -1) throw new NotStreamable("unexpected end");
      if (d === QUOTE) skipString(r);
      else if (OPEN.has(d)) depth++;
      else if (CLOSE.has(d)) depth--;
    }
    return r.endCapture();
  }
  // A number, true, false or null.
  for (;;) {
    const d = r.next();
    if (d === -1 || d === COMMA || CLOSE.has(d) || WS.has(d)) {
      if (d !== -1) r.unread();
      const out = r.endCapture();
      return out;
    }
  }
}

function skipString(r: Reader): void {
  for (;;) {
    const d = r.next();
    if (d === -1) throw new NotStreamable("unterminated string");
    if (d === BACKSLASH) r.next();
    else if (d === QUOTE) return;
  }
}

const parse = (bytes: Uint8Array): unknown => JSON.parse(utf8.decode(bytes));

/** The document's events in file order. Throws NotStreamable where a whole parse should decide instead. */
export function* readExportDocument(path: string): Generator<ExportEvent> {
  const r = new Reader(path);
  try {
    let c = skipWs(r);
    if (c === 0xef) { // a UTF-8 byte-order mark
      if (r.next() !== 0xbb || r.next() !== 0xbf) throw new NotStreamable("not JSON");
      c = skipWs(r);
    }
    if (c !== 0x7b) throw new NotStreamable("top level is not an object");
    const keys = new Set<string>();
    c = skipWs(r);
    if (c === 0x7d) return finish(r);
    for (;;) {
      if (c !== QUOTE) throw new NotStreamable("key expected");
      const key = parse(captureValue(r, c)) as string;
      // A repeated key: JSON.parse keeps the last one, which a single forward pass cannot know in time.
      if (keys.has(key)) throw new NotStreamable("repeated key");
      keys.add(key);
      if (skipWs(r) !== COLON) throw new NotStreamable("colon expected");
      c = skipWs(r);
      if (key === "ideas") {
        if (c !== 0x5b) throw new NotStreamable("ideas is not an array");
        // The key itself, for whoever checks the document's shape; its elements follow one by one.
        yield { kind: "field", key, value: [] };
        let index = 0;
        c = skipWs(r);
        if (c !== 0x5d) {
          for (;;) {
            if (!OPEN.has(c)) throw new NotStreamable("an idea is not an object");
            yield { kind: "idea", index: index++, bytes: captureValue(r, c) };
            c = skipWs(r);
            if (c === 0x5d) break;
            if (c !== COMMA) throw new NotStreamable("comma expected");
            c = skipWs(r);
          }
        }
      } else {
        yield { kind: "field", key, value: parse(captureValue(r, c)) };
      }
      c = skipWs(r);
      if (c === 0x7d) return finish(r);
      if (c !== COMMA) throw new NotStreamable("comma expected");
      c = skipWs(r);
    }
  } catch (e) {
    // Invalid UTF-8 or a value JSON.parse refuses: the whole parse gives the answer clients know.
    if (e instanceof NotStreamable) throw e;
    throw new NotStreamable((e as Error).message);
  } finally {
    r.close();
  }
}

function finish(r: Reader): void {
  if (skipWs(r) !== -1) throw new NotStreamable("trailing characters");
}
