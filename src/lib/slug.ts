// File-name slugs for exported ideas: lower-case letters and digits of any script, runs of anything else become "-".
const MAX_SLUG_CHARS = 60;

/**
 * Turns a title into a slug that is safe as a file name on every common file system and readable in a vault.
 * Latin diacritics are folded (é → e) so names stay typeable; other scripts are kept as they are (Obsidian and
 * ZIP tools handle UTF-8 names). Returns "untitled" when nothing usable is left.
 */
export function slugify(title: string): string {
  const folded = Array.from(title.normalize("NFC"), foldLatin).join("").toLowerCase();
  // Marks stay: in scripts like Devanagari or Japanese kana they are part of the letter, not decoration.
  const slug = folded.replace(/[^\p{L}\p{M}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "");
  // Cut by code points so a surrogate pair is never split, then drop a dash left dangling by the cut.
  const cut = Array.from(slug).slice(0, MAX_SLUG_CHARS).join("").replace(/-+$/, "");
  return cut === "" ? "untitled" : cut;
}

/** é → e, ﬁ → fi, Ｆ → F; characters of other scripts are returned unchanged (デ keeps its voicing mark). */
function foldLatin(ch: string): string {
  const decomposed = ch.normalize("NFKD");
  return /^\p{Script=Latin}/u.test(decomposed) ? decomposed.replace(/\p{M}+/gu, "") : ch;
}

/** `NNNN-slug`: the display number zero-padded to four digits (longer numbers keep all their digits). */
export function ideaFileStem(number: number, title: string): string {
  return `${String(number).padStart(4, "0")}-${slugify(title)}`;
}
