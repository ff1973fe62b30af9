// Global keyboard shortcuts: single keys that work anywhere except while typing in a field.
export interface Shortcut { keys: string; description: string; run: () => void }

const registry: Shortcut[] = [];

export function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
}

/** Registers a shortcut; returns its removal. `keys` is the KeyboardEvent.key, e.g. "c", "/", "?". */
export function addShortcut(s: Shortcut): () => void {
  registry.push(s);
  return () => registry.splice(registry.indexOf(s), 1);
}

export const shortcuts = (): readonly Shortcut[] => registry;

export function installShortcuts(): void {
  document.addEventListener("keydown", (e) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
    if (document.querySelector("dialog[open]")) return;
    const s = registry.find((r) => r.keys === e.key);
    if (!s) return;
    e.preventDefault();
    s.run();
  });
}
