// Resolves a note's references ([[name]], relative paths, ids) to another note of the same import, the way Obsidian does.
const withoutExt = (p: string) => p.replace(/\.(md|markdown|txt)$/i, "");
const norm = (s: string) => s.normalize("NFC").trim().toLowerCase();

interface Target { origin: string; title: string; aliases: string[] }

/**
 * Case-insensitive, most specific first: the origin itself (a relative link resolved by the reader, a source id), the
 * path without extension, a trailing part of the path (`[[sub/note]]`), the file name without extension, the title,
 * an alias. Within one level the first note read wins.
 */
export function createResolver(targets: Target[]): (ref: string) => string | null {
  const levels = Array.from({ length: 6 }, () => new Map<string, string>());
  const put = (level: number, key: string, origin: string) => {
    const k = norm(key);
    if (k && !levels[level].has(k)) levels[level].set(k, origin);
  };
  for (const t of targets) {
    put(0, t.origin, t.origin);
    const stem = withoutExt(t.origin);
    put(1, stem, t.origin);
    const parts = stem.split("/");
    for (let i = 1; i < parts.length - 1; i++) put(2, parts.slice(i).join("/"), t.origin);
    put(3, parts[parts.length - 1], t.origin);
    put(4, t.title, t.origin);
    for (const a of t.aliases) put(5, a, t.origin);
  }
  return (ref) => {
    const keys = [norm(ref), norm(withoutExt(ref))];
    for (const level of levels) for (const k of keys) {
      const hit = level.get(k);
      if (hit !== undefined) return hit;
    }
    return null;
  };
}
