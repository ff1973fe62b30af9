// Global keyboard shortcuts: single keys that work anywhere except while typing in a field, and Ctrl/Cmd
// combinations ("Mod+k") that work from a field too (they cannot be typed as text).
export interface Shortcut { keys: string; description: string; run: () => void }

const registry: Shortcut[] = [];
const MOD = "Mod+";

export function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
}

/** Registers a shortcut; returns its removal. `keys` is the KeyboardEvent.key ("c", "/", "?"), or "Mod+k" for Ctrl+K / Cmd+K. */
export function addShortcut(s: Shortcut): () => void {
  registry.push(s);
  return () => registry.splice(registry.indexOf(s), 1);
}

export const shortcuts = (): readonly Shortcut[] => registry;

/** The shortcut a keydown triggers, or undefined. */
function match(e: KeyboardEvent): Shortcut | undefined {
  if (e.altKey) return undefined;
  if (e.ctrlKey || e.metaKey) {
    if (e.ctrlKey && e.metaKey) return undefined;
    return registry.find((r) => r.keys.startsWith(MOD) && r.keys.slice(MOD.length).toLowerCase() === e.key.toLowerCase());
  }
  if (isTyping(e.target)) return undefined;
  return registry.find((r) => r.keys === e.key);
}

export function installShortcuts(): void {
  document.addEventListener("keydown", (e) => {
    if (e.defaultPrevented || document.querySelector("dialog[open]")) return;
    const s = match(e);
    if (!s) return;
    e.preventDefault();
    s.run();
  });
}
