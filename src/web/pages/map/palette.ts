// The map's colours, read from the page's CSS variables (tokens.css and map.css) so light and dark both work, and
// what each relation type looks like. No graph library here: the legend and filters use it too.
import { RELATION_TYPES, STATUSES, type RelationType, type Status } from "../../api/types";

export interface Palette {
  status: Record<Status, string>;
  relation: Record<RelationType, string>;
  text: string;
  muted: string;
  surface: string;
  font: string;
}

/** Relation types drawn with an arrow (source → target); the others are symmetric and drawn as plain lines. */
export const DIRECTED: ReadonlySet<RelationType> = new Set(["parent", "blocks", "inspires", "supersedes"]);

export const RELATION_LABELS: Record<RelationType, string> = {
  related: "related to",
  parent: "parent of",
  blocks: "blocks",
  inspires: "inspires",
  supersedes: "supersedes",
  duplicate: "duplicate of",
};

/** Reads the colours from `el` (inside .map-page, where the --rel-* variables live). */
export function readPalette(el: Element): Palette {
  const css = getComputedStyle(el);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  const muted = v("--muted", "#5f6368");
  return {
    status: Object.fromEntries(STATUSES.map((s) => [s, v(`--st-${s}`, muted)])) as Record<Status, string>,
    relation: Object.fromEntries(RELATION_TYPES.map((t) => [t, v(`--rel-${t}`, muted)])) as Record<RelationType, string>,
    text: v("--text", "#1d1e20"),
    muted,
    surface: v("--surface", "#ffffff"),
    font: css.fontFamily || "system-ui, sans-serif",
  };
}

/** `#rrggbb` (or `#rgb`) with an alpha, as rgba(); other colour strings are returned unchanged. */
export function withAlpha(colour: string, alpha: number): string {
  let hex = colour.startsWith("#") ? colour.slice(1) : "";
  if (hex.length === 3) hex = [...hex].map((c) => c + c).join("");
  if (!/^[0-9a-f]{6}$/i.test(hex)) return colour;
  const n = parseInt(hex, 16);
  return `rgba(${n >> 16}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

/** Calls `fn` whenever the theme may have changed (system scheme or the app's own data-theme switch). */
export function onThemeChange(fn: () => void): () => void {
  const mq = window.matchMedia("(prefers-color-scheme: dark)");
  mq.addEventListener("change", fn);
  const mo = new MutationObserver(fn);
  mo.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  return () => {
    mq.removeEventListener("change", fn);
    mo.disconnect();
  };
}
