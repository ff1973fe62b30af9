// Search page: one query, semantic (by meaning) by default or keyword (with or/and/exact), kept in the URL so a
// search is a link and back/reload repeat it; keyword matches marked in titles and excerpts.
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { searchIdeas, type SearchOut } from "../api/ideas";
import { LIMITS, codePoints, type SearchResult } from "../api/types";
import { SEARCH_MODES, tokenize, type FtsMode } from "../../contract";
import { Page } from "../components/page";
import { Field } from "../components/field";
import { IdeaNumber, StatusBadge, TagChips } from "../components/badges";
import { EmptyState, Loading, Notice } from "../components/notices";
import { describeError } from "../errors";
import { isPro, useSession } from "../session";
import { navigate, setQuery, useLocation } from "../router";

type Mode = (typeof SEARCH_MODES)[number];
const FTS_LABELS: Record<FtsMode, string> = { or: "Any word", and: "Every word", exact: "Exact phrase" };

type State =
  | { kind: "idle" }
  | { kind: "too-long" }
  | { kind: "loading"; previous: SearchOut | null }
  | { kind: "done"; out: SearchOut }
  | { kind: "error"; message: string };

const readMode = (v: string | null): Mode => (v === "keyword" ? "keyword" : "semantic");
const readFts = (v: string | null): FtsMode => (v === "and" || v === "exact" ? v : "or");

/** The search's own URL: q, and mode / fts_mode only when they differ from the defaults. */
export function searchHref(q: string, mode: Mode, fts: FtsMode): string {
  const p = new URLSearchParams({ q });
  if (mode !== "semantic") p.set("mode", mode);
  if (fts !== "or") p.set("fts_mode", fts);
  return `/search?${p}`;
}

export function SearchPage(_props: { params: Record<string, string> }) {
  const { query } = useLocation();
  const { user } = useSession();
  const q = query.get("q") ?? "";
  const mode = readMode(query.get("mode"));
  const fts = readFts(query.get("fts_mode"));
  const [draft, setDraft] = useState(q);
  const [state, setState] = useState<State>({ kind: "idle" });
  const field = useRef<HTMLInputElement>(null);

  useEffect(() => setDraft(q), [q]);
  useEffect(() => {
    if (!q) field.current?.focus(); // arrived with nothing to search for: start typing here
  }, []);

  useEffect(() => {
    const text = q.trim();
    if (!text) return setState({ kind: "idle" });
    if (codePoints(text) > LIMITS.query) return setState({ kind: "too-long" });
    const ctrl = new AbortController();
    setState((s) => ({ kind: "loading", previous: s.kind === "done" ? s.out : s.kind === "loading" ? s.previous : null }));
    searchIdeas({ q: text, mode, fts_mode: fts === "or" ? undefined : fts }, ctrl.signal).then(
      (out) => setState({ kind: "done", out }),
      (e) => {
        if ((e as Error).name !== "AbortError") setState({ kind: "error", message: describeError(e) });
      },
    );
    return () => ctrl.abort();
  }, [q, mode, fts]);

  const tooLong = codePoints(draft.trim()) > LIMITS.query;
  const submit = (e: Event) => {
    e.preventDefault();
    if (tooLong) return;
    navigate(searchHref(draft.trim(), mode, fts));
  };
  const out = state.kind === "done" ? state.out : state.kind === "loading" ? state.previous : null;
  const showFts = mode === "keyword" || out?.search_type === "fts";

  return (
    <Page title={q ? `Search: ${q.slice(0, 60)}` : "Search"} heading="Search">
      <form class="search-form" role="search" aria-label="Search ideas" onSubmit={submit}>
        <div class="search-query">
          <Field label="Search" max={draft.length > LIMITS.query - 100 ? LIMITS.query : undefined} length={codePoints(draft.trim())}>
            {(p) => <input {...p} ref={field} type="search" name="q" value={draft} onInput={(e) => setDraft(e.currentTarget.value)} autocomplete="off" />}
          </Field>
          <button type="submit" class="btn primary" disabled={tooLong}>Search</button>
        </div>
        <div class="search-options">
          <fieldset class="segmented">
            <legend class="visually-hidden">Search by</legend>
            {SEARCH_MODES.map((m) => (
              <label key={m} class={mode === m ? "on" : ""}>
                <input type="radio" name="mode" value={m} checked={mode === m} onChange={() => setQuery({ mode: m === "semantic" ? null : m })} />
                {m === "semantic" ? "Semantic" : "Keyword"}
              </label>
            ))}
          </fieldset>
          {showFts && (
            <label class="fts-select">
              <span>Match</span>
              <select value={fts} onChange={(e) => setQuery({ fts_mode: e.currentTarget.value === "or" ? null : e.currentTarget.value })}>
                {(Object.keys(FTS_LABELS) as FtsMode[]).map((f) => <option key={f} value={f}>{FTS_LABELS[f]}</option>)}
              </select>
            </label>
          )}
        </div>
        {mode === "semantic" && !isPro(user) && (
          <p class="hint muted small">Free plan: 10 semantic searches a month; keyword search is unlimited.</p>
        )}
      </form>
      <SearchBody state={state} q={q.trim()} mode={mode} fts={fts} />
    </Page>
  );
}

function SearchBody({ state, q, mode, fts }: { state: State; q: string; mode: Mode; fts: FtsMode }) {
  const other: Mode = mode === "semantic" ? "keyword" : "semantic";
  const tryOther = <a href={searchHref(q, other, fts)}>{other === "keyword" ? "Try a keyword search" : "Try a semantic search"}</a>;
  if (state.kind === "idle") {
    return (
      <EmptyState title="What are you looking for?">
        <p>Semantic search finds ideas by meaning, even in other words; keyword search finds the words themselves. Press <kbd>/</kbd> on any page to search.</p>
      </EmptyState>
    );
  }
  if (state.kind === "too-long") return <Notice kind="error">A search can be at most {LIMITS.query} characters. Shorten it and search again.</Notice>;
  if (state.kind === "error") return <Notice kind="error">{state.message}</Notice>;
  const out = state.kind === "done" ? state.out : state.previous;
  if (!out) return <Loading label="Searching" />;
  const fallback = mode === "semantic" && out.search_type === "fts";
  const terms = out.search_type === "fts" || mode === "keyword" ? matcher(out.query, (out.fts_mode as FtsMode | undefined) ?? fts) : matcher(out.query, "or");
  return (
    <div class="search-results" aria-busy={state.kind === "loading"}>
      {out.semantic_limit_reached && <Notice kind="warn">{out.semantic_limit_message ?? "This month's semantic searches are used up; these are keyword results."}</Notice>}
      {fallback && !out.semantic_limit_reached && <Notice>Semantic search is not available right now; these are keyword results.</Notice>}
      <p class="search-summary muted" role="status">
        {out.results.length === 0 ? "No results" : out.results.length === 1 ? "1 result" : `${out.results.length} results`}
        {" · "}
        <span class="search-type">{searchTypeLabel(out, fallback)}</span>
      </p>
      {out.results.length === 0 ? (
        <EmptyState title={`No ideas match “${q}”.`}>
          <p>
            {mode === "semantic" && !fallback ? "A new idea can be found by meaning a few seconds after capture. " : ""}
            {tryOther}
            {showAnyWord(out, fts) && <> · <a href={searchHref(q, mode, "or")}>Match any word</a></>}
          </p>
        </EmptyState>
      ) : (
        <ol class="list results">
          {out.results.map((r) => <ResultRow key={r.id} r={r} terms={terms} />)}
        </ol>
      )}
    </div>
  );
}

const showAnyWord = (out: SearchOut, fts: FtsMode) => out.search_type === "fts" && fts !== "or";

function searchTypeLabel(out: SearchOut, fallback: boolean): string {
  if (out.search_type === "semantic") return "Semantic";
  const how = FTS_LABELS[(out.fts_mode as FtsMode | undefined) ?? "or"]?.toLowerCase() ?? "any word";
  return fallback ? `Keyword (fallback), ${how}` : `Keyword, ${how}`;
}

function ResultRow({ r, terms }: { r: SearchResult; terms: RegExp | null }) {
  return (
    <li class="result">
      <div class="result-head">
        <IdeaNumber n={r.number} />
        <a class="result-title" href={`/ideas/${r.id}`}><Highlight text={r.title} terms={terms} /></a>
        {r.score !== null && (
          <span class="score" title={`Cosine similarity ${r.score.toFixed(3)}`}>
            <span class="visually-hidden">Similarity </span>{Math.round(Math.max(0, r.score) * 100)}%
          </span>
        )}
      </div>
      {r.body.trim() && <p class="excerpt"><Highlight text={excerpt(r.body, terms)} terms={terms} /></p>}
      <div class="row-meta">
        <StatusBadge status={r.status} />
        <TagChips tags={r.tags} />
      </div>
    </li>
  );
}

/**
 * The words the server matched, as one regex over case- and accent-folded text (the index folds both): every token
 * as a whole word, or for "exact" the phrase's words in order with any punctuation between them. Null: nothing to mark.
 */
export function matcher(query: string, fts: FtsMode): RegExp | null {
  const esc = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const words = fts === "exact" ? fold(query).split(/[^\p{L}\p{N}]+/u).filter(Boolean) : [...new Set(tokenize(fold(query)))];
  if (words.length === 0) return null;
  const body = fts === "exact" ? words.map(esc).join("[^\\p{L}\\p{N}]+") : words.map(esc).join("|");
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${body})(?![\\p{L}\\p{N}])`, "gu");
}

/** Lowercase without accents, the same length as the input so match positions map back onto it. */
function fold(text: string): string {
  let out = "";
  for (const ch of text) {
    const f = ch.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
    out += f.length === ch.length ? f : ch;
  }
  return out;
}

/** The text split into plain parts and <mark>ed matches (text nodes only, never HTML). */
export function Highlight({ text, terms }: { text: string; terms: RegExp | null }) {
  if (!terms) return <>{text}</>;
  const parts: ComponentChildren[] = [];
  let last = 0;
  for (const m of fold(text).matchAll(terms)) {
    const start = m.index!;
    if (start > last) parts.push(text.slice(last, start));
    parts.push(<mark key={start}>{text.slice(start, start + m[0].length)}</mark>);
    last = start + m[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return <>{parts}</>;
}

/** About 220 characters of the body as plain text, around its first match (or its start). */
function excerpt(body: string, terms: RegExp | null, size = 220): string {
  const text = body
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+\.)\s+/gm, "")
    .replace(/[*_`~]{1,3}/g, "")
    .replace(/\s+/g, " ")
    .trim();
  if (text.length <= size) return text;
  let start = 0;
  if (terms) {
    terms.lastIndex = 0;
    const m = terms.exec(fold(text));
    terms.lastIndex = 0;
    if (m && m.index > size / 3) start = text.lastIndexOf(" ", m.index - Math.floor(size / 3)) + 1;
  }
  let end = Math.min(text.length, start + size);
  const space = text.lastIndexOf(" ", end);
  if (end < text.length && space > start + size / 2) end = space;
  return `${start > 0 ? "… " : ""}${text.slice(start, end)}${end < text.length ? " …" : ""}`;
}
