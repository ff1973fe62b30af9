// Which languages an embedding model reads, the writing systems that follows from, and how much of a text is written
// in scripts it does not read (where its cosines are noise: search and duplicates then trust the words instead).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface ModelLanguages {
  /** ISO 639-1 codes the model was trained on, or null when nobody said (an ONNX model without a known card). */
  languages: string[] | null;
  /** Unicode scripts those languages are written in; null = not known, treated as reading every script. */
  scripts: string[] | null;
}

/** Scripts by language; a language not listed here adds no script (it cannot narrow what a model reads). */
const SCRIPTS_OF: Record<string, string[]> = {
  zh: ["Han"],
  ja: ["Han", "Hiragana", "Katakana"],
  ko: ["Hangul", "Han"],
  th: ["Thai"],
  lo: ["Lao"],
  km: ["Khmer"],
  my: ["Myanmar"],
  ru: ["Cyrillic"], uk: ["Cyrillic"], bg: ["Cyrillic"], sr: ["Cyrillic", "Latin"], mk: ["Cyrillic"], be: ["Cyrillic"], mn: ["Cyrillic"], kk: ["Cyrillic"],
  el: ["Greek"],
  ar: ["Arabic"], fa: ["Arabic"], ur: ["Arabic"], ku: ["Arabic", "Latin"],
  he: ["Hebrew"],
  hi: ["Devanagari"], mr: ["Devanagari"], ne: ["Devanagari"],
  bn: ["Bengali"], gu: ["Gujarati"], pa: ["Gurmukhi"], ta: ["Tamil"], te: ["Telugu"], kn: ["Kannada"], ml: ["Malayalam"], si: ["Sinhala"],
  ka: ["Georgian"], hy: ["Armenian"], am: ["Ethiopic"],
};
/** Every other code is taken to be written in Latin script (en, fr, de, es, pt, it, nl, pl, tr, vi, id, …). */
const LATIN_DEFAULT = "Latin";

export const scriptsOf = (languages: string[]): string[] =>
  [...new Set(languages.flatMap((l) => SCRIPTS_OF[l.toLowerCase().split(/[-_]/)[0]] ?? [LATIN_DEFAULT]))].sort();

const known = (languages: string[]): ModelLanguages => ({ languages, scripts: scriptsOf(languages) });

/**
 * The 50+ languages of sentence-transformers' paraphrase-multilingual models (their model card), the small
 * multilingual model docs/models.md names.
 */
const PARAPHRASE_MULTILINGUAL = [
  "ar", "bg", "ca", "cs", "da", "de", "el", "en", "es", "et", "fa", "fi", "fr", "gl", "gu", "he", "hi", "hr", "hu", "hy", "id",
  "it", "ja", "ka", "ko", "ku", "lt", "lv", "mk", "mn", "mr", "ms", "my", "nb", "nl", "pl", "pt", "ro", "ru", "sk", "sl", "sq",
  "sr", "sv", "th", "tr", "uk", "ur", "vi", "zh",
];

/** Models whose languages are known without a model card in the folder (the hub's ONNX exports often carry none). */
const KNOWN: Record<string, string[]> = {
  "use-lite": ["en"],
  "paraphrase-multilingual-MiniLM-L12-v2": PARAPHRASE_MULTILINGUAL,
  "paraphrase-multilingual-mpnet-base-v2": PARAPHRASE_MULTILINGUAL,
  "all-MiniLM-L6-v2": ["en"],
  "all-MiniLM-L12-v2": ["en"],
  "all-mpnet-base-v2": ["en"],
  "bge-small-en-v1.5": ["en"],
  "bge-base-en-v1.5": ["en"],
};

/**
 * What the configured model `name` reads: a known name (with or without its hub owner), else the `language:` list of
 * the model card (README.md front matter) the pull fetched, else unknown.
 */
export function modelLanguages(name: string, modelsDir: string): ModelLanguages {
  const base = name.split("/").pop() ?? name;
  const listed = KNOWN[name] ?? KNOWN[base];
  if (listed) return known(listed);
  const fromCard = cardLanguages(join(modelsDir, name, "README.md"));
  return fromCard ? known(fromCard) : { languages: null, scripts: null };
}

const memo = new Map<string, ModelLanguages>();
/** modelLanguages, read once per model and folder (the card does not change under a running model). */
export function modelLanguagesOnce(name: string, modelsDir: string): ModelLanguages {
  const key = `${modelsDir}\0${name}`;
  let out = memo.get(key);
  if (!out) memo.set(key, (out = modelLanguages(name, modelsDir)));
  return out;
}
export const modelScripts = (name: string, modelsDir: string) => modelLanguagesOnce(name, modelsDir).scripts;

/** The `language:` field of a Hugging Face model card's YAML front matter (a list, or one code). */
export function cardLanguages(path: string): string[] | null {
  if (!existsSync(path)) return null;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return null;
  }
  const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1];
  if (!front) return null;
  const lines = front.split(/\r?\n/);
  const at = lines.findIndex((l) => /^language:/.test(l));
  if (at < 0) return null;
  const inline = lines[at].replace(/^language:\s*/, "").trim();
  const codes: string[] = [];
  if (inline.startsWith("[")) codes.push(...inline.replace(/[[\]"']/g, "").split(",").map((s) => s.trim()));
  else if (inline) codes.push(inline.replace(/["']/g, ""));
  else for (const l of lines.slice(at + 1)) {
    const m = /^\s*-\s*["']?([A-Za-z-_]+)["']?\s*$/.exec(l);
    if (!m) break;
    codes.push(m[1]);
  }
  const out = codes.filter((c) => /^[a-z]{2,3}([-_][A-Za-z]+)?$/.test(c)).map((c) => c.toLowerCase());
  return out.length > 0 ? [...new Set(out)] : null;
}

const SCRIPT_NAMES = [
  "Latin", "Han", "Hiragana", "Katakana", "Hangul", "Thai", "Lao", "Khmer", "Myanmar", "Cyrillic", "Greek", "Arabic",
  "Hebrew", "Devanagari", "Bengali", "Gujarati", "Gurmukhi", "Tamil", "Telugu", "Kannada", "Malayalam", "Sinhala",
  "Georgian", "Armenian", "Ethiopic",
];
const SCRIPT_RE = SCRIPT_NAMES.map((s) => [s, new RegExp(`\\p{scx=${s}}`, "u")] as const);
/** Scripts written without spaces: each character is a unit of text (a word elsewhere). segment.ts's list. */
const UNSPACED = new Set(["Han", "Hiragana", "Katakana", "Hangul", "Thai", "Lao", "Khmer", "Myanmar"]);

/** Script by code point, remembered: a Chinese text repeats a few thousand characters. */
const scriptMemo = new Map<number, string>();
function scriptOf(ch: string): string {
  const cp = ch.codePointAt(0)!;
  if (cp < 0x250) return "Latin"; // ASCII and Latin-1/Extended letters (only letters reach here)
  let name = scriptMemo.get(cp);
  if (name === undefined) {
    name = SCRIPT_RE.find(([, re]) => re.test(ch))?.[0] ?? "Other";
    if (scriptMemo.size < 100_000) scriptMemo.set(cp, name);
  }
  return name;
}

/**
 * The share (0–1) of a text's units written in scripts `scripts` does not hold: a unit is a word in a spaced script
 * and a character in an unspaced one (a Chinese word is one or two characters, an English one a run of letters), so
 * a Chinese page quoting `ls -a` is mostly Chinese. 0 for a text without letters, and whenever `scripts` is null.
 */
export function unreadShare(text: string, scripts: readonly string[] | null): number {
  if (!scripts) return 0;
  const reads = new Set(scripts);
  let units = 0;
  let unread = 0;
  for (const word of text.split(/[^\p{L}\p{M}]+/u)) {
    if (word === "") continue;
    let i = 0;
    const chars = [...word];
    while (i < chars.length) {
      const s = scriptOf(chars[i]);
      if (UNSPACED.has(s)) {
        units++;
        if (!reads.has(s)) unread++;
        i++;
        continue;
      }
      // A spaced run: one unit up to the next unspaced character.
      let j = i + 1;
      while (j < chars.length && !UNSPACED.has(scriptOf(chars[j]))) j++;
      units++;
      if (!reads.has(s) && !(s === "Other" && reads.has(LATIN_DEFAULT))) unread++;
      i = j;
    }
  }
  return units === 0 ? 0 : unread / units;
}

/** Above this share the model is taken not to read the text: its vector is mostly unknown tokens. */
export const UNREAD_SHARE = 0.5;

/** True when the model (its scripts) reads the text: a text in scripts it does not read has meaningless cosines. */
export const readsText = (text: string, scripts: readonly string[] | null): boolean => unreadShare(text, scripts) <= UNREAD_SHARE;
