// The signed-in shell: header with navigation, the search box (/ focuses it), theme toggle and sign-out.
import type { ComponentChildren } from "preact";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { navigate, useLocation } from "../router";
import { useSession } from "../session";
import { addShortcut } from "../lib/keys";
import { setTheme, storedTheme, type Theme } from "../lib/theme";
import { NAV } from "../routes";
import { setOutboxUser, useOutbox } from "../api/outbox";
import { getReviewTotal, onReviewTotal, takeInlineReviewTotal } from "../api/review";
import { Toasts } from "./toast";
import { CommandPalette } from "./command-palette";
import { ShortcutsHelp } from "./shortcuts-help";

export function Layout({ children }: { children: ComponentChildren }) {
  const { path, query } = useLocation();
  const session = useSession();
  const search = useRef<HTMLInputElement>(null);
  const [q, setQ] = useState(path === "/search" ? query.get("q") ?? "" : "");
  const [theme, setThemeState] = useState<Theme>(storedTheme());
  const outbox = useOutbox();
  useEffect(() => {
    setOutboxUser(session.user.id); // the outbox sends only this account's captures
    return () => setOutboxUser(null);
  }, [session.user.id]);
  const [paletteOpen, setPaletteOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const reviewTotal = useReviewTotal(path);

  useEffect(() => {
    if (path === "/search") setQ(query.get("q") ?? "");
  }, [path, query.get("q")]);

  useEffect(() => {
    const offs = [
      addShortcut({ keys: "/", description: "Search", run: () => search.current?.focus() }),
      addShortcut({ keys: "c", description: "Capture an idea", run: () => navigate("/capture") }),
      addShortcut({ keys: "i", description: "Ideas", run: () => navigate("/ideas") }),
      addShortcut({ keys: "Mod+k", description: "Command palette: go to an idea, a page or an action", run: () => setPaletteOpen(true) }),
      addShortcut({ keys: "?", description: "Keyboard shortcuts", run: () => setHelpOpen(true) }),
    ];
    return () => offs.forEach((off) => off());
  }, []);

  const cycleTheme = useCallback(() => {
    const next: Theme = theme === "system" ? "dark" : theme === "dark" ? "light" : "system";
    setTheme(next);
    setThemeState(next);
  }, [theme]);
  const showShortcuts = useCallback(() => setHelpOpen(true), []);

  const nav = NAV.filter((n) => !n.operatorOnly || session.user.is_operator);
  return (
    <div class="shell">
      <a class="skip" href="#main">Skip to content</a>
      <header class="topbar">
        <a class="brand" href="/capture" aria-label="idearepo, capture">
          <img src="/favicon.svg" alt="" width="24" height="24" />
          <span>idearepo</span>
        </a>
        <form
          class="search-box"
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            if (q.trim()) navigate(`/search?q=${encodeURIComponent(q.trim())}${query.get("mode") ? `&mode=${query.get("mode")}` : ""}`);
          }}
        >
          <input
            ref={search}
            type="search"
            aria-label="Search ideas"
            placeholder="Search ideas  ( / )"
            value={q}
            maxLength={500}
            onInput={(e) => setQ(e.currentTarget.value)}
            onKeyDown={(e) => e.key === "Escape" && e.currentTarget.blur()}
          />
        </form>
        <div class="topbar-actions">
          <span role="status" class="outbox-indicator">
            {outbox.length > 0 && <a href="/capture#outbox">{outbox.length} waiting to send</a>}
          </span>
          <button type="button" class="btn icon" onClick={() => setPaletteOpen(true)} aria-label="Command palette" title="Command palette (Ctrl+K)">⌘</button>
          <button type="button" class="btn icon" onClick={cycleTheme} aria-label={`Theme: ${theme}. Change theme`} title={`Theme: ${theme}`}>
            {theme === "dark" ? "☾" : theme === "light" ? "☀" : "◐"}
          </button>
          <button type="button" class="btn ghost" onClick={() => session.signOut()}>Sign out</button>
        </div>
        <nav class="mainnav" aria-label="Main">
          {nav.map((n) => {
            const badge = n.href === "/review" && reviewTotal ? reviewTotal : 0;
            return (
              <a key={n.href} href={n.href} aria-current={path === n.href || path.startsWith(n.href + "/") ? "page" : undefined}>
                {n.label}
                {badge > 0 && <><span class="nav-badge" aria-hidden="true">{badge}</span><span class="visually-hidden">, {badge} to review</span></>}
              </a>
            );
          })}
        </nav>
      </header>
      <main id="main" tabIndex={-1}>{children}</main>
      <Toasts />
      <CommandPalette open={paletteOpen} onClose={() => setPaletteOpen(false)} onToggleTheme={cycleTheme} onShowShortcuts={showShortcuts} />
      <ShortcutsHelp open={helpOpen} onClose={() => setHelpOpen(false)} />
    </div>
  );
}

/**
 * The review queue's total for the nav badge: re-read on each navigation (the review page publishes its own). A cold
 * load's first render has it already, from the shell's inline counts: the badge coming in later widened the Review
 * link and moved the links after it (at phone width one onto the next row), a layout shift on every page.
 */
function useReviewTotal(path: string): number | null {
  const [total, setTotal] = useState<number | null>(takeInlineReviewTotal);
  /** The first page's count came with the shell: not asked again for that page. */
  const fromShell = useRef(total !== null);
  useEffect(() => onReviewTotal(setTotal), []);
  useEffect(() => {
    if (fromShell.current) {
      fromShell.current = false;
      return;
    }
    if (path === "/review") return; // the page fetches the queue itself and publishes the total
    const ctl = new AbortController();
    // After the page's own requests: the queue is the heaviest read of the API at 10,000 ideas, and the server
    // answers one request at a time, so read first it would hold up the rows (docs/performance.md). Its counts only:
    // the whole queue of an account with a thousand pending duplicates was 740 KB to parse for one number.
    const timer = setTimeout(() => getReviewTotal(ctl.signal).catch(() => {}), 600); // a badge is a hint: a failed read leaves the last count
    return () => {
      clearTimeout(timer);
      ctl.abort();
    };
  }, [path]);
  return total;
}
