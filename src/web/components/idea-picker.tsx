// The one searchable picker of the account's ideas (an ARIA combobox): type words of a title, or "#12" for a number.
// Used for a parent (capture, the idea's editor), the other end of a relation and the idea to merge in.
//
// Two sources, merged: the account's idea list (read once, when the picker is first used) answers "#number" exactly
// and title substrings as you type; keyword search (GET /ideas/search?mode=keyword, so it never spends a Free
// account's semantic searches) adds matches in the body and whole words the list has not loaded. Archived ideas are
// in neither, so they cannot be picked. Enter picks and never submits the form around the picker; Ctrl/Cmd+Enter
// passes through to it. The list sits under the field in the form's flow (never over the form's buttons) and closes on
// Escape or when the field loses the focus, once a press of the pointer elsewhere is released (lib/after-press.ts).
import { useEffect, useId, useRef, useState } from "preact/hooks";
import { listIdeas, searchIdeas } from "../api/ideas";
import type { Status } from "../api/types";
import { describeError } from "../errors";
import { afterPress } from "../lib/after-press";
import { IdeaNumber, StatusBadge } from "./badges";

export interface PickedIdea { id: number; number: number; title: string; status: Status }

/** How many ideas the picker reads from the list for "#number" and title matching (pages of 100). */
const LIST_CAP = 1000;
const MAX_OPTIONS = 8;

let listCache: { at: number; ideas: PickedIdea[] } | null = null;

/** The account's ideas as the picker reads them (cached for 30 s), for "#number" and title matching. */
export async function loadPickerList(): Promise<PickedIdea[]> {
  if (listCache && Date.now() - listCache.at < 30_000) return listCache.ideas;
  const all: PickedIdea[] = [];
  for (let offset = 0; offset < LIST_CAP; offset += 100) {
    const page = await listIdeas({ limit: 100, offset });
    all.push(...page.ideas.map(({ id, number, title, status }) => ({ id, number, title, status })));
    if (!page.has_more) break;
  }
  listCache = { at: Date.now(), ideas: all };
  return all;
}

/** "#12" (or "12") names idea 12; words match titles that hold them, without case; nothing typed: the newest. */
export function pickerMatches(list: PickedIdea[], q: string): PickedIdea[] {
  const num = /^#?(\d+)$/.exec(q.trim());
  if (num) return list.filter((i) => i.number === Number(num[1]));
  const needle = q.trim().toLowerCase();
  if (!needle) return list.slice(0, MAX_OPTIONS);
  return list.filter((i) => i.title.toLowerCase().includes(needle));
}

export function IdeaPicker(props: {
  label: string;
  /** Said after the label, quieter: "(optional)". Part of the field's accessible name. */
  hint?: string;
  /** Ideas that cannot be picked (the idea whose page this is). */
  exclude?: number[];
  onPick: (idea: PickedIdea) => void;
  placeholder?: string;
  autofocus?: boolean;
  /** Whether focusing the empty field lists the newest ideas (default); false waits for something typed. */
  openOnFocus?: boolean;
  /** The form's message for this field (the server refused the chosen idea). */
  error?: string;
}) {
  const id = useId();
  const [q, setQ] = useState("");
  const [open, setOpen] = useState(false);
  const [options, setOptions] = useState<PickedIdea[]>([]);
  const [active, setActive] = useState(0);
  const [busy, setBusy] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const list = useRef<PickedIdea[] | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const excluded = new Set(props.exclude ?? []);

  useEffect(() => {
    if (props.autofocus) input.current?.focus();
  }, []);

  useEffect(() => {
    if (!open) return;
    const ctrl = new AbortController();
    const local = () => pickerMatches(list.current ?? [], q).filter((f) => !excluded.has(f.id));
    // What the loaded list already answers shows at once; keyword search adds to it after a short pause in typing.
    if (list.current) {
      setOptions(local().slice(0, MAX_OPTIONS));
      setActive(0);
    }
    const timer = setTimeout(async () => {
      setBusy(true);
      setLoadError(null);
      try {
        list.current ??= await loadPickerList();
        const found = local();
        const words = q.trim();
        if (words && !/^#?\d+$/.test(words)) {
          const res = await searchIdeas({ q: words.slice(0, 500), mode: "keyword", limit: MAX_OPTIONS }, ctrl.signal);
          for (const r of res.results) if (!excluded.has(r.id) && !found.some((f) => f.id === r.id)) found.push({ id: r.id, number: r.number, title: r.title, status: r.status });
        }
        if (ctrl.signal.aborted) return;
        setOptions(found.slice(0, MAX_OPTIONS));
        setActive((a) => Math.min(a, Math.max(0, found.length - 1)));
      } catch (e) {
        if ((e as Error).name !== "AbortError") setLoadError(describeError(e));
      } finally {
        if (!ctrl.signal.aborted) setBusy(false);
      }
    }, q && list.current ? 200 : 0);
    return () => {
      clearTimeout(timer);
      ctrl.abort();
    };
  }, [q, open]);

  const pick = (idea: PickedIdea) => {
    setOpen(false);
    setQ("");
    props.onPick(idea);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "ArrowDown") {
      e.preventDefault();
      if (!open) setOpen(true);
      else setActive((a) => Math.min(a + 1, options.length - 1));
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      setActive((a) => Math.max(a - 1, 0));
    } else if (e.key === "Enter" && !(e.ctrlKey || e.metaKey) && !e.isComposing) {
      e.preventDefault(); // picks; never submits the form from here
      if (open && options[active]) pick(options[active]);
    } else if (e.key === "Escape" && open) {
      // Closes the list only; a second Escape reaches the dialog or form around the picker.
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
    }
  };

  const listId = `${id}-list`;
  const errorId = `${id}-err`;
  const error = props.error ?? loadError;
  const showList = open && (options.length > 0 || (!busy && q.trim() !== ""));
  return (
    <div class={`idea-picker${props.error ? " invalid" : ""}`}>
      <label for={id}>{props.label}{props.hint && <> <span class="muted">{props.hint}</span></>}</label>
      <input
        ref={input}
        id={id}
        type="text"
        role="combobox"
        autocomplete="off"
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={listId}
        aria-activedescendant={showList && options[active] ? `${id}-opt-${options[active].id}` : undefined}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        placeholder={props.placeholder ?? "Type a title or #number"}
        value={q}
        maxLength={500}
        onInput={(e) => {
          setQ(e.currentTarget.value);
          setOpen(props.openOnFocus !== false || e.currentTarget.value.trim() !== "");
        }}
        onFocus={() => props.openOnFocus !== false && setOpen(true)}
        onBlur={() => afterPress(() => setOpen(false))}
        onKeyDown={onKeyDown}
      />
      <ul id={listId} role="listbox" aria-label={props.label} class="idea-picker-list" hidden={!showList}>
        {options.map((o, i) => (
          <li
            key={o.id}
            id={`${id}-opt-${o.id}`}
            role="option"
            aria-selected={i === active}
            class={i === active ? "active" : undefined}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => pick(o)}
          >
            <IdeaNumber n={o.number} /> <span class="idea-picker-title">{o.title}</span> <StatusBadge status={o.status} />
          </li>
        ))}
        {options.length === 0 && <li class="idea-picker-none" role="option" aria-disabled="true" aria-selected={false}>No idea matches “{q.trim()}”</li>}
      </ul>
      {error && <div class="error" id={errorId} role="alert">{error}</div>}
    </div>
  );
}
