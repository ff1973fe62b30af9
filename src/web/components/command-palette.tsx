// The command palette (Ctrl/Cmd+K): jump to an idea by title or #number, to any page, or run a common action.
//
// A combobox over one listbox: focus stays in the input, arrows move the active option (aria-activedescendant),
// Enter runs it, Escape closes. Ideas come from keyword search (whole words, debounced) plus a title substring match
// over the newest ideas, so part of a word finds an idea too; "#123" is looked up among the newest ideas because
// nothing resolves a display number on the server.
import { useEffect, useId, useMemo, useRef, useState } from "preact/hooks";
import { listIdeas, searchIdeas } from "../api/ideas";
import { LIMITS, type Idea, type Status } from "../api/types";
import { describeError } from "../errors";
import { navigate } from "../router";
import { NAV } from "../routes";
import { useSession } from "../session";
import { useModalDialog } from "./dialog";
import { keyLabel } from "./shortcuts-help";

/** Pages of GET /ideas (100 each) searched for a "#number": the 500 newest ideas. */
export const NUMBER_PAGES = 5;
const PAGE = 100;
const MAX_IDEAS = 8;

interface Command { id: string; group: "Pages" | "Actions" | "Ideas" | "Search"; label: string; hint?: string; keywords?: string; run: () => void }
interface IdeaHit { id: number; number: number; title: string; status: Status }

const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
const go = (href: string) => () => navigate(href);
const matches = (text: string, q: string) => fold(q).split(/\s+/).filter(Boolean).every((w) => fold(text).includes(w));

export function CommandPalette({ open, onClose, onToggleTheme, onShowShortcuts }: { open: boolean; onClose: () => void; onToggleTheme: () => void; onShowShortcuts: () => void }) {
  const session = useSession();
  const input = useRef<HTMLInputElement>(null);
  const base = useId();
  const [text, setText] = useState("");
  const [activeId, setActiveId] = useState<string | null>(null);
  const [recent, setRecent] = useState<{ ideas: Idea[]; pages: number; more: boolean; error: string | null }>({ ideas: [], pages: 0, more: true, error: null });
  const [found, setFound] = useState<{ q: string; hits: IdeaHit[] }>({ q: "", hits: [] });

  const { dialogProps, closeNow } = useModalDialog(open, onClose, () => {
    setText("");
    setActiveId(null);
    setRecent({ ideas: [], pages: 0, more: true, error: null });
    setFound({ q: "", hits: [] });
    input.current?.focus();
  });

  const q = text.trim();
  const numberQuery = /^#?(\d+)$/.exec(q)?.[1];
  const wanted = numberQuery ? Number(numberQuery) : null;

  // The newest ideas: one page on opening; more pages while a #number is not among them yet.
  const needPage = open && recent.more && !recent.error && (recent.pages === 0 || (wanted !== null && recent.pages < NUMBER_PAGES && !recent.ideas.some((i) => i.number === wanted)));
  useEffect(() => {
    if (!needPage) return;
    const ctrl = new AbortController();
    listIdeas({ limit: PAGE, offset: recent.pages * PAGE }, ctrl.signal).then(
      (out) => setRecent((r) => ({ ideas: [...r.ideas, ...out.ideas], pages: r.pages + 1, more: out.has_more, error: null })),
      (e) => (e as Error).name !== "AbortError" && setRecent((r) => ({ ...r, error: describeError(e) })),
    );
    return () => ctrl.abort();
  }, [needPage, recent.pages]);

  // Keyword search for titles (whole words), 200 ms after the last keystroke; a newer query cancels the older one.
  useEffect(() => {
    if (!open || q.length < 2 || wanted !== null || q.length > LIMITS.query) return;
    const ctrl = new AbortController();
    const timer = setTimeout(() => {
      searchIdeas({ q, mode: "keyword", limit: MAX_IDEAS }, ctrl.signal).then(
        (out) => setFound({ q, hits: out.results }),
        () => {}, // the substring matches still show; the search page reports errors
      );
    }, 200);
    return () => {
      clearTimeout(timer);
      ctrl.abort();
    };
  }, [open, q]);

  const commands = useMemo<Command[]>(() => {
    const pages = [...NAV.filter((n) => !n.operatorOnly || session.user.is_operator), { href: "/search", label: "Search" }];
    return [
      ...pages.map((p) => ({ id: `page:${p.href}`, group: "Pages" as const, label: p.label, run: go(p.href) })),
      { id: "act:capture", group: "Actions", label: "Capture new idea", hint: keyLabel("c"), keywords: "add create write", run: go("/capture") },
      { id: "act:theme", group: "Actions", label: "Toggle theme", keywords: "dark light mode colours colors", run: onToggleTheme },
      { id: "act:keys", group: "Actions", label: "Keyboard shortcuts", hint: keyLabel("?"), keywords: "help keys", run: onShowShortcuts },
      { id: "act:signout", group: "Actions", label: "Sign out", keywords: "log out logout", run: () => void session.signOut() },
    ];
  }, [session, onToggleTheme, onShowShortcuts]);

  const options = useMemo<Command[]>(() => {
    const ideaCommand = (i: IdeaHit): Command => ({ id: `idea:${i.id}`, group: "Ideas", label: `#${i.number} ${i.title}`, hint: i.status, run: () => navigate(`/ideas/${i.id}`) });
    if (wanted !== null) {
      const hit = recent.ideas.find((i) => i.number === wanted);
      return hit ? [ideaCommand(hit)] : [];
    }
    const listed = q ? commands.filter((c) => matches(`${c.label} ${c.keywords ?? ""}`, q)) : commands;
    if (q.length < 2) return listed;
    const ideas = new Map<number, IdeaHit>();
    for (const i of recent.ideas) if (ideas.size < MAX_IDEAS && matches(i.title, q)) ideas.set(i.id, i);
    if (found.q === q) for (const i of found.hits) if (ideas.size < MAX_IDEAS || ideas.has(i.id)) ideas.set(i.id, i);
    const search: Command[] = q.length <= LIMITS.query ? [{ id: "search", group: "Search", label: `Search ideas for “${q}”`, run: go(`/search?q=${encodeURIComponent(q)}`) }] : [];
    return [...listed, ...[...ideas.values()].map(ideaCommand), ...search];
  }, [commands, q, wanted, recent.ideas, found]);

  const active = options.find((o) => o.id === activeId) ?? options[0];
  const optionId = (c: Command) => `${base}-${c.id.replace(/[^a-z0-9-]/gi, "_")}`;
  useEffect(() => {
    if (active) document.getElementById(optionId(active))?.scrollIntoView({ block: "nearest" });
  }, [active?.id]);

  const run = (c: Command | undefined) => {
    if (!c) return;
    closeNow(); // now, not after the next render: a key pressed right after lands on the page
    onClose();
    c.run();
  };
  const move = (by: number) => {
    if (options.length === 0) return;
    const at = active ? options.indexOf(active) : -1;
    setActiveId(options[(at + by + options.length) % options.length].id);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      move(e.key === "ArrowDown" ? 1 : -1);
    } else if (e.key === "Enter") {
      e.preventDefault();
      run(active);
    } else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "k") {
      e.preventDefault();
      onClose();
    }
  };

  let status = `${options.length} ${options.length === 1 ? "option" : "options"}`;
  if (wanted !== null && options.length === 0) {
    status = needPage ? `Looking for #${wanted}…` : recent.error ?? `No idea #${wanted} among your ${Math.min(recent.ideas.length, NUMBER_PAGES * PAGE)} newest ideas.`;
  }
  const groups = [...new Set(options.map((o) => o.group))];
  return (
    <dialog {...dialogProps} class="dialog palette" aria-label="Command palette">
      {open && (
        <div class="palette-body">
          <input
            ref={input}
            class="palette-input"
            type="text"
            role="combobox"
            aria-label="Go to a page, an idea (title or #number) or an action"
            placeholder="Go to a page, an idea (title or #number) or an action…"
            aria-expanded="true"
            aria-controls={`${base}-list`}
            aria-autocomplete="list"
            aria-activedescendant={active ? optionId(active) : undefined}
            autocomplete="off"
            spellcheck={false}
            value={text}
            onInput={(e) => setText(e.currentTarget.value)}
            onKeyDown={onKeyDown}
          />
          <div class="palette-list" id={`${base}-list`} role="listbox" aria-label="Commands and ideas">
            {groups.map((g) => (
              <div key={g} role="group" aria-labelledby={`${base}-g-${g}`}>
                <div class="palette-group" id={`${base}-g-${g}`} aria-hidden="true">{g}</div>
                {options.filter((o) => o.group === g).map((o) => (
                  <div
                    key={o.id}
                    id={optionId(o)}
                    class="palette-option"
                    role="option"
                    aria-selected={o === active}
                    onMouseDown={(e) => e.preventDefault()}
                    onMouseMove={() => o !== active && setActiveId(o.id)}
                    onClick={() => run(o)}
                  >
                    <span class="opt-label">{o.label}</span>
                    {o.hint && <span class="opt-hint">{o.hint}</span>}
                  </div>
                ))}
              </div>
            ))}
          </div>
          {options.length === 0 && <p class="palette-empty">{status}</p>}
          <p class="visually-hidden" role="status">{options.length > 0 ? status : ""}</p>
          <div class="palette-foot" aria-hidden="true">
            <span><kbd>↑</kbd> <kbd>↓</kbd> move</span>
            <span><kbd>Enter</kbd> open</span>
            <span><kbd>Esc</kbd> close</span>
          </div>
        </div>
      )}
    </dialog>
  );
}
