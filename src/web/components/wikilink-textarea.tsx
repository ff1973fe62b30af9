// A body's textarea that completes [[wikilinks]] as notes apps do: typing `[[` lists the account's ideas whose titles
// hold what follows (or `[[#12` by number), keyboard-first. ↓/↑ move through the list, Enter or Tab writes the link
// (`[[Title]]`, the caret after it), Escape closes the list and nothing else (the form's Escape is not reached). The
// list is the idea picker's (components/idea-picker.tsx): the same list of ideas, read once, the same matching.
import type { JSX } from "preact";
import { useEffect, useId, useRef, useState } from "preact/hooks";
import { IdeaNumber } from "./badges";
import { loadPickerList, pickerMatches, type PickedIdea } from "./idea-picker";

const MAX_OPTIONS = 8;

/** The `[[…` the caret is in, unclosed on its line: where its text starts and what has been typed. */
export function openWikilink(text: string, caret: number): { start: number; query: string } | null {
  if (caret < 2) return null;
  const open = text.lastIndexOf("[[", caret - 2);
  if (open === -1) return null;
  const query = text.slice(open + 2, caret);
  // A closed link, another bracket, a new line, an alias or a heading: the caret is not completing a title any more.
  if (query.length > 200 || /[[\]\n|]/.test(query) || query.slice(1).includes("#")) return null;
  return { start: open + 2, query };
}

/** What the link says: the title, or `#12` for a title the link syntax cannot hold (brackets, a bar, a hash). */
const linkText = (i: PickedIdea) => (/[[\]|#]/.test(i.title) ? `#${i.number}` : i.title);

type FieldProps = { id: string; "aria-describedby"?: string; "aria-invalid"?: boolean };

export function WikilinkTextarea(props: FieldProps & {
  value: string;
  onValue: (v: string) => void;
  rows: number;
  placeholder?: string;
  /** The idea being edited: a link to itself is not offered. */
  exclude?: number;
}) {
  const { value, onValue, rows, placeholder, exclude, ...field } = props;
  const listId = `${useId()}-links`;
  const area = useRef<HTMLTextAreaElement>(null);
  const [at, setAt] = useState<{ start: number; query: string } | null>(null);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const [options, setOptions] = useState<PickedIdea[]>([]);
  const [active, setActive] = useState(0);
  const list = useRef<PickedIdea[] | null>(null);
  const caretAfter = useRef<number | null>(null);

  const open = at !== null && at.start !== dismissed && options.length > 0;

  useEffect(() => {
    if (at === null) return setOptions([]);
    let live = true;
    const show = () => {
      const found = pickerMatches(list.current ?? [], at.query).filter((i) => i.id !== exclude).slice(0, MAX_OPTIONS);
      setOptions(found);
      setActive(0);
    };
    if (list.current) show();
    else loadPickerList().then((l) => {
      list.current = l;
      if (live) show();
    }, () => live && setOptions([]));
    return () => {
      live = false;
    };
  }, [at?.start, at?.query]);

  // After a link is written, the caret goes behind its `]]` (once the new value is in the textarea).
  useEffect(() => {
    if (caretAfter.current === null || !area.current) return;
    area.current.setSelectionRange(caretAfter.current, caretAfter.current);
    caretAfter.current = null;
  }, [value]);

  const look = () => {
    const el = area.current;
    if (!el || el.selectionStart !== el.selectionEnd) return setAt(null);
    setAt(openWikilink(el.value, el.selectionStart));
  };

  const write = (idea: PickedIdea) => {
    const el = area.current;
    if (!el || !at) return;
    const caret = el.selectionStart;
    const rest = value.slice(caret);
    const closed = rest.startsWith("]]");
    const text = linkText(idea);
    caretAfter.current = at.start + text.length + 2;
    setAt(null);
    onValue(value.slice(0, at.start) + text + (closed ? "" : "]]") + rest);
  };

  const onKeyDown = (e: JSX.TargetedKeyboardEvent<HTMLTextAreaElement>) => {
    if (!open || e.isComposing) return;
    if (e.key === "ArrowDown") {
      e.preventDefault();
      setActive((a) => Math.min(a + 1, options.length - 1));
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      setActive((a) => Math.max(a - 1, 0));
    } else if ((e.key === "Enter" || e.key === "Tab") && !(e.ctrlKey || e.metaKey || e.shiftKey || e.altKey)) {
      e.preventDefault(); // writes the link; no new line, no save, no move to the next field
      write(options[active]);
    } else if (e.key === "Escape") {
      // Closes the list only: the edit form's Escape (cancel) waits for a second one.
      e.preventDefault();
      e.stopPropagation();
      setDismissed(at!.start);
    }
  };

  return (
    <>
      <textarea
        {...field}
        ref={area}
        rows={rows}
        placeholder={placeholder}
        value={value}
        aria-autocomplete="list"
        aria-controls={listId}
        aria-activedescendant={open ? `${listId}-${options[active].id}` : undefined}
        onInput={(e) => {
          onValue(e.currentTarget.value);
          look();
        }}
        onKeyDown={onKeyDown}
        onKeyUp={(e) => {
          if (/^(Arrow(Left|Right)|Home|End|PageUp|PageDown)$/.test(e.key) || (!open && /^Arrow(Up|Down)$/.test(e.key))) look();
        }}
        onClick={look}
        onBlur={() => setAt(null)}
      />
      <ul id={listId} role="listbox" aria-label="Link to an idea" class="idea-picker-list wikilink-list" hidden={!open}>
        {open && options.map((o, i) => (
          <li
            key={o.id}
            id={`${listId}-${o.id}`}
            role="option"
            aria-selected={i === active}
            class={i === active ? "active" : undefined}
            onMouseDown={(e) => {
              e.preventDefault(); // keeps the caret in the textarea
              write(o);
            }}
          >
            <IdeaNumber n={o.number} /> <span class="idea-picker-title">{o.title}</span>
          </li>
        ))}
      </ul>
      <span class="visually-hidden" role="status">{open ? `${options.length} ${options.length === 1 ? "idea" : "ideas"} to link; Enter writes the link` : ""}</span>
    </>
  );
}
