// The keyboard shortcuts list (`?`): every registered shortcut, read when it opens, plus the in-field and palette keys.
import { Fragment } from "preact";
import { Dialog } from "./dialog";
import { shortcuts } from "../lib/keys";

const IS_MAC = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.userAgent);

/** "Mod+k" → "Ctrl+K" (⌘K on a Mac); a single key as it is. */
export function keyLabel(keys: string): string {
  if (!keys.startsWith("Mod+")) return keys;
  const rest = keys.slice(4);
  const key = rest.length === 1 ? rest.toUpperCase() : rest;
  return IS_MAC ? `⌘${key}` : `Ctrl+${key}`;
}

function Keys({ keys }: { keys: string }) {
  const parts = keyLabel(keys).split(/(?<=.)\+(?=.)/);
  return <>{parts.map((p, i) => <Fragment key={i}>{i > 0 && "+"}<kbd>{p}</kbd></Fragment>)}</>;
}

const IN_FIELDS: Array<[string, string]> = [
  ["Mod+Enter", "Save the form you are typing in (capture, edit)"],
  ["Escape", "Leave the search box"],
  ["Enter", "Search, in a search box"],
];
const IN_PALETTE: Array<[string, string]> = [
  ["↑ / ↓", "Move through the options"],
  ["Enter", "Open the option"],
  ["Escape", "Close the palette (or any dialog)"],
];

export function ShortcutsHelp({ open, onClose }: { open: boolean; onClose: () => void }) {
  const seen = new Set<string>();
  const global = shortcuts().filter((s) => !seen.has(s.keys) && seen.add(s.keys));
  const list = (rows: Array<[string, string]>) => (
    <dl class="shortcuts-list">
      {rows.map(([k, d]) => [<dt key={`${k}-k`}><Keys keys={k} /></dt>, <dd key={`${k}-d`}>{d}</dd>])}
    </dl>
  );
  return (
    <Dialog open={open} title="Keyboard shortcuts" onClose={onClose}>
      <h3 class="shortcuts-section">Anywhere</h3>
      <p class="muted small">Single keys do nothing while you type in a field; Ctrl/⌘ combinations work there too.</p>
      {list(global.map((s) => [s.keys, s.description]))}
      <h3 class="shortcuts-section">In a text field</h3>
      {list(IN_FIELDS)}
      <h3 class="shortcuts-section">In the command palette</h3>
      {list(IN_PALETTE)}
      <div class="actions">
        <button type="button" class="btn" onClick={onClose} autofocus>Close</button>
      </div>
    </Dialog>
  );
}
