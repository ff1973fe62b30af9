// The optional parent: a combobox that searches the account's ideas by title (keyword search, so it never spends
// a Free account's semantic searches) and stores the chosen idea's id; shown as "#number title".
import { useEffect, useId, useRef, useState } from "preact/hooks";
import { searchIdeas } from "../../api/ideas";
import type { ParentRef } from "./draft";

export function ParentPicker({ value, onChange, error }: { value: ParentRef | null; onChange: (p: ParentRef | null) => void; error?: string }) {
  const id = useId();
  const [q, setQ] = useState("");
  const [results, setResults] = useState<ParentRef[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [searching, setSearching] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const term = q.trim();
    if (term.length < 2) {
      setResults([]);
      return;
    }
    const ctl = new AbortController();
    const t = setTimeout(() => {
      setSearching(true);
      searchIdeas({ q: term, mode: "keyword", limit: 8 }, ctl.signal)
        .then((r) => setResults(r.results.slice(0, 8).map((i) => ({ id: i.id, number: i.number, title: i.title }))))
        .catch(() => setResults([]))
        .finally(() => setSearching(false));
    }, 200);
    return () => {
      clearTimeout(t);
      ctl.abort();
    };
  }, [q]);

  const choose = (p: ParentRef) => {
    onChange(p);
    setQ("");
    setOpen(false);
    setActive(-1);
  };
  const showList = open && results.length > 0;
  const listId = `${id}-list`;

  if (value) {
    return (
      <div class={`field${error ? " invalid" : ""}`}>
        <span class="label" id={`${id}-label`}>Parent idea</span>
        <div class="parent-chosen" role="group" aria-labelledby={`${id}-label`}>
          <a href={`/ideas/${value.id}`}><span class="idea-number">#{value.number}</span> {value.title}</a>
          <button type="button" class="btn small ghost" onClick={() => { onChange(null); setTimeout(() => input.current?.focus()); }}>
            Remove parent
          </button>
        </div>
        {error && <div class="error" role="alert">{error}</div>}
      </div>
    );
  }

  return (
    <div class={`field parent-picker${error ? " invalid" : ""}`}>
      <label for={id}>Parent idea <span class="muted">(optional)</span></label>
      <input
        ref={input}
        id={id}
        type="search"
        role="combobox"
        autoComplete="off"
        placeholder="Search your ideas by title"
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={listId}
        aria-activedescendant={showList && active >= 0 ? `${id}-opt-${active}` : undefined}
        aria-invalid={!!error}
        aria-describedby={error ? `${id}-err` : undefined}
        value={q}
        maxLength={500}
        onInput={(e) => {
          setQ(e.currentTarget.value);
          setOpen(true);
          setActive(-1);
        }}
        onBlur={() => setOpen(false)}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown" && results.length) {
            e.preventDefault();
            setOpen(true);
            setActive((a) => (a + 1) % results.length);
          } else if (e.key === "ArrowUp" && results.length) {
            e.preventDefault();
            setOpen(true);
            setActive((a) => (a <= 0 ? results.length - 1 : a - 1));
          } else if (e.key === "Enter" && !(e.ctrlKey || e.metaKey)) {
            e.preventDefault(); // never submits the form from here
            if (showList) choose(results[Math.max(0, active)]);
          } else if (e.key === "Escape" && showList) {
            e.preventDefault();
            e.stopPropagation();
            setOpen(false);
          }
        }}
      />
      <ul id={listId} role="listbox" aria-label="Matching ideas" class="tag-suggestions" hidden={!showList}>
        {results.map((r, i) => (
          <li key={r.id} id={`${id}-opt-${i}`} role="option" aria-selected={i === active} class={i === active ? "active" : undefined}
            onMouseDown={(e) => { e.preventDefault(); choose(r); }}>
            <span class="idea-number">#{r.number}</span> {r.title}
          </li>
        ))}
      </ul>
      {open && !searching && q.trim().length >= 2 && results.length === 0 && <div class="hint">No idea matches “{q.trim()}”.</div>}
      {error && <div class="error" id={`${id}-err`} role="alert">{error}</div>}
    </div>
  );
}
