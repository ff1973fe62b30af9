// The markup of an HTML/ENML text, token by token, and a tag's attributes: read as patterns once read them, in linear time on any input.

/**
 * One construct at `start`..`end`: a comment, `<!…>` or `<?…?>` (`skip`), CDATA (its text), an end tag or a start tag
 * (its name as written and the raw text of its attributes).
 */
export type Token =
  | { kind: "skip"; start: number; end: number }
  | { kind: "cdata"; start: number; end: number; text: string }
  | { kind: "end"; start: number; end: number; name: string }
  | { kind: "open"; start: number; end: number; name: string; raw: string };

const END_TAG = /<\/\s*([a-zA-Z][\w:-]*)\s*>/y;
const TAG_NAME = /[a-zA-Z][\w:-]*/y;
const GT = 62, DQ = 34, SQ = 39;

/**
 * Reads the constructs of `html` in order. Each is the leftmost match of the pattern this replaced,
 * `<!--[\s\S]*?(?:-->|$)|<!\[CDATA\[([\s\S]*?)(?:\]\]>|$)|<![^>]*>|<\?[\s\S]*?\?>|<\/\s*(name)\s*>|<(name)((?:[^>"']|"[^"]*"|'[^']*')*)>`,
 * so every text reads as it did. That pattern went back over the rest of the text from every `<` whose construct
 * never closes (200 KB of `<a` took minutes of the server's only thread); here a search that found nothing is
 * remembered, and a start tag's attributes are walked at most twice per character (see `attributesEnd`).
 */
export function* htmlTokens(html: string): Generator<Token> {
  const found = new Map<string, { from: number; at: number }>();
  /** `html.indexOf(needle, from)` for `from` that mostly grow: a miss (or a hit further on) answers later calls at once. */
  const next = (needle: string, from: number): number => {
    const c = found.get(needle);
    if (c && from >= c.from && (c.at < 0 || c.at >= from)) return c.at;
    const at = html.indexOf(needle, from);
    found.set(needle, { from, at });
    return at;
  };
  const ends = new AttributeWalker(html);
  let i = html.indexOf("<");
  while (i >= 0) {
    const t = tokenAt(html, i, next, ends);
    if (t) {
      yield t;
      i = html.indexOf("<", t.end);
    } else i = html.indexOf("<", i + 1);
  }
}

function tokenAt(html: string, i: number, next: (needle: string, from: number) => number, ends: AttributeWalker): Token | null {
  const c = html[i + 1];
  if (c === "!") {
    if (html.startsWith("<!--", i)) {
      const close = next("-->", i + 4);
      return { kind: "skip", start: i, end: close < 0 ? html.length : close + 3 };
    }
    if (html.startsWith("<![CDATA[", i)) {
      const close = next("]]>", i + 9);
      const end = close < 0 ? html.length : close;
      return { kind: "cdata", start: i, end: close < 0 ? end : close + 3, text: html.slice(i + 9, end) };
    }
    const gt = next(">", i + 2);
    return gt < 0 ? null : { kind: "skip", start: i, end: gt + 1 };
  }
  if (c === "?") {
    const close = next("?>", i + 2);
    return close < 0 ? null : { kind: "skip", start: i, end: close + 2 };
  }
  if (c === "/") {
    END_TAG.lastIndex = i;
    const m = END_TAG.exec(html);
    return m ? { kind: "end", start: i, end: END_TAG.lastIndex, name: m[1] } : null;
  }
  TAG_NAME.lastIndex = i + 1;
  const name = TAG_NAME.exec(html);
  if (!name) return null;
  // A shorter name leaves its last characters to the attributes, which reach the same `>` or fail alike: one walk decides.
  const from = TAG_NAME.lastIndex;
  const gt = ends.end(from);
  return gt < 0 ? null : { kind: "open", start: i, end: gt + 1, name: name[0], raw: html.slice(from, gt) };
}

/**
 * Where a start tag's attributes end: the first `>` outside quotes, a quote jumping to its closing quote; -1 when the
 * text ends first or a quote never closes. From a given position the walk always takes the same path, so the
 * positions of a walk that failed are marked, and a later walk that reaches one fails there. A walk that succeeds is
 * never repeated: the tag it found is consumed, and the next token starts after it.
 */
class AttributeWalker {
  private failed: Uint8Array | null = null;
  constructor(private readonly html: string) {}

  end(from: number): number {
    const gt = this.walk(from, false);
    if (gt < 0 && gt !== -2) this.walk(from, true);
    return gt < 0 ? -1 : gt;
  }

  /** -2: reached a position already known to fail (nothing to mark); -1: failed; else the index of the `>`. */
  private walk(from: number, mark: boolean): number {
    const html = this.html;
    const n = html.length;
    if (mark) this.failed ??= new Uint8Array(n + 1);
    const failed = this.failed;
    for (let p = from; p < n;) {
      if (failed?.[p]) return -2;
      const c = html.charCodeAt(p);
      if (c === GT) return p;
      if (mark) failed![p] = 1;
      if (c === DQ || c === SQ) {
        const close = html.indexOf(c === DQ ? '"' : "'", p + 1);
        if (close < 0) return -1;
        p = close + 1;
      } else p++;
    }
    return -1;
  }
}

export const isSpace = (c: string | undefined) => c !== undefined && /\s/.test(c);
const isNameChar = (c: string) => !isSpace(c) && c !== "=" && c !== "/" && c !== ">";

/**
 * Attributes (names in lower case, values as written) as `([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?` read them, written out: that pattern looked
 * for a closing quote to the end of the tag from every quote that had none (`a'b="c'` a few thousand times took seconds).
 */
export function readAttributes(s: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  const noCloser = { '"': Infinity, "'": Infinity } as Record<string, number>; // a quote at or past this has no closer
  let i = 0;
  while (i < s.length) {
    if (!isNameChar(s[i])) { i++; continue; }
    const start = i;
    while (i < s.length && isNameChar(s[i])) i++;
    const name = s.slice(start, i);
    let value = "";
    let j = i;
    while (isSpace(s[j])) j++;
    if (s[j] === "=") {
      j++;
      while (isSpace(s[j])) j++;
      const q = s[j];
      const close = (q === '"' || q === "'") && j < noCloser[q] ? s.indexOf(q, j + 1) : -1;
      if (close >= 0) { value = s.slice(j + 1, close); i = close + 1; }
      else if (j < s.length && s[j] !== ">") {
        if (q === '"' || q === "'") noCloser[q] = Math.min(noCloser[q], j);
        let k = j;
        while (k < s.length && !isSpace(s[k]) && s[k] !== ">") k++;
        value = s.slice(j, k);
        i = k;
      }
    }
    attrs[name.toLowerCase()] = value; // character references are the caller's to decode
  }
  return attrs;
}
