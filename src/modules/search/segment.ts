// The bigram view for scripts written without spaces (CJK, Thai…): what the second keyword index stores and matches.

/**
 * Scripts whose words are not separated by spaces (Chinese, Japanese, Thai, Lao, Khmer, Myanmar) or carry attached
 * particles (Korean "자전거를" holds "자전거"). Script_Extensions, so the kana prolonged-sound mark ー and the
 * iteration mark 々 count with their script. migrations/0008's GLOB class is a superset of this.
 */
const SEGMENTED = String.raw`\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}`;
const HAS_SEGMENTED = new RegExp(`[${SEGMENTED}]`, "u");
const RUNS = new RegExp(`[${SEGMENTED}]+|[^${SEGMENTED}]+`, "gu");

export const hasSegmentedScript = (s: string): boolean => HAS_SEGMENTED.test(s);

/**
 * The token sequence the second index holds for a text, and that a query word is matched against as a phrase.
 * NFKC (full-width Latin, half-width katakana) and lowercase; anything but letters, digits and combining marks
 * separates words, like the main index. Inside a word, a run of a segmented script becomes its overlapping
 * two-character tokens (a one-character run stays one token): any substring of 2+ characters is then the phrase of
 * its bigrams. Other runs are one token with diacritics removed (as unicode61 remove_diacritics does). Code points,
 * not graphemes: Thai vowel and tone marks are code points of their own, and bigrams over them still match exactly
 * the substrings of the text.
 */
export function segmentTokens(text: string): string[] {
  const out: string[] = [];
  for (const word of text.normalize("NFKC").toLowerCase().split(/[^\p{L}\p{N}\p{M}]+/u)) {
    if (word === "") continue;
    for (const run of word.match(RUNS) ?? []) {
      if (HAS_SEGMENTED.test(run)) {
        const chars = [...run];
        if (chars.length === 1) out.push(run);
        for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
      } else {
        const folded = run.normalize("NFD").replace(/\p{M}+/gu, "");
        if (folded !== "") out.push(folded);
      }
    }
  }
  return out;
}

/** The stored form: tokens separated by spaces (the index's ascii tokenizer splits on them, nothing else). */
export const segmentText = (text: string): string => segmentTokens(text).join(" ");

/** A text's tokens as one phrase (separated by spaces, which is how the bigram index splits them), or null if it has none. */
export function segmentPhrase(text: string): string | null {
  const tokens = segmentTokens(text);
  return tokens.length === 0 ? null : tokens.join(" ");
}

/**
 * Which ideas the bigram index holds: a title or body with a character of migrations/0008's GLOB class (a superset of
 * the scripts above). The PostgreSQL index (fulltext-pg-repo.ts) asks this where SQLite's triggers ask the GLOB.
 */
const BIGRAM_INDEXED = /[\u0E00-\u0EFF\u1000-\u109F\u1100-\u11FF\u1780-\u17FF\u2E80-\u9FFF\uA960-\uA97F\uAC00-\uD7FF\uF900-\uFAFF\uFF66-\uFFDC\u{20000}-\u{3FFFF}]/u;
export const inBigramIndex = (title: string, body: string): boolean => BIGRAM_INDEXED.test(title) || BIGRAM_INDEXED.test(body);
