// The TypeScript unicode61 tokenizer (the PostgreSQL index's) against FTS5's own output, read from fts5vocab.
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { unicode61Tokens } from "../../src/modules/search/unicode61";

/** FTS5's tokens of each text, in order, as its instance vocabulary lists them. */
function fts5Tokens(texts: string[]): string[][] {
  const db = new Database(":memory:");
  db.run("CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'unicode61 remove_diacritics 2')");
  db.run("CREATE VIRTUAL TABLE v USING fts5vocab(t, instance)");
  const insert = db.prepare("INSERT INTO t (rowid, x) VALUES (?, ?)");
  db.transaction(() => texts.forEach((t, i) => insert.run(i + 1, t)))();
  const out = texts.map(() => [] as string[]);
  for (const r of db.query<{ term: string; doc: number; offset: number }, []>("SELECT term, doc, offset FROM v").all()) out[r.doc - 1][r.offset] = r.term;
  db.close();
  return out;
}

const TEXTS = [
  "Crème brûlée à la française: déjà vu, naïve café, ŒUVRE, Æsir, straße, İstanbul, ıi, Ångström, Øresund",
  "Ärger über Öfen — Übermut; façade, coöperate, São Paulo, Kraków, Dvořák, Đorđe, Łódź, Þórr",
  "Ελληνικά: Άλφα, ΐ, Ωμέγα; Русский: Ёлка, йод; Українська: Її; ქართული",
  "日本語のアイデア：自転車のライト、ｶﾀｶﾅ、ＦＵＬＬ　ｗｉｄｔｈ １２３",
  "中文：机器学习与自然语言处理 2024年；한국어: 자전거를 타다; ไทย: ที่นี่ภาษาไทย; हिन्दी में लिखा; العربية: مرحبا بالعالم",
  "emoji 🚀 rocket🚀launch 👩‍💻 dev 🇫🇷 flag ❤️ love #hashtag @mention",
  "digits 3.14159 1,000,000 v2.0.1 ½ ² ③ ٣ ૩ 〇 Ⅻ",
  "punctuation: don't e-mail foo_bar a/b (x) [y] {z} \"q\" 'r' «s» „t“ x—y x–y … ¿qué? ¡sí!",
  "combining: e\u0301 a\u0300\u0301 n\u0303 o\u0308\u0304 x\u0332 \u0301lead i\u0307 q\u20dd",
  "mixed𝐁𝐨𝐥𝐝 𝔉𝔯𝔞𝔨 ﬁ ﬀ Ǆ ǅ ǆ ᾼ ẞ ﬃ ℌ Ⅷ ⓐ 𐐀𐐨 \uFFFE \uFFFF \uFFFD private\uE000use",
  "tabs\tand\nnew\r\nlines  double  spaces\u00a0nbsp\u2003em\u200bzwsp\u200dzwj",
];

describe("unicode61 (TypeScript) agrees with FTS5", () => {
  test("varied real text: accents, scripts, CJK, digits, punctuation, emoji", () => {
    const want = fts5Tokens(TEXTS);
    TEXTS.forEach((t, i) => expect(unicode61Tokens(t)).toEqual(want[i]));
    expect(unicode61Tokens("Crème brûlée")).toEqual(["creme", "brulee"]);
  });

  test("every code point of the Basic Multilingual Plane, alone and inside a word", () => {
    const texts: string[] = [];
    for (let cp = 0; cp < 0x10000; cp++) if (cp < 0xd800 || cp > 0xdfff) texts.push(`q${String.fromCodePoint(cp)}q ${String.fromCodePoint(cp)}`);
    const want = fts5Tokens(texts);
    const wrong = texts.filter((t, i) => JSON.stringify(unicode61Tokens(t)) !== JSON.stringify(want[i]));
    expect(wrong.map((t) => t.codePointAt(1)!.toString(16))).toEqual([]);
  });

  test("random strings over a pool of every kind of character, astral ones included", () => {
    const pool = [..."aZ09 .,-_'é\u0301\u0300\u0308ÅßİıΣσςЁё日本語한글ไท\u0e35\u0e48हि\u094d🚀👩\u200d💻️ﬁＡ１ｶ\u00a0\u3000𐐀𐐨𝐁\ue000\ufffd"];
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const texts = Array.from({ length: 4000 }, () => {
      let s = "";
      for (let k = 1 + rand(16); k > 0; k--) s += rand(5) === 0 ? String.fromCodePoint(0x10000 + rand(0x100000 - 0x800)) : pool[rand(pool.length)];
      return s;
    });
    const want = fts5Tokens(texts);
    const wrong = texts.filter((t, i) => JSON.stringify(unicode61Tokens(t)) !== JSON.stringify(want[i]));
    expect(wrong).toEqual([]);
  });
});
