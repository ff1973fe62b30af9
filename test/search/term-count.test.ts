// Query words counted in the candidates' own text (src/modules/search/term-count.ts) against FTS5 itself: the same
// table definition as the ideas index (unicode61, remove_diacritics 2), its `instance` vocabulary as the truth.
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { countTerms, type TextHit } from "../../src/modules/search/term-count";

const db = new Database(":memory:");
db.run("CREATE VIRTUAL TABLE f USING fts5(title, body, tokenize = 'unicode61 remove_diacritics 2')");
db.run("CREATE VIRTUAL TABLE temp.fi USING fts5vocab(main, f, instance)");

let nextId = 1;
function index(texts: Array<[string, string | null]>) {
  return texts.map(([title, body]) => {
    const id = nextId++;
    db.query("INSERT INTO f (rowid, title, body) VALUES (?, ?, ?)").run(id, title, body);
    return { id, title, body };
  });
}

/** What the index holds for `terms` among `docs`, in the shape countTerms answers. */
function truth(terms: string[], docs: number[]): string[] {
  const rows = db
    .query<{ term: string; doc: number; col: "title" | "body" }, [string, string]>(
      "SELECT term, doc, col FROM fi WHERE term IN (SELECT value FROM json_each(?1)) AND doc IN (SELECT value FROM json_each(?2))",
    )
    .all(JSON.stringify(terms), JSON.stringify(docs));
  return rows.map((r) => `${terms.indexOf(r.term)}:${r.doc}:${r.col}`).sort();
}
const keys = (hits: TextHit[]) => hits.map((h) => `${h.term}:${h.doc}:${h.col}`).sort();

describe("query words counted in the candidates' text", () => {
  test("ASCII text is cut where unicode61 cuts it: punctuation, underscores, case and digits", () => {
    const docs = index([
      ["Snake_case tools, e-mail & TOOLS2", "tools!tools?Tools... don't stop, won't stop"],
      ["x86_64 builds on arm64", "build-tools; build_tools; buildtools tools"],
      ["Mail merge", null],
      ["e-mail", "EMAIL e mail mail.mail@mail"],
    ]);
    const terms = ["tools", "mail", "tools2", "x86", "64", "don", "t", "build", "email", "snake", "case"];
    const got = countTerms(terms, docs);
    expect(got).not.toBeNull();
    expect(keys(got!)).toEqual(truth(terms, docs.map((d) => d.id)));
    expect(got!.length).toBeGreaterThan(20);
  });

  test("random ASCII texts agree with the index occurrence for occurrence", () => {
    let seed = 7;
    const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const alphabet = "abcAB01 _-.,;:'!?@#/\\()[]{}\t\n";
    const text = (n: number) => Array.from({ length: n }, () => alphabet[Math.floor(rand() * alphabet.length)]).join("");
    const docs = index(Array.from({ length: 200 }, () => [text(40), rand() < 0.2 ? null : text(80)] as [string, string | null]));
    const terms = [...new Set(docs.flatMap((d) => `${d.title} ${d.body ?? ""}`.toLowerCase().match(/[a-z0-9]+/g) ?? []))].slice(0, 60);
    const got = countTerms(terms, docs);
    expect(got).not.toBeNull();
    expect(keys(got!)).toEqual(truth(terms, docs.map((d) => d.id)));
    expect(got!.length).toBeGreaterThan(200);
  });

  test("non-ASCII words that cannot be a query word are skipped, and the rest still agree", () => {
    const docs = index([
      ["Café für Werkzeug", "Werkzeug leihen im Café um die Ecke, tools"],
      ["Naïve tools — “quoted” tools", "Smørrebrød tools 🙂 tools"],
    ]);
    const terms = ["tools", "werkzeug", "leihen"];
    const got = countTerms(terms, docs);
    expect(got).not.toBeNull();
    expect(keys(got!)).toEqual(truth(terms, docs.map((d) => d.id)));
  });

  test("a token the index might fold into a query word gives no answer, so the index is asked", () => {
    const cases: Array<[string, string]> = [
      ["Café au lait", "cafe"], // é folds away
      ["cafe\u0301 on the corner", "cafe"], // e + combining accent
      ["Bøg tree", "bog"], // ø has no decomposition: whether a tokenizer folds it is its own table's call
      ["ÜBER tools", "uber"],
      ["abcŉdef", "abc"], // an ASCII run inside a longer non-ASCII token
    ];
    for (const [title, term] of cases) {
      const docs = index([[title, null]]);
      expect(countTerms([term, "tools"], docs)).toBeNull();
    }
    // Where the index did fold them, it found the word: the caution is not for nothing.
    const folded = index([["Café au lait", null]]);
    expect(truth(["cafe"], folded.map((d) => d.id))).toHaveLength(1);
  });
});
