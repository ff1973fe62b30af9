// The list's data: one page of ideas at a time for the current filters, "more" by has_more, reload after a change.
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { listIdeas, type ListQuery } from "../../api/ideas";
import { takeAnswer } from "../../api/client";
import type { Idea } from "../../api/types";
import { describeError } from "../../errors";

export const PAGE_SIZE = 50;

export type ListPhase = "loading" | "ready" | "error";

/** The list's query for one page: the same object (and so the same URL) for the boot's early read and the hook's. */
export const pageQuery = (filters: ListQuery, offset: number): ListQuery => ({ ...filters, limit: PAGE_SIZE, offset });

export interface IdeaList {
  ideas: Idea[];
  phase: ListPhase;
  error: string | null;
  /** The API said the last page was full: there may be more (the next page can still be empty). */
  hasMore: boolean;
  loadingMore: boolean;
  loadMore(): Promise<void>;
  /** Re-reads every page loaded so far (after a bulk change or an archive). */
  reload(): Promise<void>;
}

type Answer = { ideas: Idea[]; has_more: boolean };

export function useIdeaList(filters: ListQuery): IdeaList {
  // The first page the signed-in shell carried inline (a cold load of /ideas): the first render shows the rows.
  const inline = useRef<Answer | null | undefined>(undefined);
  if (inline.current === undefined) inline.current = takeAnswer<Answer>("/ideas", { ...pageQuery(filters, 0) }) ?? null;
  const [ideas, setIdeas] = useState<Idea[]>(() => inline.current?.ideas ?? []);
  const [phase, setPhase] = useState<ListPhase>(() => (inline.current ? "ready" : "loading"));
  const [error, setError] = useState<string | null>(null);
  const [hasMore, setHasMore] = useState(() => inline.current?.has_more ?? false);
  const [loadingMore, setLoadingMore] = useState(false);
  // Each load bumps the generation; answers of an older one (filters changed meanwhile) are dropped.
  const gen = useRef(0);
  const loaded = useRef(inline.current ? PAGE_SIZE : 0);
  const key = `${filters.status ?? ""}|${filters.tag ?? ""}|${filters.connection_types ?? ""}`;
  const filtersRef = useRef(filters);
  filtersRef.current = filters;

  const fetchRange = useCallback(async (count: number, signal?: AbortSignal) => {
    const pages = Math.max(1, Math.ceil(count / PAGE_SIZE));
    const answers = await Promise.all(
      Array.from({ length: pages }, (_, i) => listIdeas(pageQuery(filtersRef.current, i * PAGE_SIZE), signal)),
    );
    const seen = new Set<number>();
    const all = answers.flatMap((a) => a.ideas).filter((i) => !seen.has(i.id) && seen.add(i.id));
    return { ideas: all, hasMore: answers[answers.length - 1].has_more };
  }, []);

  useEffect(() => {
    const my = ++gen.current;
    if (inline.current) {
      inline.current = null; // shown already; a change of filters loads as usual
      return;
    }
    const ctl = new AbortController();
    setPhase("loading");
    setError(null);
    setIdeas([]);
    setHasMore(false);
    loaded.current = 0;
    fetchRange(PAGE_SIZE, ctl.signal).then(
      (r) => {
        if (my !== gen.current) return;
        loaded.current = PAGE_SIZE;
        setIdeas(r.ideas);
        setHasMore(r.hasMore);
        setPhase("ready");
      },
      (e) => {
        if (my !== gen.current || (e as Error).name === "AbortError") return;
        setError(describeError(e));
        setPhase("error");
      },
    );
    return () => ctl.abort();
  }, [key]);

  const loadMore = useCallback(async () => {
    const my = gen.current;
    setLoadingMore(true);
    try {
      const offset = loaded.current;
      const r = await listIdeas(pageQuery(filtersRef.current, offset));
      if (my !== gen.current) return;
      loaded.current = offset + PAGE_SIZE;
      setIdeas((prev) => {
        const have = new Set(prev.map((i) => i.id));
        return [...prev, ...r.ideas.filter((i) => !have.has(i.id))];
      });
      // A full last page said has_more; the page after it is empty and says false: the end, nothing to show.
      setHasMore(r.has_more);
      setError(null);
    } catch (e) {
      if (my === gen.current) setError(describeError(e));
    } finally {
      if (my === gen.current) setLoadingMore(false);
    }
  }, []);

  const reload = useCallback(async () => {
    const my = ++gen.current;
    try {
      const r = await fetchRange(loaded.current);
      if (my !== gen.current) return;
      loaded.current = Math.max(loaded.current, PAGE_SIZE); // after a failed first load, "Try again" loads page one
      setIdeas(r.ideas);
      setHasMore(r.hasMore);
      setError(null);
      setPhase("ready");
    } catch (e) {
      if (my === gen.current) setError(describeError(e));
    }
  }, []);

  return { ideas, phase, error, hasMore, loadingMore, loadMore, reload };
}
