// SQLite's BINARY order for UTF-8 text is code point order; JavaScript's `<` and default sort compare UTF-16 units,
// which differ only past U+FFFF (a surrogate D800–DFFF sorts below E000–FFFF in UTF-16 but above it by code point).

/** Compares by code point, as SQLite orders TEXT: unit by unit, with surrogates moved above the rest of the BMP. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // The usual fix-up (ICU's): E000–FFFF down by 0x800, surrogates up by 0x2000, so surrogates land past FFFF.
    // Comparing lead surrogates is enough: two strings that first differ in a trail unit share the lead before it.
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}
