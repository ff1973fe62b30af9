// A tags field: chips for the chosen tags, a combobox that completes from the account's tags (GET /tags), the limits.
//
// Keyboard: Enter or comma adds what is typed (or the highlighted suggestion), Backspace in the empty box removes the
// last tag, ↑/↓ move through suggestions, Escape closes them. Text left in the box is added when the box loses focus
// and on Ctrl/Cmd+Enter (before the form's own handler sees the key, so a save includes the half-typed tag). The
// suggestions sit under the field in the form's flow, as the idea picker's list does, never over the form's button.
import { useEffect, useId, useRef, useState } from "preact/hooks";
import { listTags } from "../api/tags";
import { LIMITS, codePoints } from "../api/types";
import { afterPress, holdHeightWhilePressed } from "../lib/after-press";

export interface TagInputProps {
  value: string[];
  onChange: (tags: string[]) => void;
  label?: string;
  /** A server message for the tags field. */
  error?: string;
  /** Where to put the typing focus first (a page's first field). */
  autoFocus?: boolean;
}

let vocabulary: { at: number; names: Promise<string[]> } | null = null;
/** The account's tag names, most used first; fetched once a minute at most and shared by every tag field. */
function tagNames(): Promise<string[]> {
  if (!vocabulary || Date.now() - vocabulary.at > 60_000) {
    const names = listTags().then((r) => r.tags.map((t) => t.name)).catch(() => {
      vocabulary = null;
      return [] as string[];
    });
    vocabulary = { at: Date.now(), names };
  }
  return vocabulary.names;
}
/** Forget the cached vocabulary (after a save created new tags). */
export const forgetTagVocabulary = () => void (vocabulary = null);

/** Adds `text` to `tags` if it is a new, non-blank name; returns the same array when nothing changes. */
export function addTag(tags: string[], text: string): string[] {
  const name = text.trim();
  if (!name || tags.includes(name)) return tags;
  return [...tags, name];
}

export function TagInput({ value, onChange, label = "Tags", error, autoFocus }: TagInputProps) {
  const id = useId();
  const [text, setText] = useState("");
  const [names, setNames] = useState<string[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const input = useRef<HTMLInputElement>(null);
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let live = true;
    tagNames().then((n) => live && setNames(n));
    return () => void (live = false);
  }, []);

  const q = text.trim().toLowerCase();
  const suggestions = q
    ? names.filter((n) => !value.includes(n) && n.toLowerCase().includes(q))
        .sort((a, b) => Number(!a.toLowerCase().startsWith(q)) - Number(!b.toLowerCase().startsWith(q)))
        .slice(0, 8)
    : [];
  const showList = open && suggestions.length > 0;
  const full = value.length >= LIMITS.tags;
  const tooLong = codePoints(text.trim()) > LIMITS.tagName;
  const localError = full && text.trim() ? `At most ${LIMITS.tags} tags` : tooLong ? `A tag has at most ${LIMITS.tagName} characters` : "";

  const add = (name: string) => {
    const n = name.trim();
    if (!n) return;
    if (codePoints(n) > LIMITS.tagName || value.length >= LIMITS.tags) return; // the message says why; the text stays
    const next = addTag(value, n);
    if (next !== value) onChange(next);
    setText("");
    setActive(-1);
  };
  const remove = (name: string) => {
    onChange(value.filter((t) => t !== name));
    input.current?.focus();
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if ((e.key === "Enter" && !(e.ctrlKey || e.metaKey)) || e.key === ",") {
      if (e.key === "Enter" && !text.trim() && active < 0) return; // nothing to add: let the form have Enter
      e.preventDefault();
      add(showList && active >= 0 ? suggestions[active] : text);
    } else if (e.key === "Enter") {
      add(text); // Ctrl/Cmd+Enter saves the form: add the typed tag first; the event goes on to the form
    } else if (e.key === "Backspace" && text === "" && value.length > 0) {
      e.preventDefault();
      onChange(value.slice(0, -1));
    } else if (e.key === "ArrowDown" && suggestions.length > 0) {
      e.preventDefault();
      setOpen(true);
      setActive((a) => (a + 1) % suggestions.length);
    } else if (e.key === "ArrowUp" && suggestions.length > 0) {
      e.preventDefault();
      setOpen(true);
      setActive((a) => (a <= 0 ? suggestions.length - 1 : a - 1));
    } else if (e.key === "Escape" && showList) {
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
      setActive(-1);
    }
  };

  const invalid = !!(error || localError);
  const listId = `${id}-list`;
  return (
    <div class={`field tag-input${invalid ? " invalid" : ""}`} ref={root}>
      <label for={id}>{label}</label>
      <div class="tag-box" onClick={(e) => e.target === e.currentTarget && input.current?.focus()}>
        {value.length > 0 && (
          <ul class="tags" aria-label={`${label} chosen`}>
            {value.map((t) => (
              <li key={t} class="tag chosen">
                <span>{t}</span>
                <button type="button" class="tag-remove" aria-label={`Remove tag ${t}`} onClick={() => remove(t)}>×</button>
              </li>
            ))}
          </ul>
        )}
        <input
          ref={input}
          id={id}
          data-tag-input=""
          type="text"
          role="combobox"
          autoComplete="off"
          autoFocus={autoFocus}
          aria-autocomplete="list"
          aria-expanded={showList}
          aria-controls={listId}
          aria-activedescendant={showList && active >= 0 ? `${id}-opt-${active}` : undefined}
          aria-describedby={`${id}-hint${invalid ? ` ${id}-err` : ""}`}
          aria-invalid={invalid}
          placeholder={value.length ? "" : "Add a tag, then Enter"}
          value={text}
          onInput={(e) => {
            const v = e.currentTarget.value;
            if (v.includes(",")) {
              // A pasted "a, b, c" becomes three tags.
              const parts = v.split(",");
              let next = value;
              for (const p of parts.slice(0, -1)) if (codePoints(p.trim()) <= LIMITS.tagName && next.length < LIMITS.tags) next = addTag(next, p);
              if (next !== value) onChange(next);
              setText(parts.at(-1) ?? "");
            } else setText(v);
            setOpen(true);
            setActive(-1);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => {
            holdHeightWhilePressed(root.current);
            afterPress(() => setOpen(false));
            if (text.trim() && !localError) add(text);
          }}
        />
      </div>
      <ul id={listId} role="listbox" aria-label={`${label} suggestions`} class="tag-suggestions" hidden={!showList}>
        {suggestions.map((s, i) => (
          <li
            key={s}
            id={`${id}-opt-${i}`}
            role="option"
            aria-selected={i === active}
            class={i === active ? "active" : undefined}
            // mousedown, not click: the input keeps focus, so blur does not add the half-typed text first.
            onMouseDown={(e) => {
              e.preventDefault();
              add(s);
            }}
          >
            {s}
          </li>
        ))}
      </ul>
      <div class="hint" id={`${id}-hint`}>
        <span>Enter or comma adds a tag · up to {LIMITS.tagName} characters each</span>
        <span class={`counter${value.length > LIMITS.tags ? " over" : ""}`}>{value.length} / {LIMITS.tags} tags</span>
      </div>
      {invalid && <div class="error" id={`${id}-err`} role={error ? "alert" : undefined}>{error || localError}</div>}
    </div>
  );
}

